import { z } from 'zod';
import { STATS_SEASON_MAX, STATS_SEASON_MIN } from '../rules/stats.js';
import { msg } from './common.js';

/**
 * The query of GET /api/stats (docs/product.md, Statistics): `season`, the year the season starts in
 * (four digits, STATS_SEASON_MIN to STATS_SEASON_MAX; none: the current season). rules/stats.ts
 * `checkStatsSeason` checks again in the domain.
 */
export const statsQuery = z.object({
  season: z
    .string(msg('statsSeasonInvalid'))
    .regex(/^\d{4}$/, msg('statsSeasonInvalid'))
    .refine((year) => Number(year) >= STATS_SEASON_MIN && Number(year) <= STATS_SEASON_MAX, msg('statsSeasonInvalid'))
    .optional()
    .meta({ description: 'The year the season starts in (July), e.g. 2025 for 2025/26; the current season when left out' }),
});
export type StatsQuery = z.input<typeof statsQuery>;
