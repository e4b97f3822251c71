import type { WriteContext } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import { isValidId } from '@fankurve/shared';
import { badInput, DomainError, forbidden } from '../domain/errors.js';
import { addNotice } from '../domain/people/notices.js';
import { sameDocument, type SyncCollection } from './collection.js';
import { changeOfRow } from './merge.js';
import type { PushRow, SyncDocument } from './protocol.js';
import { toConflictAnswer } from './pull.js';

/**
 * Applies RxDB push rows to a collection in the caller's transaction and returns the conflicts:
 * the server's document for every row where it differs from what the device sent, seq included
 * (the device adopts it). Each row is merged field by field (sync/merge.ts) and applied through the domain
 * under a savepoint; a refused row changes nothing, leaves a notice for the member that says why,
 * and answers the server's document. Pushes are idempotent: a retried row whose result is already
 * the server's document changes nothing and is no conflict.
 */
export async function applyPush(
  w: WriteContext,
  actor: Actor,
  collection: SyncCollection,
  rows: PushRow[],
): Promise<SyncDocument[]> {
  const conflicts: SyncDocument[] = [];
  for (const row of rows) {
    const conflict = await applyRow(w, actor, collection, row);
    if (conflict) conflicts.push(conflict);
  }
  return conflicts;
}

async function applyRow(w: WriteContext, actor: Actor, collection: SyncCollection, row: PushRow): Promise<SyncDocument | null> {
  const push = collection.push!;
  const rules = collection.declaration.push!;
  const sent = row.newDocumentState;
  const master = await push.find(w.db, actor, sent.id);
  const change = changeOfRow(rules, row, master);
  let current = master;
  if (change) {
    try {
      if ((change.kind === 'create' && !rules.create) || (change.kind === 'delete' && !rules.delete)) throw forbidden();
      // Devices name what they create offline with UUIDv7 (shared/src/ids.ts), in every collection.
      if (change.kind === 'create' && !isValidId(sent.id)) throw badInput('invalidInput');
      await w.attempt(() => push.apply(w, actor, change));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await addNotice(w, actor.id, error.code, push.describe(change));
    }
    current = await push.find(w.db, actor, sent.id);
  }
  // Where the server has no document (a refused create), the answer is a deletion, so the device drops it.
  const answer = toConflictAnswer(collection, sent.id, current);
  const sentDeleted = sent._deleted === true;
  if (answer._deleted && sentDeleted) return null;
  // Answered whenever the server's document differs from what was sent, its seq included: the device
  // learns the seq of what it created or changed at once, so what it last received is the push's result.
  return sameDocument(answer, { ...sent, _deleted: sentDeleted }) && answer.seq === Number(sent.seq ?? 0) ? null : answer;
}
