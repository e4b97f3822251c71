import { commentsSync, keptOnDeviceSince, type CommentDoc, type NoticeAction, type PullScope } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import { RateLimit } from '../../auth/throttle.js';
import type { Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import {
  createComment,
  deleteComment,
  editComment,
  setCommentRequiresAnswer,
  setCommentResolved,
  type CommentRow,
  type SeenComment,
} from '../../domain/comments/comments.js';
import { badInput, forbidden, tooManyRequests } from '../../domain/errors.js';
import { defineServerCollection, type MasterDocument, type PushedChange } from '../collection.js';

/**
 * Comments a member's devices may create through pushes per window. Pushes are not held to the
 * REST pace (COMMENTS_PER_MINUTE): a fan who wrote a dozen comments offline at the stadium sends
 * them in one push when the signal returns. This generous allowance only stops a runaway client.
 */
export const COMMENT_PUSH_ALLOWANCE = 60;
export const COMMENT_PUSH_WINDOW_MS = 10 * 60 * 1000;
const pushedComments = new RateLimit(COMMENT_PUSH_ALLOWANCE, COMMENT_PUSH_WINDOW_MS);

type CommentSource = CommentRow & { event_deleted: number | null; event_archived: number | null };

function toCommentDoc(row: CommentSource): MasterDocument<CommentDoc> {
  return {
    id: row.id,
    event_id: row.event_id,
    user_id: row.user_id,
    comment: row.comment,
    requires_answer: toBool(row.requires_answer),
    is_resolved: toBool(row.is_resolved),
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    // Deleting or archiving an event tombstones its comments; a comment of such an event is gone either way.
    _deleted: toBool(row.deleted) || toBool(row.event_deleted) || toBool(row.event_archived),
  };
}

const commentsWithEvent = (db: Kysely<Database>) =>
  db
    .selectFrom('comments as c')
    .leftJoin('events as e', 'e.id', 'c.event_id')
    .selectAll('c')
    .select(['e.deleted as event_deleted', 'e.archived as event_archived']);

type Change = PushedChange<CommentDoc>;

const eventOf = (change: Change) =>
  change.master?.event_id || (typeof change.sent.event_id === 'string' ? change.sent.event_id : null);

function text(value: unknown): string {
  if (typeof value !== 'string') throw badInput('commentEmpty');
  return value;
}

function flag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw badInput();
  return value;
}

/** A comment the device wrote (offline too): by the same domain call as POST /api/comments/event/{eventId}. */
async function applyCreate(w: WriteContext, actor: Actor, change: Change): Promise<void> {
  if (change.sent.user_id !== actor.id) throw forbidden('commentNotAllowed');
  const eventId = eventOf(change);
  if (!eventId) throw badInput();
  const { comment, requires_answer, is_resolved } = change.fields;
  await createComment(
    w,
    actor,
    eventId,
    { comment: text(comment), requires_answer: requires_answer === undefined ? false : flag(requires_answer) },
    { id: change.id, createdAt: change.sent.created_at },
  );
  const allowed = pushedComments.take(actor.id);
  if (!allowed.ok) throw tooManyRequests('commentsTooFast', allowed.retryAfterMs);
  // Written and resolved before the device was back online.
  if (is_resolved !== undefined && flag(is_resolved)) await setCommentResolved(w, actor, change.id, true);
}

/**
 * The fields the device changed, by the same domain calls as the REST routes, in an order that
 * lets every combination through: reopen first, then the text and the answer request (both need an
 * unresolved comment), resolve last.
 */
async function applyUpdate(w: WriteContext, actor: Actor, change: Change): Promise<void> {
  const { comment, requires_answer, is_resolved } = change.fields;
  const resolved = is_resolved === undefined ? undefined : flag(is_resolved);
  // What the device saw: its own resolve/reopen is part of this very change.
  const seen: SeenComment = {
    is_resolved: resolved === undefined ? change.sent.is_resolved === true : !resolved,
    seq: Number(change.sent.seq ?? 0),
  };
  if (resolved === false) await setCommentResolved(w, actor, change.id, false);
  if (comment !== undefined) await editComment(w, actor, change.id, text(comment), seen);
  if (requires_answer !== undefined) await setCommentRequiresAnswer(w, actor, change.id, flag(requires_answer));
  if (resolved === true) await setCommentResolved(w, actor, change.id, true);
}

function actionOf(change: Change): NoticeAction {
  if (change.kind === 'create') return 'comment.add';
  if (change.kind === 'delete') return 'comment.remove';
  return 'comment.change';
}

/**
 * Which comments a query reads: what an actor's pull answers, those of the kept events (the shared
 * list), or the actor's own and those that name them of older events (beside the list).
 */
type Which = { pull: string } | 'kept' | { olderOwn: string };

/**
 * A pull in parts (docs/architecture.md, What a device keeps): `others` is the kept events' comments,
 * the same for everyone; `own` the member's own and those naming them of older events; `all` both.
 */
function whichOf(actor: Actor, scope: PullScope): Which {
  if (scope === 'others') return 'kept';
  if (scope === 'own') return { olderOwn: actor.id };
  return { pull: actor.id };
}

async function commentsOf(db: Kysely<Database>, which: Which, afterSeq: number, limit: number, today: string) {
  const since = keptOnDeviceSince(today);
  const rows = await commentsWithEvent(db)
    .where('c.seq', '>', afterSeq)
    .where((eb) => {
      const kept = eb('e.date', '>=', since);
      if (which === 'kept') return kept;
      const userId = 'pull' in which ? which.pull : which.olderOwn;
      // Two lookups by index (author, mention) rather than a walk over every comment by seq.
      const theirs = eb.or([
        eb('c.user_id', '=', userId),
        eb('c.id', 'in', eb.selectFrom('mentions as m').select('m.comment_id').where('m.user_id', '=', userId)),
      ]);
      return 'pull' in which ? eb.or([kept, theirs]) : eb.and([eb('e.date', '<', since), theirs]);
    })
    .orderBy('c.seq')
    .limit(limit)
    .execute();
  return rows.map(toCommentDoc);
}

/**
 * Every comment of the events a device keeps, and the actor's own and those that name them (a
 * mention, read, live or not) of any event; the rest of an event's comments when the device asks
 * for it (docs/architecture.md, What a device keeps). All members see all events' comments; those
 * of deleted or archived events are tombstones; those of the kept events are one shared list for everyone. Members push their own comments (create, edit, resolve, reopen, answer request,
 * delete) and admins the flags and deletions of anyone's; the merge is by field, so an admin
 * resolving while the author edits the text offline keeps both changes (domain/comments/comments.ts stateFor).
 */
export const commentsCollection = defineServerCollection<CommentDoc>({
  declaration: commentsSync,
  pull: (db, actor, afterSeq, limit, { today, scope }) => commentsOf(db, whichOf(actor, scope), afterSeq, limit, today),
  shared: {
    variantOf: (_actor, scope) => (scope === 'own' ? null : 'kept'),
    pull: (db, _variant, afterSeq, limit, { today }) => commentsOf(db, 'kept', afterSeq, limit, today),
    extraIn: ['all'],
    extra: (db, actor, afterSeq, limit, { today, scope }) =>
      scope === 'all' ? commentsOf(db, { olderOwn: actor.id }, afterSeq, limit, today) : Promise.resolve([]),
  },
  async pullEvent(db, _actor, eventId) {
    const rows = await commentsWithEvent(db).where('c.event_id', '=', eventId).orderBy('c.seq').execute();
    return rows.map(toCommentDoc);
  },
  push: {
    async find(db, _actor, id) {
      const row = await commentsWithEvent(db).where('c.id', '=', id).executeTakeFirst();
      return row ? toCommentDoc(row) : undefined;
    },
    async apply(w, actor, change) {
      if (change.kind === 'create') return applyCreate(w, actor, change);
      if (change.kind === 'delete') {
        const seen = { is_resolved: change.sent.is_resolved === true, seq: Number(change.sent.seq ?? 0) };
        return deleteComment(w, actor, change.id, seen);
      }
      return applyUpdate(w, actor, change);
    },
    describe: (change) => ({ eventId: eventOf(change), action: actionOf(change) }),
  },
});
