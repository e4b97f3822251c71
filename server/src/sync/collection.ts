import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WriteContext } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import type { PushRow, SyncDocument } from './protocol.js';

/**
 * One replicated collection: its schema version, how its documents are read for an actor (ordered
 * by seq, filtered by what the actor may see, tombstones included) and, where clients may push,
 * how a pushed row is applied (through the same domain functions as the REST routes).
 */
export interface SyncCollection {
  name: string;
  version: number;
  /** Documents with seq greater than afterSeq, ascending by seq, at most limit. */
  pull(db: Kysely<Database>, actor: Actor, afterSeq: number, limit: number): Promise<SyncDocument[]>;
  /** Applies the rows in one transaction; returns the conflicting master documents. */
  push?(w: WriteContext, actor: Actor, rows: PushRow[]): Promise<SyncDocument[]>;
}

/** Compares the fields a client holds, ignoring seq (server-assigned) and RxDB's own meta fields. */
export function sameDocument(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === 'seq' || key === '_meta' || key === '_rev' || key === '_attachments') continue;
    if (JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null)) return false;
  }
  return true;
}
