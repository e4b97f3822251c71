import { z } from 'zod';
import { msg } from '../../schemas/common.js';

/*
 * The REST bodies of a ride (docs/product.md, Rides): types only; the rules (seats, place, time,
 * note, cost share) are checkRide's (rules.ts), which the device checks too.
 */

export const createRideInput = z.object({
  seats: z.number(msg('rideSeatsInvalid')),
  departure_location: z.string(msg('rideLocationRequired')),
  departure_datetime: z.string(msg('departureInvalid')),
  drives_back: z.boolean(msg('invalidInput')).optional(),
  note: z.string(msg('invalidInput')).nullish(),
  cost_share_cents: z.number(msg('rideCostShareInvalid')).nullish(),
});
export type CreateRideInput = z.input<typeof createRideInput>;

/** PUT /api/rides/{id}: any of the fields (unknown fields are ignored). */
export const updateRideInput = createRideInput.partial();
export type UpdateRideInput = z.input<typeof updateRideInput>;

/** POST /api/rides/{id}/seats: the seats asked for and a note; checkSeatAsk decides. */
export const askSeatInput = z.object({
  seats: z.number(msg('rideSeatsAskedInvalid')),
  note: z.string(msg('invalidInput')).nullish(),
});
export type AskSeatInput = z.input<typeof askSeatInput>;

/** PUT /api/rides/{id}/seats/{seatId}: the driver's answer. */
export const answerSeatInput = z.object({
  state: z.enum(['accepted', 'declined'], msg('invalidInput')),
});
export type AnswerSeatInput = z.input<typeof answerSeatInput>;
