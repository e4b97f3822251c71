import { SYNC_SCHEMAS, type SyncCollectionName } from '@fankurve/shared';
import { BehaviorSubject, Subject, combineLatest, type Subscription } from 'rxjs';
import type { RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { FankurveDatabase } from './database.js';
import type { Outbox } from './outbox.js';
import { connectChangeStream, type ChangeStream } from './stream.js';

export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  pending: number;
}

export interface SyncOptions {
  baseUrl: string;
  token: string;
  outbox: Outbox;
  fetch?: typeof fetch;
  /** The server refused the token: the session must end. */
  onUnauthorized(): void;
  /** The server speaks a newer schema version (426): the app must reload. */
  onOutdated?(): void;
  retryTime?: number;
  streamMinDelayMs?: number;
  /** Replicate in the leader tab only (RxDB's default); Node tests run single-instance. */
  waitForLeadership?: boolean;
}

export interface SyncHandle {
  states: Partial<Record<SyncCollectionName, RxReplicationState<unknown, { seq: number }>>>;
  status$: BehaviorSubject<SyncStatus>;
  stream: ChangeStream;
  reSync(): void;
  stop(): Promise<void>;
}

/** Which collections members may push (ARCHITECTURE.md, sync table); the rest are pull-only. */
const PUSHABLE: ReadonlySet<SyncCollectionName> = new Set(['attendees']);

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`sync request answered ${status}`);
  }
}

/**
 * Replicates every collection with the server (pull, plus push where members may write), keeps
 * going while signed in (retrying with RxDB's retry time), re-syncs on the browser's `online` event
 * and on every change the server's stream announces.
 */
export function startReplication(db: FankurveDatabase, options: SyncOptions): SyncHandle {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const pullStreams = new Map<SyncCollectionName, Subject<RxReplicationPullStreamItem<unknown, { seq: number }>>>();

  async function post(path: string, body: unknown): Promise<unknown> {
    const response = await fetchImpl(`${options.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
      body: JSON.stringify(body),
    });
    if (response.status === 401) options.onUnauthorized();
    if (response.status === 426) options.onOutdated?.();
    if (!response.ok) throw new HttpError(response.status);
    return response.json();
  }

  const states = {} as SyncHandle['states'];
  const present = (Object.keys(SYNC_SCHEMAS) as SyncCollectionName[]).filter((name) => db.collections[name] !== undefined);
  for (const name of present) {
    const base = `/api/sync/${name}/${SYNC_SCHEMAS[name].version}`;
    const stream$ = new Subject<RxReplicationPullStreamItem<unknown, { seq: number }>>();
    pullStreams.set(name, stream$);
    states[name] = replicateRxCollection<unknown, { seq: number }>({
      collection: db[name] as never,
      replicationIdentifier: `fankurve-${name}-${options.baseUrl}`,
      live: true,
      retryTime: options.retryTime ?? 5000,
      waitForLeadership: options.waitForLeadership ?? true,
      autoStart: true,
      pull: {
        batchSize: 200,
        stream$: stream$.asObservable(),
        handler: async (checkpoint, batchSize) =>
          (await post(`${base}/pull`, { checkpoint: checkpoint ?? null, limit: batchSize })) as {
            documents: never[];
            checkpoint: { seq: number };
          },
      },
      push: PUSHABLE.has(name)
        ? {
            batchSize: 50,
            handler: async (rows) => {
              const conflicts = (await post(`${base}/push`, rows)) as never[];
              // The server has applied (or refused, with a notice) every row: none is waiting any more.
              for (const row of rows) options.outbox.delete((row.newDocumentState as unknown as { id: string }).id);
              return conflicts;
            },
          }
        : undefined,
    });
  }

  const subscriptions: Subscription[] = [];

  const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);
  const status$ = new BehaviorSubject<SyncStatus>({ online: isOnline(), syncing: false, pending: options.outbox.size });
  let syncing = false;
  const publish = () => status$.next({ online: isOnline(), syncing, pending: options.outbox.size });
  subscriptions.push(
    combineLatest(Object.values(states).map((state) => state.active$)).subscribe((active) => {
      syncing = active.some(Boolean);
      publish();
    }),
  );
  const unsubscribeOutbox = options.outbox.subscribe(publish);

  const reSync = () => {
    for (const stream$ of pullStreams.values()) stream$.next('RESYNC');
    for (const state of Object.values(states)) state.reSync();
  };

  // Only the tab that replicates (the leader) holds the stream: browsers allow ~6 connections per origin.
  let stopped = false;
  let connected: ChangeStream | null = null;
  const connect = () => {
    if (stopped) return;
    connected = connectChangeStream({
      url: `${options.baseUrl}/api/sync/stream`,
      token: options.token,
      fetch: fetchImpl,
      minDelayMs: options.streamMinDelayMs,
      onConnect: reSync,
      onChange: (collections) => {
        for (const name of collections) pullStreams.get(name as SyncCollectionName)?.next('RESYNC');
      },
      onUnauthorized: options.onUnauthorized,
    });
  };
  if (options.waitForLeadership ?? true) void db.waitForLeadership().then(connect);
  else connect();
  const stream: ChangeStream = {
    stop: () => {
      stopped = true;
      connected?.stop();
    },
    reconnect: () => connected?.reconnect(),
  };

  const onOnline = () => {
    publish();
    stream.reconnect();
    reSync();
  };
  const onOffline = () => publish();
  if (typeof window !== 'undefined') {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
  }

  return {
    states,
    status$,
    stream,
    reSync,
    async stop() {
      stream.stop();
      if (typeof window !== 'undefined') {
        window.removeEventListener('online', onOnline);
        window.removeEventListener('offline', onOffline);
      }
      unsubscribeOutbox();
      for (const subscription of subscriptions) subscription.unsubscribe();
      await Promise.all(Object.values(states).map((state) => state.cancel()));
      status$.complete();
    },
  };
}
