import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Actor } from '../domain/actor.js';
import type { MasterDocument, SyncCollection } from './collection.js';
import type { Checkpoint, SyncDocument } from './protocol.js';

/** A pulled document as it goes to a device: a tombstone carries only id, seq and `_deleted`. */
export function toWire(doc: MasterDocument): SyncDocument {
  return doc._deleted ? { id: doc.id, seq: doc.seq, _deleted: true } : (doc as SyncDocument);
}

/**
 * A conflict answer must be a whole, schema-valid document (RxDB writes it to the device as it is):
 * a tombstone gets the declaration's blank fields, so it still carries nothing of the deleted row.
 */
export function toConflictAnswer(collection: SyncCollection, id: string, doc: MasterDocument | undefined): SyncDocument {
  if (doc && !doc._deleted) return doc as SyncDocument;
  return { ...collection.declaration.tombstone, id, seq: doc?.seq ?? 0, _deleted: true };
}

/** One pull: the documents after the checkpoint, and the checkpoint to continue from (unchanged when none). */
export async function pullBatch(
  db: Kysely<Database>,
  actor: Actor,
  collection: SyncCollection,
  checkpoint: Checkpoint,
  limit: number,
): Promise<{ documents: SyncDocument[]; checkpoint: Checkpoint }> {
  const docs = await collection.pull(db, actor, checkpoint?.seq ?? 0, limit);
  const last = docs.at(-1);
  return { documents: docs.map(toWire), checkpoint: last ? { seq: last.seq } : checkpoint };
}
