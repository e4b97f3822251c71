import { randomUUID } from 'node:crypto';
import { SYNC_COLLECTIONS } from '@fankurve/shared';
import { sql } from 'kysely';
import pg from 'pg';
import type { ChangedCollection, Commit, RecordedEvent, Store } from './store.js';

/** The PostgreSQL channel every instance on one database listens on. */
export const COMMIT_CHANNEL = 'fankurve_commits';

/** PostgreSQL refuses payloads of 8000 bytes and more; larger commits go out in parts. */
const PAYLOAD_MAX = 7000;
const RECONNECT_MS = 1000;

/** One notification: the sending instance, changed collections and the events remote caches need. */
interface Payload {
  i: string;
  c: ChangedCollection[];
  e: RecordedEvent[];
}

/** The events another instance's caches and change streams act on; the rest stays with the writer. */
const travels = (event: RecordedEvent) =>
  event.type.startsWith('user.') || event.type.startsWith('password.') || event.type === 'session.ended';

/** A commit as one or more notification payloads, each under PostgreSQL's limit. */
export function payloadsOf(instance: string, commit: Commit): string[] {
  const events = commit.events.filter(travels);
  const payloads: string[] = [];
  let part: Payload = { i: instance, c: [...commit.collections], e: [] };
  for (const event of events) {
    part.e.push(event);
    if (part.e.length > 1 && JSON.stringify(part).length > PAYLOAD_MAX) {
      part.e.pop();
      payloads.push(JSON.stringify(part));
      part = { i: instance, c: [], e: [event] };
    }
  }
  payloads.push(JSON.stringify(part));
  return payloads;
}

/**
 * Several server instances on one PostgreSQL database (docs/architecture.md, "Several instances").
 * After a local commit, and outside its transaction, `relay` sends `pg_notify` on a connection of the
 * writers' pool (a writer answers only once it is sent: never behind a queue of reads)
 * (NOTIFY inside the write transaction would take PostgreSQL's global notify lock at
 * every commit). One dedicated client per instance LISTENs and hands other instances' commits to
 * the local bus as `origin: 'remote'`, where only caches and change streams take them; they are
 * never relayed again. A lost listening connection is opened again, and the commits missed meanwhile
 * are made up for by one `missed` commit naming every collection.
 */
export class CommitSignal {
  readonly instance = randomUUID();
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  private constructor(
    private readonly store: Store,
    private readonly databaseUrl: string,
  ) {}

  /** Starts listening (resolves once LISTEN is in place) and relays the store's local commits. */
  static async start(store: Store, databaseUrl: string): Promise<CommitSignal> {
    const signal = new CommitSignal(store, databaseUrl);
    await signal.listen(false);
    const stopRelay = store.commits.relayTo((commit) => signal.send(commit));
    store.commits.onClose(() => {
      stopRelay();
      void signal.close();
    });
    return signal;
  }

  async send(commit: Commit): Promise<void> {
    for (const payload of payloadsOf(this.instance, commit)) {
      await sql`select pg_notify(${COMMIT_CHANNEL}, ${payload})`.execute(this.store.writer ?? this.store.db);
    }
  }

  private async listen(afterLoss: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === COMMIT_CHANNEL && message.payload) this.receive(message.payload);
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.closed) return;
      console.warn(`Lost the connection that hears other instances' commits${error ? `: ${error.message}` : ''}; reconnecting`);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${COMMIT_CHANNEL}`);
    } catch (error) {
      if (!afterLoss) {
        this.client = null;
        await client.end().catch(() => undefined);
        throw error;
      }
      lost(error as Error);
      return;
    }
    if (afterLoss) {
      this.store.commits.publish({
        origin: 'remote',
        events: [],
        collections: new Set([...SYNC_COLLECTIONS, 'config']),
        missed: true,
      });
    }
  }

  private scheduleReconnect(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) void this.listen(true);
    }, RECONNECT_MS);
    this.retry.unref();
  }

  private receive(text: string): void {
    let payload: Payload;
    try {
      payload = JSON.parse(text) as Payload;
    } catch {
      return;
    }
    if (payload.i === this.instance) return;
    this.store.commits.publish({
      origin: 'remote',
      events: Array.isArray(payload.e) ? payload.e : [],
      collections: new Set(Array.isArray(payload.c) ? payload.c : []),
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}
