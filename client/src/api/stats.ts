import type { StatsAnswer } from '@fankurve/shared';
import { api } from './client.js';

/*
 * A season in numbers (docs/product.md, Statistics) over REST: the seasons whose attendee rows the
 * device does not keep (docs/architecture.md, What a device keeps). The current season is counted
 * on the device (data/collections/stats.ts).
 */

export type SeasonStatsAnswer = Omit<StatsAnswer, 'success'>;

/** GET /api/stats?season=YYYY: `season` is the year the season starts in (July). */
export const fetchSeasonStats = (season: number, signal?: AbortSignal) =>
  api<StatsAnswer>(`/api/stats?season=${encodeURIComponent(String(season))}`, { signal });
