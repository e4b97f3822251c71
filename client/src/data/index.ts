import type {
  AttendanceStatus,
  AttendeeDoc,
  EventDoc,
  MemberAttendanceFields,
  MemberDoc,
  NoticeDoc,
  TransportDoc,
} from '@fankurve/shared';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { BehaviorSubject, map, type Observable, type Subscription } from 'rxjs';
import * as attendance from './attendance.js';
import { createFankurveDatabase, type FankurveDatabase } from './database.js';
import { watchNotices } from './notices.js';
import { Outbox } from './outbox.js';
import { startReplication, type SyncHandle, type SyncStatus } from './replication.js';

export type { SyncStatus } from './replication.js';
export { LocalRuleError } from './attendance.js';

export interface SyncSession {
  token: string;
  userId: string;
  isAdmin: boolean;
}

const DATABASE_NAME = 'fankurve';

/** One module-level database promise: survives React StrictMode and re-renders (TOOLCHAIN.md). */
let databasePromise: Promise<FankurveDatabase> | null = null;
let sync: { handle: SyncHandle; token: string; statusSub: Subscription; noticeSub: Subscription } | null = null;
const outbox = new Outbox('syncOutbox');
const noticeListeners = new Set<(notice: NoticeDoc) => void>();
const unauthorizedListeners = new Set<() => void>();

const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);
const status$ = new BehaviorSubject<SyncStatus>({ online: isOnline(), syncing: false, pending: outbox.size });
outbox.subscribe(() => status$.next({ ...status$.value, pending: outbox.size }));
if (typeof window !== 'undefined') {
  const refresh = () => status$.next({ ...status$.value, online: isOnline() });
  window.addEventListener('online', refresh);
  window.addEventListener('offline', refresh);
}

export function getDatabase(): Promise<FankurveDatabase> {
  databasePromise ??= createFankurveDatabase({ name: DATABASE_NAME, devMode: import.meta.env.DEV });
  return databasePromise;
}

/** Opens the database and starts replication for the session (idempotent for the same token). */
export async function startSync(session: SyncSession): Promise<void> {
  if (sync?.token === session.token) return;
  await stopSync();
  const db = await getDatabase();
  const handle = startReplication(db, {
    baseUrl: location.origin,
    token: session.token,
    outbox,
    onUnauthorized: () => {
      for (const listener of unauthorizedListeners) listener();
    },
    onOutdated: () => location.reload(),
  });
  const statusSub = handle.status$.subscribe((status) => status$.next(status));
  const noticeSub = watchNotices(db, (notice) => {
    for (const listener of noticeListeners) listener(notice);
  });
  sync = { handle, token: session.token, statusSub, noticeSub };
}

export async function stopSync(): Promise<void> {
  const current = sync;
  sync = null;
  if (!current) return;
  current.statusSub.unsubscribe();
  current.noticeSub.unsubscribe();
  await current.handle.stop();
  status$.next({ online: isOnline(), syncing: false, pending: outbox.size });
}

/** Sign-out: nothing of this member stays on the device. */
export async function clearLocalData(): Promise<void> {
  await stopSync();
  if (databasePromise) {
    const db = await databasePromise;
    databasePromise = null;
    await db.remove();
  }
  outbox.clear();
}

export function useSyncStatus(): SyncStatus {
  return useSyncExternalStore(
    (onChange) => {
      const subscription = status$.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    () => status$.value,
  );
}

/** Subscribes a component to a reactive RxDB query; undefined while the first result loads. */
function useQuery<T>(build: (db: FankurveDatabase) => Observable<T>, deps: unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let subscription: Subscription | undefined;
    let cancelled = false;
    void getDatabase().then((db) => {
      if (!cancelled) subscription = build(db).subscribe(setValue);
    });
    return () => {
      cancelled = true;
      subscription?.unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query is rebuilt when its inputs change
  }, deps);
  return value;
}

const plain = <T>(docs: { toJSON(): unknown }[]) => docs.map((doc) => doc.toJSON() as T);

export function useEvents(): EventDoc[] | undefined {
  return useQuery((db) => db.events.find({ sort: [{ date: 'asc' }] }).$.pipe(mapDocs<EventDoc>()), []);
}

export function useAttendees(eventId?: string): AttendeeDoc[] | undefined {
  return useQuery(
    (db) => db.attendees.find(eventId ? { selector: { event_id: eventId } } : {}).$.pipe(mapDocs<AttendeeDoc>()),
    [eventId],
  );
}

export function useEvent(eventId: string): EventDoc | null | undefined {
  return useQuery((db) => db.events.findOne(eventId).$.pipe(map((doc) => (doc ? (doc.toJSON() as EventDoc) : null))), [eventId]);
}

export function useTransports(eventId: string): TransportDoc[] | undefined {
  return useQuery(
    (db) => db.transports.find({ selector: { event_id: eventId }, sort: [{ created_at: 'asc' }] }).$.pipe(mapDocs<TransportDoc>()),
    [eventId],
  );
}

export function useMembers(): MemberDoc[] | undefined {
  return useQuery((db) => db.members.find().$.pipe(mapDocs<MemberDoc>()), []);
}

function mapDocs<T>() {
  return map((docs: { toJSON(): unknown }[]) => plain<T>(docs));
}

export async function setOwnAttendance(eventId: string, userId: string, status: AttendanceStatus | null): Promise<void> {
  await attendance.setOwnAttendance(await getDatabase(), outbox, eventId, userId, status);
}

export async function updateOwnAnswer(
  eventId: string,
  userId: string,
  change: Partial<Omit<MemberAttendanceFields, 'status'>>,
): Promise<void> {
  await attendance.updateOwnAnswer(await getDatabase(), outbox, eventId, userId, change);
}

export async function addGuest(eventId: string, userId: string, guestName: string): Promise<string> {
  return attendance.addGuest(await getDatabase(), outbox, eventId, userId, guestName);
}

export async function updateGuest(guestId: string, change: attendance.GuestChange): Promise<void> {
  await attendance.updateGuest(await getDatabase(), outbox, guestId, change);
}

export async function removeGuest(guestId: string): Promise<void> {
  await attendance.removeGuest(await getDatabase(), outbox, guestId);
}

export function onNotice(listener: (notice: NoticeDoc) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}
