import * as attendees from './collections/attendees.js';
import * as tickets from './collections/tickets.js';
import * as notices from './collections/notices.js';
import * as comments from './collections/comments.js';
import * as mentions from './collections/mentions.js';
import * as offers from './collections/offers.js';
import * as pollVotes from './collections/pollVotes.js';
import { prefetchEvents } from './collections/events.js';
import { forgetLoadedEvents } from './eventRows.js';
import { getDatabase, getDocStore, loadSync, onDevice } from './local.js';
import type { SyncSession } from './sync.js';

/*
 * The data layer's surface for the screens (docs/architecture.md, client data layer): reactive
 * hooks over the device's collections, and writes that work offline. Screens never touch RxDB.
 */

export type { SyncStatus } from './replication.js';
export { LocalRuleError } from './device.js';
export {
  onChangeQueued,
  onNotice,
  onServerChange,
  onUnauthorized,
  useSyncState,
  useSyncStatus,
  waitingChanges,
} from './local.js';
export type { SyncSession } from './sync.js';
export { useEvent, useEvents } from './collections/events.js';
export { useAttendees, useAttendeesOfEvents, type GuestChange } from './collections/attendees.js';
export { useMyTickets, type MyTicket, type MyTickets } from './collections/tickets.js';
export { myOwedFigures, useMyLedger, type MyLedger, type StatementLine } from './collections/ledger.js';
export { useDeviceSeasonStats } from './collections/stats.js';
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
export { useOpenOffers, type OfferView } from './collections/offers.js';
export { usePolls, type PollView } from './collections/polls.js';
export { useSnapshot } from './snapshots.js';
export { holdsEventRows, useEventRows, useLoadedEvents, type EventRowsState } from './eventRows.js';

// The screens' writes, one line per collection: each works offline on the device's database.
export const { setOwnAttendance, updateOwnAnswer, addGuest, updateGuest, removeGuest } = onDevice(attendees.writes);
export const { requestTicket } = onDevice(tickets.writes);
export const { markNoticesRead } = onDevice(notices.writes);
export const { addComment, editComment, deleteComment, resolveComment, unresolveComment, toggleRequiresAnswer } =
  onDevice(comments.writes);
export const { markMentionRead, markAllMentionsRead } = onDevice(mentions.writes);
export const { acceptOffer, declineOffer } = onDevice(offers.writes);
export const { castVote } = onDevice(pollVotes.writes);

/** The device database opened, with the number of events on the device. */
let opened: Promise<number> | null = null;

/** Opens the device's database and document store, and the events table ahead of the first screen (a warm start). */
export function openDeviceDatabase(): Promise<number> {
  opened ??= Promise.all([getDatabase(), getDocStore().then(prefetchEvents)]).then(([, events]) => events);
  opened.catch(() => {
    opened = null;
  });
  return opened;
}

/**
 * Starts replication for the session once the events list has been read from the device: on a
 * warm start the screen's first query does not compete with the replication's set-up. A device
 * without events (a first sign-in) has nothing to paint before its first pull.
 */
export async function startSync(session: SyncSession): Promise<void> {
  // Unknown when opening failed (the sync's own start tries again): wait for the paint then.
  const events = await openDeviceDatabase().catch(() => null);
  await (await loadSync()).startSync(session, { waitForPaint: events !== 0 });
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
  forgetLoadedEvents();
}
