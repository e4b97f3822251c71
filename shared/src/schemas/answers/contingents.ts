import { z } from 'zod';
import { OFFER_RESPONSES, OFFER_STATES } from '../../docs/offers.js';
import { MY_REQUEST_STATES, TICKET_REQUEST_STATES } from '../../rules/allocation.js';
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
