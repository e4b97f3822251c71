import {
  KEPT_BY_EVENT_COLLECTIONS,
  SYNC_COLLECTIONS,
  SYNC_DECLARATIONS,
  SYNC_PULL_LIMIT,
  type PullScope,
  type SyncCollectionName,
} from '@fankurve/shared';
import { BehaviorSubject, Subject, combineLatest, firstValueFrom, filter, merge, type Subscription } from 'rxjs';
import type { RxCollection, RxReplicationPullStreamItem, RxReplicationWriteToMasterRow } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { FankurveDatabase } from './database.js';
import type { DocStore, PulledDoc } from './docStore.js';
import type { Outbox } from './outbox.js';
import { EventPulls, newestOf } from './eventPull.js';
import { GroupSync, type GroupCheckpoint } from './groupSync.js';
import { GROUPED_COLLECTIONS, PUSHED_GROUP, type GroupedCollectionName } from './pushedGroup.js';
import { PushRebaser } from './rebase.js';
import { StorePull, type CollectionSync, type PullPage } from './storePull.js';
import { connectChangeStream, type ChangeStream } from './stream.js';
import { yieldToMain } from './yieldToMain.js';

export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  /** Changes made on this device that the server has not taken yet. */
  pending: number;
  /** Every collection has been pulled completely at least once since sign-in (or start). */
  initialSyncDone: boolean;
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
  /** Every change the server's stream announces (the names of the changed collections). */
  onServerChange?: (collections: string[]) => void;
  /** Replicate in the leader tab only (RxDB's default); Node tests run single-instance. */
  waitForLeadership?: boolean;
  /**
   * Follow the server's change stream and the browser's online events (the app, the default); false
   * for a replication its caller stops once it is in sync (the service worker's background sync).
   */
  live?: boolean;
  /** A push could not reach the server (no network; not an answer of the server). */
  onPushFailed?(): void;
  /** The document store the collections the device only reads are pulled into (none: only RxDB's collections sync). */
  docs?: DocStore;
  /**
   * The signed-in member: of a collection split by owner, the document store drops the member's own
   * documents (RxDB holds them; the `others` pull carries the rows of the kept events, everyone's).
   */
  userId?: string;
}

/** Where a pull stands: the seq, and of a collection pulled in two parts, the own part's seq (`own`). */
type Checkpoint = { seq: number; own?: number };
type ReplicationState = RxReplicationState<unknown, Checkpoint>;

/**
 * A collection's sync, for a collection split by owner the pull of the other members' part
 * (`name/others`), and the grouped pushed kinds' one replication (`pushed`).
 */
export type SyncStateName = SyncCollectionName | `${SyncCollectionName}/others` | typeof PUSHED_GROUP;

/** The sync a collection's documents come with: its own, or its group's. */
export function syncStateOf(name: SyncCollectionName): SyncStateName {
  return (GROUPED_COLLECTIONS as readonly string[]).includes(name) ? PUSHED_GROUP : name;
}

export interface SyncHandle {
  /** Each syncing collection's state: RxDB's replication, or the pull into the document store. */
  states: Partial<Record<SyncStateName, CollectionSync>>;
  status$: BehaviorSubject<SyncStatus>;
  stream: ChangeStream;
  /** Resolves once every collection's replication has been started (or the sync was stopped first). */
  started: Promise<void>;
  reSync(): void;
  /**
   * Fetches the attendee rows and comments of an event the device does not keep (docs/architecture.md,
   * What a device keeps) through the next pulls; resolves once the device has stored them.
   */
  loadEvent(eventId: string): Promise<void>;
  stop(): Promise<void>;
}

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`sync request answered ${status}`);
  }
}

/**
 * The identifier under which RxDB keeps a collection's checkpoints and assumed server states. It
 * must stay the same across app updates (a new one makes the device treat every document as
 * unknown); a new schema version, whose migration drops the device's copy, starts afresh.
 */
function replicationIdentifier(name: string, version: number, baseUrl: string): string {
  return version === 0 ? `fankurve-${name}-${baseUrl}` : `fankurve-${name}-v${version}-${baseUrl}`;
}

/** The device's current state of the documents of a push (null: gone on the device). */
async function currentStates(collection: RxCollection, rows: { newDocumentState: { id: string } }[]) {
  const ids = rows.map((row) => row.newDocumentState.id);
  const docs = await collection.findByIds(ids).exec();
  return new Map(ids.map((id) => [id, (docs.get(id)?.toJSON() as Record<string, unknown> & { id: string }) ?? null]));
}

/** How long a tab waits to replicate (a fresh start elects itself within moments) before it says another tab does. */
const LEADERSHIP_WAIT_MS = 5000;

function leadership(db: FankurveDatabase): Promise<void> {
  if (db.isLeader()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('another tab replicates')), LEADERSHIP_WAIT_MS);
    void db.waitForLeadership().then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const idOfRow = (row: RxReplicationWriteToMasterRow<unknown>) => (row.newDocumentState as unknown as { id: string }).id;

/**
 * Replicates every collection of the database with the server (docs/architecture.md, sync): pull
 * by checkpoint, push where the collection's declaration allows it. Collections start in the order
 * of their declared priority: the first group's collections in the document store (the events) pull
 * once before the rest start, so the list renders before attendee rows arrive; the rest start one per
 * task without waiting for each other (docs/architecture.md, Checkpoints and pull). Keeps going
 * while signed in, re-syncs on the browser's `online` event and on every change the server's
 * stream announces.
 */
export function startReplication(db: FankurveDatabase, options: SyncOptions): SyncHandle {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const pullStreams = new Map<SyncStateName, { next(item: 'RESYNC'): void }>();
  const storePulls = new Map<SyncCollectionName, StorePull>();
  const states: SyncHandle['states'] = {};
  let stopped = false;

  const eventPulls = new EventPulls();
  const rxCollection = (name: SyncCollectionName) => (db.collections as Partial<Record<SyncCollectionName, RxCollection>>)[name];

  const post = (path: string, body: unknown) => request(path, 'POST', body);
  const get = (path: string) => request(path, 'GET');

  async function request(path: string, method: 'GET' | 'POST', body?: unknown): Promise<unknown> {
    const response = await fetchImpl(`${options.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${options.token}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401) options.onUnauthorized();
    if (response.status === 426) options.onOutdated?.();
    if (!response.ok) throw new HttpError(response.status);
    return response.json();
  }

  type PushRow = RxReplicationWriteToMasterRow<unknown>;
  type Sent = { assumedMasterState?: Record<string, unknown> | null; newDocumentState: Record<string, unknown> & { id: string } };

  /**
   * One RxDB replication: live, in the leader tab, pushing through the collection's rebaser (the
   * rows rebased where RxDB assumes an older state, the answers handed back as it can take them).
   */
  function rxReplication<C>(target: {
    stateName: SyncStateName;
    collection: RxCollection;
    identifier: string;
    stream$: Subject<RxReplicationPullStreamItem<unknown, C>>;
    pull(checkpoint: C | undefined, batchSize: number): Promise<{ documents: never[]; checkpoint: C }>;
    modifier?: (doc: never) => { _deleted: boolean };
    /** Sends rows (rebased) to the server; resolves with its answers. None: pull only. */
    push?: (rows: Sent[]) => Promise<{ id: string }[]>;
  }): RxReplicationState<unknown, C> {
    const { collection, push, stateName } = target;
    const rebaser = collection.conflictHandler instanceof PushRebaser ? collection.conflictHandler : null;
    /**
     * RxDB drops a pulled state of a document whose change the device pushed but has not seen
     * answered yet ("the upstream resolves it"), and its checkpoint moves past it. When another
     * device's change landed between this device's push and that pull, the push's answer is older
     * than the dropped state, and the device would keep the older one until the document changes
     * again. So a pulled state of a document pushed lately is delivered again, through the pull
     * stream, once RxDB is in sync and still holds something older (docs/architecture.md, Push and
     * the three-way merge).
     */
    const pushedLately = new Set<string>();
    let lastCheckpoint: C | undefined;
    async function redeliverIfDropped(pulled: { id: string; seq?: number }[]): Promise<void> {
      await replication.awaitInSync();
      const held = await collection.findByIds(pulled.map((doc) => doc.id)).exec();
      const newer = pulled.filter((doc) => Number((held.get(doc.id) as { seq?: number } | undefined)?.seq ?? Infinity) < Number(doc.seq ?? 0));
      if (newer.length > 0 && lastCheckpoint !== undefined) target.stream$.next({ documents: newer as never[], checkpoint: lastCheckpoint });
    }
    const replication = replicateRxCollection<unknown, C>({
      collection: collection as never,
      replicationIdentifier: target.identifier,
      // Always live for RxDB: a run-once replication cannot be cancelled while its requests fail.
      live: true,
      retryTime: options.retryTime ?? 5000,
      waitForLeadership: options.waitForLeadership ?? true,
      autoStart: true,
      pull: {
        batchSize: SYNC_PULL_LIMIT,
        stream$: target.stream$.asObservable(),
        ...(target.modifier ? { modifier: target.modifier as never } : {}),
        handler: async (checkpoint, batchSize) => {
          const page = await target.pull(checkpoint, batchSize);
          lastCheckpoint = page.checkpoint;
          const late = (page.documents as { id: string; seq?: number }[]).filter((doc) => pushedLately.has(doc.id));
          if (late.length > 0) void redeliverIfDropped(late).catch(() => undefined);
          return page;
        },
      },
      push: push
        ? {
            batchSize: 100,
            handler: async (rows: PushRow[]) => {
              // The server tells a re-sent server state from a change by its seq (docs/architecture.md, sync: push).
              for (const row of rows) pushedLately.add(idOfRow(row));
              const { rows: sent, original } = rebaser!.rebase(rows);
              const answers = await push(sent as Sent[]).catch((error: unknown) => {
                pushFailed.add(stateName);
                if (!(error instanceof HttpError)) options.onPushFailed?.();
                throw error;
              });
              pushFailed.delete(stateName);
              // The server has applied (or refused, with a notice) every row: none is waiting any more.
              for (const row of rows) options.outbox.delete(idOfRow(row));
              const current = await currentStates(collection, sent);
              return rebaser!.answers(sent, original, answers as never, current) as never[];
            },
          }
        : undefined,
    });
    return replication;
  }

  /**
   * A pushed collection with an RxDB collection of its own (attendees, comments). One kept by event
   * and not split into the document store is pulled in its two parts (docs/architecture.md, What a
   * device keeps): the kept events' documents, one shared list whose pages are the same bytes for
   * everyone, and the member's own beside them, each part from its own seq.
   */
  function replicate(name: SyncCollectionName): ReplicationState {
    const declaration = SYNC_DECLARATIONS[name];
    const version = declaration.schema.version;
    const base = `/api/sync/${name}/${version}`;
    const stream$ = new Subject<RxReplicationPullStreamItem<unknown, Checkpoint>>();
    pullStreams.set(name, stream$);
    // Split by owner: RxDB holds what the device pushes, the document store the rest (pullIntoStore).
    const scope: PullScope | undefined = splitHere(name) ? 'own' : undefined;
    const inParts = scope === undefined && declaration.keptByEvent === true;
    type Page = { documents: never[]; checkpoint: Checkpoint | null };
    const pullPage = (afterSeq: number, limit: number, part?: PullScope) =>
      post(`${base}/pull`, { checkpoint: afterSeq === 0 ? null : { seq: afterSeq }, limit, scope: part }) as Promise<Page>;
    async function pullParts(checkpoint: Checkpoint | undefined, batchSize: number) {
      const othersAfter = checkpoint?.seq ?? 0;
      // A checkpoint of the whole pull (before the parts) is where both parts stand.
      const ownAfter = checkpoint?.own ?? othersAfter;
      const [others, own] = await Promise.all([pullPage(othersAfter, batchSize, 'others'), pullPage(ownAfter, batchSize, 'own')]);
      return {
        // A document of both parts (the member's own of a kept event) comes once.
        documents: newestOf([...others.documents, ...own.documents] as { id: string; seq: number }[]) as never[],
        checkpoint: { seq: others.checkpoint?.seq ?? othersAfter, own: own.checkpoint?.seq ?? ownAfter },
      };
    }
    return rxReplication<Checkpoint>({
      stateName: name,
      collection: rxCollection(name)!,
      identifier: replicationIdentifier(name, version, options.baseUrl),
      stream$,
      // Tombstones arrive as id, seq and _deleted; the schema wants every required field.
      modifier: (doc: { _deleted: boolean }) => (doc._deleted ? { ...declaration.tombstone, ...doc } : doc),
      pull: (checkpoint, batchSize) =>
        eventPulls.pullWith(
          name,
          async (eventId) => ((await get(`${base}/events/${encodeURIComponent(eventId)}`)) as { documents: never[] }).documents,
          async () => {
            if (inParts) return pullParts(checkpoint, batchSize);
            const answer = await pullPage(checkpoint?.seq ?? 0, batchSize, scope);
            // Never null: an event's documents may come with an empty first pull, and RxDB stores the checkpoint then.
            return { ...answer, checkpoint: answer.checkpoint ?? { seq: checkpoint?.seq ?? 0 } };
          },
        ),
      push: declaration.push ? (rows) => post(`${base}/push`, rows) as Promise<{ id: string }[]> : undefined,
    });
  }

  const groupSync = new GroupSync(post);

  /** The grouped kinds (pushedGroup.ts): one RxDB replication against each kind's own endpoints (groupSync.ts). */
  function replicateGroup(): RxReplicationState<unknown, GroupCheckpoint> {
    const collection = db.collections[PUSHED_GROUP] as RxCollection;
    const stream$ = new Subject<RxReplicationPullStreamItem<unknown, GroupCheckpoint>>();
    pullStreams.set(PUSHED_GROUP, stream$);
    return rxReplication<GroupCheckpoint>({
      stateName: PUSHED_GROUP,
      collection,
      identifier: replicationIdentifier(PUSHED_GROUP, collection.schema.version, options.baseUrl),
      stream$,
      pull: async (checkpoint, batchSize) => (await groupSync.pull(checkpoint, batchSize)) as never,
      push: (rows) => groupSync.push(rows),
    });
  }

  /**
   * A collection the device only reads, or the other members' part of one split by owner
   * (`scope: 'others'`): pulled into the document store, page by page.
   */
  function pullIntoStore(name: SyncCollectionName, docs: DocStore, scope?: PullScope): StorePull {
    const base = `/api/sync/${name}/${SYNC_DECLARATIONS[name].schema.version}`;
    const ownerOf = scope === 'others' ? SYNC_DECLARATIONS[name].push?.ownerOf : undefined;
    const userId = options.userId;
    const pull = new StorePull(
      docs,
      name,
      async (afterSeq, limit) =>
        (await post(`${base}/pull`, { checkpoint: afterSeq === 0 ? null : { seq: afterSeq }, limit, scope })) as Awaited<
          ReturnType<PullPage>
        >,
      options.retryTime ?? 5000,
      ownerOf && userId ? (doc) => ownerOf(doc as never) !== userId : undefined,
    );
    storePulls.set(name, pull);
    pull.reSync();
    return pull;
  }

  /**
   * The collections whose last push failed: what it carried still waits, however idle the
   * replications are while they wait to retry (another collection's push may well succeed meanwhile).
   */
  const pushFailed = new Set<SyncStateName>();
  const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);
  let syncing = false;
  let initialSyncDone = false;
  const status$ = new BehaviorSubject<SyncStatus>({
    online: isOnline(),
    syncing: false,
    pending: options.outbox.size,
    initialSyncDone,
  });
  const publish = () => status$.next({ online: isOnline(), syncing, pending: options.outbox.size, initialSyncDone });
  let activity: Subscription | null = null;
  /** When the replications last went from idle to busy (ms). */
  let syncingSince = 0;
  function watchActivity(): void {
    activity?.unsubscribe();
    activity = combineLatest(Object.values(states).map((state) => state.active$)).subscribe((active) => {
      const wasSyncing = syncing;
      syncing = active.some(Boolean);
      if (!wasSyncing && syncing) syncingSince = Date.now();
      // Every replication is idle, so nothing is left to push: an id still counted as waiting belongs to
      // a change that was undone before it was sent, or to a local write that failed. A change made
      // while they were busy (a pull) may not have reached its push yet: it stays counted.
      const settled = () => !syncing && !stopped && allStarted && isOnline() && pushFailed.size === 0;
      if (wasSyncing && settled()) {
        options.outbox.clearIfUnchangedSince(syncingSince - 1);
        if (options.outbox.size > 0) void clearWhatNeedsNoPush();
      }
      publish();
    });
  }
  /**
   * A change made while they were busy that RxDB then finds equal to the server's state (a guest
   * removed on the device just as the server's refusal removed it too) is never pushed, so no push
   * takes it out: once every replication has taken in what was written until now and is still idle,
   * nothing written until now waits any more.
   */
  async function clearWhatNeedsNoPush(): Promise<void> {
    const since = Date.now();
    await Promise.all(Object.values(states).map((state) => state.awaitInSync())).catch(() => {});
    await yieldToMain();
    if (!syncing && !stopped && isOnline() && pushFailed.size === 0) options.outbox.clearIfUnchangedSince(since);
  }
  /** Resolves once the collection has pulled everything once, or once a request of it has failed. */
  const firstPullOrFailure = (state: CollectionSync) =>
    firstValueFrom(merge(state.error$, state.canceled$.pipe(filter(Boolean)), state.awaitInitialReplication())).catch(() => {});

  const docs = options.docs;
  const isGrouped = (name: SyncCollectionName) => syncStateOf(name) === PUSHED_GROUP;
  const groupOpen = PUSHED_GROUP in db.collections;
  const inStore = (name: SyncCollectionName) => docs?.has(name) === true && rxCollection(name) === undefined && !isGrouped(name);
  const present = SYNC_COLLECTIONS.filter((name) =>
    isGrouped(name) ? groupOpen : rxCollection(name) !== undefined || inStore(name),
  );
  /** Split by owner on this device: in RxDB and in the document store. */
  function splitHere(name: SyncCollectionName): boolean {
    // A name the stream tells that is no synced collection ('config') is split nowhere.
    return SYNC_DECLARATIONS[name]?.splitByOwner === true && docs?.has(name) === true && rxCollection(name) !== undefined;
  }
  const priorities = [...new Set(present.map((name) => SYNC_DECLARATIONS[name].priority))].sort((a, b) => a - b);
  let allStarted = false;
  const ready = (async () => {
    for (const priority of priorities) {
      if (stopped) return;
      const group = present.filter((name) => SYNC_DECLARATIONS[name].priority === priority);
      // One collection per task, so a warm start's screen stays responsive while they start.
      for (const name of group) {
        if (stopped) return;
        if (isGrouped(name)) {
          // The group starts with its first kind, in that kind's priority.
          states[PUSHED_GROUP] ??= replicateGroup();
          continue;
        }
        states[name] = inStore(name) ? pullIntoStore(name, docs!) : replicate(name);
        if (splitHere(name)) states[`${name}/others`] = pullIntoStore(name, docs!, 'others');
        await yieldToMain();
      }
      allStarted = priority === priorities.at(-1);
      watchActivity();
      if (priority === priorities[0]) await Promise.all(group.filter(inStore).map((name) => firstPullOrFailure(states[name]!)));
    }
  })();

  void ready
    .then(() => Promise.all(Object.values(states).map((state) => state.awaitInitialReplication())))
    .then(() => {
      initialSyncDone = true;
      publish();
    })
    .catch(() => {});
  const unsubscribeOutbox = options.outbox.subscribe(publish);

  const reSync = () => {
    groupSync.changedAll();
    for (const stream$ of pullStreams.values()) stream$.next('RESYNC');
    for (const pull of storePulls.values()) pull.reSync();
  };

  // Only the tab that replicates (the leader) holds the stream: browsers allow ~6 connections per origin.
  let connected: ChangeStream | null = null;
  const connect = () => {
    if (stopped) return;
    connected = connectChangeStream({
      url: `${options.baseUrl}/api/sync/stream`,
      token: options.token,
      fetch: fetchImpl,
      minDelayMs: options.streamMinDelayMs,
      onConnect: reSync,
      onChange: (change) => {
        for (const name of change.collections as SyncCollectionName[]) {
          if (isGrouped(name)) groupSync.changed(name as GroupedCollectionName);
          // The member's own part of a split collection, in which the batch says nothing changed, is not pulled.
          if (!(splitHere(name) && change.unchanged?.includes(`${name}/own`))) pullStreams.get(syncStateOf(name))?.next('RESYNC');
          const storePull = storePulls.get(name);
          const tail = change.lists?.[splitHere(name) ? `${name}/others` : name];
          if (tail) storePull?.offer(tail);
          else storePull?.reSync();
        }
        options.onServerChange?.(change.collections);
      },
      onUnauthorized: options.onUnauthorized,
    });
  };
  if (options.live === false) {
    // one run: nothing to be told
  } else if (options.waitForLeadership ?? true) void db.waitForLeadership().then(connect);
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
  if (typeof window !== 'undefined' && options.live !== false) {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
  }

  async function loadEvent(eventId: string): Promise<void> {
    if (options.waitForLeadership ?? true) await leadership(db);
    const kept = present.filter((name) => KEPT_BY_EVENT_COLLECTIONS.includes(name));
    // The other members' rows of a split collection go to the document store (the device's own
    // rows of every event are pulled anyway); the rest come through the collection's next pull.
    const names = kept.filter((name) => !inStore(name) && !splitHere(name));
    const fetched = names.map((name) => eventPulls.request(name, eventId));
    for (const name of names) pullStreams.get(name)?.next('RESYNC');
    const stored = kept.filter(splitHere).map(async (name) => {
      const path = `/api/sync/${name}/${SYNC_DECLARATIONS[name].schema.version}/events/${encodeURIComponent(eventId)}?scope=others`;
      const { documents } = (await get(path)) as { documents: PulledDoc[] };
      await docs!.storeLoose(name, documents);
    });
    await Promise.all([...fetched, ...stored]);
    await ready;
    await Promise.all(names.map((name) => states[name]?.awaitInSync()));
  }

  return {
    states,
    status$,
    stream,
    started: ready.catch(() => {}),
    reSync,
    loadEvent,
    async stop() {
      eventPulls.cancel(new Error('sync stopped'));
      stream.stop();
      if (typeof window !== 'undefined') {
        window.removeEventListener('online', onOnline);
        window.removeEventListener('offline', onOffline);
      }
      unsubscribeOutbox();
      activity?.unsubscribe();
      // Cancelling ends the wait of the group being started; no later group starts once stopped.
      await Promise.all(Object.values(states).map((state) => state.cancel()));
      await ready.catch(() => {});
      await Promise.all(Object.values(states).map((state) => state.cancel()));
      status$.complete();
    },
  };
}
