import type { Language, PendingComment, Scope } from '@fankurve/shared';
import { api } from '../../api/client.js';

/** The admin's REST calls (online only: tasks and user administration are not on the device). */

export interface PendingUser {
  id: string;
  username: string;
  email: string;
  created_at: string;
}

export interface PendingRequest {
  id: string;
  event_id: string;
  event_title: string;
  event_date: string;
  username: string | null;
  guest_name: string | null;
  brought_by_username: string | null;
  /** Euros; 0 when the price is not known yet … */
  price: number;
  /** … which this says: shown as "price open", never as 0,00 €. */
  price_open: boolean;
  request_date: string;
}

export interface AdminUser {
  id: string;
  username: string;
  email: string;
  scope: Scope;
  status: 'pending' | 'active';
  language: Language;
  must_change_password: boolean;
  created_at: string;
  unpaid_count: number;
  /** Euros: the known prices of the unpaid tickets … */
  total_debt: number;
  /** … and how many unpaid tickets have their price open (not in the total). */
  open_price_count: number;
}

export interface TaskCounts {
  totalCount: number;
  pendingUsers: number;
  pendingPaidRequests: number;
  pendingReceivedRequests: number;
}

export const fetchPendingUsers = () => api<{ users: PendingUser[] }>('/api/admin/pending-users').then((a) => a.users);
export const fetchPaidRequests = () =>
  api<{ requests: PendingRequest[] }>('/api/admin/pending-paid-requests').then((a) => a.requests);
export const fetchReceivedRequests = () =>
  api<{ requests: PendingRequest[] }>('/api/admin/pending-received-requests').then((a) => a.requests);
export const fetchTaskCount = () => api<TaskCounts>('/api/admin/pending-tasks-count');
export const fetchPendingComments = () => api<{ comments: PendingComment[] }>('/api/comments/pending').then((a) => a.comments);
export const acceptPaid = (id: string) => api(`/api/admin/accept-paid-request/${encodeURIComponent(id)}`, { method: 'PUT' });
export const acceptReceived = (id: string) =>
  api(`/api/admin/accept-received-request/${encodeURIComponent(id)}`, { method: 'PUT' });
export const approveUser = (id: string) => api(`/api/auth/users/${encodeURIComponent(id)}/approve`, { method: 'PUT' });
export const deleteUser = (id: string) => api(`/api/auth/users/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const fetchUsers = () => api<{ users: AdminUser[] }>('/api/auth/users').then((a) => a.users);
export const fetchUser = (id: string) =>
  api<{ user: AdminUser }>(`/api/auth/users/${encodeURIComponent(id)}`).then((a) => a.user);
export const createUser = (body: { username: string; email: string }) =>
  api<{ user: AdminUser; temporaryPassword: string }>('/api/auth/users', { method: 'POST', body });
export const updateUser = (id: string, body: { username: string; email: string; scope: Scope; language: Language }) =>
  api<{ user: AdminUser }>(`/api/auth/users/${encodeURIComponent(id)}`, { method: 'PUT', body });
export const setPassword = (id: string, newPassword: string) =>
  api(`/api/auth/users/${encodeURIComponent(id)}/password`, { method: 'PUT', body: { newPassword } });

/** Tells the nav bar's badge that a task was done here (it reloads the count at once). */
const taskListeners = new Set<() => void>();
export function tasksChanged(): void {
  for (const listener of taskListeners) listener();
}
export function onTasksChanged(listener: () => void): () => void {
  taskListeners.add(listener);
  return () => taskListeners.delete(listener);
}
