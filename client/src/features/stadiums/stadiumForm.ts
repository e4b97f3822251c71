import { centsToEuros, checkEuros, parseEurosAmount } from '@fankurve/shared/rules/money';
import type { MessageCode } from '@fankurve/shared/registry';
import type { Stadium, StadiumInput } from '../../api/stadiums.js';

/** The stadium form as typed. */
export interface StadiumFormValues {
  team_name: string;
  stadium_name: string;
  city: string;
  capacity: string;
  guest_block_capacity: string;
  address: string;
  ticket_price: string;
}

export type StadiumFormField = keyof StadiumFormValues;

/** The error of a field: the server's message code for the same check (translated as `serverMessages.<code>`). */
export type StadiumFormError = Extract<
  MessageCode,
  'teamNameRequired' | 'stadiumNameRequired' | 'cityRequired' | 'capacityInvalid' | 'priceInvalid'
>;
export type StadiumFormErrors = Partial<Record<StadiumFormField, StadiumFormError>>;

export const EMPTY_STADIUM_FORM: StadiumFormValues = {
  team_name: '',
  stadium_name: '',
  city: '',
  capacity: '0',
  guest_block_capacity: '0',
  address: '',
  ticket_price: '',
};

/** A stadium's values in the form, for editing. */
export function stadiumFormValues(stadium: Stadium): StadiumFormValues {
  return {
    team_name: stadium.team_name,
    stadium_name: stadium.stadium_name,
    city: stadium.city,
    capacity: String(stadium.capacity ?? 0),
    guest_block_capacity: String(stadium.guest_block_capacity ?? 0),
    address: stadium.address ?? '',
    ticket_price: stadium.ticket_price === null || stadium.ticket_price === undefined ? '' : stadium.ticket_price.toFixed(2),
  };
}

/** A capacity: empty means 0; otherwise a whole number of at least 0. */
function parseCapacity(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * Checks the form (team name, stadium name and city required; capacities whole numbers, default 0;
 * ticket price optional, a number of at least 0) and builds the body of POST / PUT /api/stadiums.
 */
export function toStadiumInput(
  values: StadiumFormValues,
): { ok: true; body: StadiumInput } | { ok: false; errors: StadiumFormErrors } {
  const errors: StadiumFormErrors = {};
  const team_name = values.team_name.trim();
  const stadium_name = values.stadium_name.trim();
  const city = values.city.trim();
  if (!team_name) errors.team_name = 'teamNameRequired';
  if (!stadium_name) errors.stadium_name = 'stadiumNameRequired';
  if (!city) errors.city = 'cityRequired';
  const capacity = parseCapacity(values.capacity);
  if (capacity === null) errors.capacity = 'capacityInvalid';
  const guestBlock = parseCapacity(values.guest_block_capacity);
  if (guestBlock === null) errors.guest_block_capacity = 'capacityInvalid';
  let ticket_price: number | null = null;
  if (values.ticket_price.trim() !== '') {
    ticket_price = parseEurosAmount(values.ticket_price);
    if (ticket_price === null || ticket_price < 0) errors.ticket_price = 'priceInvalid';
  }
  if (Object.keys(errors).length > 0 || capacity === null || guestBlock === null) return { ok: false, errors };
  return {
    ok: true,
    body: {
      team_name,
      stadium_name,
      city,
      capacity,
      guest_block_capacity: guestBlock,
      address: values.address.trim() || null,
      ticket_price,
    },
  };
}

/**
 * A stadium ticket price (docs/product.md, Tickets and money): price and type required ('Please fill in all fields', the form's
 * error), the price checked once by the money input's rule (checkEuros: its code belongs to the price
 * field, which already says it while typing).
 */
export function toTicketPriceInput(
  price: string,
  ticketType: string,
):
  | { ok: true; price: number; ticket_type: string }
  | { ok: false; field: 'form'; error: Extract<MessageCode, 'fillAllFields'> }
  | { ok: false; field: 'price'; error: Extract<MessageCode, 'moneyInvalid' | 'moneyTooPrecise'> } {
  const type = ticketType.trim();
  if (price.trim() === '' || !type) return { ok: false, field: 'form', error: 'fillAllFields' };
  const checked = checkEuros(price);
  if (!checked.ok)
    return { ok: false, field: 'price', error: checked.code === 'moneyTooPrecise' ? 'moneyTooPrecise' : 'moneyInvalid' };
  return { ok: true, price: centsToEuros(checked.value), ticket_type: type };
}
