import {
  allocationOrder,
  contingentBalance,
  nextInLine,
  payByOf,
  centsToEuros,
  checkRequestDeadline,
  debtorOf,
  DEFAULT_OFFER_MINUTES,
  myRequestState,
  newId,
  placeInLine,
  type ContingentInput,
  type MyRequest,
  type QueuedRequest,
  type RestContingent,
  type TicketRequestFlagsInput,
  type TicketRequestState,
} from '@fankurve/shared';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AttendeeRow, ContingentsTable, Database, OffersTable, TicketRequestsTable } from '../db/schema.js';
import { toBool, toInt, type WriteContext, type Written } from '../db/store.js';
import { scheduleJobBy } from '../db/jobs.js';
import { isAdmin, requireAdmin, SYSTEM_ACTOR, type Actor } from './actor.js';
import { requireLiveEvent } from './attendance.js';
import { attendeeRef } from './attendeeRows.js';
import { badInput, notFound } from './errors.js';
import { loyaltyPointsOf } from './loyalty.js';
import { defaultPriceOfPurchase } from './tickets.js';

/*
 * Ticket contingents (docs/architecture.md, "Ticket contingents"; docs/product.md, Ticket
 * contingents): how many tickets the club got for an event, the requests (an attendee row that needs
 * a ticket, recorded with the time the server first stored it), the allocation in the shared order
 * (`allocationOrder`), and the offers of returned tickets to the next in line. Everything that
 * changes who holds or is offered a ticket ends in `settleContingent`, which makes the contingent
 * agree with its requests: free tickets go to the first in line (bought at the event's price), a
 * returned ticket nobody is offered yet is offered to the first who waits, and an offer whose ticket
 * or request went away is withdrawn. The member-facing part (return, accept, decline, expiry) is in
 * domain/offers.ts.
 */

export type ContingentRow = Selectable<ContingentsTable>;
export type TicketRequestRow = Selectable<TicketRequestsTable>;
export type OfferRow = Selectable<OffersTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** The job that allocates at request deadlines and closes offers whose window ran out (jobs/ticketJobs.ts). */
export const CONTINGENT_JOB = 'ticket-contingents';

/** Requests that take part: gathering, holding a ticket, in line, offered one. */
const CURRENT_STATES: readonly TicketRequestState[] = ['requested', 'allocated', 'waiting', 'offered'];

export function findContingent(db: Db, eventId: string): Promise<ContingentRow | undefined> {
  return db.selectFrom('contingents').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

async function requireContingent(db: Db, eventId: string): Promise<ContingentRow> {
  const contingent = await findContingent(db, eventId);
  if (!contingent) throw notFound('contingentNotFound');
  return contingent;
}

/** A request with the attendee row it belongs to (member or guest) and the names the queue shows. */
interface RequestWithRow {
  attendee_id: string;
  event_id: string;
  requested_at: string;
  pinned: boolean;
  excluded: boolean;
  state: TicketRequestState;
  allocated_at: string | null;
  updated_at: string;
  user_id: string | null;
  brought_by: string | null;
  guest_name: string | null;
  /** The attendee row is live and its ticket bought. */
  holds: boolean;
  live: boolean;
}

async function requestsOf(db: Db, eventId: string): Promise<RequestWithRow[]> {
  const rows = await db
    .selectFrom('ticket_requests as r')
    .innerJoin('attendees as a', 'a.id', 'r.attendee_id')
    .select([
      'r.attendee_id',
      'r.event_id',
      'r.requested_at',
      'r.pinned',
      'r.excluded',
      'r.state',
      'r.allocated_at',
      'r.updated_at',
      'a.user_id',
      'a.brought_by',
      'a.guest_name',
      'a.bought',
      'a.deleted',
    ])
    .where('r.event_id', '=', eventId)
    .execute();
  return rows.map((row) => ({
    attendee_id: row.attendee_id,
    event_id: row.event_id,
    requested_at: row.requested_at,
    pinned: toBool(row.pinned),
    excluded: toBool(row.excluded),
    state: row.state,
    allocated_at: row.allocated_at,
    updated_at: row.updated_at,
    user_id: row.user_id,
    brought_by: row.brought_by,
    guest_name: row.guest_name,
    live: !toBool(row.deleted),
    holds: !toBool(row.deleted) && toBool(row.bought),
  }));
}

function openOffersOf(db: Db, eventId: string): Promise<OfferRow[]> {
  return db
    .selectFrom('offers')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('state', '=', 'open')
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A returned ticket still with the member who returned it (still bought: its debt stays theirs). */
const isReturnedTicket = (request: RequestWithRow) => request.state === 'returned' && request.holds;

async function setRequestState(
  w: WriteContext,
  attendeeId: string,
  state: TicketRequestState,
  extra: Partial<TicketRequestRow> = {},
): Promise<void> {
  await w.db
    .updateTable('ticket_requests')
    .set({ state, updated_at: w.now, ...extra })
    .where('attendee_id', '=', attendeeId)
    .execute();
}

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
  if (allocated > 0) w.record({ type: 'contingent.allocated', eventId, allocated, actorId: actor.id });
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

/** Whether a new or changed contingent must wait for its deadline: the job looks at once and then at the deadline. */
async function scheduleDeadline(w: WriteContext, contingent: ContingentRow): Promise<void> {
  if (contingent.request_deadline !== null && contingent.allocated_at === null) await scheduleJobBy(w.db, CONTINGENT_JOB, w.now);
}

/**
 * Sets the event's contingent (admin): tickets, request deadline (in the event's season, not after
 * it), payment days and the offers' window; a field left out keeps its value. Without a deadline
 * (or once the allocation ran) free tickets go out at once.
 */
export async function setContingent(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  input: ContingentInput,
): Promise<ContingentRow> {
  requireAdmin(actor);
  const event = await requireLiveEvent(w.db, eventId);
  const existing = await findContingent(w.db, eventId);
  let deadline = existing?.request_deadline ?? null;
  if (input.request_deadline !== undefined) {
    const typed = input.request_deadline?.trim() ?? '';
    if (typed === '') deadline = null;
    else {
      const checked = checkRequestDeadline(typed, event.date);
      if (!checked.ok) throw badInput(checked.code);
      deadline = checked.value;
    }
  }
  const row: ContingentRow = {
    event_id: eventId,
    tickets: input.tickets,
    request_deadline: deadline,
    payment_days: input.payment_days !== undefined ? input.payment_days : (existing?.payment_days ?? null),
    offer_minutes: input.offer_minutes ?? existing?.offer_minutes ?? DEFAULT_OFFER_MINUTES,
    allocated_at: existing?.allocated_at ?? null,
    created_at: existing?.created_at ?? w.now,
    updated_at: w.now,
  };
  const { event_id: _key, created_at: _created, ...changes } = row;
  await w.db
    .insertInto('contingents')
    .values(row)
    .onConflict((oc) => oc.column('event_id').doUpdateSet(changes))
    .execute();
  w.record({ type: 'contingent.set', eventId, actorId: actor.id });
  await scheduleDeadline(w, row);
  await settleContingent(w, actor, eventId);
  return requireContingent(w.db, eventId);
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
 * Excluding a request that was offered a ticket withdraws the offer; what it holds it keeps.
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
  if (pinned === toBool(request.pinned) && excluded === toBool(request.excluded)) return request;
  await w.db
    .updateTable('ticket_requests')
    .set({ pinned: toInt(pinned), excluded: toInt(excluded), updated_at: w.now })
    .where('attendee_id', '=', attendeeId)
    .execute();
  w.record({ type: 'ticketRequest.changed', eventId, attendeeId, pinned, excluded, actorId: actor.id });
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

/* ── What GET /api/events/{id}/contingent shows ── */

/** The figures of a contingent (see `restContingent`). */
export async function contingentFigures(db: Db, contingent: ContingentRow): Promise<RestContingent> {
  const requests = await requestsOf(db, contingent.event_id);
  const offers = await openOffersOf(db, contingent.event_id);
  const count = (...states: TicketRequestState[]) => requests.filter((request) => states.includes(request.state)).length;
  const allocated = count('allocated');
  const returned = requests.filter(isReturnedTicket).length;
  const { free, beyond } = contingentBalance({ tickets: contingent.tickets, allocated, returned, onOffer: offers.length });
  return {
    event_id: contingent.event_id,
    tickets: contingent.tickets,
    requested: requests.filter((request) => CURRENT_STATES.includes(request.state)).length,
    allocated,
    waiting: requests.filter((request) => (request.state === 'waiting' || request.state === 'offered') && !request.excluded)
      .length,
    on_offer: offers.length,
    free,
    beyond,
    request_deadline: contingent.request_deadline,
    payment_days: contingent.payment_days === null ? null : Number(contingent.payment_days),
    offer_minutes: Number(contingent.offer_minutes),
    allocated_at: contingent.allocated_at,
  };
}

export interface ContingentView {
  contingent: RestContingent;
  mine: MyRequest;
  queue?: QueuedRequest[];
}

/** An event without a contingent: nothing to show, and no error (the event page asks for every event). */
export const NO_CONTINGENT = { contingent: null, mine: null } as const;

/**
 * The contingent as the actor sees it: its figures, their own request and their guests' (state,
 * place, open offer), and for an admin the whole queue in allocation order with names and points.
 * An event without one answers `NO_CONTINGENT`; an unknown or deleted event is 404.
 */
export async function contingentView(
  db: Kysely<Database>,
  actor: Actor,
  eventId: string,
  today: string,
): Promise<ContingentView | typeof NO_CONTINGENT> {
  await requireLiveEvent(db, eventId);
  const contingent = await findContingent(db, eventId);
  if (!contingent) return NO_CONTINGENT;
  const requests = (await requestsOf(db, eventId)).filter((request) => request.state !== 'withdrawn');
  const offers = await openOffersOf(db, eventId);
  const needsOrder = isAdmin(actor) || requests.some((request) => request.state === 'requested' || request.state === 'waiting');
  const points = needsOrder ? await loyaltyPointsOf(db, today) : new Map<string, number>();
  const pointsOf = (userId: string) => points.get(userId) ?? 0;
  const order = needsOrder ? allocationOrder(requests, pointsOf) : requests;
  const gathering = contingent.allocated_at === null;

  const own = await db
    .selectFrom('attendees')
    .select(['id', 'user_id', 'guest_name'])
    .where('event_id', '=', eventId)
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('user_id', '=', actor.id), eb.and([eb('user_id', 'is', null), eb('brought_by', '=', actor.id)])]))
    .orderBy('created_at')
    .execute();
  const describe = (attendeeId: string | null) => {
    const request = attendeeId === null ? undefined : requests.find((r) => r.attendee_id === attendeeId);
    const state = myRequestState(request?.state ?? null);
    const offer = attendeeId === null ? undefined : offers.find((o) => o.attendee_id === attendeeId);
    let position: number | null = null;
    if (state === 'waiting') position = placeInLine(order, attendeeId!, (r) => r.state === 'waiting' && r.live);
    if (state === 'requested' && gathering)
      position = placeInLine(order, attendeeId!, (r) => CURRENT_STATES.includes(r.state) && r.live);
    const payBy =
      state === 'allocated'
        ? payByOf(request?.allocated_at ?? null, contingent.payment_days === null ? null : Number(contingent.payment_days))
        : null;
    return {
      attendee_id: attendeeId,
      state,
      position,
      offer: offer ? { id: offer.id, expires_at: offer.expires_at } : null,
      returned: request ? isReturnedTicket(request) : false,
      pay_by: payBy,
    };
  };
  const ownRow = own.find((row) => row.user_id === actor.id);
  const mine: MyRequest = {
    ...describe(ownRow?.id ?? null),
    guests: own
      .filter((row) => row.user_id === null)
      .map((row) => ({ ...describe(row.id), attendee_id: row.id, guest_name: row.guest_name ?? '' })),
  };
  const view: ContingentView = { contingent: await contingentFigures(db, contingent), mine };
  if (isAdmin(actor)) view.queue = await queueOf(db, order, pointsOf);
  return view;
}

async function queueOf(
  db: Kysely<Database>,
  order: RequestWithRow[],
  pointsOf: (userId: string) => number,
): Promise<QueuedRequest[]> {
  const userIds = [...new Set(order.flatMap((request) => [request.user_id, request.brought_by]).filter((id) => id !== null))];
  const names = new Map(
    userIds.length === 0
      ? []
      : (await db.selectFrom('users').select(['id', 'username']).where('id', 'in', userIds).execute()).map((user) => [
          user.id,
          user.username,
        ]),
  );
  let rank = 0;
  return order.map((request) => {
    const guest = request.user_id === null;
    return {
      attendee_id: request.attendee_id,
      kind: guest ? 'guest' : 'member',
      user_id: request.user_id,
      username: guest ? null : (names.get(request.user_id!) ?? null),
      guest_name: guest ? request.guest_name : null,
      host_id: guest ? request.brought_by : null,
      host_username: guest && request.brought_by ? (names.get(request.brought_by) ?? null) : null,
      points: guest ? null : pointsOf(request.user_id!),
      requested_at: request.requested_at,
      state: request.state,
      pinned: request.pinned,
      excluded: request.excluded,
      rank: request.excluded ? null : ++rank,
    };
  });
}

/** An offer's REST shape: the price in euros (null while open). */
export function toRestOffer(offer: OfferRow) {
  return {
    id: offer.id,
    event_id: offer.event_id,
    attendee_id: offer.attendee_id,
    user_id: offer.user_id,
    ticket_id: offer.ticket_id,
    price: offer.price_cents === null ? null : centsToEuros(Number(offer.price_cents)),
    expires_at: offer.expires_at,
    state: offer.state,
    response: offer.response,
    created_at: offer.created_at,
    updated_at: offer.updated_at,
  };
}
