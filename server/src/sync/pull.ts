import { DEFAULT_TIME_ZONE, isValidId, todayIn, type PullScope } from '@fankurve/shared';
import type { Store } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import { badInput, DomainError } from '../domain/errors.js';
import { requireEventRecord } from '../domain/events/events.js';
import type { MasterDocument, PullContext, SyncCollection } from './collection.js';
import type { Checkpoint, SyncDocument } from './protocol.js';

/**
 * A pulled document as it goes to a device: a tombstone carries only id, seq and `_deleted`, and in a
 * collection kept by event its `event_id` too, by which a device that stores the rows by event finds
 * the row to drop (docs/architecture.md, Client data layer).
 */
export function toWire(doc: MasterDocument, collection: SyncCollection): SyncDocument {
  if (!doc._deleted) return doc as SyncDocument;
  const tombstone: SyncDocument = { id: doc.id, seq: doc.seq, _deleted: true };
  const eventId = (doc as { event_id?: unknown }).event_id;
  if (collection.declaration.keptByEvent && typeof eventId === 'string') tombstone.event_id = eventId;
  return tombstone;
}

/**
 * A conflict answer must be a whole, schema-valid document (RxDB writes it to the device as it is):
 * a tombstone gets the declaration's blank fields, so it still carries nothing of the deleted row.
 */
export function toConflictAnswer(collection: SyncCollection, id: string, doc: MasterDocument | undefined): SyncDocument {
  if (doc && !doc._deleted) return doc as SyncDocument;
  return { ...collection.declaration.tombstone, id, seq: doc?.seq ?? 0, _deleted: true };
}

/**
 * The club's calendar day, read once per pull: it decides the events a device keeps (docs/architecture.md,
 * What a device keeps); and the pull's scope, which only a collection split by owner or kept by event takes.
 */
export function pullContext(store: Store, collection: SyncCollection, scope: PullScope = 'all'): PullContext {
  const { splitByOwner, keptByEvent } = collection.declaration;
  if (scope !== 'all' && !splitByOwner && !keptByEvent) throw badInput();
  return { today: todayIn(store.clubTimeZone ?? DEFAULT_TIME_ZONE), scope };
}

/** One pull: the documents after the checkpoint, and the checkpoint to continue from (unchanged when none). */
export async function pullBatch(
  store: Store,
  actor: Actor,
  collection: SyncCollection,
  checkpoint: Checkpoint,
  limit: number,
  scope: PullScope = 'all',
): Promise<{ documents: SyncDocument[]; checkpoint: Checkpoint }> {
  const context = pullContext(store, collection, scope);
  const docs = await collection.pull(store.db, actor, checkpoint?.seq ?? 0, limit, context);
  const last = docs.at(-1);
  return { documents: docs.map((doc) => toWire(doc, collection)), checkpoint: last ? { seq: last.seq } : checkpoint };
}

/**
 * Every document of one event the actor may see, tombstones included, ascending by seq and without
 * a limit: the rows of an event the device does not keep (docs/architecture.md, What a device
 * keeps). 404 unless the collection is `keptByEvent`, 400 for a malformed id, 404 unless the event
 * exists (a deleted one answers its tombstones).
 */
export async function pullEventDocuments(
  store: Store,
  actor: Actor,
  collection: SyncCollection,
  eventId: string,
  scope: PullScope = 'all',
): Promise<{ documents: SyncDocument[] }> {
  if (!collection.pullEvent) throw new DomainError('unknownCollection', 404);
  if (!isValidId(eventId)) throw badInput();
  pullContext(store, collection, scope);
  await requireEventRecord(store.db, eventId);
  const docs = await collection.pullEvent(store.db, actor, eventId, scope);
  return { documents: docs.map((doc) => toWire(doc, collection)) };
}
