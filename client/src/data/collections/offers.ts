import { isOfferAnswerable, type AttendeeDoc, type OfferDoc, type OfferResponse } from '@fankurve/shared';
import type { MangoQuerySelector } from 'rxdb';
import { combineLatest, map, of, switchMap, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import { kindOf } from '../pushedGroup.js';
import type { DocStore } from '../docStore.js';
import { LocalRuleError, type Device } from '../device.js';
import { useQuery } from '../query.js';

/*
 * The member's offers of returned tickets on the device (docs/product.md, Ticket contingents): the
 * server makes them and replicates only the member's own; the event's title and a guest's name come
 * from the device's other collections, so the offers show offline with their countdown. A device
 * answers one offline (`response`); the server decides by the answer's arrival, and an accept that
 * arrives after the window closed comes back refused with a notice.
 */

/** An open offer as the screens show it. */
export interface OfferView {
  id: string;
  event_id: string;
  /** Null while the event has not reached the device. */
  event_title: string | null;
  event_date: string | null;
  attendee_id: string;
  /** For an offer to the member's guest: the guest's name. */
  guest_name: string | null;
  price_cents: number | null;
  expires_at: string;
  /** The member's answer made on this device and not yet decided by the server. */
  response: OfferResponse | null;
}

const soonestFirst = (a: OfferDoc, b: OfferDoc) => a.expires_at.localeCompare(b.expires_at) || a.id.localeCompare(b.id);

/** The member's open offers (of one event, or all), soonest window first; archived events' left out. */
export function openOffers$(db: FankurveDatabase, docs: DocStore, userId: string, eventId?: string): Observable<OfferView[]> {
  const selector: MangoQuerySelector<OfferDoc> = { user_id: userId, state: 'open', ...(eventId === undefined ? {} : { event_id: eventId }) };
  return kindOf(db, 'offers').find({ selector }).$.pipe(
    map((docs) => docs.map((doc) => doc.toJSON() as OfferDoc).sort(soonestFirst)),
    switchMap((offers) => {
      if (offers.length === 0) return of([]);
      const eventIds = [...new Set(offers.map((offer) => offer.event_id))];
      const attendeeIds = [...new Set(offers.map((offer) => offer.attendee_id))];
      return combineLatest([docs.byIds('events', eventIds), db.attendees.findByIds(attendeeIds).$]).pipe(
        map(([events, attendees]) =>
          offers.flatMap((offer): OfferView[] => {
            const event = events.get(offer.event_id);
            if (event?.archived) return [];
            const attendee = attendees.get(offer.attendee_id)?.toJSON() as AttendeeDoc | undefined;
            return [
              {
                id: offer.id,
                event_id: offer.event_id,
                event_title: event?.title ?? null,
                event_date: event?.date ?? null,
                attendee_id: offer.attendee_id,
                guest_name: attendee && attendee.user_id === null ? attendee.guest_name : null,
                price_cents: offer.price_cents,
                expires_at: offer.expires_at,
                response: offer.response,
              },
            ];
          }),
        ),
      );
    }),
  );
}

/** The member's open offers of one event, or of all events when `eventId` is left out. */
export function useOpenOffers(userId: string, eventId?: string): OfferView[] | undefined {
  return useQuery((db, docs) => openOffers$(db, docs, userId, eventId), [userId, eventId]);
}

/**
 * Answers one of the member's open offers on the device, offline too. Accepting needs the window
 * open by the device's clock (the server decides again by the answer's arrival); declining stays
 * possible while the offer is open. An answer already given is not changed.
 */
async function answerOffer({ db, outbox }: Device, userId: string, offerId: string, response: OfferResponse): Promise<void> {
  const doc = await kindOf(db, 'offers').findOne(offerId).exec();
  // Only the member the offer is for answers it (the declaration's owner); the server checks again.
  if (!doc || doc.user_id !== userId) throw new LocalRuleError('offerNotFound');
  if (doc.response === response) return;
  if (doc.response !== null || doc.state !== 'open') throw new LocalRuleError(doc.state === 'expired' ? 'offerExpired' : 'offerClosed');
  if (response === 'accept' && !isOfferAnswerable(doc, new Date().toISOString())) throw new LocalRuleError('offerExpired');
  outbox.add(doc.id);
  await doc.incrementalPatch({ response });
}

export const acceptOffer = (device: Device, userId: string, offerId: string) => answerOffer(device, userId, offerId, 'accept');
export const declineOffer = (device: Device, userId: string, offerId: string) => answerOffer(device, userId, offerId, 'decline');

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { acceptOffer, declineOffer };
