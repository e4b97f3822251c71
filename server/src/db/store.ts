import { clubWallClock, DEFAULT_TIME_ZONE, todayIn, type SyncCollectionName } from '@fankurve/shared';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';

/**
 * Names of replicated collections a write can touch (sync collection names, not table names), and
 * 'config': the team configuration, which no device replicates but every device re-reads when the
 * change stream names it (devices ignore names they do not replicate).
 */
export type ChangedCollection = SyncCollectionName | 'config';

/**
 * The events a write records, as this layer knows them: something with a `type`. The domain names
 * them (domain/domainEvents.ts completes this interface by declaration merging with its union), so
 * the database layer carries them without importing the domain.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- completed by the domain's declaration merging
export interface RecordedEvents {}
export type RecordedEvent = RecordedEvents extends { event: infer E extends { type: string } } ? E : { type: string };

/** What one committed transaction did: its domain events and the replicated collections it changed. */
export interface Commit {
  /**
   * 'local': committed by this process's `write()`; 'remote': told by another server instance on
   * the same PostgreSQL database (db/commitSignal.ts), whose events are only the ones caches and
   * change streams need (user, password and session-end events).
   */
  origin: 'local' | 'remote';
  events: readonly RecordedEvent[];
  collections: ReadonlySet<ChangedCollection>;
  /** Remote only: commits may have been missed (the listening connection was lost); drop every cache. */
  missed?: boolean;
}

export type CommitSubscriber = (commit: Commit) => void | Promise<void>;

/** What a subscriber receives: local commits only (the default), or other instances' commits too. */
export interface SubscribeOptions {
  remote?: boolean;
}

/** Sends a local commit on to the other server instances (db/commitSignal.ts); `write()` awaits it. */
export type CommitRelay = (commit: Commit) => Promise<void>;

/**
 * Hands every committed write to its subscribers (the sync change stream; later web push, mail and
 * reminders). A subscriber's failure is logged and never reaches the writer: the write has
 * committed. Domain subscribers (web push, the mail digest) take local commits only, so each commit
 * is acted on once; caches and change streams subscribe with `{ remote: true }` and also take the
 * commits of other instances (docs/architecture.md, "Several instances").
 */
export class CommitBus {
  private subscribers = new Map<CommitSubscriber, boolean>();
  private closeListeners = new Set<() => void>();
  private relays = new Set<CommitRelay>();

  subscribe(subscriber: CommitSubscriber, options: SubscribeOptions = {}): () => void {
    this.subscribers.set(subscriber, options.remote === true);
    return () => this.subscribers.delete(subscriber);
  }

  /** Registers a relay of local commits to other instances; returns its removal. */
  relayTo(relay: CommitRelay): () => void {
    this.relays.add(relay);
    return () => this.relays.delete(relay);
  }

  /** Runs the relays for a local commit; a relay's failure is logged, never thrown. */
  async relay(commit: Commit): Promise<void> {
    if (commit.origin !== 'local' || isEmpty(commit)) return;
    await Promise.all(
      [...this.relays].map(async (relay) => {
        try {
          await relay(commit);
        } catch (error) {
          console.error('Telling other instances of a commit failed:', error);
        }
      }),
    );
  }

  /** Called on shutdown, so open streams end and the server can close. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    for (const listener of this.closeListeners) listener();
    this.closeListeners.clear();
    this.subscribers.clear();
    this.relays.clear();
  }

  publish(commit: Commit): void {
    if (isEmpty(commit)) return;
    for (const [subscriber, takesRemote] of this.subscribers) {
      if (commit.origin === 'remote' && !takesRemote) continue;
      try {
        const result = subscriber(commit);
        if (result instanceof Promise) result.catch(logSubscriberFailure);
      } catch (error) {
        logSubscriberFailure(error);
      }
    }
  }
}

const isEmpty = (commit: Commit) => commit.events.length === 0 && commit.collections.size === 0 && !commit.missed;

function logSubscriberFailure(error: unknown): void {
  console.error('A commit subscriber failed:', error);
}

export interface Store {
  db: Kysely<Database>;
  /** Where write transactions run, when not on `db` (PostgreSQL: a pool of their own, db/connection.ts). */
  writer?: Kysely<Database>;
  dialect: Dialect;
  commits: CommitBus;
  /** The club's time zone (CLUB_TIME_ZONE): it decides which calendar day `w.today()` is. Default Europe/Berlin. */
  clubTimeZone?: string;
  /** Steps every transaction that took a seq runs last, before it commits (registered by deps.ts). */
  beforeCommit?: readonly BeforeCommit[];
}

/** What a transaction wrote to replicated collections, as a before-commit step sees it. */
export interface Written {
  /** The collections it took seqs for (savepoints rolled back not counted). */
  collections: ReadonlySet<ChangedCollection>;
  /** The first seq it took: every row it wrote has this seq or a higher one (writers serialise on the counter). */
  firstSeq: number;
}

/**
 * A write every transaction owes at its end, e.g. giving the events of changed attendee rows a new
 * seq (domain/events/events.ts `bumpEventsOfAttendeeRows`). It runs inside the transaction, so it commits
 * or rolls back with it; it may take seqs itself and is not run again for them.
 */
export type BeforeCommit = (w: WriteContext, written: Written) => Promise<void>;

/**
 * The handle every domain writer works through (docs/architecture.md, one write convention): the
 * transaction, the seq counter, the domain events of the write, and hooks for what must happen
 * outside the database after a commit or a rollback (removing an uploaded file).
 */
export interface WriteContext {
  db: Transaction<Database>;
  /** One timestamp for the whole transaction (ISO 8601 UTC). */
  now: string;
  /** The club's calendar day of `now` (`YYYY-MM-DD` in the club's time zone): what is past (docs/product.md, States and transitions). */
  today(): string;
  /** The club's wall-clock time of `now` (`YYYY-MM-DD HH:MM:SS`): what answer deadlines are compared with (`clubWallClock`). */
  clubNow(): string;
  /** The club's time zone (CLUB_TIME_ZONE), for turning its wall-clock times into instants. */
  timeZone: string;
  /** Takes the next value of the one counter row for a row written to a replicated collection. */
  nextSeq(collection: ChangedCollection): Promise<number>;
  /** Records what happened; subscribers receive it after the commit, never on rollback. */
  record(event: RecordedEvent): void;
  onCommit(task: () => void | Promise<void>): void;
  onRollback(task: () => void | Promise<void>): void;
  /**
   * Runs part of the transaction under a savepoint: when it throws, its writes, its seq numbers,
   * its recorded events and its hooks are undone, the error is re-thrown, and the transaction can
   * go on (a sync push refuses one row and applies the next).
   */
  attempt<T>(part: () => Promise<T>): Promise<T>;
}

type Task = () => void | Promise<void>;

/** What a transaction has collected so far; a savepoint's rollback cuts it back to a mark. */
class WriteJournal {
  events: RecordedEvent[] = [];
  touched: ChangedCollection[] = [];
  /** The first seq the transaction took (a savepoint's rollback gives its seqs back, so it is cut back too). */
  firstSeq: number | null = null;
  commitTasks: Task[] = [];
  rollbackTasks: Task[] = [];

  mark() {
    return [this.events.length, this.touched.length, this.firstSeq, this.commitTasks.length, this.rollbackTasks.length] as const;
  }

  async cutBackTo([events, touched, firstSeq, commitTasks, rollbackTasks]: ReturnType<WriteJournal['mark']>): Promise<void> {
    this.events.length = events;
    this.touched.length = touched;
    this.firstSeq = firstSeq;
    this.commitTasks.length = commitTasks;
    await runAll(this.rollbackTasks.splice(rollbackTasks));
  }
}

async function runAll(tasks: Task[]): Promise<void> {
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      console.error('A commit or rollback task failed:', error);
    }
  }
}

let savepointCounter = 0;

function createContext(trx: Transaction<Database>, journal: WriteJournal, timeZone: string): WriteContext {
  const now = new Date();
  let today: string | undefined;
  const context: WriteContext = {
    db: trx,
    now: now.toISOString(),
    today: () => (today ??= todayIn(timeZone, now)),
    clubNow: () => clubWallClock(timeZone, now),
    timeZone,
    async nextSeq(collection) {
      journal.touched.push(collection);
      const row = await trx
        .updateTable('counters')
        .set((eb) => ({ value: eb('value', '+', 1) }))
        .where('name', '=', 'seq')
        .returning('value')
        .executeTakeFirstOrThrow();
      journal.firstSeq ??= Number(row.value);
      return Number(row.value);
    },
    record: (event) => void journal.events.push(event),
    onCommit: (task) => void journal.commitTasks.push(task),
    onRollback: (task) => void journal.rollbackTasks.push(task),
    async attempt(part) {
      const name = sql.raw(`fk_sp${++savepointCounter}`);
      const mark = journal.mark();
      await sql`savepoint ${name}`.execute(trx);
      try {
        const result = await part();
        await sql`release savepoint ${name}`.execute(trx);
        return result;
      } catch (error) {
        await sql`rollback to savepoint ${name}`.execute(trx);
        await sql`release savepoint ${name}`.execute(trx);
        await journal.cutBackTo(mark);
        throw error;
      }
    },
  };
  return context;
}

/**
 * The store's before-commit steps, only for a transaction that took a seq (one without pays nothing).
 * Each step sees what the steps before it wrote too (the ledger settling a ticket writes an attendee
 * row whose event must then take a seq).
 */
async function runBeforeCommit(store: Store, w: WriteContext, journal: WriteJournal): Promise<void> {
  const firstSeq = journal.firstSeq;
  if (firstSeq === null || !store.beforeCommit) return;
  for (const step of store.beforeCommit) await step(w, { collections: new Set(journal.touched), firstSeq });
}

/**
 * Runs a write in one transaction. Every replicated write takes the next seq from one counter row,
 * which serialises writers (SQLite and PostgreSQL alike), so a reader never misses a change that
 * commits later with a lower seq. The store's before-commit steps run last in the transaction.
 * After the commit the recorded domain events and the changed collections go to the commit bus and
 * on to other instances; after a rollback only the rollback tasks run.
 */
export async function write<T>(store: Store, fn: (w: WriteContext) => Promise<T>): Promise<T> {
  const journal = new WriteJournal();
  let result: T;
  try {
    result = await (store.writer ?? store.db).transaction().execute(async (trx) => {
      if (store.dialect === 'postgres') {
        // Serialise writers up front so a domain function's read-check-write cannot race another writer.
        await trx.selectFrom('counters').select('value').where('name', '=', 'seq').forUpdate().execute();
      }
      const w = createContext(trx, journal, store.clubTimeZone ?? DEFAULT_TIME_ZONE);
      const value = await fn(w);
      await runBeforeCommit(store, w, journal);
      return value;
    });
  } catch (error) {
    await runAll(journal.rollbackTasks);
    throw error;
  }
  await runAll(journal.commitTasks);
  const commit: Commit = { origin: 'local', events: journal.events, collections: new Set(journal.touched) };
  store.commits.publish(commit);
  // Other instances hear of it before the writer answers (outside the transaction: no lock held).
  await store.commits.relay(commit);
  return result;
}

export const toBool = (value: number | boolean | null | undefined): boolean => value === 1 || value === true;
export const toInt = (value: boolean): number => (value ? 1 : 0);
