import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';

/** Names of replicated collections a write can touch (sync collection names, not table names). */
export type ChangedCollection = 'events' | 'attendees' | 'members' | 'notices' | 'transports' | 'comments' | 'mentions';

type ChangeListener = (collections: ReadonlySet<ChangedCollection>) => void;

/** Announces committed changes to the sync stream. One process; a multi-process setup would use LISTEN/NOTIFY. */
export class ChangeFeed {
  private listeners = new Set<ChangeListener>();

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private closeListeners = new Set<() => void>();

  /** Called on shutdown, so open streams end and the server can close. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    for (const listener of this.closeListeners) listener();
    this.closeListeners.clear();
    this.listeners.clear();
  }

  publish(collections: ReadonlySet<ChangedCollection>): void {
    if (collections.size === 0) return;
    for (const listener of this.listeners) listener(collections);
  }
}

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  changes: ChangeFeed;
}

/** The handle every domain write works through: the transaction and the seq counter. */
export interface WriteContext {
  db: Transaction<Database>;
  /** Takes the next value of the one counter row for a row written to a replicated collection. */
  nextSeq(collection: ChangedCollection): Promise<number>;
  now: string;
}

/**
 * Runs a write in one transaction. Every replicated write takes the next seq from one counter row,
 * which serialises writers (SQLite and PostgreSQL alike), so a reader never misses a change that
 * commits later with a lower seq. Changed collections are announced after commit.
 */
export async function write<T>(store: Store, fn: (w: WriteContext) => Promise<T>): Promise<T> {
  const touched = new Set<ChangedCollection>();
  const result = await store.db.transaction().execute(async (trx) => {
    if (store.dialect === 'postgres') {
      // Serialise writers up front so a domain function's read-check-write cannot race another writer.
      await trx.selectFrom('counters').select('value').where('name', '=', 'seq').forUpdate().execute();
    }
    const context: WriteContext = {
      db: trx,
      now: new Date().toISOString(),
      async nextSeq(collection) {
        touched.add(collection);
        const row = await trx
          .updateTable('counters')
          .set((eb) => ({ value: eb('value', '+', 1) }))
          .where('name', '=', 'seq')
          .returning('value')
          .executeTakeFirstOrThrow();
        return Number(row.value);
      },
    };
    return fn(context);
  });
  store.changes.publish(touched);
  return result;
}

export const toBool = (value: number | boolean | null | undefined): boolean => value === 1 || value === true;
export const toInt = (value: boolean): number => (value ? 1 : 0);
