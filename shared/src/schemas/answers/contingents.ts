import { z } from 'zod';
import { OFFER_RESPONSES, OFFER_STATES } from '../../docs/offers.js';
import { MY_REQUEST_STATES, TICKET_REQUEST_STATES } from '../../rules/allocation.js';
import { RANK_REASONS } from '../../rules/allocationReasons.js';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the ticket contingent and offer routes (server/src/http/contingents.ts); money in euros. */

/**
 * A contingent's figures: `requested` every current request (waiting for the deadline, holding a
 * ticket, in line or offered one), `allocated` those holding a ticket, `waiting` those in line
 * (offered ones included, excluded ones not), `on_offer` the returned tickets offered now, `free`
 * the tickets nobody holds or is offered (a returned ticket counts until someone is offered it),
 * `beyond` the tickets held beyond the contingent's size. They add up (shared rule
 * `contingentBalance`): allocated + on_offer + free = tickets + beyond.
 */
export const restContingent = z
  .strictObject({
    event_id: z.string(),
    tickets: z.number().int(),
    requested: z.number().int(),
    allocated: z.number().int(),
    waiting: z.number().int(),
    on_offer: z.number().int(),
    free: z.number().int(),
    beyond: z.number().int(),
    /** The club's wall-clock time, or null: requests are allocated at once. */
    request_deadline: textOrNull,
    payment_days: z.number().int().nullable(),
    offer_minutes: z.number().int(),
    /** When the allocation ran (ISO 8601 UTC); null while requests gather. */
    allocated_at: textOrNull,
  })
  .meta({ id: 'Contingent' });
export type RestContingent = z.infer<typeof restContingent>;

/** An open offer as its member answers it. */
export const offerRef = z.strictObject({ id: z.string(), expires_at: z.string() });

/** A member's loyalty points as the order counts them: away matches per counted season (newest first) plus the admin's adjustment. */
export const loyaltyBreakdown = z
  .strictObject({
    points: z.number().int(),
    adjustment: z.number().int(),
    seasons: z.array(z.strictObject({ season: z.string(), away_matches: z.number().int() })),
  })
  .meta({ id: 'LoyaltyBreakdown' });

/**
 * Where a request stands (shared rule `placeInAllocation`): while requests gather its place in the
 * allocation order, afterwards its place in the line to a ticket (holders, then offered, then
 * waiting), of `requests` current requests for `tickets` tickets; `waiting_place` on the waiting list.
 */
export const placeInAllocationAnswer = z
  .strictObject({
    place: z.number().int(),
    requests: z.number().int(),
    tickets: z.number().int(),
    outcome: z.enum(['gathering', 'ticket', 'offered', 'waiting']),
    waiting_place: z.number().int().nullable(),
  })
  .meta({ id: 'PlaceInAllocation' });

/**
 * Why the member's own request (or their guest's) stands where it does (docs/product.md, Ticket
 * contingents, "Allocations anyone can follow"): the request time, what decided the place (pinned,
 * points, guest, excluded), the admin's note on a pin or exclusion, the points (for a guest, their
 * host's: the member's own) with their breakdown, and the place; nothing of other members'.
 */
export const requestExplanation = z
  .strictObject({
    requested_at: z.string(),
    reason: z.enum(RANK_REASONS),
    note: textOrNull,
    loyalty: loyaltyBreakdown,
    place: placeInAllocationAnswer.nullable(),
  })
  .meta({ id: 'TicketRequestExplanation' });
export type RequestExplanation = z.infer<typeof requestExplanation>;

/**
 * The member's own request (`attendee_id` null when they have no row), or one of their guests':
 * `position` is the place in line while waiting (1: the next returned ticket is offered to them),
 * the place in the allocation order while requests gather, otherwise null.
 */
const myRequestFields = {
  attendee_id: textOrNull,
  state: z.enum(MY_REQUEST_STATES),
  position: z.number().int().nullable(),
  offer: offerRef.nullable(),
  /** A ticket the member returned that nobody has taken yet: its debt stays theirs until then. */
  returned: z.boolean(),
  /** With payment days: the day the allocated ticket is to be paid by (ISO 8601 UTC). */
  pay_by: textOrNull,
  /** Why it stands where it does; null without a current request (none, declined, returned). */
  explanation: requestExplanation.nullable(),
};

export const myGuestRequest = z.strictObject({ ...myRequestFields, attendee_id: z.string(), guest_name: z.string() });

export const myRequest = z.strictObject({ ...myRequestFields, guests: z.array(myGuestRequest) }).meta({ id: 'MyTicketRequest' });
export type MyRequest = z.infer<typeof myRequest>;

/** One request in the admin's queue, in allocation order. */
export const queuedRequest = z
  .strictObject({
    attendee_id: z.string(),
    kind: z.enum(['member', 'guest']),
    user_id: textOrNull,
    username: textOrNull,
    guest_name: textOrNull,
    /** For a guest: the member who brought them. */
    host_id: textOrNull,
    host_username: textOrNull,
    /** The member's loyalty points; null for a guest (who ranks by their host). */
    points: z.number().int().nullable(),
    requested_at: z.string(),
    state: z.enum(TICKET_REQUEST_STATES),
    pinned: z.boolean(),
    excluded: z.boolean(),
    /** 1-based place in the allocation order; null for an excluded request. */
    rank: z.number().int().nullable(),
    /** What decided the place (shared rule `rankReasons`): pinned, points, guest (by the host's points) or excluded, and whether request time broke a tie. */
    reason: z.strictObject({ kind: z.enum(RANK_REASONS), points: z.number().int().nullable(), tie: z.boolean() }),
    /** A member's points with their breakdown; null for a guest. */
    loyalty: loyaltyBreakdown.nullable(),
    /** The admin's note on the pin or exclusion. */
    note: textOrNull,
  })
  .meta({ id: 'QueuedTicketRequest' });
export type QueuedRequest = z.infer<typeof queuedRequest>;

/** GET /api/events/{id}/contingent: the figures, the member's own request, and for admins the queue. */
/** GET /api/events/{id}/contingent: `contingent` and `mine` are null for an event without a contingent. */
export const contingentAnswer = successAnswer({
  contingent: restContingent.nullable(),
  mine: myRequest.nullable(),
  queue: z.array(queuedRequest).optional(),
});
export type ContingentAnswer = z.infer<typeof contingentAnswer>;

/** PUT /api/events/{id}/contingent (admin). */
export const contingentSavedAnswer = messageAnswerWith({ contingent: restContingent });
export type ContingentSavedAnswer = z.infer<typeof contingentSavedAnswer>;

/** POST /api/events/{id}/contingent/allocate (admin): `allocated` tickets handed out by this call. */
export const contingentAllocatedAnswer = messageAnswerWith({ contingent: restContingent, allocated: z.number().int() });
export type ContingentAllocatedAnswer = z.infer<typeof contingentAllocatedAnswer>;

/** PUT /api/events/{id}/contingent/requests/{attendeeId} (admin). */
export const ticketRequestAnswer = messageAnswerWith({
  request: z.strictObject({
    attendee_id: z.string(),
    state: z.enum(TICKET_REQUEST_STATES),
    pinned: z.boolean(),
    excluded: z.boolean(),
    /** The admin's note on the pin or exclusion (its member reads it). */
    note: textOrNull,
  }),
});
export type TicketRequestAnswer = z.infer<typeof ticketRequestAnswer>;

/** PUT /api/tickets/{attendeeId}/return: `offered` when the next in line got an offer at once. */
export const ticketReturnedAnswer = messageAnswerWith({ offered: z.boolean() });
export type TicketReturnedAnswer = z.infer<typeof ticketReturnedAnswer>;

/** An offer (the synced document's REST shape, the price in euros). */
export const restOffer = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    attendee_id: z.string(),
    user_id: z.string(),
    ticket_id: z.string(),
    price: z.number().nullable(),
    expires_at: z.string(),
    state: z.enum(OFFER_STATES),
    response: z.enum(OFFER_RESPONSES).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Offer' });
export type RestOffer = z.infer<typeof restOffer>;

/** PUT /api/tickets/offers/{id}/accept and …/decline. */
export const offerAnswer = messageAnswerWith({ offer: restOffer });
export type OfferAnswer = z.infer<typeof offerAnswer>;

/** GET /api/tickets/offers/my: the member's open offers (for a guest, `guest_name` names them). */
export const myOffersAnswer = successAnswer({
  offers: z.array(
    z.strictObject({
      id: z.string(),
      event_id: z.string(),
      event_title: z.string(),
      guest_name: textOrNull,
      price: z.number().nullable(),
      expires_at: z.string(),
    }),
  ),
});
export type MyOffersAnswer = z.infer<typeof myOffersAnswer>;
