import 'fake-indexeddb/auto';
import { firstValueFrom } from 'rxjs';
import {
  DEVICE_STORE_COLLECTIONS,
  type AttendeeDoc,
  type PullOnlyCollectionName,
  type SyncCollectionName,
  type SyncDocOf,
} from '@fankurve/shared';
import { createFankurveDatabase, type FankurveDatabase } from '../src/data/database.js';
import { rowsOfEvents$ } from '../src/data/collections/attendees.js';
import { DocStore } from '../src/data/docStore.js';
import type { AnswerStore } from '../src/data/rebase.js';
import { Outbox } from '../src/data/outbox.js';
import { startReplication, syncStateOf, type SyncHandle } from '../src/data/replication.js';

let clientCounter = 0;

/**
 * A device: the client's own RxDB database and document store (fake-indexeddb) and replication
 * code, talking to the real app over HTTP. `offline` makes every request fail like a dead connection.
 */
/** The member a session token is for (its JWT subject), as the app knows it from its session. */
const subjectOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;

export class TestClient {
  offline = false;
  unauthorized = 0;
  /** How many `change` events of the server's stream the device has taken (each one RESYNCs what it names). */
  serverChanges = 0;
  private constructor(
    readonly db: FankurveDatabase,
    readonly docs: DocStore,
    public handle: SyncHandle,
    readonly outbox: Outbox,
    private readonly start: (baseUrl: string) => SyncHandle,
  ) {}

  /**
   * `collections`: the open-source RxDB allows 13 collections per process, so each device takes what
   * its test needs (those it only reads go to its document store, which has no such limit).
   */
  static async connect(
    baseUrl: string,
    token: string,
    collections: readonly SyncCollectionName[] = ['events', 'attendees', 'members', 'notices'],
    /** Sees every request of the device (to count, delay or inspect it); calls `next` to send it. */
    intercept?: (url: string, init: RequestInit | undefined, next: () => Promise<Response>) => Promise<Response>,
    /** The app started again on a device: its database's name, and the storage that outlives the app (localStorage). */
    device: { name?: string; answerStore?: AnswerStore } = {},
  ): Promise<TestClient> {
    const holder: { client?: TestClient } = {};
    const name = device.name ?? `client${process.pid}x${clientCounter++}`;
    const docs = await DocStore.open(
      name,
      DEVICE_STORE_COLLECTIONS.filter((collection) => collections.includes(collection)),
    );
    const db = await createFankurveDatabase({
      name,
      devMode: true,
      multiInstance: false,
      collections,
      answerStore: device.answerStore ?? null,
    });
    const outbox = new Outbox(null);
    const send: typeof fetch = (input, init) =>
      holder.client?.offline ? Promise.reject(new TypeError('fetch failed (offline)')) : fetch(input, init);
    const guardedFetch: typeof fetch = (input, init) =>
      intercept ? intercept(String(input), init, () => send(input, init)) : send(input, init);
    const start = (url: string) =>
      startReplication(db, {
        baseUrl: url,
        token,
        userId: subjectOf(token),
        outbox,
        docs,
        fetch: guardedFetch,
        retryTime: 150,
        streamMinDelayMs: 100,
        waitForLeadership: false,
        onUnauthorized: () => {
          if (holder.client) holder.client.unauthorized++;
        },
        onServerChange: () => {
          if (holder.client) holder.client.serverChanges++;
        },
      });
    const client = new TestClient(db, docs, start(baseUrl), outbox, start);
    holder.client = client;
    return client;
  }

  /** Stops the replication and starts it again (another base URL means a fresh replication state). */
  async restartReplication(baseUrl: string): Promise<void> {
    await this.handle.stop();
    this.handle = this.start(baseUrl);
  }

  async goOffline(): Promise<void> {
    this.offline = true;
    this.handle.stream.reconnect();
  }

  goOnline(): void {
    this.offline = false;
    this.handle.stream.reconnect();
    this.handle.reSync();
  }

  /**
   * Until every replication of the device is idle: no pull or push under way or queued (RxDB's
   * `awaitInSync`). What the device would still send on its own has been sent by then.
   */
  async inSync(): Promise<void> {
    await Promise.all(Object.values(this.handle.states).map((state) => state.awaitInSync()));
  }

  /**
   * Resolves at the collection's next failed push: the device tried to send its change and could not
   * (offline). Call it before the write.
   */
  nextPushFailure(name: SyncCollectionName): Promise<void> {
    const state = this.handle.states[syncStateOf(name)];
    if (!state) return Promise.reject(new Error(`${name} does not replicate on this device`));
    return new Promise((resolve) => {
      const subscription = state.error$.subscribe((error) => {
        if (error.code !== 'RC_PUSH') return;
        subscription.unsubscribe();
        resolve();
      });
    });
  }

  /** A document the device only reads (its document store), null while it has none of that id. */
  async stored<Name extends PullOnlyCollectionName>(collection: Name, id: string): Promise<SyncDocOf<Name> | null> {
    return (await this.docs.table(collection).get(id)) ?? null;
  }

  /** Every document of a collection the device only reads. */
  storedAll<Name extends PullOnlyCollectionName>(collection: Name): Promise<SyncDocOf<Name>[]> {
    return this.docs.table(collection).toArray();
  }

  /** The attendee rows on the device: its own in RxDB, the other members' in the document store. */
  async attendees(eventId?: string): Promise<AttendeeDoc[]> {
    return firstValueFrom(rowsOfEvents$(this.db, this.docs, eventId === undefined ? undefined : [eventId]));
  }

  async close(): Promise<void> {
    await this.handle.stop();
    await this.db.remove();
    await this.docs.remove();
  }

  /** The app is closed: replication stops and the database closes, and what it stored stays on the device. */
  async quit(): Promise<void> {
    await this.handle.stop();
    await this.db.close();
    this.docs.close();
  }
}

/** localStorage's part that the push rebaser uses, for a device in Node. */
export class MemoryStorage implements AnswerStore {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** Polls until the check passes (replication is asynchronous), or fails with the last reason. */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 8000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() - start > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
