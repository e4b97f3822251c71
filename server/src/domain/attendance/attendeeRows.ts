import {
  debtorOf,
  mergeAttendanceAnswer,
  transferStatusAfterAnswer,
  type AnswerFields,
  type MemberAttendanceFields,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database, UserRow } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { badInput, conflict, notFound } from '../errors.js';

/** Row helpers shared by the attendee modules (admin table, guests, tickets). No rules of their own. */

/** The ticket part of a new attendee row: nothing bought, no price yet, no requests. */
export const NO_TICKET = {
  paid_by: null,
  ticket_price_id: null,
  ticket_type: null,
  price_cents: null,
  is_free: 0,
  is_price_tbd: 0,
  bought: 0,
  paid: 0,
  received: 0,
  paid_requested: 0,
  paid_requested_at: null,
  received_requested: 0,
  received_requested_at: null,
} as const satisfies Partial<AttendeeRow>;

/**
 * An attendee row read once: its flags as booleans and its price as a number of cents. The synced
 * document (`toAttendeeDoc`), the REST answer (`toRestAttendee`) and the lists for the day start
 * from this, so a column is converted in one place.
 */
export function attendeeFieldsOf(row: AttendeeRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    user_id: row.user_id,
    guest_name: row.guest_name,
    brought_by: row.brought_by,
    status: row.status,
    needs_ticket: toBool(row.needs_ticket),
    has_ticket: toBool(row.has_ticket),
    needs_transport: toBool(row.needs_transport),
    transfer_status: row.transfer_status,
    paid_by: row.paid_by,
    ticket_price_id: row.ticket_price_id,
    ticket_type: row.ticket_type,
    price_cents: row.price_cents === null ? null : Number(row.price_cents),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
    bought: toBool(row.bought),
    paid: toBool(row.paid),
    received: toBool(row.received),
    paid_requested: toBool(row.paid_requested),
    received_requested: toBool(row.received_requested),
    created_at: row.created_at,
  };
}

/** The fields a member answers on an attendee row (docs/product.md, "Attendance and guests"); the rest are the ticket's and the seat's. */
export const ANSWER_FIELDS = [
  'status',
  'needs_ticket',
  'has_ticket',
  'needs_transport',
] as const satisfies readonly (keyof MemberAttendanceFields)[];

export type AnswerField = (typeof ANSWER_FIELDS)[number];

export const isAnswerField = (key: string): key is AnswerField => (ANSWER_FIELDS as readonly string[]).includes(key);

/** The answers an input names (a REST body, a guest change), for `mergedAnswerFields`. */
export function answersIn(input: Partial<MemberAttendanceFields>): Partial<MemberAttendanceFields> {
  const answers: Partial<MemberAttendanceFields> = {};
  for (const key of ANSWER_FIELDS) if (input[key] !== undefined) Object.assign(answers, { [key]: input[key] });
  return answers;
}

/** The answer fields of a row as the shared attendance rule reads them. */
export function answersOf(row: AttendeeRow): AnswerFields {
  return {
    needs_ticket: toBool(row.needs_ticket),
    has_ticket: toBool(row.has_ticket),
    needs_transport: toBool(row.needs_transport),
  };
}

/**
 * Merges an answer change onto a row, or for a new row onto the event's first-time answers
 * (`firstAnswerDefaults` of its title); needs/has ticket stay exclusive.
 */
export function mergedAnswerFields(
  current: AttendeeRow | AnswerFields,
  change: Partial<MemberAttendanceFields> & { status: MemberAttendanceFields['status'] },
) {
  const merged = mergeAttendanceAnswer('id' in current ? answersOf(current) : current, change);
  if (!merged.ok) throw badInput(merged.code);
  const answer = merged.value;
  return {
    status: answer.status,
    needs_ticket: toInt(answer.needs_ticket),
    has_ticket: toInt(answer.has_ticket),
    needs_transport: toInt(answer.needs_transport),
  };
}

/**
 * A new attendee row (a member's own attendance or a guest): its answers, the seat status they give,
 * no ticket yet, a new seq.
 */
export async function newAttendeeRow(
  w: WriteContext,
  who: Pick<AttendeeRow, 'id' | 'event_id' | 'user_id' | 'guest_name' | 'brought_by'>,
  answers: ReturnType<typeof mergedAnswerFields>,
): Promise<AttendeeRow> {
  return {
    ...who,
    ...answers,
    transfer_status: transferStatusAfterAnswer(null, answers.needs_transport === 1),
    ...NO_TICKET,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('attendees'),
    deleted: 0,
  };
}

export function findAttendeeById(db: Kysely<Database>, id: string): Promise<AttendeeRow | undefined> {
  return db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user who can attend: exists (404 'User not found') and is active (409 'This user is not active'). */
export async function requireActiveUser(db: Kysely<Database>, userId: string): Promise<UserRow> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).where('deleted', '=', 0).executeTakeFirst();
  if (!user) throw notFound('userNotFound');
  if (user.status !== 'active') throw conflict('userNotActive');
  return user;
}

/** One attendee row with the attendee's and the bringing member's usernames (the REST answer of a write). */
export function findAttendeeWithNames(db: Kysely<Database>, id: string) {
  return attendeesWithNames(db).where('a.id', '=', id).executeTakeFirstOrThrow();
}

/** Attendee rows (`a`) with the attendee's and the bringing member's usernames. */
export function attendeesWithNames(db: Kysely<Database>) {
  return db
    .selectFrom('attendees as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('users as b', 'b.id', 'a.brought_by')
    .selectAll('a')
    .select(['u.username as username', 'b.username as brought_by_username']);
}

/** The ids a domain event about an attendee row carries. */
export function attendeeRef(row: Pick<AttendeeRow, 'id' | 'event_id' | 'user_id' | 'brought_by'>, actor: Actor) {
  return { eventId: row.event_id, attendeeId: row.id, userId: row.user_id, debtorId: debtorOf(row), actorId: actor.id };
}

/** The names of the fields whose values differ between a row and its update. */
export function changedKeys(row: AttendeeRow, fields: Partial<AttendeeRow>): (keyof AttendeeRow)[] {
  return (Object.keys(fields) as (keyof AttendeeRow)[]).filter((key) => fields[key] !== row[key]);
}
