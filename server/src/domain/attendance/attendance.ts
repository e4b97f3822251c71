import {
  checkAnswerDeadlineOpen,
  checkEventOpenForAnswers,
  checkMemberMayDrop,
  checkNewAttendance,
  firstAnswerDefaults,
  hasUnpaidDebts as owesUnpaidTickets,
  isBeforePayBy,
  newId,
  payByOf,
  transferStatusAfterAnswer,
  type AnswerFields,
  type AttendanceStatus,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import { isAdmin, type Actor } from '../actor.js';
import {
  ANSWER_FIELDS,
  attendeeRef,
  changedKeys,
  isAnswerField,
  mergedAnswerFields,
  newAttendeeRow,
  attendeesWithNames,
} from './attendeeRows.js';
import { conflict, DomainError, forbidden, notFound } from '../errors.js';

/*
 * A member's own attendance and the debt block (docs/product.md, "Attendance and guests"). The REST
 * routes and the attendees sync push call these same functions. Each checks everything before its
 * first write, so a caller may catch a DomainError and go on in the same transaction (the push does,
 * row by row).
 */

export interface OwnAttendanceChange extends Partial<AnswerFields> {
  status: AttendanceStatus;
  /** Requests are member-owned too; they only take effect on a bought ticket (paid) or a ticket not yet received. */
  paid_requested?: boolean;
  received_requested?: boolean;
}

/** 404 'Event not found' unless the event exists and is neither deleted nor archived (its kept tickets are no reason to answer). */
export async function requireLiveEvent(
  db: Kysely<Database>,
  eventId: string,
): Promise<{ id: string; title: string; date: string; answer_deadline: string | null }> {
  const event = await db
    .selectFrom('events')
    .select(['id', 'title', 'date', 'answer_deadline'])
    .where('id', '=', eventId)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .executeTakeFirst();
  if (!event) throw notFound('eventNotFound');
  return event;
}

/**
 * 409 'eventIsPast' when the event's day lies before the club's today (the shared rule): a past event
 * takes no new answers, no change of them and no dropping. Paid and received requests are not
 * answers and stay possible.
 */
export function requireOpenForAnswers(w: WriteContext, event: { date: string }): void {
  const rule = checkEventOpenForAnswers(event.date, w.today());
  if (!rule.ok) throw conflict(rule.code);
}

/**
 * 409 'answerDeadlinePassed' when a member (not an admin) changes an answer or a guest after the
 * event's answer deadline (the shared rule, by the club's wall clock of the transaction): REST and a
 * late offline change alike (docs/product.md, Answer deadlines and reminders).
 */
export function requireBeforeAnswerDeadline(w: WriteContext, actor: Actor, event: { answer_deadline: string | null }): void {
  const rule = checkAnswerDeadlineOpen(event.answer_deadline, w.clubNow(), isAdmin(actor));
  if (!rule.ok) throw conflict(rule.code);
}

export async function findOwnAttendance(db: Kysely<Database>, eventId: string, userId: string): Promise<AttendeeRow | undefined> {
  return db
    .selectFrom('attendees')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/**
 * The debt block's question (shared rule `hasUnpaidDebts`: a bought, unpaid ticket owed by the
 * member, or for a guest by the member who brought them, whose payment days have run out at `now`).
 * A contingent's ticket is inside its payment days from its request's `allocated_at` for the
 * contingent's `payment_days` (docs/architecture.md, Ticket contingents), read here from the
 * contingents and ticket_requests tables. The query only narrows the rows the rule looks at.
 */
export async function hasUnpaidDebts(db: Kysely<Database>, userId: string, now: string): Promise<boolean> {
  const rows = await db
    .selectFrom('attendees as a')
    .leftJoin('ticket_requests as r', 'r.attendee_id', 'a.id')
    .leftJoin('contingents as c', 'c.event_id', 'a.event_id')
    .select(['a.user_id', 'a.brought_by', 'a.bought', 'a.paid', 'r.allocated_at', 'c.payment_days'])
    .where('a.deleted', '=', 0)
    .where('a.bought', '=', 1)
    .where('a.paid', '=', 0)
    .where((eb) => eb.or([eb('a.user_id', '=', userId), eb('a.brought_by', '=', userId)]))
    .execute();
  return owesUnpaidTickets(
    rows.map((row) => ({ ...row, bought: toBool(row.bought), paid: toBool(row.paid) })),
    userId,
    (row) => isBeforePayBy(payByOf(row.allocated_at, row.payment_days === null ? null : Number(row.payment_days)), now),
  );
}

/** Refuses a new attendance or a new own guest while the member owes a ticket (the debt block). */
export async function requireNoDebtBlock(w: WriteContext, userId: string): Promise<void> {
  const rule = checkNewAttendance(await hasUnpaidDebts(w.db, userId, w.now));
  if (!rule.ok) throw new DomainError(rule.code, 403);
}

/**
 * Sets, or changes, the actor's own attendance at an event. Taking up a new attendance is refused
 * while the member has unpaid debts; changing an existing answer is not (the debt may be this very
 * match's ticket). On a past event neither is allowed, only requests on an unchanged answer.
 * `id` is the id a client chose for a row it created offline.
 */
export async function setOwnAttendance(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  change: OwnAttendanceChange,
  id?: string,
): Promise<AttendeeRow> {
  const event = await requireLiveEvent(w.db, eventId);
  const existing = await findOwnAttendance(w.db, eventId, actor.id);
  if (!existing) {
    requireOpenForAnswers(w, event);
    requireBeforeAnswerDeadline(w, actor, event);
    await requireNoDebtBlock(w, actor.id);
  }
  const answer = mergedAnswerFields(existing ?? firstAnswerDefaults(event.title), change);
  // On a past event (or after the answer deadline) an unchanged answer may still carry a paid or received request.
  if (existing && ANSWER_FIELDS.some((key) => answer[key] !== existing[key])) {
    requireOpenForAnswers(w, event);
    requireBeforeAnswerDeadline(w, actor, event);
  }
  const transferStatus = transferStatusAfterAnswer(existing?.transfer_status ?? null, answer.needs_transport === 1);
  if (existing) {
    // Another device of the member created the attendance first: a creation under another id only
    // says going or maybe; its first-time answers must not overwrite what was answered since.
    if (id !== undefined && id !== existing.id) return setOwnAttendance(w, actor, eventId, { status: change.status });
    const fields = { ...answer, ...requestFields(w.now, existing, change), transfer_status: transferStatus };
    return updateOwnRow(w, actor, existing, fields);
  }
  const who = { id: id ?? newId(), event_id: eventId, user_id: actor.id, guest_name: null, brought_by: null };
  const row = await newAttendeeRow(w, who, answer);
  const taken = id ? await w.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!taken) {
    await w.db.insertInto('attendees').values(row).execute();
  } else if (toBool(taken.deleted) && taken.user_id === actor.id && taken.event_id === eventId) {
    // A client re-attending under the id of its own earlier, removed attendance: revive it afresh.
    const { id: _id, ...fresh } = row;
    await w.db.updateTable('attendees').set(fresh).where('id', '=', taken.id).execute();
  } else {
    throw forbidden();
  }
  w.record({ type: 'attendance.set', status: row.status, ...attendeeRef(row, actor) });
  return row;
}

/** Writes a change to an existing own row (nothing when nothing changes) and says what happened. */
async function updateOwnRow(
  w: WriteContext,
  actor: Actor,
  existing: AttendeeRow,
  fields: Partial<AttendeeRow>,
): Promise<AttendeeRow> {
  const changed = changedKeys(existing, fields);
  if (changed.length === 0) return existing;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('attendees') };
  await w.db.updateTable('attendees').set(update).where('id', '=', existing.id).execute();
  const ref = attendeeRef(existing, actor);
  const answerFields = changed.filter(isAnswerField);
  if (answerFields.length > 0) w.record({ type: 'attendance.changed', fields: answerFields, ...ref });
  if (changed.includes('paid_requested') && update.paid_requested === 1) w.record({ type: 'request.made', kind: 'paid', ...ref });
  if (changed.includes('received_requested') && update.received_requested === 1) {
    w.record({ type: 'request.made', kind: 'received', ...ref });
  }
  return { ...existing, ...update };
}

/**
 * A device's change to an attendance it holds (`attendeeId`): refused (404) when that attendance is
 * gone, e.g. an admin removed it meanwhile; a change never brings it back.
 */
export async function changeOwnAttendance(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  attendeeId: string,
  change: OwnAttendanceChange,
): Promise<AttendeeRow> {
  await requireLiveEvent(w.db, eventId);
  const existing = await findOwnAttendance(w.db, eventId, actor.id);
  if (!existing || existing.id !== attendeeId) throw notFound('attendanceNotFound');
  return setOwnAttendance(w, actor, eventId, change);
}

/** Paid and received requests only mean something on a bought ticket that is not yet paid / received. */
function requestFields(now: string, existing: AttendeeRow | undefined, change: OwnAttendanceChange) {
  const fields: Partial<AttendeeRow> = {};
  if (!existing || !toBool(existing.bought)) return fields;
  if (
    change.paid_requested !== undefined &&
    !toBool(existing.paid) &&
    change.paid_requested !== toBool(existing.paid_requested)
  ) {
    fields.paid_requested = toInt(change.paid_requested);
    fields.paid_requested_at = change.paid_requested ? now : null;
  }
  if (
    change.received_requested !== undefined &&
    !toBool(existing.received) &&
    change.received_requested !== toBool(existing.received_requested)
  ) {
    fields.received_requested = toInt(change.received_requested);
    fields.received_requested_at = change.received_requested ? now : null;
  }
  return fields;
}

/** Removes the actor's own attendance (= not going). A bought ticket stays until an admin removes it. */
export async function removeOwnAttendance(w: WriteContext, actor: Actor, eventId: string): Promise<void> {
  const event = await requireLiveEvent(w.db, eventId);
  const existing = await findOwnAttendance(w.db, eventId, actor.id);
  if (!existing) throw notFound('attendanceNotFound');
  requireOpenForAnswers(w, event);
  requireBeforeAnswerDeadline(w, actor, event);
  const rule = checkMemberMayDrop({ bought: toBool(existing.bought) });
  if (!rule.ok) throw conflict(rule.code);
  await w.db
    .updateTable('attendees')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('attendees') })
    .where('id', '=', existing.id)
    .execute();
  w.record({ type: 'attendance.removed', ...attendeeRef(existing, actor) });
}

/** The actor's live attendances, with event title and date, newest event first (an archived event's kept tickets too). */
export async function listOwnAttendance(db: Kysely<Database>, actor: Actor) {
  return db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .selectAll('a')
    .select(['e.title as event_title', 'e.date as event_date', 'e.location as event_location'])
    .where('a.user_id', '=', actor.id)
    .where('a.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .orderBy('e.date', 'desc')
    .execute();
}

/** Attendees of one event with usernames (REST event detail). */
export async function listEventAttendees(db: Kysely<Database>, eventId: string) {
  return attendeesWithNames(db).where('a.event_id', '=', eventId).where('a.deleted', '=', 0).orderBy('a.created_at').execute();
}
