import { z } from 'zod';
import { messageAnswerWith } from '../../schemas/answers/common.js';

/* Answers of the bus routes (server/src/http/transports.ts, server/src/collections/boardings/routes.ts). */

/** A passenger's boarding on an option. */
export const restBoarding = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    transport_id: z.string(),
    attendee_id: z.string(),
    on_board: z.boolean(),
    by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Boarding' });
export type RestBoarding = z.infer<typeof restBoarding>;

/** PUT /api/transports/{id}/boarding/{attendeeId}. */
export const boardingAnswer = messageAnswerWith({ boarding: restBoarding });
export type BoardingAnswer = z.infer<typeof boardingAnswer>;

/** POST /api/transports/{id}/charge-fare: how many were charged now, and the sum in euros. */
export const fareAnswer = messageAnswerWith({ charged: z.number().int(), total: z.number() });
export type FareAnswer = z.infer<typeof fareAnswer>;
