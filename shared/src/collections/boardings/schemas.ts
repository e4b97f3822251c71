import { z } from 'zod';
import { msg } from '../../schemas/common.js';

/*
 * The REST bodies of the bus (docs/product.md, Bus): types only; the rules (plan sizes, captains) are
 * rules.ts's, which the device checks too.
 */

/** PUT /api/transports/{id}/seat-plan: `{ seats }`, `{ rows, seats_per_row }` or `{ seats: null }`. */
export const seatPlanInput = z.object({
  seats: z.number(msg('seatPlanInvalid')).nullable().optional(),
  rows: z.number(msg('seatPlanInvalid')).optional(),
  seats_per_row: z.number(msg('seatPlanInvalid')).optional(),
});
export type SeatPlanInput = z.input<typeof seatPlanInput>;

/** PUT /api/transports/{id}/seats/{number}: who gets the seat, or null to free it. */
export const seatAssignInput = z.object({
  attendee_id: z.string(msg('invalidInput')).min(1, msg('invalidInput')).max(64, msg('invalidInput')).nullable(),
});
export type SeatAssignInput = z.input<typeof seatAssignInput>;

/** PUT /api/transports/{id}/captains: the option's captains (replacing the ones before). */
export const captainsInput = z.object({
  user_ids: z.array(z.string(msg('captainsInvalid')), msg('captainsInvalid')),
});
export type CaptainsInput = z.input<typeof captainsInput>;

/** PUT /api/transports/{id}/boarding/{attendeeId}: on board or not. */
export const boardingInput = z.object({ on_board: z.boolean(msg('invalidInput')) });
export type BoardingInput = z.input<typeof boardingInput>;
