import { centsToInputText, parseEurosAmount } from '@fankurve/shared/rules/money';
import { type TransportDoc } from '@fankurve/shared';
import type { TransportInput } from '../../api/eventDetail.js';

/** The transport form: its fields and their REST body (money in euros there, cents in the documents). */

// ── Transport form ─────────────────────────────────────────────────────────────────────────────

export interface TransportForm {
  name: string;
  departure_location: string;
  /** `YYYY-MM-DDTHH:MM` (a datetime-local input) or empty: to be announced. */
  departure: string;
  price: string;
  is_free: boolean;
  is_price_tbd: boolean;
  /** Members choose their seats of the seat plan themselves (docs/product.md, Bus); else the admin assigns them. */
  members_choose: boolean;
  /** The fare is charged by itself at the departure time. */
  charge_at_departure: boolean;
}

export const EMPTY_TRANSPORT_FORM: TransportForm = {
  name: '',
  departure_location: '',
  departure: '',
  price: '',
  is_free: false,
  is_price_tbd: false,
  members_choose: false,
  charge_at_departure: false,
};

export function transportFormOf(
  transport: Partial<TransportDoc> &
    Pick<
      TransportDoc,
      'name' | 'departure_location' | 'departure_datetime' | 'price_per_seat_cents' | 'is_free' | 'is_price_tbd'
    >,
): TransportForm {
  return {
    name: transport.name,
    departure_location: transport.departure_location,
    departure: transport.departure_datetime ? transport.departure_datetime.slice(0, 16).replace(' ', 'T') : '',
    price: transport.is_free || transport.is_price_tbd ? '' : centsToInputText(transport.price_per_seat_cents),
    is_free: transport.is_free,
    is_price_tbd: transport.is_price_tbd,
    members_choose: transport.seat_choice === 'members',
    charge_at_departure: transport.charge_at_departure ?? false,
  };
}

export type TransportFormError = 'nameRequired' | 'departureLocationRequired' | 'priceRequired' | 'departureInvalid';

/** docs/product.md, Input rules (and Readings, Transport): name and place required; a price unless free or TBD (then 0). */
export function transportInputOf(
  eventId: string,
  form: TransportForm,
): { ok: true; body: TransportInput } | { ok: false; error: TransportFormError } {
  const name = form.name.trim();
  const place = form.departure_location.trim();
  if (!name) return { ok: false, error: 'nameRequired' };
  if (!place) return { ok: false, error: 'departureLocationRequired' };
  let price = 0;
  if (!form.is_free && !form.is_price_tbd) {
    const parsed = parseEurosAmount(form.price);
    if (parsed === null) return { ok: false, error: 'priceRequired' };
    price = parsed;
  }
  let departure: string | null = null;
  if (form.departure.trim()) {
    const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})/.exec(form.departure.trim());
    if (!match) return { ok: false, error: 'departureInvalid' };
    departure = `${match[1]} ${match[2]}:${match[3]}`;
  }
  return {
    ok: true,
    body: {
      event_id: eventId,
      name,
      departure_location: place,
      price_per_seat: price,
      is_free: form.is_free,
      is_price_tbd: form.is_price_tbd,
      departure_datetime: departure,
      seat_choice: form.members_choose ? 'members' : 'admin',
      charge_at_departure: form.charge_at_departure,
    },
  };
}
