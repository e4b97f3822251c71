import { BehaviorSubject, filter, firstValueFrom, type Subscription } from 'rxjs';
import { adoptBackgroundSync, requestBackgroundSync } from './backgroundSyncRequest.js';
import { watchNotices } from './collections/noticeToasts.js';
import { createFankurveDatabase, DEVICE_DATABASE_NAME, type FankurveDatabase } from './database.js';
import { deleteDocStore, getDocStore } from './deviceDocs.js';
import { forgetDroppedAnswers } from './rebase.js';
import {
  idleStatus,
  noticeListeners,
  outbox,
  serverChangeListeners,
  setStatus,
  unauthorizedListeners,
} from './state.js';
import { clearSnapshots } from './snapshots.js';
import { startReplication, type SyncHandle } from './replication.js';

/*
 * The device's database and its replication for the signed-in session: one module-level database
 * promise (survives React StrictMode and re-renders), started and stopped with the session.
 */

export interface SyncSession {
  token: string;
  userId: string;
  isAdmin: boolean;
}

let databasePromise: Promise<FankurveDatabase> | null = null;
let sync: { handle: SyncHandle; token: string; statusSub: Subscription; noticeSub: Subscription } | null = null;
/** The running replication, for what waits for it to start. */
const started$ = new BehaviorSubject<SyncHandle | null>(null);

/**
 * Resolves once the page has painted and the main thread is idle (at most `timeoutMs` later): the
 * replication's start-up work (leader election, checkpoints, a pull per collection, the change stream) comes
 * after the screen's first paint from the device's data (docs/architecture.md, Client data layer).
 */
function afterFirstPaint(timeoutMs = 2000): Promise<void> {
  if (typeof window === 'undefined' || typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      setTimeout(() => {
        if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
        else setTimeout(resolve, 0);
      }, 0);
    });
  });
}

/** Counts starts and stops, so that a start that waited for the first paint knows it was stopped meanwhile. */
let syncGeneration = 0;

export function getDatabase(): Promise<FankurveDatabase> {
  // What a background sync sent while the app was closed leaves the outbox before the first write.
  databasePromise ??= Promise.all([
    createFankurveDatabase({ name: DEVICE_DATABASE_NAME, devMode: import.meta.env.DEV }),
    adoptBackgroundSync(outbox),
  ]).then(([db]) => db);
  return databasePromise;
}

/*
 * A change that waits for the network asks the browser to wake the service worker when the
 * connection returns (docs/architecture.md, Background sync): when it is queued offline, and when a
 * push fails for want of a network.
 */
let queued = outbox.size;
outbox.subscribe(() => {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  if (outbox.size > queued && offline) requestBackgroundSync();
  queued = outbox.size;
});

/**
 * Opens the database and starts replication for the session (idempotent for the same token), after
 * the screen's first paint from the device's data unless `waitForPaint` is false.
 */
export async function startSync(session: SyncSession, { waitForPaint = true } = {}): Promise<void> {
  if (sync?.token === session.token) return;
  await stopSync();
  const generation = syncGeneration;
  const [db, docs] = await Promise.all([getDatabase(), getDocStore()]);
  if (waitForPaint) await afterFirstPaint();
  if (generation !== syncGeneration) return;
  const handle = startReplication(db, {
    baseUrl: location.origin,
    token: session.token,
    userId: session.userId,
    outbox,
    docs,
    onUnauthorized: () => {
      for (const listener of unauthorizedListeners) listener();
    },
    onOutdated: () => location.reload(),
    onPushFailed: requestBackgroundSync,
    onServerChange: (collections) => {
      for (const listener of serverChangeListeners) listener(collections);
    },
  });
  const statusSub = handle.status$.subscribe(setStatus);
  const noticeSub = watchNotices(db, (notice) => {
    for (const listener of noticeListeners) listener(notice);
  });
  sync = { handle, token: session.token, statusSub, noticeSub };
  started$.next(handle);
}

/**
 * Fetches and stores the rows of an event the device does not keep (docs/architecture.md, What a
 * device keeps); fails when this tab does not replicate or the network fails.
 */
export async function loadEventRows(eventId: string): Promise<void> {
  // A page opened straight after the start asks before the replication has started (after the first paint).
  const handle = sync?.handle ?? (await firstValueFrom(started$.pipe(filter((next) => next !== null))));
  await handle.loadEvent(eventId);
}

export async function stopSync(): Promise<void> {
  syncGeneration++;
  const current = sync;
  sync = null;
  started$.next(null);
  if (!current) return;
  current.statusSub.unsubscribe();
  current.noticeSub.unsubscribe();
  await current.handle.stop();
  setStatus(idleStatus());
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
  await deleteDocStore();
  forgetDroppedAnswers();
  outbox.clear();
  clearSnapshots();
}
