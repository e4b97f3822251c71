import type { Language, Scope } from '@fankurve/shared';
import { api } from './client.js';

/** The signed-in user as GET /api/auth/profile and the login answer show it. */
export interface Profile {
  id: string;
  username: string;
  email: string;
  scope: Scope;
  status?: 'pending' | 'active';
  language: Language;
  must_change_password: boolean;
  created_at?: string;
}

export interface SignedIn {
  token: string;
  user: Profile;
}

export const login = (username: string, password: string) =>
  api<SignedIn>('/api/auth/login', { body: { username, password }, token: null });

/** Either signed in at once (token and user) or waiting for an admin (requiresApproval). */
export type RegisterAnswer = { requiresApproval: true; message?: string } | (SignedIn & { requiresApproval?: false });

export const register = (username: string, email: string, password: string, language: Language) =>
  api<RegisterAnswer>('/api/auth/register', { body: { username, email, password, language }, token: null });

/** Ends this device's session on the server (the token stops working everywhere at once). */
export const logout = (token: string) => api('/api/auth/logout', { method: 'POST', token });

export const fetchProfile = (token: string, signal?: AbortSignal) =>
  api<{ user: Profile }>('/api/auth/profile', { token, signal });

/** The old token is void afterwards: the answer carries a new one. */
export const changePassword = (currentPassword: string, newPassword: string) =>
  api<SignedIn>('/api/auth/change-password', { body: { currentPassword, newPassword } });
