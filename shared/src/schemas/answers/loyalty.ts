import { z } from 'zod';
import { messageAnswerWith, successAnswer } from './common.js';

/* Answers of the loyalty routes (server/src/http/loyalty.ts; docs/product.md, Loyalty). */

/** A member's row of the ranking: points (counted away matches plus adjustment) and the away matches counted. */
export const restRankingRow = z
  .strictObject({
    user_id: z.string(),
    username: z.string(),
    points: z.number().int(),
    away_matches: z.number().int(),
  })
  .meta({ id: 'LoyaltyRankingRow' });
export type RestRankingRow = z.infer<typeof restRankingRow>;

/** GET /api/loyalty: every active member, highest points first (ties: more away matches, then name). */
export const loyaltyRankingAnswer = successAnswer({ ranking: z.array(restRankingRow) });
export type LoyaltyRankingAnswer = z.infer<typeof loyaltyRankingAnswer>;

/**
 * GET /api/loyalty/my: the signed-in member's points and place (equal points and away matches share
 * a place; null for no active member), and their away matches per season, newest first: the
 * counted seasons (`counted`) and older ones for the chart.
 */
export const myLoyaltyAnswer = successAnswer({
  points: z.number().int(),
  place: z.number().int().nullable(),
  seasons: z.array(z.strictObject({ season: z.string(), away_matches: z.number().int(), counted: z.boolean() })),
});
export type MyLoyaltyAnswer = z.infer<typeof myLoyaltyAnswer>;

/** GET /api/loyalty/adjustments (admin): every adjustment set, for the adjust dialog. */
export const loyaltyAdjustmentsAnswer = successAnswer({
  adjustments: z.array(
    z.strictObject({ user_id: z.string(), points: z.number().int(), note: z.string(), updated_at: z.string() }),
  ),
});
export type LoyaltyAdjustmentsAnswer = z.infer<typeof loyaltyAdjustmentsAnswer>;

/** PUT /api/loyalty/{userId}/adjustment: the member's ranking row as it is now. */
export const loyaltyAdjustmentAnswer = messageAnswerWith({ row: restRankingRow });
export type LoyaltyAdjustmentAnswer = z.infer<typeof loyaltyAdjustmentAnswer>;
