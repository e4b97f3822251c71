import type { NoticeDoc } from '@fankurve/shared';
import { useSyncExternalStore } from 'react';
import { BehaviorSubject } from 'rxjs';
import type { FankurveDatabase } from './database.js';
import type { Device } from './device.js';
import { Outbox } from './outbox.js';
import type { SyncStatus } from './replication.js';

/*
 * What the screens need from the data layer without RxDB itself (docs/architecture.md, Client data
 * layer): the sync status, the outbox, the session's listeners, and the device database behind a
 * dynamic import. A screen's chunk holds its queries; RxDB and Dexie (sync.ts and below) load in
 * parallel with it, so a warm start paints the remembered list before they have arrived.
 */

export const outbox = new Outbox('syncOutbox');

const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);
export const idleStatus = (): SyncStatus => ({ online: isOnline(), syncing: false, pending: outbox.size, initialSyncDone: false });
export const status$ = new BehaviorSubject<SyncStatus>(idleStatus());

const sameStatus = (a: SyncStatus, b: SyncStatus) =>
  a.online === b.online && a.syncing === b.syncing && a.pending === b.pending && a.initialSyncDone === b.initialSyncDone;

/**
 * Publishes a status only when it differs: every screen and the nav bar re-render on a new status,
 * and 13 replications starting report their activity many times with nothing new to show.
 */
export function setStatus(next: SyncStatus): void {
  if (!sameStatus(status$.value, next)) status$.next(next);
}

outbox.subscribe(() => setStatus({ ...status$.value, pending: outbox.size }));
if (typeof window !== 'undefined') {
  const refresh = () => setStatus({ ...status$.value, online: isOnline() });
  window.addEventListener('online', refresh);
  window.addEventListener('offline', refresh);
}

export const noticeListeners = new Set<(notice: NoticeDoc) => void>();
export const unauthorizedListeners = new Set<() => void>();
export const serverChangeListeners = new Set<(collections: string[]) => void>();

/** The RxDB part of the data layer (database, replication), its own chunk. */
export const loadSync = () => import('./sync.js');

export function getDatabase(): Promise<FankurveDatabase> {
  return loadSync().then((sync) => sync.getDatabase());
}

/** The database and outbox that the writes of data/collections work on. */
export async function getDevice(): Promise<Device> {
  return { db: await getDatabase(), outbox };
}

/** Changes made on this device that the server has not confirmed yet. */
export function waitingChanges(): number {
  return outbox.size;
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

/** One field of the sync status: the screen re-renders only when that field changes. */
export function useSyncState<Key extends keyof SyncStatus>(key: Key): SyncStatus[Key] {
  return useSyncExternalStore(
    (onChange) => {
      const subscription = status$.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    () => status$.value[key],
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
