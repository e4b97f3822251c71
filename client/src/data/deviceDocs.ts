import { DocStore } from './docStore.js';

/*
 * The signed-in device's document store (docs/architecture.md, Client data layer), a chunk of its
 * own: the screens' queries of what the device only reads (the events list first) answer without
 * waiting for RxDB to load and open its collections.
 */

/** The device database's name: the app's, the service worker's background sync (pwa/backgroundSync.ts) and the store's prefix. */
export const DEVICE_DATABASE_NAME = 'fankurve';

let docStorePromise: Promise<DocStore> | null = null;

export function getDocStore(): Promise<DocStore> {
  docStorePromise ??= DocStore.open(DEVICE_DATABASE_NAME);
  docStorePromise.catch(() => {
    docStorePromise = null;
  });
  return docStorePromise;
}

/** Sign-out: the store is closed and deleted, with every older layout of it. */
export async function deleteDocStore(): Promise<void> {
  const opened = docStorePromise;
  docStorePromise = null;
  (await opened?.catch(() => null))?.close();
  await DocStore.deleteAll(DEVICE_DATABASE_NAME);
}
