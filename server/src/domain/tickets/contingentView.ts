import {
  allocationOrder,
  contingentBalance,
  payByOf,
  centsToEuros,
  myRequestState,
  placeInLine,
  type MyRequest,
  type QueuedRequest,
  type RequestExplanation,
  type RestContingent,
  type TicketRequestState,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isAdmin, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { placeInAllocation, rankReasons, type LoyaltyBreakdown, type RankReason } from '@fankurve/shared/rules/allocationReasons';
import { loyaltyBreakdownOf } from './loyalty.js';
import {
  CURRENT_STATES,
  type ContingentRow,
  type Db,
  type OfferRow,
  type RequestWithRow,
  findContingent,
  isReturnedTicket,
  openOffersOf,
  requestsOf,
} from './contingentRequests.js';

/* What GET /api/events/{id}/contingent shows (docs/architecture.md, "Ticket contingents", Reading): figures, the member's own request, the admin's queue. */

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
 * place, open offer, and why it stands there: `explanation`), and for an admin the whole queue in
 * allocation order with names, points and each place's reason. Who sees what (docs/architecture.md,
 * "Ticket contingents", Explanation): a member reads only their own and their guests' points,
 * request times and notes; of everyone else's requests only counts. An event without one answers
 * `NO_CONTINGENT`; an unknown or deleted event is 404.
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
  const own = await db
    .selectFrom('attendees')
    .select(['id', 'user_id', 'guest_name'])
    .where('event_id', '=', eventId)
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('user_id', '=', actor.id), eb.and([eb('user_id', 'is', null), eb('brought_by', '=', actor.id)])]))
    .orderBy('created_at')
    .execute();
  const ownIds = new Set(own.map((row) => row.id));
  // The points are counted (one query) only when an order is shown: the admin's queue, someone in
  // line, or the member's own current request, whose explanation shows them.
  const needsOrder =
    isAdmin(actor) ||
    requests.some(
      (request) =>
        request.state === 'requested' ||
        request.state === 'waiting' ||
        (ownIds.has(request.attendee_id) && CURRENT_STATES.includes(request.state)),
    );
  const loyalty = needsOrder ? await loyaltyBreakdownOf(db, today) : null;
  const pointsOf = (userId: string) => loyalty?.members.get(userId)?.points ?? 0;
  const order = needsOrder ? allocationOrder(requests, pointsOf) : requests;
  const reasons = needsOrder ? rankReasons(requests, pointsOf) : new Map<string, RankReason>();
  const gathering = contingent.allocated_at === null;

  // Only the actor's own request or their guest's: their points (a guest ranks by their host's, the
  // actor's), request time, the note on it, and their place among counts.
  const explain = (request: RequestWithRow): RequestExplanation | null => {
    if (!CURRENT_STATES.includes(request.state) || !loyalty) return null;
    return {
      requested_at: request.requested_at,
      reason: reasons.get(request.attendee_id)?.kind ?? 'points',
      note: request.pinned || request.excluded ? request.note : null,
      loyalty: loyalty.members.get(actor.id) ?? loyalty.empty,
      place: placeInAllocation(order, request.attendee_id, { tickets: contingent.tickets, allocated: !gathering }),
    };
  };
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
      explanation: request && loyalty ? explain(request) : null,
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
  if (isAdmin(actor) && loyalty) view.queue = await queueOf(db, order, reasons, loyalty);
  return view;
}

async function queueOf(
  db: Kysely<Database>,
  order: RequestWithRow[],
  reasons: Map<string, RankReason>,
  loyalty: { members: Map<string, LoyaltyBreakdown>; empty: LoyaltyBreakdown },
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
    const breakdown = guest ? null : (loyalty.members.get(request.user_id!) ?? loyalty.empty);
    return {
      attendee_id: request.attendee_id,
      kind: guest ? 'guest' : 'member',
      user_id: request.user_id,
      username: guest ? null : (names.get(request.user_id!) ?? null),
      guest_name: guest ? request.guest_name : null,
      host_id: guest ? request.brought_by : null,
      host_username: guest && request.brought_by ? (names.get(request.brought_by) ?? null) : null,
      points: breakdown?.points ?? null,
      requested_at: request.requested_at,
      state: request.state,
      pinned: request.pinned,
      excluded: request.excluded,
      rank: request.excluded ? null : ++rank,
      reason: reasons.get(request.attendee_id) ?? { kind: 'points', points: null, tie: false },
      loyalty: breakdown,
      note: request.pinned || request.excluded ? request.note : null,
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
