import type {
  AdminUser,
  AdminUserAnswer,
  AdminUsersAnswer,
  AttendanceAnswer,
  ErasedUser,
  ErasedUsersAnswer,
  Language,
  MessageAnswer,
  PendingCommentsAnswer,
  PendingRequestsAnswer,
  PendingUsersAnswer,
  PublicUser,
  Scope,
  TaskCountsAnswer,
  UserAnswer,
  UserChangedAnswer,
  UserCreatedAnswer,
} from '@fankurve/shared';
import { api } from './client.js';

/*
 * The admin's REST calls (online only: tasks and user administration are not on the device). The
 * answer types are the server's (shared/src/schemas/answers).
 */

export type { AdminUser, ErasedUser };
/** A registration waiting for approval. */
export type PendingUser = PublicUser;
export type { PendingRequest } from '@fankurve/shared';
export type TaskCounts = TaskCountsAnswer;

const id = (value: string) => encodeURIComponent(value);

export const fetchPendingUsers = () => api<PendingUsersAnswer>('/api/admin/pending-users').then((a) => a.users);
export const fetchPaidRequests = () => api<PendingRequestsAnswer>('/api/admin/pending-paid-requests').then((a) => a.requests);
export const fetchReceivedRequests = () =>
  api<PendingRequestsAnswer>('/api/admin/pending-received-requests').then((a) => a.requests);
export const fetchTaskCount = () => api<TaskCountsAnswer>('/api/admin/pending-tasks-count');
export const fetchPendingComments = () => api<PendingCommentsAnswer>('/api/comments/pending').then((a) => a.comments);
export const acceptPaid = (requestId: string) =>
  api<AttendanceAnswer>(`/api/admin/accept-paid-request/${id(requestId)}`, { method: 'PUT' });
export const acceptReceived = (requestId: string) =>
  api<AttendanceAnswer>(`/api/admin/accept-received-request/${id(requestId)}`, { method: 'PUT' });
export const approveUser = (userId: string) => api<UserChangedAnswer>(`/api/auth/users/${id(userId)}/approve`, { method: 'PUT' });
export const deleteUser = (userId: string) => api<MessageAnswer>(`/api/auth/users/${id(userId)}`, { method: 'DELETE' });

export const fetchUsers = () => api<AdminUsersAnswer>('/api/auth/users').then((a) => a.users);
/** Erased accounts with what the books keep of each, newest erasure first (docs/architecture.md, Erasure and retention). */
export const fetchErasedUsers = () => api<ErasedUsersAnswer>('/api/auth/users/erased').then((a) => a.users);
export const fetchUser = (userId: string) => api<AdminUserAnswer>(`/api/auth/users/${id(userId)}`).then((a) => a.user);
export const createUser = (body: { username: string; email: string }) =>
  api<UserCreatedAnswer>('/api/auth/users', { method: 'POST', body });
export const updateUser = (userId: string, body: { username: string; email: string; scope: Scope; language: Language }) =>
  api<UserAnswer>(`/api/auth/users/${id(userId)}`, { method: 'PUT', body });
export const setPassword = (userId: string, newPassword: string) =>
  api<UserChangedAnswer>(`/api/auth/users/${id(userId)}/password`, { method: 'PUT', body: { newPassword } });

/** Tells the nav bar's badge that a task was done here (it reloads the count at once). */
const taskListeners = new Set<() => void>();
export function tasksChanged(): void {
  for (const listener of taskListeners) listener();
}
export function onTasksChanged(listener: () => void): () => void {
  taskListeners.add(listener);
  return () => taskListeners.delete(listener);
}
