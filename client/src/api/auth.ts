import type {
  Language,
  LoginAnswer,
  MessageAnswer,
  PasswordChangedAnswer,
  PublicUser,
  RegisterAnswer,
  UserAnswer,
} from '@fankurve/shared';
import { api } from './client.js';

/*
 * Sign-in, registration and the user's own account. The answer types are inferred from the
 * server's answer schemas (shared/src/schemas/answers; docs/architecture.md, "REST answers").
 */

/** The signed-in user as GET /api/auth/profile and the login answer show it. */
export type Profile = PublicUser;

/** What a sign-in leaves on the device: the token and the user (login and password change answer both). */
export type SignedIn = Pick<LoginAnswer, 'token' | 'user'>;

export const login = (username: string, password: string) =>
  api<LoginAnswer>('/api/auth/login', { body: { username, password }, token: null });

/**
 * The account waits for an admin's approval (`requiresApproval`); through an invite that approves at
 * once (its token in `invite`) it is active and the answer signs it in (docs/architecture.md, Invites).
 */
export const register = (username: string, email: string, password: string, language: Language, invite?: string) =>
  api<RegisterAnswer>('/api/auth/register', {
    body: { username, email, password, language, ...(invite ? { invite } : {}) },
    token: null,
  });

/** Ends this device's session on the server (the token stops working everywhere at once). */
export const logout = (token: string) => api<MessageAnswer>('/api/auth/logout', { method: 'POST', token });

export const fetchProfile = (token: string, signal?: AbortSignal) => api<UserAnswer>('/api/auth/profile', { token, signal });

/** The old token is void afterwards: the answer carries a new one. */
export const changePassword = (currentPassword: string, newPassword: string) =>
  api<PasswordChangedAnswer>('/api/auth/change-password', { body: { currentPassword, newPassword } });
