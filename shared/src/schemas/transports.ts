import { z } from 'zod';
import { euros, lineText, msg } from './common.js';

const name = lineText(z.string(msg('transportNameRequired')).trim().min(1, msg('transportNameRequired')).max(200));
const departureLocation = lineText(
  z.string(msg('departureLocationRequired')).trim().min(1, msg('departureLocationRequired')).max(200),
);
const pricePerSeat = euros('seatPriceInvalid');
/** Club wall-clock time like event dates (rounded to 15 minutes); null or '' = to be announced. */
const departure = z.string(msg('departureInvalid')).trim().max(40, msg('departureInvalid')).nullable();

/**
 * A transport option (docs/product.md, Input rules): name and departure location required; price per seat in euros,
 * required unless free or to be announced (which exclude each other); departure optional.
 */
export const createTransportInput = z.object({
  name,
  departure_location: departureLocation,
  event_id: z.string(msg('invalidInput')).min(1, msg('invalidInput')).max(64, msg('eventNotFound')),
  price_per_seat: pricePerSeat.nullish(),
  is_free: z.boolean().optional(),
  is_price_tbd: z.boolean().optional(),
  departure_datetime: departure.optional(),
  /** Who assigns the seats of the seat plan (docs/product.md, Bus); default the admin. */
  seat_choice: z.string(msg('seatChoiceInvalid')).optional(),
  /** Whether the fare is charged by itself at the departure time; default no. */
  charge_at_departure: z.boolean(msg('invalidInput')).optional(),
});
export type CreateTransportInput = z.infer<typeof createTransportInput>;

/** PUT /api/transports/{id}: any of the fields (the event stays; unknown fields are ignored). */
export const updateTransportInput = createTransportInput.omit({ event_id: true }).partial();
export type UpdateTransportInput = z.infer<typeof updateTransportInput>;
