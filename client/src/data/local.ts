import type { NoticeDoc } from '@fankurve/shared';
import { useSyncExternalStore } from 'react';
import type { FankurveDatabase } from './database.js';
import type { Device } from './device.js';
import type { DocStore } from './docStore.js';
import type { SyncStatus } from './replication.js';
import { noticeListeners, outbox, serverChangeListeners, status$, unauthorizedListeners } from './state.js';

/*
 * What the screens need from the data layer without RxDB itself (docs/architecture.md, Client data
 * layer): the sync status, the outbox, the session's listeners, and the device database behind a
 * dynamic import. A screen's chunk holds its queries; RxDB and Dexie (sync.ts and below) load in
 * parallel with it, so a warm start paints the remembered list before they have arrived.
 */

/** The RxDB part of the data layer (database, replication), its own chunk. */
export const loadSync = () => import('./sync.js');

export function getDatabase(): Promise<FankurveDatabase> {
  return loadSync().then((sync) => sync.getDatabase());
}

/** The document store, a chunk of its own: its queries need no RxDB. */
export function getDocStore(): Promise<DocStore> {
  return import('./deviceDocs.js').then((docs) => docs.getDocStore());
}

/** The database, document store and outbox that the writes of data/collections work on. */
export async function getDevice(): Promise<Device> {
  const [db, docs] = await Promise.all([getDatabase(), getDocStore()]);
  return { db, docs, outbox };
}

type DeviceWrite = (device: Device, ...args: never[]) => Promise<unknown>;
type OnDevice<Writes> = {
  [Name in keyof Writes]: Writes[Name] extends (device: Device, ...args: infer Args) => infer Result
    ? (...args: Args) => Result
    : never;
};

/** A collection's writes bound to this device's database: what the screens call. */
export function onDevice<Writes extends Record<string, DeviceWrite>>(writes: Writes): OnDevice<Writes> {
  const bind = (write: DeviceWrite) => async (...args: never[]) => write(await getDevice(), ...args);
  return Object.fromEntries(Object.entries(writes).map(([name, write]) => [name, bind(write)])) as OnDevice<Writes>;
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

/** Called whenever a change is queued on the device, waiting to be sent (e.g. to ask for persistent storage). */
export function onChangeQueued(listener: () => void): () => void {
  let size = outbox.size;
  return outbox.subscribe(() => {
    if (outbox.size > size) listener();
    size = outbox.size;
  });
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
