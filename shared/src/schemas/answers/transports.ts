import { z } from 'zod';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the transport routes (server/src/http/transports.ts). */

/** A transport option: price per seat in euros, departure in the club's wall-clock time or null. */
export const restTransport = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    name: z.string(),
    is_free: z.boolean(),
    is_price_tbd: z.boolean(),
    departure_datetime: textOrNull,
    departure_location: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    price_per_seat: z.number(),
    seat_count: z.number().int().nullable(),
    seat_rows: z.number().int().nullable(),
    seats_per_row: z.number().int().nullable(),
    seat_choice: z.enum(['admin', 'members']),
    charge_at_departure: z.boolean(),
    captain_ids: z.array(z.string()),
    seats: z.array(
      z.strictObject({
        seat: z.number().int(),
        attendee_id: z.string(),
        user_id: textOrNull,
        guest_name: textOrNull,
        brought_by: textOrNull,
      }),
    ),
  })
  .meta({ id: 'Transport' });
export type RestTransport = z.infer<typeof restTransport>;

/** GET /api/transports/event/{eventId}. */
export const transportsAnswer = successAnswer({ transports: z.array(restTransport) });
export type TransportsAnswer = z.infer<typeof transportsAnswer>;

/** POST (201) and PUT /api/transports. */
export const transportAnswer = messageAnswerWith({ transport: restTransport });
export type TransportAnswer = z.infer<typeof transportAnswer>;
