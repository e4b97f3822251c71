import type {
  InviteCheckAnswer,
  InviteCreatedAnswer,
  InviteInput,
  InvitesAnswer,
  MessageAnswer,
  RestInvite,
} from '@fankurve/shared';
import { api } from './client.js';

/* Invites (docs/architecture.md, Invites): the admin's links for registrations, and the registration page's check of one. */

export type Invite = RestInvite;

/** Every invite, newest first (admin). */
export const fetchInvites = async () => (await api<InvitesAnswer>('/api/invites')).invites;

/** A new invite (admin): its end (ISO with zone), how many registrations, approving them at once or not. */
export const createInvite = async (input: InviteInput) =>
  (await api<InviteCreatedAnswer>('/api/invites', { method: 'POST', body: input })).invite;

/** Withdraws an invite (admin); it stays listed as revoked. */
export const revokeInvite = (id: string) => api<MessageAnswer>(`/api/invites/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Whether an invite link can be used now (anyone): its end and whether it approves at once; refused with its code. */
export const checkInvite = async (token: string) =>
  (await api<InviteCheckAnswer>(`/api/invites/check/${encodeURIComponent(token)}`, { token: null })).invite;
