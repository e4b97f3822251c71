import type { NoticeDoc } from '@fankurve/shared';
import { useSyncExternalStore } from 'react';
import { BehaviorSubject, type Subscription } from 'rxjs';
import { watchNotices } from './collections/notices.js';
import { createFankurveDatabase, type FankurveDatabase } from './database.js';
import type { Device } from './device.js';
import { Outbox } from './outbox.js';
import { clearSnapshots } from './snapshots.js';
import { startReplication, type SyncHandle, type SyncStatus } from './replication.js';

/*
 * The device's database and its replication for the signed-in session: one module-level database
 * promise (survives React StrictMode and re-renders), started and stopped with the session.
 */

export interface SyncSession {
  token: string;
  userId: string;
  isAdmin: boolean;
}

const DATABASE_NAME = 'fankurve';

let databasePromise: Promise<FankurveDatabase> | null = null;
let sync: { handle: SyncHandle; token: string; statusSub: Subscription; noticeSub: Subscription } | null = null;
const outbox = new Outbox('syncOutbox');
const noticeListeners = new Set<(notice: NoticeDoc) => void>();
const unauthorizedListeners = new Set<() => void>();
const serverChangeListeners = new Set<(collections: string[]) => void>();

const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);
const idle = (): SyncStatus => ({ online: isOnline(), syncing: false, pending: outbox.size, initialSyncDone: false });
const status$ = new BehaviorSubject<SyncStatus>(idle());
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

/** The database and outbox that the writes of data/collections work on. */
export async function getDevice(): Promise<Device> {
  return { db: await getDatabase(), outbox };
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
    onServerChange: (collections) => {
      for (const listener of serverChangeListeners) listener(collections);
    },
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
  status$.next(idle());
}

/** Changes made on this device that the server has not confirmed yet. */
export function waitingChanges(): number {
  return outbox.size;
}

/** Stops replication and keeps the database and its waiting changes (sign-out with changes not yet sent). */
export async function parkLocalData(): Promise<void> {
  await stopSync();
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
  clearSnapshots();
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

export function onNotice(listener: (notice: NoticeDoc) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Called whenever the server's change stream announces a change (e.g. the admin's pending-task count refreshes). */
export function onServerChange(listener: (collections: string[]) => void): () => void {
  serverChangeListeners.add(listener);
  return () => serverChangeListeners.delete(listener);
}
