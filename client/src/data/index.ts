import type { AnswerFields, AttendanceStatus, RequestKind } from '@fankurve/shared';
import * as attendees from './collections/attendees.js';
import * as tickets from './collections/tickets.js';
import * as notices from './collections/notices.js';
import * as comments from './collections/comments.js';
import * as mentions from './collections/mentions.js';
import { prefetchEvents } from './collections/events.js';
import { getDatabase, getDevice, loadSync } from './local.js';
import type { SyncSession } from './sync.js';

/*
 * The data layer's surface for the screens (docs/architecture.md, client data layer): reactive
 * hooks over the device's collections, and writes that work offline. Screens never touch RxDB.
 */

export type { SyncStatus } from './replication.js';
export { LocalRuleError } from './device.js';
export { onNotice, onServerChange, onUnauthorized, useSyncState, useSyncStatus, waitingChanges } from './local.js';
export type { SyncSession } from './sync.js';
export { useEvent, useEvents } from './collections/events.js';
export { useAttendees, useAttendeesOfEvents, type GuestChange } from './collections/attendees.js';
export { useMyTickets, type MyTicket, type MyTickets } from './collections/tickets.js';
export { useMembers } from './collections/members.js';
export { useTransports } from './collections/transports.js';
export { useUnreadNotices } from './collections/notices.js';
export { useComments, type CommentView } from './collections/comments.js';
export {
  useMyMentions,
  useUnreadMentionCount,
  useUnreadMentionsByEvent,
  type MentionView,
} from './collections/mentions.js';
export { useSnapshot } from './snapshots.js';

export async function setOwnAttendance(eventId: string, userId: string, status: AttendanceStatus | null): Promise<void> {
  await attendees.setOwnAttendance(await getDevice(), eventId, userId, status);
}

export async function updateOwnAnswer(eventId: string, userId: string, change: Partial<AnswerFields>): Promise<void> {
  await attendees.updateOwnAnswer(await getDevice(), eventId, userId, change);
}

export async function addGuest(eventId: string, userId: string, guestName: string): Promise<string> {
  return attendees.addGuest(await getDevice(), eventId, userId, guestName);
}

export async function updateGuest(guestId: string, change: attendees.GuestChange): Promise<void> {
  await attendees.updateGuest(await getDevice(), guestId, change);
}

export async function removeGuest(guestId: string): Promise<void> {
  await attendees.removeGuest(await getDevice(), guestId);
}

/** A paid or received request on the member's own (or their guest's) ticket; works offline. */
export async function requestTicket(attendeeId: string, userId: string, kind: RequestKind): Promise<void> {
  await tickets.requestTicket(await getDevice(), attendeeId, userId, kind);
}

export async function markNoticesRead(ids: readonly string[]): Promise<void> {
  await notices.markNoticesRead(await getDevice(), ids);
}

// ── comments and mentions (issue 9): offline writes, checked by the shared rules first ──

/** The signed-in member as the comment rules see them (id and scope). */
type CommentActor = comments.CommentActor;

export async function addComment(actor: CommentActor, eventId: string, text: string, requiresAnswer: boolean): Promise<string> {
  return comments.addComment(await getDevice(), actor, eventId, text, requiresAnswer);
}

export async function editComment(actor: CommentActor, commentId: string, text: string): Promise<void> {
  await comments.editComment(await getDevice(), actor, commentId, text);
}

export async function deleteComment(actor: CommentActor, commentId: string): Promise<void> {
  await comments.deleteComment(await getDevice(), actor, commentId);
}

export async function resolveComment(actor: CommentActor, commentId: string): Promise<void> {
  await comments.resolveComment(await getDevice(), actor, commentId);
}

export async function unresolveComment(actor: CommentActor, commentId: string): Promise<void> {
  await comments.unresolveComment(await getDevice(), actor, commentId);
}

export async function toggleRequiresAnswer(actor: CommentActor, commentId: string): Promise<void> {
  await comments.toggleRequiresAnswer(await getDevice(), actor, commentId);
}

export async function markMentionRead(userId: string, mentionId: string): Promise<void> {
  await mentions.markMentionRead(await getDevice(), userId, mentionId);
}

export async function markAllMentionsRead(userId: string): Promise<void> {
  await mentions.markAllMentionsRead(await getDevice(), userId);
}

let opened: Promise<void> | null = null;

/** Opens the device database and reads the events list ahead of the first screen (a warm start). */
export function openDeviceDatabase(): Promise<void> {
  opened ??= getDatabase().then(prefetchEvents);
  opened.catch(() => {
    opened = null;
  });
  return opened;
}

/**
 * Starts replication for the session once the events list has been read from the device: on a
 * warm start the screen's first query does not compete with the replication's set-up.
 */
export async function startSync(session: SyncSession): Promise<void> {
  await openDeviceDatabase().catch(() => undefined);
  await (await loadSync()).startSync(session);
}

export async function stopSync(): Promise<void> {
  await (await loadSync()).stopSync();
}

/** Stops replication and keeps the database and its waiting changes (sign-out with changes not yet sent). */
export async function parkLocalData(): Promise<void> {
  await (await loadSync()).parkLocalData();
}

/** Sign-out: nothing of this member stays on the device. */
export async function clearLocalData(): Promise<void> {
  opened = null;
  await (await loadSync()).clearLocalData();
}
