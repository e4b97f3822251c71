import { z } from 'zod';
import { errorAnswer, messageAnswerWith, successAnswer, textOrNull } from './common.js';
import { restEvent } from './events.js';

/* Answers of the stadium and ticket price routes (server/src/http/stadiums.ts); money in euros. */

/** A ticket price option of a stadium. */
export const stadiumTicketPrice = z
  .strictObject({
    id: z.string(),
    stadium_id: z.string(),
    ticket_type: z.string(),
    created_at: z.string(),
    price: z.number(),
  })
  .meta({ id: 'TicketPrice' });
export type StadiumTicketPrice = z.infer<typeof stadiumTicketPrice>;

/** A stadium with its price options (`ticketPrices`); `ticket_price` is its usual price or null. */
export const restStadium = z
  .strictObject({
    id: z.string(),
    team_name: z.string(),
    stadium_name: z.string(),
    city: z.string(),
    capacity: z.number().int(),
    guest_block_capacity: z.number().int(),
    address: textOrNull,
    created_at: z.string(),
    updated_at: z.string(),
    ticket_price: z.number().nullable(),
    ticketPrices: z.array(stadiumTicketPrice),
  })
  .meta({ id: 'Stadium' });
export type RestStadium = z.infer<typeof restStadium>;

/** GET /api/stadiums. */
export const stadiumsAnswer = successAnswer({ stadiums: z.array(restStadium) });
export type StadiumsAnswer = z.infer<typeof stadiumsAnswer>;

/** GET /api/stadiums/{id} (admin): at most 5 upcoming and 5 recent events at it. */
export const stadiumDetailAnswer = successAnswer({
  stadium: restStadium,
  upcomingEvents: z.array(restEvent),
  recentEvents: z.array(restEvent),
});
export type StadiumDetailAnswer = z.infer<typeof stadiumDetailAnswer>;

/** POST (201) and PUT /api/stadiums. */
export const stadiumAnswer = messageAnswerWith({ stadium: restStadium });
export type StadiumAnswer = z.infer<typeof stadiumAnswer>;

/** DELETE /api/stadiums/{id} refused (409 `stadiumInUse`): the live events that use the stadium. */
export const stadiumInUseAnswer = errorAnswer
  .extend({ events: z.array(z.strictObject({ id: z.string(), title: z.string(), date: z.string() })) })
  .meta({ id: 'StadiumInUse' });
export type StadiumInUseAnswer = z.infer<typeof stadiumInUseAnswer>;

/** GET /api/ticket-prices/stadium/{stadiumId}. */
export const ticketPricesAnswer = successAnswer({ ticketPrices: z.array(stadiumTicketPrice) });
export type TicketPricesAnswer = z.infer<typeof ticketPricesAnswer>;

/** POST /api/ticket-prices (201). */
export const ticketPriceAnswer = messageAnswerWith({ ticketPrice: stadiumTicketPrice });
export type TicketPriceAnswer = z.infer<typeof ticketPriceAnswer>;
