import {
  checkCommentText,
  commentRefusal,
  newId,
  type CommentAction,
  type CommentActor,
  type CommentDoc,
} from '@fankurve/shared';
import type { RxDocument } from 'rxdb';
import { combineLatest, map, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import type { DocStore } from '../docStore.js';
import { enforce, LocalRuleError, type Device } from '../device.js';
import { useQuery } from '../query.js';

/*
 * Comments on the device (docs/product.md, Comments, mentions and notifications), offline too: the comments of an event with
 * their authors' names, and the member's writes. Each write asks the shared rules first
 * (`commentRefusal`, `checkCommentText`), so the screen refuses what the server would; the
 * replication pushes the change and the server decides again.
 */

export type { CommentActor };

/** A comment as the screen shows it: the document and its author's name (null while unknown on the device). */
export interface CommentView extends CommentDoc {
  username: string | null;
}

const oldestFirst = (a: CommentDoc, b: CommentDoc) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

/** The comments of one event, oldest first, with the authors' names from the members collection. */
export function comments$(db: FankurveDatabase, store: DocStore, eventId: string): Observable<CommentView[]> {
  return combineLatest([db.comments.find({ selector: { event_id: eventId } }).$, store.all('members')]).pipe(
    map(([docs, members]) => {
      const names = new Map(members.map((member) => [member.id, member.username]));
      return docs
        .map((doc) => doc.toJSON() as CommentDoc)
        .sort(oldestFirst)
        .map((comment) => ({ ...comment, username: names.get(comment.user_id) ?? null }));
    }),
  );
}

export function useComments(eventId: string): CommentView[] | undefined {
  return useQuery((db, docs) => comments$(db, docs, eventId), [eventId]);
}

async function findComment(db: FankurveDatabase, commentId: string): Promise<RxDocument<CommentDoc>> {
  const doc = await db.comments.findOne(commentId).exec();
  if (!doc) throw new LocalRuleError('commentNotFound');
  return doc;
}

/**
 * The shared rule on the device's copy. A refusal carries the code the server answers for it: not
 * the actor's comment to change in any state, else the state it is in (resolved; not reopenable).
 */
function allow(actor: CommentActor, doc: RxDocument<CommentDoc>, action: CommentAction): void {
  const refusal = commentRefusal(actor, doc.toJSON() as CommentDoc, action);
  if (refusal) throw new LocalRuleError(refusal);
}

async function patch(outbox: Device['outbox'], doc: RxDocument<CommentDoc>, change: Partial<CommentDoc>): Promise<void> {
  const changed = (Object.keys(change) as (keyof CommentDoc)[]).some((key) => change[key] !== doc.get(key));
  if (!changed) return;
  outbox.add(doc.id);
  await doc.incrementalPatch({ ...change, updated_at: new Date().toISOString() });
}

/**
 * A new comment by the signed-in member (an id made on the device, so it can be written offline).
 * The text is trimmed; a blank or too long text is refused. Returns the new comment's id.
 */
export async function addComment(
  { db, docs, outbox }: Device,
  actor: CommentActor,
  eventId: string,
  text: string,
  requiresAnswer: boolean,
): Promise<string> {
  const comment = enforce(checkCommentText(text));
  const event = await docs.table('events').get(eventId);
  if (!event || event.archived) throw new LocalRuleError('eventNotFound');
  const now = new Date().toISOString();
  const doc: CommentDoc = {
    id: newId(),
    event_id: eventId,
    user_id: actor.id,
    comment,
    requires_answer: requiresAnswer,
    is_resolved: false,
    created_at: now,
    updated_at: now,
    seq: 0,
  };
  outbox.add(doc.id);
  await db.comments.insert(doc);
  return doc.id;
}

/** The author changes the text of their unresolved comment. */
export async function editComment({ db, outbox }: Device, actor: CommentActor, commentId: string, text: string): Promise<void> {
  const doc = await findComment(db, commentId);
  allow(actor, doc, 'edit');
  await patch(outbox, doc, { comment: enforce(checkCommentText(text)) });
}

/** The author (while unresolved) or an admin deletes a comment. */
export async function deleteComment({ db, outbox }: Device, actor: CommentActor, commentId: string): Promise<void> {
  const doc = await findComment(db, commentId);
  allow(actor, doc, 'delete');
  outbox.add(doc.id);
  await doc.incrementalRemove();
}

/** Marks an unresolved comment resolved (its author or an admin). */
export async function resolveComment({ db, outbox }: Device, actor: CommentActor, commentId: string): Promise<void> {
  const doc = await findComment(db, commentId);
  allow(actor, doc, 'resolve');
  await patch(outbox, doc, { is_resolved: true });
}

/** Reopens a resolved comment that requires an answer (its author or an admin). */
export async function unresolveComment({ db, outbox }: Device, actor: CommentActor, commentId: string): Promise<void> {
  const doc = await findComment(db, commentId);
  allow(actor, doc, 'unresolve');
  await patch(outbox, doc, { is_resolved: false });
}

/** Asks for an answer, or no longer does, on an unresolved comment (its author or an admin). */
export async function toggleRequiresAnswer({ db, outbox }: Device, actor: CommentActor, commentId: string): Promise<void> {
  const doc = await findComment(db, commentId);
  allow(actor, doc, 'toggleRequiresAnswer');
  await patch(outbox, doc, { requires_answer: !doc.requires_answer });
}

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { addComment, editComment, deleteComment, resolveComment, unresolveComment, toggleRequiresAnswer };
