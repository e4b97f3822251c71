import { findMentions, newId } from '@fankurve/shared';
import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, Database, MentionsTable } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { notFound } from '../errors.js';

/*
 * Mentions (docs/product.md, Comments, mentions and notifications): a comment naming an active member with @ gives that
 * member a mention (never its author, never a pending or deleted account). The server alone creates
 * them, after every new comment and every edit of a text, with the shared `findMentions`; a member
 * only marks their own read (REST or a push of `is_read`). An edit that keeps a name creates
 * nothing; an edit that drops a name tombstones that member's mention of the comment (read or not:
 * the text no longer names them), and naming them again later makes a new one. Deleting the comment
 * or its event tombstones its mentions.
 */

export type MentionRow = Selectable<MentionsTable>;
type CommentRow = Selectable<CommentsTable>;

/** Active members who could be named, the author left out. */
async function mentionCandidates(db: Kysely<Database>, authorId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('status', '=', 'active')
    .where('deleted', '=', 0)
    .where('id', '!=', authorId)
    .execute();
}

async function tombstoneMention(w: WriteContext, id: string): Promise<void> {
  await w.db
    .updateTable('mentions')
    .set({ deleted: 1, seq: await w.nextSeq('mentions'), updated_at: w.now })
    .where('id', '=', id)
    .execute();
}

/**
 * A comment notifies at most this many members (docs/architecture.md, "Sessions, throttles and
 * limits"): further @names in it stay text and notify nobody.
 */
export const MENTIONS_PER_COMMENT = 20;

/**
 * Brings the mentions of a comment in line with its (saved) text: a new mention for every member it
 * names who has none yet (recording `mention.created`), a tombstone for every one it no longer names.
 * At most MENTIONS_PER_COMMENT live at once: those it has and still names stay, then the newly named
 * in the order the text names them.
 */
export async function updateMentionsOf(w: WriteContext, actor: Actor, comment: CommentRow): Promise<void> {
  const candidates = comment.comment.includes('@') ? await mentionCandidates(w.db, comment.user_id) : [];
  const named = findMentions(comment.comment, candidates);
  const existing = await w.db
    .selectFrom('mentions')
    .select(['id', 'user_id'])
    .where('comment_id', '=', comment.id)
    .where('deleted', '=', 0)
    .execute();
  const had = new Set(existing.map((mention) => mention.user_id));
  for (const mention of existing) if (!named.includes(mention.user_id)) await tombstoneMention(w, mention.id);
  const kept = named.filter((userId) => had.has(userId)).length;
  const added = named.filter((userId) => !had.has(userId)).slice(0, Math.max(0, MENTIONS_PER_COMMENT - kept));
  for (const userId of added) {
    const row: MentionRow = {
      id: newId(),
      comment_id: comment.id,
      event_id: comment.event_id,
      user_id: userId,
      is_read: 0,
      created_at: w.now,
      updated_at: w.now,
      seq: await w.nextSeq('mentions'),
      deleted: 0,
    };
    await w.db.insertInto('mentions').values(row).execute();
    w.record({
      type: 'mention.created',
      mentionId: row.id,
      commentId: comment.id,
      eventId: comment.event_id,
      userId,
      actorId: actor.id,
    });
  }
}

/** Tombstones every live mention of a comment (the comment was deleted). */
export async function removeMentionsOf(w: WriteContext, commentId: string): Promise<void> {
  const rows = await w.db
    .selectFrom('mentions')
    .select('id')
    .where('comment_id', '=', commentId)
    .where('deleted', '=', 0)
    .execute();
  for (const row of rows) await tombstoneMention(w, row.id);
}

/** The actor's live mentions whose comment and event are live (the event not archived). */
function visibleMentions(db: Kysely<Database>, actor: Actor) {
  return db
    .selectFrom('mentions as m')
    .innerJoin('comments as c', 'c.id', 'm.comment_id')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .where('m.user_id', '=', actor.id)
    .where('m.deleted', '=', 0)
    .where('c.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0);
}

/** A mention as the member's screens show it (docs/product.md, Data). */
export interface MentionView {
  mention_id: string;
  comment_id: string;
  event_id: string;
  event_title: string;
  comment: string;
  commenter_username: string | null;
  mention_date: string;
  is_read: boolean;
}

/** The actor's own mentions, newest first. */
export async function listMentions(db: Kysely<Database>, actor: Actor): Promise<MentionView[]> {
  const rows = await visibleMentions(db, actor)
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'm.id as mention_id',
      'm.comment_id as comment_id',
      'm.event_id as event_id',
      'e.title as event_title',
      'c.comment as comment',
      'u.username as commenter_username',
      'm.created_at as mention_date',
      'm.is_read as is_read',
    ])
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, is_read: toBool(row.is_read) }));
}

/** How many of the actor's mentions are unread. */
export async function countUnreadMentions(db: Kysely<Database>, actor: Actor): Promise<number> {
  const row = await visibleMentions(db, actor)
    .where('m.is_read', '=', 0)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The actor's unread mentions per event id (events without any are left out). */
export async function unreadMentionsByEvent(db: Kysely<Database>, actor: Actor): Promise<Record<string, number>> {
  const rows = await visibleMentions(db, actor)
    .where('m.is_read', '=', 0)
    .select(['m.event_id as event_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('m.event_id')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.event_id, Number(row.n)]));
}

/**
 * Marks one of the actor's own mentions read (or unread again). Someone else's mention is 404
 * 'Mention not found', admins included: mentions are personal.
 */
export async function setMentionRead(w: WriteContext, actor: Actor, id: string, isRead: boolean): Promise<MentionRow> {
  const row = await w.db
    .selectFrom('mentions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', actor.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound('mentionNotFound');
  if (toBool(row.is_read) === isRead) return row;
  const update = { is_read: isRead ? 1 : 0, seq: await w.nextSeq('mentions'), updated_at: w.now };
  await w.db.updateTable('mentions').set(update).where('id', '=', id).execute();
  return { ...row, ...update };
}

/** Marks all of the actor's unread mentions read; returns how many. */
export async function markAllMentionsRead(w: WriteContext, actor: Actor): Promise<number> {
  const rows = await w.db
    .selectFrom('mentions')
    .select('id')
    .where('user_id', '=', actor.id)
    .where('deleted', '=', 0)
    .where('is_read', '=', 0)
    .execute();
  for (const row of rows) {
    await w.db
      .updateTable('mentions')
      .set({ is_read: 1, seq: await w.nextSeq('mentions'), updated_at: w.now })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}
