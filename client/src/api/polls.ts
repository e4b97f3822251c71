import type { CreatePollInput, MessageAnswer, PollAnswer, UpdatePollInput } from '@fankurve/shared';
import { api } from './client.js';

/*
 * Polls: the admin's writes, online REST only (polls reach every device through the polls sync
 * collection; members vote on the device, offline too). The answer types are the server's
 * (shared/src/schemas/answers).
 */

const id = (value: string) => encodeURIComponent(value);

export const createPoll = (body: CreatePollInput) => api<PollAnswer>('/api/polls', { method: 'POST', body });

export const updatePoll = (pollId: string, body: UpdatePollInput) =>
  api<PollAnswer>(`/api/polls/${id(pollId)}`, { method: 'PUT', body });

export const deletePoll = (pollId: string) => api<MessageAnswer>(`/api/polls/${id(pollId)}`, { method: 'DELETE' });
