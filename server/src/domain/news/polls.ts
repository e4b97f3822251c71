import {
  checkPollClosingTime,
  clubTimeToInstant,
  checkPollOptions,
  checkPollQuestion,
  checkPollVote,
  isPollOpen,
  newId,
  pollResultsVisible,
  type CreatePollInput,
  type RuleResult,
  type UpdatePollInput,
} from '@fankurve/shared';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PollOptionsTable, PollsTable, PollVotesTable } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import { scheduleJobBy } from '../../db/jobs.js';
import { isAdmin, requireAdmin, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { badInput, conflict, notFound } from '../errors.js';

/*
 * Polls (docs/product.md, Polls; docs/architecture.md, "Polls"): admins ask, change the question or
 * the closing time, close and delete them (REST); every member votes, offline too (the poll_votes
 * sync collection), through `castVote`. The server decides by a vote's arrival: from the closing
 * time on (or once an admin closed it) a vote is 409 `pollClosed`. Which counts a member sees is
 * `pollResultsVisible` (shared/src/rules/polls.ts); reads map every poll for the actor.
 */

export type PollRow = Selectable<PollsTable>;
export type PollVoteRow = Selectable<PollVotesTable>;
type PollOptionRow = Selectable<PollOptionsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The job that publishes a poll's close when its closing time passes (jobs/pollJobs.ts). */
export const POLL_JOB = 'poll-closes';

/** A poll as one member sees it: counts and voters only where visible to them. */
export interface PollView {
  row: PollRow;
  /** Takes votes now (not closed, closing time not reached). */
  open: boolean;
  options: { id: string; text: string; votes: number | null }[];
  /** Members with a vote (at least one option); null while the counts are hidden. */
  voters: number | null;
  /** The options the actor chose ([] none). */
  myVotes: string[];
}

/**
 * A poll's fields as the actor sees them, the same for REST (`restPoll`) and the device's document:
 * without seq, tombstone flag or options.
 */
export function pollFields(view: PollView) {
  const { row } = view;
  return {
    id: row.id,
    question: row.question,
    multiple: toBool(row.multiple),
    results: row.results,
    closes_at: row.closes_at,
    closes_at_utc: row.closes_at_utc,
    closed: !view.open,
    voters: view.voters,
    event_id: row.event_id,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const enforce = <T>(result: RuleResult<T>): T => {
  if (!result.ok) throw badInput(result.code);
  return result.value;
};

const optionIdsOf = (row: Pick<PollVoteRow, 'option_ids'>): string[] => {
  try {
    const parsed: unknown = JSON.parse(row.option_ids);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
};

/** Whether a poll takes votes at `now` (ISO 8601 UTC): the shared rule on the stored row. */
export const pollRowOpen = (row: Pick<PollRow, 'closed_at' | 'closes_at_utc'>, now: string): boolean =>
  isPollOpen({ closed: row.closed_at !== null, closes_at_utc: row.closes_at_utc }, now);

export async function findLivePoll(db: Db, id: string): Promise<PollRow> {
  const row = await db.selectFrom('polls').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound('pollNotFound');
  return row;
}

async function optionsOf(db: Db, pollIds: string[]): Promise<Map<string, PollOptionRow[]>> {
  const byPoll = new Map<string, PollOptionRow[]>();
  if (pollIds.length === 0) return byPoll;
  const rows = await db.selectFrom('poll_options').selectAll().where('poll_id', 'in', pollIds).orderBy('position').execute();
  for (const row of rows) byPoll.set(row.poll_id, [...(byPoll.get(row.poll_id) ?? []), row]);
  return byPoll;
}

/**
 * Each live poll as `actor` sees it at `now`: its options in order, the counts where visible
 * (admins always; everyone once closed; with 'after_vote' who has voted), and the actor's own vote.
 */
export async function pollViews(db: Db, actor: Actor, rows: PollRow[], now: string): Promise<PollView[]> {
  const ids = rows.map((row) => row.id);
  const options = await optionsOf(db, ids);
  const votes =
    ids.length === 0
      ? []
      : await db
          .selectFrom('poll_votes')
          .select(['poll_id', 'user_id', 'option_ids'])
          .where('poll_id', 'in', ids)
          .where('deleted', '=', 0)
          .execute();
  return rows.map((row) => {
    const counts = new Map<string, number>();
    let voters = 0;
    let myVotes: string[] = [];
    for (const vote of votes) {
      if (vote.poll_id !== row.id) continue;
      const chosen = optionIdsOf(vote);
      if (vote.user_id === actor.id) myVotes = chosen;
      if (chosen.length > 0) voters++;
      for (const id of chosen) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const open = pollRowOpen(row, now);
    const visible = pollResultsVisible({ results: row.results, open }, { admin: isAdmin(actor), voted: myVotes.length > 0 });
    return {
      row,
      open,
      options: (options.get(row.id) ?? []).map((option) => ({
        id: option.id,
        text: option.text,
        votes: visible ? (counts.get(option.id) ?? 0) : null,
      })),
      voters: visible ? voters : null,
      myVotes,
    };
  });
}

/** Every live poll for the actor: open ones first, each part newest first. */
export async function listPolls(db: Db, actor: Actor, now: string): Promise<PollView[]> {
  const rows = await db
    .selectFrom('polls')
    .selectAll()
    .where('deleted', '=', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const views = await pollViews(db, actor, rows, now);
  return [...views.filter((view) => view.open), ...views.filter((view) => !view.open)];
}

export async function pollDetail(db: Db, actor: Actor, id: string, now: string): Promise<PollView> {
  const [view] = await pollViews(db, actor, [await findLivePoll(db, id)], now);
  return view!;
}

/** The closing time as typed, and its instant in the club's time zone (CLUB_TIME_ZONE). */
function closingTime(input: string | null, timeZone: string): { closes_at: string | null; closes_at_utc: string | null } {
  if (input === null) return { closes_at: null, closes_at_utc: null };
  const closesAt = enforce(checkPollClosingTime(input));
  return { closes_at: closesAt, closes_at_utc: clubTimeToInstant(closesAt, timeZone).toISOString() };
}

/** A new poll (admin): question, 2–10 options, one or several choices, when results show, closing time, event. */
export async function createPoll(w: WriteContext, actor: Actor, input: CreatePollInput, timeZone: string): Promise<PollRow> {
  requireAdmin(actor);
  const question = enforce(checkPollQuestion(input.question));
  const texts = enforce(checkPollOptions(input.options));
  const closing = closingTime(input.closes_at ?? null, timeZone);
  if (closing.closes_at_utc !== null && closing.closes_at_utc <= w.now) throw badInput('pollClosesAtPast');
  const eventId = input.event_id ? (await requireLiveEvent(w.db, input.event_id)).id : null;
  const row: PollRow = {
    id: newId(),
    question,
    multiple: toInt(input.multiple ?? false),
    results: input.results ?? 'after_vote',
    ...closing,
    closed_at: null,
    event_id: eventId,
    created_by: actor.id,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('polls'),
    deleted: 0,
  };
  await w.db.insertInto('polls').values(row).execute();
  await w.db
    .insertInto('poll_options')
    .values(texts.map((text, position) => ({ id: newId(), poll_id: row.id, position, text })))
    .execute();
  if (row.closes_at_utc !== null) await scheduleJobBy(w.db, POLL_JOB, row.closes_at_utc);
  w.record({ type: 'poll.created', pollId: row.id, eventId, closesAtUtc: row.closes_at_utc, actorId: actor.id });
  return row;
}

/**
 * Changes the question and/or the closing time (admin). A closing time already past closes the
 * poll at once; a closed poll keeps its closing time (409 `pollClosed`), its question may still be
 * corrected. Nothing changed takes no seq and records nothing.
 */
export async function updatePoll(
  w: WriteContext,
  actor: Actor,
  id: string,
  input: UpdatePollInput,
  timeZone: string,
): Promise<PollRow> {
  requireAdmin(actor);
  const current = await findLivePoll(w.db, id);
  const fields: Partial<PollRow> = {};
  if (input.question !== undefined) {
    const question = enforce(checkPollQuestion(input.question));
    if (question !== current.question) fields.question = question;
  }
  if (input.closes_at !== undefined) {
    const closing = closingTime(input.closes_at, timeZone);
    if (closing.closes_at !== current.closes_at) {
      if (!pollRowOpen(current, w.now)) throw conflict('pollClosed');
      Object.assign(fields, closing);
      if (closing.closes_at_utc !== null && closing.closes_at_utc <= w.now) fields.closed_at = w.now;
    }
  }
  const changed = Object.keys(fields).filter((key) => key !== 'closed_at' && key !== 'closes_at_utc');
  if (changed.length === 0) return current;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('polls') };
  await w.db.updateTable('polls').set(update).where('id', '=', id).execute();
  const row = { ...current, ...update };
  if (row.closed_at === null && row.closes_at_utc !== null) await scheduleJobBy(w.db, POLL_JOB, row.closes_at_utc);
  w.record({
    type: 'poll.changed',
    pollId: id,
    eventId: row.event_id,
    fields: changed,
    closesAtUtc: row.closed_at === null ? row.closes_at_utc : null,
    actorId: actor.id,
  });
  if (current.closed_at === null && row.closed_at !== null)
    w.record({ type: 'poll.closed', pollId: id, eventId: row.event_id, actorId: actor.id });
  return row;
}

/** Removes a poll and its votes (tombstones, so every device drops them). */
export async function deletePoll(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const current = await findLivePoll(w.db, id);
  await w.db
    .updateTable('polls')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('polls') })
    .where('id', '=', id)
    .execute();
  const votes = await w.db.selectFrom('poll_votes').select('id').where('poll_id', '=', id).where('deleted', '=', 0).execute();
  for (const vote of votes) {
    await w.db
      .updateTable('poll_votes')
      .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('poll_votes') })
      .where('id', '=', vote.id)
      .execute();
  }
  w.record({ type: 'poll.deleted', pollId: id, eventId: current.event_id, actorId: actor.id });
}

/** The actor's live vote in a poll, if any. */
async function ownVoteIn(db: Db, actor: Actor, pollId: string): Promise<PollVoteRow | undefined> {
  return db
    .selectFrom('poll_votes')
    .selectAll()
    .where('poll_id', '=', pollId)
    .where('user_id', '=', actor.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/**
 * The actor's vote (every member, admins too): replaces their choice; [] withdraws it. Refused while
 * the poll is closed (409 `pollClosed`, decided by `w.now`: the vote's arrival), for an option of
 * another poll (400 `pollOptionUnknown`) and for more than one option of a single-choice poll (400
 * `pollSingleChoice`). A second device's new vote (`id` made on the device) changes the member's one
 * vote. The poll takes a new seq, so every device pulls its new counts.
 */
export async function castVote(
  w: WriteContext,
  actor: Actor,
  pollId: string,
  optionIds: readonly unknown[],
  made: { id?: string } = {},
): Promise<void> {
  const poll = await findLivePoll(w.db, pollId);
  if (!pollRowOpen(poll, w.now)) throw conflict('pollClosed');
  const options = (await optionsOf(w.db, [poll.id])).get(poll.id) ?? [];
  const chosen = enforce(checkPollVote({ multiple: toBool(poll.multiple), options }, optionIds));
  const existing = await ownVoteIn(w.db, actor, poll.id);
  if (existing) {
    if (JSON.stringify(optionIdsOf(existing)) === JSON.stringify(chosen)) return;
    await w.db
      .updateTable('poll_votes')
      .set({ option_ids: JSON.stringify(chosen), updated_at: w.now, seq: await w.nextSeq('poll_votes') })
      .where('id', '=', existing.id)
      .execute();
  } else {
    if (chosen.length === 0) return;
    const id = made.id ?? newId();
    // An id the device made must be new (not another member's or poll's vote).
    if (await w.db.selectFrom('poll_votes').select('id').where('id', '=', id).executeTakeFirst()) throw badInput();
    await w.db
      .insertInto('poll_votes')
      .values({
        id,
        poll_id: poll.id,
        user_id: actor.id,
        event_id: poll.event_id,
        option_ids: JSON.stringify(chosen),
        created_at: w.now,
        updated_at: w.now,
        seq: await w.nextSeq('poll_votes'),
        deleted: 0,
      })
      .execute();
  }
  await w.db
    .updateTable('polls')
    .set({ seq: await w.nextSeq('polls') })
    .where('id', '=', poll.id)
    .execute();
  w.record({ type: 'poll.voted', pollId: poll.id, eventId: poll.event_id, optionIds: chosen, actorId: actor.id });
}

/** One of the actor's own votes by id (a tombstone included); another member's is not theirs to see. */
export async function findOwnVote(db: Db, actor: Actor, id: string): Promise<PollVoteRow | undefined> {
  return db.selectFrom('poll_votes').selectAll().where('id', '=', id).where('user_id', '=', actor.id).executeTakeFirst();
}

/** The actor's own votes after a seq (the poll_votes pull). */
export async function ownVotesAfter(db: Db, actor: Actor, afterSeq: number, limit: number): Promise<PollVoteRow[]> {
  return db
    .selectFrom('poll_votes')
    .selectAll()
    .where('user_id', '=', actor.id)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export const voteOptionIds = optionIdsOf;

/**
 * Publishes the close of every poll whose closing time has come (the job `poll-closes`, as the
 * system): `closed_at` = its closing time and a new seq, so every device pulls the counts that a
 * close makes visible. Votes were refused from that time on already.
 */
export async function closeDuePolls(w: WriteContext): Promise<number> {
  const due = await w.db
    .selectFrom('polls')
    .select(['id', 'event_id', 'closes_at_utc'])
    .where('deleted', '=', 0)
    .where('closed_at', 'is', null)
    .where('closes_at_utc', 'is not', null)
    .where('closes_at_utc', '<=', w.now)
    .execute();
  for (const poll of due) {
    await w.db
      .updateTable('polls')
      .set({ closed_at: poll.closes_at_utc, updated_at: w.now, seq: await w.nextSeq('polls') })
      .where('id', '=', poll.id)
      .execute();
    w.record({ type: 'poll.closed', pollId: poll.id, eventId: poll.event_id, actorId: 'system' });
  }
  return due.length;
}

/** The earliest closing time of a live poll still open (ISO 8601 UTC), or null. */
export async function nextPollClose(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('polls')
    .select((eb) => eb.fn.min('closes_at_utc').as('next'))
    .where('deleted', '=', 0)
    .where('closed_at', 'is', null)
    .where('closes_at_utc', 'is not', null)
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}
