import type {
  DeviceSession,
  Language,
  MessageAnswer,
  OtherSessionsEndedAnswer,
  SessionsAnswer,
  UserAnswer,
} from '@fankurve/shared';
import { api } from './client.js';

/* The user's own account: language and signed-in devices (docs/architecture.md, "Sessions, throttles and limits"). */

/** One signed-in device of the user (GET /api/auth/sessions); `current` is this device. */
export type { DeviceSession };

/** Updating one's own language sends only `{ language }` to the user update. */
export const updateOwnLanguage = (userId: string, language: Language) =>
  api<UserAnswer>(`/api/auth/users/${encodeURIComponent(userId)}`, { method: 'PUT', body: { language } });

export const fetchSessions = async () => (await api<SessionsAnswer>('/api/auth/sessions')).sessions;

export const endDeviceSession = (id: string) =>
  api<MessageAnswer>(`/api/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** POST /api/me/erase: erases the signed-in member's account; the password confirms it (docs/architecture.md, Erasure and retention). */
export const eraseOwnAccount = (password: string) => api<MessageAnswer>('/api/me/erase', { method: 'POST', body: { password } });

export const endOtherSessions = () => api<OtherSessionsEndedAnswer>('/api/auth/sessions/end-others', { method: 'POST' });
