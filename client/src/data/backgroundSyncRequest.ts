import { BACKGROUND_SYNCED_KEY, takeDeviceValue } from './deviceStore.js';
import type { Outbox } from './outbox.js';

/*
 * The page's side of background sync (docs/architecture.md, Background sync): where the browser
 * offers Background Sync to service workers (Chromium), a change that waits for the network asks it
 * to wake the worker when the connection returns, even when the app has been closed meanwhile
 * (pwa/backgroundSync.ts does the work). Elsewhere the change goes at the app's next start.
 */

/** The one-off sync's tag, the same for the page and the worker. */
export const BACKGROUND_SYNC_TAG = 'fankurve-outbox';

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/**
 * Asks the browser for a one-off sync: it fires in the service worker once the device is online
 * (at once when it already is; a window of the app open then does the work itself). Registering a
 * tag that is already waiting changes nothing.
 */
export function requestBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || typeof SyncManager === 'undefined') return;
  void navigator.serviceWorker
    .getRegistration()
    .then((registration) => (registration as (ServiceWorkerRegistration & SyncRegistration) | undefined)?.sync?.register(BACKGROUND_SYNC_TAG))
    .catch(() => undefined); // not allowed (e.g. the permission is off): the change goes at the next start
}

declare const SyncManager: unknown;

/**
 * At the app's start, before any write: a background sync that finished while the app was closed
 * sent every change the outbox counts, unless the outbox changed after that sync began.
 */
export async function adoptBackgroundSync(outbox: Outbox): Promise<void> {
  const synced = await takeDeviceValue<{ startedAt: number }>(BACKGROUND_SYNCED_KEY).catch(() => null);
  if (synced && typeof synced.startedAt === 'number') outbox.clearIfUnchangedSince(synced.startedAt);
}
