import {
  checkTicketRequest,
  CLUB_CASH_DESK,
  defaultTicketPrice,
  eurosToCents,
  hasNoPriceChoice,
  transferStatusAfterAnswer,
  type RequestKind,
  type TicketRow,
  type TicketStatusInput,
} from '@fankurve/shared';
import type { AttendeeRow } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import {
  ANSWER_FIELDS,
  answersIn,
  attendeeRef,
  changedKeys,
  findAttendeeById,
  isAnswerField,
  mergedAnswerFields,
} from '../attendance/attendeeRows.js';
import { badInput, conflict, forbidden, notFound } from '../errors.js';
import { findOwnAttendance } from '../attendance/attendance.js';
import { followTicketPaid } from '../money/ledgerTickets.js';
import { audit } from '../club/auditLog.js';

/*
 * The admin-owned fields of an attendee row, member or guest: the ticket (bought, paid, received,
 * paid_by = an active member or the club cash desk, a ticket price option of the event's stadium,
 * or free, or to be announced, or a plain price, ticket type), the transfer status, and the answers.
 * Marking paid or received settles the member's matching request. Members never write the ticket
 * fields (not through REST, not through a push).
 */

type Fields = Partial<AttendeeRow>;

/**
 * The price part of a change. A ticket price option, free, and to be announced exclude each other
 * (400 'priceChoiceExclusive'), as does a price above 0 with free or TBD. An option must belong to
 * the event's stadium and sets price and ticket type from itself (a price or type in the same body
 * is then ignored). Free means price 0, TBD means no price; a plain price clears TBD (and free when
 * above 0).
 */
async function priceFields(w: WriteContext, attendee: AttendeeRow, input: TicketStatusInput): Promise<Fields> {
  const optionId = input.ticket_price_id || null;
  const choices = [optionId !== null, input.is_free === true, input.is_price_tbd === true].filter(Boolean).length;
  const pricedAbove0 = typeof input.price === 'number' && input.price > 0;
  if (choices > 1 || (pricedAbove0 && (input.is_free === true || input.is_price_tbd === true))) {
    throw badInput('priceChoiceExclusive');
  }
  if (optionId !== null) {
    const option = await w.db
      .selectFrom('stadium_ticket_prices as p')
      .innerJoin('events as e', 'e.stadium_id', 'p.stadium_id')
      .select(['p.id', 'p.price_cents', 'p.ticket_type'])
      .where('p.id', '=', optionId)
      .where('e.id', '=', attendee.event_id)
      .executeTakeFirst();
    if (!option) throw badInput('ticketPriceNotForStadium');
    return {
      ticket_price_id: option.id,
      price_cents: Number(option.price_cents),
      ticket_type: option.ticket_type,
      is_free: 0,
      is_price_tbd: 0,
    };
  }
  const fields: Fields = {};
  if (input.ticket_price_id !== undefined) fields.ticket_price_id = null;
  if (input.ticket_type !== undefined) fields.ticket_type = input.ticket_type?.trim() || null;
  if (input.is_free === true) return { ...fields, is_free: 1, is_price_tbd: 0, price_cents: 0, ticket_price_id: null };
  if (input.is_price_tbd === true) return { ...fields, is_price_tbd: 1, is_free: 0, price_cents: null, ticket_price_id: null };
  if (input.is_free === false) fields.is_free = 0;
  if (input.is_price_tbd === false) fields.is_price_tbd = 0;
  if (input.price !== undefined) {
    fields.price_cents = input.price === null ? null : eurosToCents(input.price);
    if (input.price !== null) fields.is_price_tbd = 0;
    if (input.price === null || input.price > 0) fields.is_free = 0;
  }
  return fields;
}

/**
 * The price of a ticket this change buys without giving one (none given, not free, not to be
 * announced): the event's price or its stadium's only price category (shared rule
 * `defaultTicketPrice`; docs/architecture.md, Data model). Nothing when it has a price, or when none
 * is known: then the price stays open.
 */
export async function defaultPriceOfPurchase(w: WriteContext, attendee: AttendeeRow, fields: Fields): Promise<Fields> {
  const after = { ...attendee, ...fields };
  if (
    !hasNoPriceChoice({
      price_cents: after.price_cents,
      is_free: toBool(after.is_free),
      is_price_tbd: toBool(after.is_price_tbd),
    })
  ) {
    return {};
  }
  const event = await w.db
    .selectFrom('events')
    .select(['ticket_price_cents', 'stadium_id'])
    .where('id', '=', attendee.event_id)
    .executeTakeFirst();
  if (!event) return {};
  const categories = event.stadium_id
    ? await w.db
        .selectFrom('stadium_ticket_prices')
        .select(['id', 'price_cents', 'ticket_type'])
        .where('stadium_id', '=', event.stadium_id)
        .execute()
    : [];
  const price = defaultTicketPrice(
    Number(event.ticket_price_cents),
    categories.map((category) => ({ ...category, price_cents: Number(category.price_cents) })),
  );
  if (!price) return {};
  if (price.kind === 'event') return { price_cents: price.price_cents, ticket_price_id: null, is_free: 0, is_price_tbd: 0 };
  const { category } = price;
  return {
    price_cents: category.price_cents,
    ticket_price_id: category.id,
    ticket_type: category.ticket_type,
    is_free: 0,
    is_price_tbd: 0,
  };
}

async function checkPayer(w: WriteContext, paidBy: string | null | undefined): Promise<void> {
  if (!paidBy || paidBy === CLUB_CASH_DESK) return;
  const payer = await w.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', paidBy)
    .where('deleted', '=', 0)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!payer) throw badInput('invalidPayer');
}

/**
 * Applies the admin's change to a live attendee row; checks everything before it writes. A change
 * that changes nothing writes nothing (no new seq).
 */
export async function updateTicketStatus(
  w: WriteContext,
  actor: Actor,
  attendee: AttendeeRow | undefined,
  input: TicketStatusInput,
): Promise<AttendeeRow> {
  requireAdmin(actor);
  if (!attendee || toBool(attendee.deleted)) throw notFound('attendanceNotFound');
  await checkPayer(w, input.paid_by);
  const fields: Fields = await priceFields(w, attendee, input);
  if (input.bought !== undefined) fields.bought = toInt(input.bought);
  if (fields.bought === 1 && !toBool(attendee.bought)) Object.assign(fields, await defaultPriceOfPurchase(w, attendee, fields));
  if (input.paid !== undefined) {
    fields.paid = toInt(input.paid);
    if (input.paid) Object.assign(fields, { paid_requested: 0, paid_requested_at: null });
  }
  if (input.received !== undefined) {
    fields.received = toInt(input.received);
    if (input.received) Object.assign(fields, { received_requested: 0, received_requested_at: null });
  }
  if (input.paid_by !== undefined) fields.paid_by = input.paid_by || null;
  if (ANSWER_FIELDS.some((key) => input[key] !== undefined)) {
    Object.assign(fields, mergedAnswerFields(attendee, { ...answersIn(input), status: input.status ?? attendee.status }));
    fields.transfer_status = transferStatusAfterAnswer(attendee.transfer_status, fields.needs_transport === 1);
  }
  if (input.transfer_status !== undefined) fields.transfer_status = input.transfer_status;

  const changed = changedKeys(attendee, fields);
  if (changed.length === 0) return attendee;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('attendees') };
  await w.db.updateTable('attendees').set(update).where('id', '=', attendee.id).execute();
  recordTicketEvents(w, actor, attendee, update, changed);
  await audit(w, actor, {
    kind: 'money',
    action: 'ticket.status',
    userId: attendee.user_id ?? attendee.brought_by,
    eventId: attendee.event_id,
    entityId: attendee.id,
    before: Object.fromEntries(changed.map((key) => [key, attendee[key]])),
    after: Object.fromEntries(changed.map((key) => [key, update[key as keyof typeof update]])),
  });
  const after = { ...attendee, ...update };
  // Paid books (and unpaid reverses) the ticket's payment (docs/architecture.md, Ledger).
  await followTicketPaid(w, actor, attendee, after);
  return after;
}

/** What an admin's change to an attendee row means for the member: bought, paid, received, requests accepted, seat. */
function recordTicketEvents(
  w: WriteContext,
  actor: Actor,
  before: AttendeeRow,
  after: Fields,
  changed: (keyof AttendeeRow)[],
): void {
  const ref = attendeeRef(before, actor);
  const turnedOn = (key: 'bought' | 'paid' | 'received') => changed.includes(key) && after[key] === 1;
  if (turnedOn('bought')) w.record({ type: 'ticket.bought', ...ref });
  if (turnedOn('paid')) {
    w.record({ type: 'ticket.paid', ...ref });
    if (toBool(before.paid_requested)) w.record({ type: 'request.accepted', kind: 'paid', ...ref });
  }
  if (turnedOn('received')) {
    w.record({ type: 'ticket.received', ...ref });
    if (toBool(before.received_requested)) w.record({ type: 'request.accepted', kind: 'received', ...ref });
  }
  if (changed.includes('transfer_status')) {
    w.record({ type: 'transferStatus.changed', from: before.transfer_status, to: after.transfer_status ?? null, ...ref });
  }
  const answers = changed.filter(isAnswerField);
  if (answers.length > 0) w.record({ type: 'attendance.changed', fields: answers, ...ref });
}

/** The live attendee row of a member at an event (not a guest). */
export function findMemberAttendee(w: WriteContext, eventId: string, userId: string) {
  return findOwnAttendance(w.db, eventId, userId);
}

/* ── Paid and received requests (docs/product.md, "Tickets and money"); the ticket lists and debts are in debts.ts ── */

/** An attendee row as the shared ticket rules read it. */
export function ticketRowOf(
  row: Pick<
    AttendeeRow,
    | 'user_id'
    | 'brought_by'
    | 'needs_ticket'
    | 'bought'
    | 'paid'
    | 'received'
    | 'paid_requested'
    | 'received_requested'
    | 'price_cents'
    | 'is_free'
    | 'is_price_tbd'
  >,
): TicketRow {
  return {
    user_id: row.user_id,
    brought_by: row.brought_by,
    needs_ticket: toBool(row.needs_ticket),
    bought: toBool(row.bought),
    paid: toBool(row.paid),
    received: toBool(row.received),
    paid_requested: toBool(row.paid_requested),
    received_requested: toBool(row.received_requested),
    price_cents: row.price_cents === null ? null : Number(row.price_cents),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
  };
}

/**
 * The debtor's paid or received request on a ticket (their own row or a guest's they brought), or
 * (`value` false) its withdrawal. The REST routes and the attendees sync push call this. Works on
 * an archived event's ticket too: the debt outlives the event. 404 for a missing row, 403 for anyone
 * but the debtor (admins accept requests, they do not make them), 409 when the request makes no
 * sense (not bought, already paid, already received). Asking again changes nothing.
 */
export async function requestTicket(
  w: WriteContext,
  actor: Actor,
  attendeeId: string,
  kind: RequestKind,
  value: boolean = true,
): Promise<AttendeeRow> {
  const row = await findAttendeeById(w.db, attendeeId);
  if (!row || toBool(row.deleted)) throw notFound('ticketNotFound');
  const rule = checkTicketRequest(ticketRowOf(row), actor.id, kind, value);
  if (!rule.ok) throw rule.code === 'forbidden' ? forbidden() : conflict(rule.code);
  const flag = kind === 'paid' ? 'paid_requested' : 'received_requested';
  if (toBool(row[flag]) === value) return row;
  const fields: Fields =
    kind === 'paid'
      ? { paid_requested: toInt(value), paid_requested_at: value ? w.now : null }
      : { received_requested: toInt(value), received_requested_at: value ? w.now : null };
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('attendees') };
  await w.db.updateTable('attendees').set(update).where('id', '=', row.id).execute();
  if (value) w.record({ type: 'request.made', kind, ...attendeeRef(row, actor) });
  return { ...row, ...update };
}
