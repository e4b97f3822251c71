import { z } from 'zod';
import { messageAnswerWith, successAnswer, textOrNull } from '../../schemas/answers/common.js';

/* Answers of the ride routes (server/src/collections/rides/routes.ts). */

/** A ride a member offers to an event, with its driver's name. */
export const restRide = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    driver_id: z.string(),
    driver_username: z.string(),
    seats: z.number().int(),
    departure_location: z.string(),
    departure_datetime: z.string(),
    drives_back: z.boolean(),
    note: textOrNull,
    cost_share_cents: z.number().int().nullable(),
    seats_taken: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Ride' });
export type RestRide = z.infer<typeof restRide>;

/** GET /api/events/{id}/rides: soonest departure first. */
export const ridesAnswer = successAnswer({ rides: z.array(restRide) });
export type RidesAnswer = z.infer<typeof ridesAnswer>;

/** POST /api/events/{id}/rides (201) and PUT /api/rides/{id}. */
export const rideAnswer = messageAnswerWith({ ride: restRide });
export type RideAnswer = z.infer<typeof rideAnswer>;

/** A member's request for seats in a ride. */
export const restRideSeat = z
  .strictObject({
    id: z.string(),
    ride_id: z.string(),
    event_id: z.string(),
    passenger_id: z.string(),
    seats: z.number().int(),
    note: textOrNull,
    state: z.enum(['asked', 'accepted', 'declined']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'RideSeat' });
export type RestRideSeat = z.infer<typeof restRideSeat>;

/** POST /api/rides/{id}/seats (201) and PUT /api/rides/{id}/seats/{seatId}. */
export const rideSeatAnswer = messageAnswerWith({ seat: restRideSeat });
export type RideSeatAnswer = z.infer<typeof rideSeatAnswer>;
