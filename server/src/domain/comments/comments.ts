import {
  checkCommentText,
  commentRefusal,
  mayEverChangeComment,
  newId,
  type CommentAction,
  type CommentState,
  type PendingComment,
} from '@fankurve/shared';
import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, Database } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { badInput, conflict, forbidden, notFound } from '../errors.js';
import { removeMentionsOf, updateMentionsOf } from './mentions.js';

/*
 * Comments on events (docs/product.md, Comments, mentions and notifications; docs/architecture.md,
 * Comments and mentions). Every member reads the comments of every live event and writes their own; who may
 * change what is the shared rule `mayChangeComment`, the text is `checkCommentText`. The REST routes
 * and the comments sync push call these same functions; each checks everything before its first
 * write, so a push can refuse one row under a savepoint and go on.
 */

export type CommentRow = Selectable<CommentsTable>;
/** A comment with its author's name, as REST answers it. */
export type CommentView = CommentRow & { username: string | null };

/** A device's clock may run this far ahead of the server's. */
export const COMMENT_CLOCK_SKEW_MS = 60_000;
/** A comment written offline keeps its own time if it is at most this old when it arrives. */
export const COMMENT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * When a comment was written. A device's offline comment carries its own created_at: kept (as UTC
 * ISO) when it is an ISO timestamp from at most COMMENT_MAX_AGE_MS ago up to COMMENT_CLOCK_SKEW_MS
 * ahead (a time within the skew ahead counts as now); anything else, and every REST comment, gets
 * the server's time.
 */
export function acceptedCreatedAt(claimed: unknown, now: string): string {
  if (typeof claimed !== 'string' || !ISO_TIMESTAMP.test(claimed)) return now;
  const at = Date.parse(claimed);
  if (!Number.isFinite(at) || !sameWallClock(claimed, at)) return now;
  const serverNow = Date.parse(now);
  if (at > serverNow + COMMENT_CLOCK_SKEW_MS || at < serverNow - COMMENT_MAX_AGE_MS) return now;
  return at >= serverNow ? now : new Date(at).toISOString();
}

/** Whether the parsed time still has the written date and time (Date.parse turns 31 June into 1 July). */
function sameWallClock(claimed: string, at: number): boolean {
  const zone = /([+-])(\d{2}):(\d{2})$/.exec(claimed);
  const offsetMs = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000 : 0;
  return new Date(at + offsetMs).toISOString().slice(0, 16) === claimed.slice(0, 16);
}

const stateOf = (row: CommentRow): CommentState => ({
  user_id: row.user_id,
  requires_answer: toBool(row.requires_answer),
  is_resolved: toBool(row.is_resolved),
  comment: row.comment,
});

/**
 * The comment as a device last had it from the server, for a change it made offline (a sync push):
 * whether it was resolved then, and its seq.
 */
export interface SeenComment {
  is_resolved: boolean;
  seq: number;
}

/**
 * The state a change is judged against. An author's offline edit or deletion was made on the
 * comment the device had: when that was unresolved and the server's row has changed since (an admin
 * resolved it meanwhile), the rule is asked about the unresolved comment, so both changes are kept.
 */
function stateFor(row: CommentRow, seen: SeenComment | undefined): CommentState {
  const state = stateOf(row);
  if (seen && !seen.is_resolved && seen.seq > 0 && seen.seq < Number(row.seq)) return { ...state, is_resolved: false };
  return state;
}

/**
 * Refuses what the rule does not allow: 403 'commentNotAllowed' when the actor may not do this to
 * the comment in any state (another member's comment, an admin editing someone's text), else 409
 * for the state it is in (resolved; or, to reopen, not a resolved comment that requires an answer).
 */
function requireMay(actor: Actor, state: CommentState, action: CommentAction): void {
  const refusal = commentRefusal(actor, state, action);
  if (refusal === 'commentNotAllowed') throw forbidden(refusal);
  if (refusal) throw conflict(refusal);
}

/** 403 unless the rule allows the actor this action on the comment in the state most favourable to it. */
function requireEntitled(actor: Actor, state: CommentState, action: CommentAction): void {
  if (!mayEverChangeComment(actor, state, action)) throw forbidden('commentNotAllowed');
}

export async function findComment(db: Kysely<Database>, id: string): Promise<CommentRow | undefined> {
  return db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** 404 'Comment not found' unless the comment is live; 404 'Event not found' when its event is gone or archived. */
async function requireLiveComment(db: Kysely<Database>, id: string): Promise<CommentRow> {
  const row = await findComment(db, id);
  if (!row || toBool(row.deleted)) throw notFound('commentNotFound');
  await requireLiveEvent(db, row.event_id);
  return row;
}

/** The comment with its author's name. */
export async function withUsername(db: Kysely<Database>, row: CommentRow): Promise<CommentView> {
  const user = await db.selectFrom('users').select('username').where('id', '=', row.user_id).executeTakeFirst();
  return { ...row, username: user?.username ?? null };
}

export interface NewComment {
  comment: string;
  requires_answer?: boolean;
}

/**
 * A member writes a comment on a live event (author = the actor). `options.id` is the id a device
 * chose offline (refused when taken), `options.createdAt` the time it says it was written (see
 * acceptedCreatedAt). The users it names with @ get a mention.
 */
export async function createComment(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  input: NewComment,
  options: { id?: string; createdAt?: unknown } = {},
): Promise<CommentRow> {
  const text = checkCommentText(input.comment);
  if (!text.ok) throw badInput(text.code);
  await requireLiveEvent(w.db, eventId);
  if (actor.system) throw forbidden();
  if (options.id !== undefined && (await findComment(w.db, options.id))) throw forbidden();
  const row: CommentRow = {
    id: options.id ?? newId(),
    event_id: eventId,
    user_id: actor.id,
    comment: text.value,
    requires_answer: toInt(input.requires_answer ?? false),
    is_resolved: 0,
    created_at: acceptedCreatedAt(options.createdAt, w.now),
    updated_at: w.now,
    seq: await w.nextSeq('comments'),
    deleted: 0,
  };
  await w.db.insertInto('comments').values(row).execute();
  w.record({
    type: 'comment.added',
    commentId: row.id,
    eventId,
    requiresAnswer: toBool(row.requires_answer),
    actorId: actor.id,
  });
  await updateMentionsOf(w, actor, row);
  return row;
}

async function changeComment(
  w: WriteContext,
  actor: Actor,
  row: CommentRow,
  fields: Partial<Pick<CommentRow, 'comment' | 'requires_answer' | 'is_resolved'>>,
): Promise<CommentRow> {
  const changed = (Object.keys(fields) as (keyof typeof fields)[]).filter((key) => fields[key] !== row[key]);
  if (changed.length === 0) return row;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('comments') };
  await w.db.updateTable('comments').set(update).where('id', '=', row.id).execute();
  w.record({
    type: 'comment.changed',
    commentId: row.id,
    eventId: row.event_id,
    authorId: row.user_id,
    fields: changed,
    actorId: actor.id,
  });
  return { ...row, ...update };
}

/**
 * The author edits the text while the comment is unresolved (`seen`: a device's offline edit, see
 * stateFor). Mentions follow the new text: newly named users get one, users no longer named lose
 * theirs (mentions.ts).
 */
export async function editComment(
  w: WriteContext,
  actor: Actor,
  id: string,
  comment: string,
  seen?: SeenComment,
): Promise<CommentRow> {
  const text = checkCommentText(comment);
  if (!text.ok) throw badInput(text.code);
  const row = await requireLiveComment(w.db, id);
  requireMay(actor, stateFor(row, seen), 'edit');
  const changed = await changeComment(w, actor, row, { comment: text.value });
  if (changed !== row) await updateMentionsOf(w, actor, changed);
  return changed;
}

/** The author deletes an unresolved comment, an admin any comment: a tombstone, its mentions too. */
export async function deleteComment(w: WriteContext, actor: Actor, id: string, seen?: SeenComment): Promise<void> {
  const row = await requireLiveComment(w.db, id);
  requireMay(actor, stateFor(row, seen), 'delete');
  await w.db
    .updateTable('comments')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('comments') })
    .where('id', '=', id)
    .execute();
  await removeMentionsOf(w, id);
  w.record({ type: 'comment.deleted', commentId: id, eventId: row.event_id, authorId: row.user_id, actorId: actor.id });
}

/**
 * Resolves (author or admin, while unresolved) or reopens (author or admin, a resolved comment that
 * requires an answer). A comment already in the wanted state stays as it is (200 for whoever may
 * resolve or reopen it at all), so a retried or doubled request is no failure.
 */
export async function setCommentResolved(w: WriteContext, actor: Actor, id: string, resolved: boolean): Promise<CommentRow> {
  const row = await requireLiveComment(w.db, id);
  const action: CommentAction = resolved ? 'resolve' : 'unresolve';
  if (toBool(row.is_resolved) === resolved) {
    requireEntitled(actor, stateOf(row), action);
    return row;
  }
  requireMay(actor, stateOf(row), action);
  return changeComment(w, actor, row, { is_resolved: toInt(resolved) });
}

/** Sets whether the comment asks for an answer (author or admin, while unresolved); the same value is no change. */
export async function setCommentRequiresAnswer(
  w: WriteContext,
  actor: Actor,
  id: string,
  requiresAnswer: boolean,
): Promise<CommentRow> {
  const row = await requireLiveComment(w.db, id);
  if (toBool(row.requires_answer) === requiresAnswer) {
    requireEntitled(actor, stateOf(row), 'toggleRequiresAnswer');
    return row;
  }
  requireMay(actor, stateOf(row), 'toggleRequiresAnswer');
  return changeComment(w, actor, row, { requires_answer: toInt(requiresAnswer) });
}

/** PUT /api/comments/{id}/toggle-requires-answer. */
export async function toggleCommentRequiresAnswer(w: WriteContext, actor: Actor, id: string): Promise<CommentRow> {
  const row = await requireLiveComment(w.db, id);
  return setCommentRequiresAnswer(w, actor, id, !toBool(row.requires_answer));
}

/** The live comments of a live event (404 'Event not found' otherwise), oldest first, with their authors' names. */
export async function listEventComments(db: Kysely<Database>, eventId: string): Promise<CommentView[]> {
  await requireLiveEvent(db, eventId);
  return db
    .selectFrom('comments as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('c')
    .select('u.username as username')
    .where('c.event_id', '=', eventId)
    .where('c.deleted', '=', 0)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}

function pendingCommentsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('comments as c')
    .innerJoin('events as e', 'e.id', 'c.event_id')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .where('c.deleted', '=', 0)
    .where('c.requires_answer', '=', 1)
    .where('c.is_resolved', '=', 0)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0);
}

/** The admin's pending comments (/admin/tasks), oldest first. */
export async function listPendingComments(db: Kysely<Database>, actor: Actor): Promise<PendingComment[]> {
  requireAdmin(actor);
  return pendingCommentsQuery(db)
    .select([
      'c.id as id',
      'u.username as username',
      'c.event_id as event_id',
      'e.title as event_title',
      'e.date as event_date',
      'c.comment as comment',
      'c.created_at as created_at',
    ])
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}

/** How many comments wait for an admin's answer (part of the pending-task count). */
export async function countPendingComments(db: Kysely<Database>): Promise<number> {
  const row = await pendingCommentsQuery(db)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
