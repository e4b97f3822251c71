import { centsToEuros, debtorOf, isUpcoming, type TicketReturnInput } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { isAdmin, SYSTEM_ACTOR, type Actor } from '../actor.js';
import { attendeeRef, findAttendeeById } from '../attendance/attendeeRows.js';
import { closeOffer, settleContingent } from './contingentAllocation.js';
import { findContingent, type OfferRow } from './contingentRequests.js';
import { conflict, forbidden, notFound } from '../errors.js';

/*
 * The waiting list that moves by itself (docs/product.md, Ticket contingents): a holder returns the
 * ticket, the first in line is offered it (contingentAllocation.ts `settleContingent`), and answers
 * before the window closes: accepting moves the ticket and its debt to them, declining (or letting
 * the window run out) passes it to the next. Until someone accepts, the ticket and its debt stay with
 * whoever returned it. The server decides by the answer's arrival: an accept after `expires_at` is
 * refused even when the job has not closed the offer yet. REST and the offers sync push call these.
 */

/** The ticket part of an attendee row that holds none: what the returned row keeps after it is taken. */
const NO_TICKET_HELD = {
  bought: 0,
  paid: 0,
  received: 0,
  paid_by: null,
  paid_requested: 0,
  paid_requested_at: null,
  received_requested: 0,
  received_requested_at: null,
  price_cents: null,
  ticket_price_id: null,
  ticket_type: null,
  is_free: 0,
  is_price_tbd: 0,
} as const satisfies Partial<AttendeeRow>;

/**
 * Returns a bought ticket of an event with a contingent (its debtor, or an admin): the request
 * becomes 'returned' and the first in line gets an offer; the row stays bought (the debt stays)
 * until someone accepts. The returner says whether they still go and still need the bus seat: a
 * seat no longer needed is freed at once; a row that no longer goes is removed when the ticket is
 * taken (it cannot go before: it holds the ticket). Answers whether an offer went out at once.
 */
export async function returnTicket(
  w: WriteContext,
  actor: Actor,
  attendeeId: string,
  choice: TicketReturnInput = {},
): Promise<boolean> {
  const row = await findAttendeeById(w.db, attendeeId);
  if (!row || toBool(row.deleted)) throw notFound('ticketNotFound');
  if (!isAdmin(actor) && debtorOf(row) !== actor.id) throw forbidden();
  const event = await w.db
    .selectFrom('events')
    .select(['date'])
    .where('id', '=', row.event_id)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .executeTakeFirst();
  if (!event) throw notFound('eventNotFound');
  if (!(await findContingent(w.db, row.event_id))) throw notFound('contingentNotFound');
  if (!toBool(row.bought)) throw conflict('ticketNotBought');
  if (!isUpcoming(event.date, w.today())) throw conflict('eventIsPast');
  const request = await w.db
    .selectFrom('ticket_requests')
    .select('state')
    .where('attendee_id', '=', attendeeId)
    .executeTakeFirst();
  if (request?.state === 'returned') throw conflict('ticketAlreadyReturned');
  const leaves = choice.going === false ? 1 : 0;
  await w.db
    .insertInto('ticket_requests')
    .values({
      attendee_id: attendeeId,
      event_id: row.event_id,
      requested_at: row.created_at,
      pinned: 0,
      excluded: 0,
      state: 'returned',
      allocated_at: null,
      leaves,
      updated_at: w.now,
    })
    .onConflict((oc) => oc.column('attendee_id').doUpdateSet({ state: 'returned', leaves, updated_at: w.now }))
    .execute();
  if ((leaves === 1 || choice.needs_transport === false) && toBool(row.needs_transport)) {
    await w.db
      .updateTable('attendees')
      .set({ needs_transport: 0, transfer_status: null, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', attendeeId)
      .execute();
  }
  w.record({ type: 'ticket.returned', ...attendeeRef(row, actor) });
  await settleContingent(w, actor, row.event_id);
  const offer = await w.db
    .selectFrom('offers')
    .select('id')
    .where('ticket_id', '=', attendeeId)
    .where('state', '=', 'open')
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return offer !== undefined;
}

/** The actor's live offer (someone else's is not found: admins answer none on a member's behalf). */
async function ownOffer(w: WriteContext, actor: Actor, offerId: string): Promise<OfferRow> {
  const offer = await w.db.selectFrom('offers').selectAll().where('id', '=', offerId).where('deleted', '=', 0).executeTakeFirst();
  if (!offer || offer.user_id !== actor.id) throw notFound('offerNotFound');
  return offer;
}

const findOffer = (w: WriteContext, offerId: string) =>
  w.db.selectFrom('offers').selectAll().where('id', '=', offerId).executeTakeFirstOrThrow();

/**
 * Accepts an open offer before its window closes (409 'offerExpired' after it, decided by the time
 * the answer arrives; 409 'offerClosed' when it was declined or withdrawn). The ticket moves with
 * its debt: the recipient's row becomes bought at the returned ticket's price (unpaid), the returned
 * row holds no ticket and needs none any more. Accepting again changes nothing.
 */
export async function acceptOffer(w: WriteContext, actor: Actor, offerId: string): Promise<OfferRow> {
  const offer = await ownOffer(w, actor, offerId);
  if (offer.state === 'accepted') return offer;
  if (offer.state === 'expired') throw conflict('offerExpired');
  if (offer.state !== 'open') throw conflict('offerClosed');
  if (w.now >= offer.expires_at) throw conflict('offerExpired');
  const ticket = await findAttendeeById(w.db, offer.ticket_id);
  const recipient = await findAttendeeById(w.db, offer.attendee_id);
  if (!ticket || toBool(ticket.deleted) || !toBool(ticket.bought)) throw conflict('offerClosed');
  if (!recipient || toBool(recipient.deleted) || toBool(recipient.bought)) throw conflict('offerClosed');

  await w.db
    .updateTable('attendees')
    .set({
      ...NO_TICKET_HELD,
      bought: 1,
      price_cents: ticket.price_cents,
      ticket_price_id: ticket.ticket_price_id,
      ticket_type: ticket.ticket_type,
      is_free: ticket.is_free,
      is_price_tbd: ticket.is_price_tbd,
      updated_at: w.now,
      seq: await w.nextSeq('attendees'),
    })
    .where('id', '=', recipient.id)
    .execute();
  // The returned row holds no ticket now; a returner who no longer goes leaves the event with it.
  const returner = await w.db
    .selectFrom('ticket_requests')
    .select('leaves')
    .where('attendee_id', '=', ticket.id)
    .executeTakeFirst();
  await w.db
    .updateTable('attendees')
    .set({
      ...NO_TICKET_HELD,
      needs_ticket: 0,
      ...(toBool(returner?.leaves ?? 0) ? { deleted: 1 } : {}),
      updated_at: w.now,
      seq: await w.nextSeq('attendees'),
    })
    .where('id', '=', ticket.id)
    .execute();
  await w.db
    .updateTable('ticket_requests')
    .set({ state: 'allocated', allocated_at: w.now, updated_at: w.now })
    .where('attendee_id', '=', recipient.id)
    .execute();
  await w.db
    .updateTable('offers')
    .set({ state: 'accepted', response: 'accept', updated_at: w.now, seq: await w.nextSeq('offers') })
    .where('id', '=', offer.id)
    .execute();
  w.record({ type: 'ticket.bought', ...attendeeRef(recipient, actor) });
  w.record({
    type: 'offer.accepted',
    offerId: offer.id,
    eventId: offer.event_id,
    attendeeId: recipient.id,
    userId: offer.user_id,
    ticketId: ticket.id,
    returnerId: debtorOf(ticket),
    actorId: actor.id,
  });
  await settleContingent(w, actor, offer.event_id);
  return findOffer(w, offer.id);
}

/**
 * The offer's request leaves the line (declined, or its window ran out), and its row no longer needs
 * a ticket, so /my-tickets and the day list stop listing it (docs/product.md, Ticket contingents).
 * Asking again is ticking "needs a ticket" again: a new request at the back of the line
 * (`recordTicketRequests`).
 */
async function leaveLine(w: WriteContext, offer: OfferRow): Promise<void> {
  const left = await w.db
    .updateTable('ticket_requests')
    .set({ state: 'declined', updated_at: w.now })
    .where('attendee_id', '=', offer.attendee_id)
    .where('state', '=', 'offered')
    .executeTakeFirst();
  if (Number(left.numUpdatedRows) === 0) return;
  await w.db
    .updateTable('attendees')
    .set({ needs_ticket: 0, seq: await w.nextSeq('attendees') })
    .where('id', '=', offer.attendee_id)
    .where('deleted', '=', 0)
    .execute();
}

/** Declines an open offer (also after its window): the request leaves the line, the ticket goes to the next. */
export async function declineOffer(w: WriteContext, actor: Actor, offerId: string): Promise<OfferRow> {
  const offer = await ownOffer(w, actor, offerId);
  if (offer.state === 'declined') return offer;
  if (offer.state !== 'open') throw conflict(offer.state === 'expired' ? 'offerExpired' : 'offerClosed');
  await closeOffer(w, actor, offer, 'declined');
  await leaveLine(w, offer);
  await settleContingent(w, actor, offer.event_id);
  return findOffer(w, offer.id);
}

/**
 * Closes every open offer whose window has run out (the job): its request counts as declined and
 * the ticket goes to the next in line. Answers how many it closed.
 */
export async function expireOffers(w: WriteContext): Promise<number> {
  const due = await w.db
    .selectFrom('offers')
    .selectAll()
    .where('state', '=', 'open')
    .where('deleted', '=', 0)
    .where('expires_at', '<=', w.now)
    .orderBy('expires_at')
    .execute();
  for (const offer of due) {
    await closeOffer(w, SYSTEM_ACTOR, offer, 'expired');
    await leaveLine(w, offer);
  }
  for (const eventId of [...new Set(due.map((offer) => offer.event_id))].sort()) await settleContingent(w, SYSTEM_ACTOR, eventId);
  return due.length;
}

/** The earliest window of an open offer (the job's next look), or null. */
export async function nextOfferExpiry(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('offers')
    .select((eb) => eb.fn.min('expires_at').as('first'))
    .where('state', '=', 'open')
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return row?.first ?? null;
}

/** GET /api/tickets/offers/my: the member's open offers whose window has not closed, soonest first. */
export async function myOpenOffers(db: Kysely<Database>, actor: Actor, now: string) {
  const rows = await db
    .selectFrom('offers as o')
    .innerJoin('events as e', 'e.id', 'o.event_id')
    .innerJoin('attendees as a', 'a.id', 'o.attendee_id')
    .select(['o.id', 'o.event_id', 'e.title as event_title', 'a.user_id', 'a.guest_name', 'o.price_cents', 'o.expires_at'])
    .where('o.user_id', '=', actor.id)
    .where('o.state', '=', 'open')
    .where('o.deleted', '=', 0)
    .where('o.expires_at', '>', now)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .orderBy('o.expires_at')
    .orderBy('o.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event_title: row.event_title,
    guest_name: row.user_id === null ? row.guest_name : null,
    price: row.price_cents === null ? null : centsToEuros(Number(row.price_cents)),
    expires_at: row.expires_at,
  }));
}

/** The actor's own offers with seq above `afterSeq` (the offers collection's pull). */
export function ownOffersAfter(db: Kysely<Database>, actor: Actor, afterSeq: number, limit: number): Promise<OfferRow[]> {
  return db
    .selectFrom('offers')
    .selectAll()
    .where('user_id', '=', actor.id)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** One of the actor's own offers, a tombstone included (the offers collection's push). */
export function findOwnOffer(db: Kysely<Database>, actor: Actor, offerId: string): Promise<OfferRow | undefined> {
  return db.selectFrom('offers').selectAll().where('id', '=', offerId).where('user_id', '=', actor.id).executeTakeFirst();
}
