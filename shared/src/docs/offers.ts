import { idField, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

export const OFFER_STATES = ['open', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferState = (typeof OFFER_STATES)[number];
export const OFFER_RESPONSES = ['accept', 'decline'] as const;
export type OfferResponse = (typeof OFFER_RESPONSES)[number];

/**
 * A returned ticket offered to the next in line (docs/product.md, Ticket contingents): the member
 * answers it (for a guest, the member who brought them) before `expires_at`. The server decides by
 * the answer's arrival.
 */
export interface OfferDoc extends SyncedDoc {
  event_id: string;
  /** The attendee row that gets the ticket (the member's own or their guest's). */
  attendee_id: string;
  /** Who answers: the member, or for a guest the member who brought them. */
  user_id: string;
  /** The returned ticket (its attendee row). */
  ticket_id: string;
  /** The returned ticket's price; null while it is open. */
  price_cents: number | null;
  /** ISO 8601 UTC: an accept arriving later is refused. */
  expires_at: string;
  state: OfferState;
  /** The member's answer, the one field a device changes; null until answered. */
  response: OfferResponse | null;
  created_at: string;
  updated_at: string;
}

export const offerSchema = {
  title: 'offers',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    event_id: idField,
    attendee_id: { type: 'string' },
    user_id: { type: 'string' },
    ticket_id: { type: 'string' },
    price_cents: { type: ['integer', 'null'] },
    expires_at: { type: 'string' },
    state: { type: 'string', enum: [...OFFER_STATES] },
    response: { type: ['string', 'null'], enum: [...OFFER_RESPONSES, null] },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'event_id', 'attendee_id', 'user_id', 'ticket_id', 'expires_at', 'state', 'created_at', 'updated_at', 'seq'],
  indexes: ['event_id'],
} as const;

/**
 * The signed-in member's offers. The server makes them (a returned ticket, the next in line); a
 * device only answers one it owns, offline too: `response` 'accept' or 'decline'.
 */
export const offersSync = defineSyncCollection<OfferDoc, 'offer.answer'>({
  name: 'offers',
  schema: offerSchema,
  priority: 3,
  push: {
    fields: ['response'],
    createFields: [],
    create: false,
    delete: false,
    ownerOf: (doc) => doc.user_id,
    refusals: ['offer.answer'],
  },
  partOfEvent: true,
  tombstone: {
    event_id: '',
    attendee_id: '',
    user_id: '',
    ticket_id: '',
    price_cents: null,
    expires_at: '',
    state: 'withdrawn',
    response: null,
    created_at: '',
    updated_at: '',
  },
});

/** Whether an offer can still be answered at `now` (ISO 8601 UTC): open, and its window has not closed. */
export function isOfferAnswerable(offer: Pick<OfferDoc, 'state' | 'expires_at'>, now: string): boolean {
  return offer.state === 'open' && now < offer.expires_at;
}
