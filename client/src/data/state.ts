import type { NoticeDoc } from '@fankurve/shared';
import { BehaviorSubject } from 'rxjs';
import { Outbox } from './outbox.js';
import type { SyncStatus } from './replication.js';

/*
 * The data layer's state shared by the screens' side (local.ts) and the RxDB side (sync.ts, loaded
 * lazily by local.ts): the outbox, the sync status and the session's listeners.
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
