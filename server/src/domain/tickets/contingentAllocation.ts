import { allocationOrder, nextInLine, debtorOf, newId, type TicketRequestFlagsInput } from '@fankurve/shared';
import { checkRequestNote } from '@fankurve/shared/rules/allocationReasons';
import type { AttendeeRow } from '../../db/schema.js';
import { toBool, toInt, type WriteContext, type Written } from '../../db/store.js';
import { scheduleJobBy } from '../../db/jobs.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { attendeeRef } from '../attendance/attendeeRows.js';
import { badInput, notFound } from '../errors.js';
import { loyaltyPointsOf } from './loyalty.js';
import { defaultPriceOfPurchase } from './tickets.js';
import {
  CONTINGENT_JOB,
  CURRENT_STATES,
  type ContingentRow,
  type Db,
  type OfferRow,
  type RequestWithRow,
  type TicketRequestRow,
  findContingent,
  isReturnedTicket,
  openOffersOf,
  requestsOf,
  requireContingent,
  setRequestState,
} from './contingentRequests.js';
import { audit } from '../club/auditLog.js';

/*
 * The allocation of a contingent (docs/architecture.md, "Ticket contingents"). Everything that
 * changes who holds or is offered a ticket ends in `settleContingent`, which makes the contingent
 * agree with its requests: free tickets go to the first in line in the shared order
 * (`allocationOrder`, bought at the event's price), a returned ticket nobody is offered yet is
 * offered to the first who waits, and an offer whose ticket or request went away is withdrawn.
 */

/** Closes an open offer (declined, run out, withdrawn or accepted) with a new seq. */
export async function closeOffer(
  w: WriteContext,
  actor: Actor,
  offer: OfferRow,
  state: 'declined' | 'expired' | 'withdrawn',
): Promise<void> {
  await w.db
    .updateTable('offers')
    .set({
      state,
      ...(state === 'declined' ? { response: 'decline' as const } : {}),
      updated_at: w.now,
      seq: await w.nextSeq('offers'),
    })
    .where('id', '=', offer.id)
    .execute();
  w.record({ type: 'offer.closed', offerId: offer.id, eventId: offer.event_id, userId: offer.user_id, state, actorId: actor.id });
}

/** Marks the row bought as `updateTicketStatus` does (the event's price or its only price category). */
async function buyFor(w: WriteContext, actor: Actor, attendeeId: string): Promise<void> {
  const row = await w.db.selectFrom('attendees').selectAll().where('id', '=', attendeeId).executeTakeFirstOrThrow();
  const fields: Partial<AttendeeRow> = { bought: 1, ...(await defaultPriceOfPurchase(w, row, { bought: 1 })) };
  await w.db
    .updateTable('attendees')
    .set({ ...fields, updated_at: w.now, seq: await w.nextSeq('attendees') })
    .where('id', '=', attendeeId)
    .execute();
  await setRequestState(w, attendeeId, 'allocated', { allocated_at: w.now });
  w.record({ type: 'ticket.bought', ...attendeeRef(row, actor) });
}

async function makeOffer(
  w: WriteContext,
  actor: Actor,
  contingent: ContingentRow,
  ticketId: string,
  to: RequestWithRow,
): Promise<void> {
  const ticket = await w.db.selectFrom('attendees').select(['price_cents']).where('id', '=', ticketId).executeTakeFirstOrThrow();
  const expiresAt = new Date(Date.parse(w.now) + contingent.offer_minutes * 60_000).toISOString();
  const offer: OfferRow = {
    id: newId(),
    event_id: contingent.event_id,
    attendee_id: to.attendee_id,
    user_id: debtorOf(to)!,
    ticket_id: ticketId,
    price_cents: ticket.price_cents === null ? null : Number(ticket.price_cents),
    expires_at: expiresAt,
    state: 'open',
    response: null,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('offers'),
    deleted: 0,
  };
  await w.db.insertInto('offers').values(offer).execute();
  await setRequestState(w, to.attendee_id, 'offered');
  await scheduleJobBy(w.db, CONTINGENT_JOB, expiresAt);
  w.record({
    type: 'offer.made',
    offerId: offer.id,
    eventId: offer.event_id,
    attendeeId: offer.attendee_id,
    userId: offer.user_id,
    expiresAt,
    actorId: actor.id,
  });
}

/**
 * Makes the event's contingent agree with its requests (see the top of this file); answers how many
 * tickets it handed out. Nothing happens for an event without a contingent, a deleted or archived
 * one, or while requests gather until the deadline (unless `force`: the admin's "allocate now").
 */
export async function settleContingent(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  options: { force?: boolean } = {},
): Promise<number> {
  const contingent = await findContingent(w.db, eventId);
  if (!contingent) return 0;
  const event = await w.db
    .selectFrom('events')
    .select('id')
    .where('id', '=', eventId)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .executeTakeFirst();
  if (!event) return 0;
  if (contingent.allocated_at === null) {
    if (contingent.request_deadline !== null && !options.force) return 0;
    await w.db
      .updateTable('contingents')
      .set({ allocated_at: w.now, updated_at: w.now })
      .where('event_id', '=', eventId)
      .execute();
    contingent.allocated_at = w.now;
  }

  let requests = await requestsOf(w.db, eventId);
  const byId = new Map(requests.map((request) => [request.attendee_id, request]));
  // Offers whose ticket went away, or whose member no longer waits for it, are withdrawn.
  let offers = await openOffersOf(w.db, eventId);
  for (const offer of offers) {
    const ticket = byId.get(offer.ticket_id);
    const to = byId.get(offer.attendee_id);
    const ticketGone = !ticket || !isReturnedTicket(ticket);
    if (!ticketGone && to?.state === 'offered' && !to.excluded && to.live) continue;
    await closeOffer(w, actor, offer, 'withdrawn');
    if (to?.state === 'offered') await setRequestState(w, to.attendee_id, 'waiting');
  }
  requests = await requestsOf(w.db, eventId);
  offers = await openOffersOf(w.db, eventId);
  // Someone marked "offered" without an open offer (a lost race) waits again.
  const offeredTo = new Set(offers.map((offer) => offer.attendee_id));
  for (const request of requests) {
    if (request.state === 'offered' && !offeredTo.has(request.attendee_id)) {
      await setRequestState(w, request.attendee_id, 'waiting');
      request.state = 'waiting';
    }
  }

  const inLine = requests.filter((request) => (request.state === 'requested' || request.state === 'waiting') && request.live);
  const returned = requests.filter(isReturnedTicket);
  const offeredTickets = new Set(offers.map((offer) => offer.ticket_id));
  const unoffered = returned.filter((request) => !offeredTickets.has(request.attendee_id));
  const held = requests.filter((request) => request.state === 'allocated').length;
  const free = contingent.tickets - held - returned.length;
  if (inLine.length === 0) return 0;
  if (free <= 0 && unoffered.length === 0) {
    // Nothing to hand out: whoever gathered waits, in no order that matters yet.
    for (const request of inLine) if (request.state === 'requested') await setRequestState(w, request.attendee_id, 'waiting');
    return 0;
  }

  const points = await loyaltyPointsOf(w.db, w.today());
  const order = allocationOrder(
    requests.filter((request) => request.state !== 'withdrawn'),
    (userId) => points.get(userId) ?? 0,
  );
  let allocated = 0;
  const waiting: RequestWithRow[] = [];
  const recipients = new Set(
    nextInLine(
      order.filter((request) => inLine.includes(request) && debtorOf(request) !== null),
      free,
    ),
  );
  for (const request of order) {
    if (!inLine.includes(request)) continue;
    if (recipients.has(request)) {
      await buyFor(w, actor, request.attendee_id);
      allocated += 1;
      continue;
    }
    if (request.state === 'requested') await setRequestState(w, request.attendee_id, 'waiting');
    if (!request.excluded && debtorOf(request) !== null) waiting.push(request);
  }
  // Returned tickets (oldest return first) to the first who wait.
  unoffered.sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.attendee_id.localeCompare(b.attendee_id));
  for (const [index, ticket] of unoffered.entries()) {
    const to = waiting[index];
    if (!to) break;
    await makeOffer(w, actor, contingent, ticket.attendee_id, to);
  }
  if (allocated > 0) {
    w.record({ type: 'contingent.allocated', eventId, allocated, actorId: actor.id });
    await audit(w, actor, { kind: 'tickets', action: 'contingent.allocate', eventId, after: { allocated } });
  }
  return allocated;
}

/**
 * The store's before-commit step (registered first in deps.ts, before the ledger's): for every
 * attendee row the transaction wrote, records the start or end of its request and settles the
 * contingents concerned. A row that needs a ticket, has none and no request in line gets a new
 * request (requested now); a row that no longer needs one (or is gone) before getting a ticket
 * withdraws its request; a row an admin marked bought holds its ticket. Requests are recorded for
 * every event, so a contingent created later finds their exact times.
 */
export async function recordTicketRequests(w: WriteContext, written: Written): Promise<void> {
  if (!written.collections.has('attendees')) return;
  const rows = await w.db
    .selectFrom('attendees as a')
    .leftJoin('ticket_requests as r', 'r.attendee_id', 'a.id')
    .select(['a.id', 'a.event_id', 'a.needs_ticket', 'a.bought', 'a.deleted', 'r.state'])
    .where('a.seq', '>=', written.firstSeq)
    .execute();
  const events = new Set<string>();
  for (const row of rows) {
    const state = row.state ?? null;
    const live = !toBool(row.deleted);
    const bought = live && toBool(row.bought);
    const needs = live && !bought && toBool(row.needs_ticket);
    // A returned ticket's row changed (unbought, removed): its offer may have to go.
    if (state === 'returned') events.add(row.event_id);
    if (bought) {
      if (state === null || state === 'allocated' || state === 'returned') continue;
      await setRequestState(w, row.id, 'allocated', { allocated_at: w.now });
    } else if (needs) {
      // Declined (or let run out): ticking "needs a ticket" again asks anew, at the back of the line.
      if (state !== null && state !== 'withdrawn' && state !== 'allocated' && state !== 'returned' && state !== 'declined')
        continue;
      await w.db
        .insertInto('ticket_requests')
        .values({
          attendee_id: row.id,
          event_id: row.event_id,
          requested_at: w.now,
          pinned: 0,
          excluded: 0,
          state: 'requested',
          allocated_at: null,
          updated_at: w.now,
        })
        .onConflict((oc) =>
          oc
            .column('attendee_id')
            .doUpdateSet({ requested_at: w.now, state: 'requested', allocated_at: null, updated_at: w.now }),
        )
        .execute();
    } else {
      // A declined request stays declined (the member's page says they left the queue).
      if (state === null || state === 'withdrawn' || state === 'returned' || state === 'declined') continue;
      await setRequestState(w, row.id, 'withdrawn');
    }
    events.add(row.event_id);
  }
  for (const eventId of [...events].sort()) await settleContingent(w, SYSTEM_ACTOR, eventId);
}

/** The admin's "allocate now": hands out the free tickets at once, deadline or not; answers how many. */
export async function allocateNow(w: WriteContext, actor: Actor, eventId: string): Promise<number> {
  requireAdmin(actor);
  await requireLiveEvent(w.db, eventId);
  await requireContingent(w.db, eventId);
  return settleContingent(w, actor, eventId, { force: true });
}

/** Allocates the contingents whose request deadline has come (the job; `due` lists their event ids). */
export async function allocateAtDeadline(w: WriteContext, eventId: string): Promise<number> {
  const contingent = await findContingent(w.db, eventId);
  if (!contingent || contingent.allocated_at !== null) return 0;
  return settleContingent(w, SYSTEM_ACTOR, eventId, { force: true });
}

/** The contingents still gathering requests until their deadline, of live events (the job's look). */
export function pendingDeadlines(db: Db): Promise<{ event_id: string; request_deadline: string }[]> {
  return db
    .selectFrom('contingents as c')
    .innerJoin('events as e', 'e.id', 'c.event_id')
    .select(['c.event_id', 'c.request_deadline'])
    .where('c.allocated_at', 'is', null)
    .where('c.request_deadline', 'is not', null)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .execute() as Promise<{ event_id: string; request_deadline: string }[]>;
}

/**
 * Pins a request to the front or excludes it from the allocation (admin); one clears the other.
 * Excluding a request that was offered a ticket withdraws the offer; what it holds it keeps. The
 * optional note (its member reads it) goes with the flag: changing the flags without a note drops
 * it, and a note on a request neither pinned nor excluded is refused.
 */
export async function setRequestFlags(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  attendeeId: string,
  input: TicketRequestFlagsInput,
): Promise<TicketRequestRow> {
  requireAdmin(actor);
  await requireLiveEvent(w.db, eventId);
  await requireContingent(w.db, eventId);
  if (input.pinned === true && input.excluded === true) throw badInput('invalidInput');
  const request = await w.db
    .selectFrom('ticket_requests')
    .selectAll()
    .where('attendee_id', '=', attendeeId)
    .where('event_id', '=', eventId)
    .where('state', '!=', 'withdrawn')
    .executeTakeFirst();
  if (!request) throw notFound('ticketRequestNotFound');
  let pinned = toBool(request.pinned);
  let excluded = toBool(request.excluded);
  if (input.pinned !== undefined) pinned = input.pinned;
  if (input.excluded !== undefined) excluded = input.excluded;
  if (input.pinned === true) excluded = false;
  if (input.excluded === true) pinned = false;
  const flagsChanged = pinned !== toBool(request.pinned) || excluded !== toBool(request.excluded);
  // The note goes with the pin or exclusion: a new one replaces it; changing the flags without one drops it.
  let note = request.note;
  if (input.note !== undefined) {
    const checked = checkRequestNote(input.note);
    if (!checked.ok) throw badInput(checked.code);
    note = checked.value;
  } else if (flagsChanged) note = null;
  if (note !== null && !pinned && !excluded) throw badInput('invalidInput');
  if (!flagsChanged && note === request.note) return request;
  await w.db
    .updateTable('ticket_requests')
    .set({ pinned: toInt(pinned), excluded: toInt(excluded), note, updated_at: w.now })
    .where('attendee_id', '=', attendeeId)
    .execute();
  w.record({ type: 'ticketRequest.changed', eventId, attendeeId, pinned, excluded, actorId: actor.id });
  await audit(w, actor, {
    kind: 'tickets',
    action: 'ticketRequest.flags',
    userId: await debtorOfRow(w, attendeeId),
    eventId,
    entityId: attendeeId,
    before: { pinned: toBool(request.pinned), excluded: toBool(request.excluded), note: request.note },
    after: { pinned, excluded, note },
  });
  await settleContingent(w, actor, eventId);
  return w.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', attendeeId).executeTakeFirstOrThrow();
}

/**
 * The attendee ids of an event's current requests in allocation order (the day list's order of
 * names still needing a ticket); empty for an event without a contingent.
 */
export async function queueOrderOf(db: Db, eventId: string, today: string): Promise<string[]> {
  if (!(await findContingent(db, eventId))) return [];
  const requests = (await requestsOf(db, eventId)).filter((request) => CURRENT_STATES.includes(request.state));
  const points = await loyaltyPointsOf(db, today);
  return allocationOrder(requests, (userId) => points.get(userId) ?? 0).map((request) => request.attendee_id);
}

/** The member a ticket row concerns: the member, or for a guest the member who brought them. */
async function debtorOfRow(w: WriteContext, attendeeId: string): Promise<string | null> {
  const row = await w.db
    .selectFrom('attendees')
    .select(['user_id', 'brought_by'])
    .where('id', '=', attendeeId)
    .executeTakeFirst();
  return row ? (row.user_id ?? row.brought_by) : null;
}
