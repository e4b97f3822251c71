import { erasureProblem, formerMemberName, newId, usernameKey, USER_PART_COLLECTIONS } from '@fankurve/shared';
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { usernameSkeleton } from '../../db/usernameSkeleton.js';
import { requireAdmin, type Actor } from '../actor.js';
import { audit } from '../club/auditLog.js';
import { badInput, conflict, notFound } from '../errors.js';
import { owedFiguresOfMember } from '../money/ledgerEntries.js';
import { findLiveUser } from './accounts.js';
import { endAllSessions } from './sessions.js';

/*
 * Erasure with retention (docs/architecture.md, "Erasure and retention"; docs/product.md, Data
 * protection). Everything personal goes at once: name, e-mail, password, sessions, devices, the
 * calendar feed, notices, mentions, comment texts, the link of votes, answers without a ticket. The
 * account stays as a tombstone with a numbered pseudonym, so the ledger entries and ticket rows the
 * books need keep their member until the retention job (retention.ts) removes them. A declined
 * registration is erased the same way but gets no pseudonym: it never was a member.
 */

type Db = Kysely<Database>;

/** DELETE /api/auth/users/{id} (admin): declines a registration, or erases a member. */
export async function deleteUser(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  if (id === actor.id) throw badInput('cannotDeleteSelf');
  const user = await findLiveUser(w.db, id);
  if (!user) throw notFound('userNotFound');
  if (user.status === 'pending') await declineRegistration(w, actor, user);
  else await eraseAccount(w, actor, user);
}

/** POST /api/me/erase: the member erases their own account (the caller checked their password before). */
export async function eraseOwnAccount(w: WriteContext, actor: Actor): Promise<void> {
  const user = await findLiveUser(w.db, actor.id);
  if (!user) throw notFound('userNotFound');
  await eraseAccount(w, actor, user);
}

/** Why the account cannot be erased now, or null (the balance, an open ticket price, the last admin). */
export async function erasureRefusal(db: Db, user: UserRow): Promise<ReturnType<typeof erasureProblem> | 'lastAdminErasure'> {
  if (user.scope === 'admin' && !(await anotherAdmin(db, user.id))) return 'lastAdminErasure';
  return erasureProblem(await owedFiguresOfMember(db, user.id));
}

async function anotherAdmin(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('scope', '=', 'admin')
    .where('status', '=', 'active')
    .where('deleted', '=', 0)
    .where('id', '!=', id)
    .executeTakeFirst();
  return row !== undefined;
}

async function eraseAccount(w: WriteContext, actor: Actor, user: UserRow): Promise<void> {
  const refusal = await erasureRefusal(w.db, user);
  if (refusal) throw conflict(refusal);
  const number = await nextFormerNumber(w.db);
  const pseudonym = formerMemberName(number);
  await tombstoneAccount(w, user, { username: pseudonym, former_number: number });
  await erasePersonalRecords(w, user, actor);
  await redactAuditEntries(w, user.id, pseudonym);
  w.record({ type: 'user.deleted', userId: user.id, actorId: actor.id });
  await audit(w, actor, {
    kind: 'people',
    action: 'user.erase',
    userId: user.id,
    before: { status: user.status, scope: user.scope },
    after: { former_number: number },
    recordedForMembers: true,
  });
}

async function declineRegistration(w: WriteContext, actor: Actor, user: UserRow): Promise<void> {
  await tombstoneAccount(w, user, { username: '', former_number: null });
  await erasePersonalRecords(w, user, actor);
  w.record({ type: 'user.declined', userId: user.id, actorId: actor.id });
  await audit(w, actor, { kind: 'people', action: 'user.decline', userId: user.id, before: { status: user.status } });
}

/** Writers are serialised (docs/architecture.md, one write convention), so the next number cannot be taken twice. */
async function nextFormerNumber(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('former_number').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** The account becomes a tombstone without name, e-mail or password; its tokens stop working at once. */
async function tombstoneAccount(
  w: WriteContext,
  user: UserRow,
  name: { username: string; former_number: number | null },
): Promise<void> {
  await w.db
    .updateTable('users')
    .set({
      username: name.username,
      username_key: usernameKey(name.username),
      username_skeleton: usernameSkeleton(name.username),
      email: '',
      password_hash: '',
      scope: 'user',
      must_change_password: 0,
      former_number: name.former_number,
      erased_at: w.now,
      deleted: 1,
      token_version: user.token_version + 1,
      updated_at: w.now,
      seq: await w.nextSeq('members'),
    })
    .where('id', '=', user.id)
    .execute();
}

/** Everything about the member that the books do not need. */
async function erasePersonalRecords(w: WriteContext, user: UserRow, actor: Actor): Promise<void> {
  const id = user.id;
  await endAllSessions(w, id, actor.id);
  for (const table of [
    'push_subscriptions',
    'push_topics_off',
    'password_resets',
    'idempotency_keys',
    'invite_uses',
    'event_reminders',
    'payment_reminders',
    'admin_digest_items',
    'loyalty_adjustments',
  ] as const)
    await w.db.deleteFrom(table).where('user_id', '=', id).execute();
  await w.db.deleteFrom('sign_in_trust').where('account', '=', user.username_key).execute();
  // The IBAN a payment taught the statement matching is the member's; the booked line's reference stays (no double booking).
  await w.db.updateTable('bank_payments').set({ iban: '' }).where('user_id', '=', id).execute();
  await eraseNotices(w, id);
  await eraseCommentsAndMentions(w, id);
  await unlinkVotes(w, id);
  await eraseAnswers(w, id);
  await tombstoneUserParts(w, id);
  await renameOnCreatedEvents(w, id);
}

/** Events carry their creator's name to devices: the ones the member created are sent again, with the pseudonym. */
async function renameOnCreatedEvents(w: WriteContext, id: string): Promise<void> {
  const events = await w.db.selectFrom('events').select('id').where('created_by', '=', id).where('deleted', '=', 0).execute();
  for (const event of events)
    await w.db
      .updateTable('events')
      .set({ seq: await w.nextSeq('events') })
      .where('id', '=', event.id)
      .execute();
}

async function eraseNotices(w: WriteContext, id: string): Promise<void> {
  const rows = await w.db.selectFrom('notices').select('id').where('user_id', '=', id).where('deleted', '=', 0).execute();
  for (const row of rows)
    await w.db
      .updateTable('notices')
      .set({ deleted: 1, message: '', event_title: null, seq: await w.nextSeq('notices') })
      .where('id', '=', row.id)
      .execute();
}

/** Their comments stay in the conversation as deleted (an empty text); mentions of them and in their comments go. */
async function eraseCommentsAndMentions(w: WriteContext, id: string): Promise<void> {
  const comments = await w.db.selectFrom('comments').select('id').where('user_id', '=', id).where('deleted', '=', 0).execute();
  for (const comment of comments)
    await w.db
      .updateTable('comments')
      .set({ comment: '', requires_answer: 0, updated_at: w.now, seq: await w.nextSeq('comments') })
      .where('id', '=', comment.id)
      .execute();
  const commentIds = comments.map((comment) => comment.id);
  const mentions = await w.db
    .selectFrom('mentions')
    .select('id')
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('user_id', '=', id), ...(commentIds.length > 0 ? [eb('comment_id', 'in', commentIds)] : [])]))
    .execute();
  for (const mention of mentions)
    await w.db
      .updateTable('mentions')
      .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('mentions') })
      .where('id', '=', mention.id)
      .execute();
}

/** A vote keeps counting but names nobody: each gets an id no account has. Only its voter's devices ever read it. */
async function unlinkVotes(w: WriteContext, id: string): Promise<void> {
  const votes = await w.db.selectFrom('poll_votes').select('id').where('user_id', '=', id).execute();
  for (const vote of votes) await w.db.updateTable('poll_votes').set({ user_id: newId() }).where('id', '=', vote.id).execute();
}

/**
 * Answers and guests go, except ticket rows: a row a ticket was bought for, or that the ledger names,
 * stays for the books (docs/product.md, Data protection). The admin's note on a kept request goes,
 * and a kept row of an event still ahead no longer needs a seat in the club's transport.
 */
async function eraseAnswers(w: WriteContext, id: string): Promise<void> {
  const rows = await w.db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select(['a.id', 'a.bought', 'a.needs_transport', 'e.date'])
    .select((eb) => eb.exists(eb.selectFrom('ledger as l').select('l.id').whereRef('l.attendee_id', '=', 'a.id')).as('in_ledger'))
    .where('a.deleted', '=', 0)
    .where((eb) => eb.or([eb('a.user_id', '=', id), eb('a.brought_by', '=', id)]))
    .execute();
  const kept = rows.filter((row) => row.bought === 1 || Boolean(row.in_ledger)).map((row) => row.id);
  const gone = rows.filter((row) => !kept.includes(row.id)).map((row) => row.id);
  for (const attendeeId of gone)
    await w.db
      .updateTable('attendees')
      .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', attendeeId)
      .execute();
  if (gone.length > 0) await w.db.deleteFrom('ticket_requests').where('attendee_id', 'in', gone).execute();
  if (kept.length > 0) await w.db.updateTable('ticket_requests').set({ note: null }).where('attendee_id', 'in', kept).execute();
  const today = w.today();
  for (const row of rows.filter((row) => kept.includes(row.id) && row.needs_transport === 1 && row.date.slice(0, 10) >= today))
    await w.db
      .updateTable('attendees')
      .set({ needs_transport: 0, transfer_status: null, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', row.id)
      .execute();
}

/**
 * Tombstones every live row that names the member in the column its collection declares
 * (`partOfUser`, a table of the collection's name with `deleted`, `seq` and `updated_at`).
 */
async function tombstoneUserParts(w: WriteContext, userId: string): Promise<void> {
  for (const { name, column } of USER_PART_COLLECTIONS) {
    const table = sql.table(name);
    const { rows } = await sql<{
      id: string;
    }>`SELECT id FROM ${table} WHERE ${sql.ref(column)} = ${userId} AND deleted = 0`.execute(w.db);
    for (const row of rows) {
      await sql`UPDATE ${table} SET deleted = 1, seq = ${await w.nextSeq(name)}, updated_at = ${w.now} WHERE id = ${row.id}`.execute(
        w.db,
      );
    }
  }
}

/** Fields of audit entries that hold a member's name or address. */
const NAMING_FIELDS = { username: true, email: true } as const;

/**
 * The audit log keeps what admins did to the member, but not who the member was: their name and
 * e-mail in earlier entries become the pseudonym and nothing. The one change an audit entry ever gets.
 */
async function redactAuditEntries(w: WriteContext, userId: string, pseudonym: string): Promise<void> {
  const entries = await w.db.selectFrom('audit_log').select(['id', 'before', 'after']).where('user_id', '=', userId).execute();
  for (const entry of entries) {
    const before = redacted(entry.before, pseudonym);
    const after = redacted(entry.after, pseudonym);
    if (before === entry.before && after === entry.after) continue;
    await w.db.updateTable('audit_log').set({ before, after }).where('id', '=', entry.id).execute();
  }
}

function redacted(json: string | null, pseudonym: string): string | null {
  if (json === null) return null;
  const values = JSON.parse(json) as Record<string, unknown>;
  if (!Object.keys(values).some((key) => key in NAMING_FIELDS)) return json;
  const { username, email: _email, ...rest } = values;
  return JSON.stringify({ ...rest, ...(username === undefined ? {} : { username: pseudonym }) });
}
