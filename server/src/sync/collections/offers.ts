import { offersSync, type OfferDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import type { OfferRow } from '../../domain/tickets/contingentRequests.js';
import { badInput } from '../../domain/errors.js';
import { acceptOffer, declineOffer, findOwnOffer, ownOffersAfter } from '../../domain/tickets/offers.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

function toOfferDoc(row: OfferRow): MasterDocument<OfferDoc> {
  return {
    id: row.id,
    event_id: row.event_id,
    attendee_id: row.attendee_id,
    user_id: row.user_id,
    ticket_id: row.ticket_id,
    price_cents: row.price_cents === null ? null : Number(row.price_cents),
    expires_at: row.expires_at,
    state: row.state,
    response: row.response,
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  };
}

/**
 * The member's own offers (docs/architecture.md, "Ticket contingents"): the server makes them; a
 * device answers one with `response`, offline too, through the same accept and decline as REST. The
 * server decides by arrival: an accept after the window closed is refused with a notice
 * (`offerExpired`), and the device gets the offer back as the server has it.
 */
export const offersCollection = defineServerCollection<OfferDoc>({
  declaration: offersSync,
  async pull(db, actor, afterSeq, limit) {
    return (await ownOffersAfter(db, actor, afterSeq, limit)).map(toOfferDoc);
  },
  push: {
    async find(db, actor, id) {
      const row = await findOwnOffer(db, actor, id);
      return row ? toOfferDoc(row) : undefined;
    },
    async apply(w, actor, change) {
      const response = change.fields.response;
      if (response === undefined) return;
      if (response === 'accept') await acceptOffer(w, actor, change.id);
      else if (response === 'decline') await declineOffer(w, actor, change.id);
      else throw badInput();
    },
    describe: (change) => ({ eventId: change.master?.event_id ?? null, action: 'offer.answer' }),
  },
});
