import type { MessageAnswer } from '@fankurve/shared';
import { api } from './client.js';

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account. */
export const requestPasswordReset = (email: string) =>
  api<MessageAnswer>('/api/auth/forgot-password', { body: { email }, token: null });

/** POST /api/auth/reset-password: sets the new password with the mailed token; every session of the user ends. */
export const resetPassword = (token: string, newPassword: string) =>
  api<MessageAnswer>('/api/auth/reset-password', { body: { token, newPassword }, token: null });
