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
