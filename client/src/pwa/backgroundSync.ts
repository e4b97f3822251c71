import { PUSHED_COLLECTIONS } from '@fankurve/shared';
import type { Subscription } from 'rxjs';
import { createFankurveDatabase, DEVICE_DATABASE_NAME, type FankurveDatabase } from '../data/database.js';
import {
  BACKGROUND_OUTCOME_KEY,
  BACKGROUND_SYNCED_KEY,
  deleteDeviceValue,
  readDeviceValue,
  readDeviceValues,
  WORKER_SESSION_KEY,
  writeDeviceValue,
} from '../data/deviceStore.js';
import { Outbox } from '../data/outbox.js';
import { DROPPED_ANSWERS_PREFIX, type AnswerStore } from '../data/rebase.js';
import { startReplication } from '../data/replication.js';

/*
 * The service worker's background sync (docs/architecture.md, Background sync): when the browser
 * wakes the worker after the connection returned, it sends the changes the device queued offline
 * with the app's own replication code, on the app's own database, and closes it again, so the app
 * finds it as if it had synced itself: the server's answers adopted, nothing left to push.
 */

export type BackgroundSyncOutcome =
  /** Every change that waited was sent, the server's answers adopted and the collections pulled. */
  | 'synced'
  /** A window of the app is open: its leader tab replicates, the worker leaves it the work. */
  | 'windowOpen'
  /** Someone else holds the database's leadership (a tab that is starting): it replicates. */
  | 'otherReplicates'
  /** Signed out: nothing is sent. */
  | 'noSession'
  /** The server refused the session: nothing changed; the app finds out at its next start and tells the member. */
  | 'unauthorized'
  /** The server speaks a newer schema version: nothing changed; the app reloads at its next start. */
  | 'outdated';

/** The sync could not finish (no network, or the server failed): the browser tries again later. */
export class BackgroundSyncFailed extends Error {}

export interface BackgroundSyncOptions {
  /** The app's origin: the server's address, and part of the replication's identifier. */
  origin: string;
  /** Whether a window of the app is open. */
  windowOpen(): Promise<boolean>;
  fetch?: typeof fetch;
  databaseName?: string;
  /** Tests in Node open a single-instance database, in RxDB's dev-mode like their other devices. */
  multiInstance?: boolean;
  devMode?: boolean;
  /** How long the worker waits for the database's leadership before it leaves the work to whoever holds it. */
  leadershipWaitMs?: number;
  now?: () => number;
}

let running: Promise<BackgroundSyncOutcome> | null = null;

/**
 * Sends what the device queued, unless a window of the app is open or nobody is signed in. Resolves
 * with what it did (also kept in the device store); rejects when the network or the server failed,
 * so the browser fires the sync again later. A second call while one runs waits for that one.
 */
export function runBackgroundSync(options: BackgroundSyncOptions): Promise<BackgroundSyncOutcome> {
  running ??= run(options).finally(() => {
    running = null;
  });
  return running;
}

async function run(options: BackgroundSyncOptions): Promise<BackgroundSyncOutcome> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const record = (outcome: string) => writeDeviceValue(BACKGROUND_OUTCOME_KEY, { outcome, at: now() }).catch(() => undefined);
  try {
    const outcome = await attempt(options, startedAt);
    await record(outcome);
    return outcome;
  } catch (error) {
    await record('failed');
    throw error instanceof BackgroundSyncFailed ? error : new BackgroundSyncFailed(String(error));
  }
}

async function attempt(options: BackgroundSyncOptions, startedAt: number): Promise<BackgroundSyncOutcome> {
  if (await options.windowOpen()) return 'windowOpen';
  const session = await readDeviceValue<{ token?: unknown }>(WORKER_SESSION_KEY);
  if (typeof session?.token !== 'string' || session.token === '') return 'noSession';

  const answers = await MirroredAnswers.load();
  const db = await createFankurveDatabase({
    name: options.databaseName ?? DEVICE_DATABASE_NAME,
    devMode: options.devMode ?? false,
    multiInstance: options.multiInstance ?? true,
    collections: PUSHED_COLLECTIONS,
    answerStore: answers,
  });
  try {
    // The leadership is the lock the app's tabs replicate under: never two replicators on one database.
    if (!(await leads(db, options.leadershipWaitMs ?? 2000))) return 'otherReplicates';
    if (await options.windowOpen()) return 'windowOpen';
    const outcome = await replicateOnce(db, session.token, options);
    // Written while the worker still leads: a tab that starts now waits for it, then takes it.
    if (outcome === 'synced') await writeDeviceValue(BACKGROUND_SYNCED_KEY, { startedAt });
    return outcome;
  } finally {
    await answers.flush();
    await db.close();
  }
}

async function leads(db: FankurveDatabase, waitMs: number): Promise<boolean> {
  if (db.isLeader()) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), waitMs);
  });
  const won = await Promise.race([db.waitForLeadership().then(() => true as const), timeout]);
  clearTimeout(timer);
  return won;
}

/**
 * One run of the app's replication of the pushed collections, without the change stream: each
 * pushes what waits and pulls until it is in sync, then it is stopped. Stops at the first failure:
 * a refused session or an outdated app ends it quietly, anything else (no network, a server error)
 * fails it.
 */
async function replicateOnce(
  db: FankurveDatabase,
  token: string,
  options: BackgroundSyncOptions,
): Promise<BackgroundSyncOutcome> {
  const outcome: { refused: 'unauthorized' | 'outdated' | null } = { refused: null };
  let fail: (error: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => {
    fail = resolve;
  });
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  // Every request goes through here, so the first failure ends the run instead of RxDB's retries.
  const watchedFetch: typeof fetch = async (input, init) => {
    try {
      const response = await fetchImpl(input, init);
      if (response.status === 401) outcome.refused = 'unauthorized';
      else if (response.status === 426) outcome.refused = 'outdated';
      if (!response.ok) fail(new BackgroundSyncFailed(`the server answered ${response.status}`));
      return response;
    } catch (error) {
      fail(new BackgroundSyncFailed(`no connection: ${String(error)}`));
      throw error;
    }
  };
  const handle = startReplication(db, {
    baseUrl: options.origin,
    token,
    outbox: new Outbox(null),
    fetch: watchedFetch,
    live: false,
    waitForLeadership: false,
    retryTime: 1000,
    // Told by the status above already.
    onUnauthorized: () => undefined,
    onOutdated: () => undefined,
  });
  const errors: Subscription[] = [];
  try {
    const done = handle.started.then(() => {
      const states = Object.values(handle.states);
      // Any other failure of a replication (RxDB retries it without end) fails the run too.
      for (const state of states) errors.push(state.error$.subscribe((error) => fail(new BackgroundSyncFailed(error.message))));
      return Promise.all(states.map((state) => state.awaitInitialReplication().then(() => state.awaitInSync())));
    });
    const failure = await Promise.race([done.then(() => null), failed]);
    if (outcome.refused) return outcome.refused;
    if (failure) throw failure;
    return 'synced';
  } finally {
    for (const subscription of errors) subscription.unsubscribe();
    await handle.stop();
  }
}

/**
 * The push rebaser's dropped answers as the page keeps them (data/rebase.ts mirrors its localStorage
 * into the device store), read once before the database opens, written back as they change.
 */
class MirroredAnswers implements AnswerStore {
  private readonly writes: Promise<unknown>[] = [];

  private constructor(private readonly items: Map<string, string>) {}

  static async load(): Promise<MirroredAnswers> {
    const values = await readDeviceValues(DROPPED_ANSWERS_PREFIX);
    const items = [...values].filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return new MirroredAnswers(new Map(items));
  }

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.items.set(key, value);
    this.writes.push(writeDeviceValue(key, value).catch(() => undefined));
  }

  removeItem(key: string): void {
    this.items.delete(key);
    this.writes.push(deleteDeviceValue(key).catch(() => undefined));
  }

  async flush(): Promise<void> {
    await Promise.all(this.writes);
  }
}
