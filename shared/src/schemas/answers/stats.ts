import { z } from 'zod';
import { successAnswer } from './common.js';

/* The answer of GET /api/stats (server/src/http/stats.ts; docs/product.md, Statistics). */

/** A member's season: past events they went to, by home, away and other, and the season's tickets they had. */
export const restMemberStats = z
  .strictObject({
    user_id: z.string(),
    username: z.string(),
    home: z.number().int(),
    away: z.number().int(),
    other: z.number().int(),
    tickets: z.number().int(),
    travelled: z.number().int(),
  })
  .meta({ id: 'MemberSeasonStats' });

/** A live event of the season with its rows (members and guests) going and maybe. */
export const restEventStats = z
  .strictObject({
    event_id: z.string(),
    title: z.string(),
    date: z.string(),
    going: z.number().int(),
    maybe: z.number().int(),
  })
  .meta({ id: 'EventSeasonStats' });

/**
 * GET /api/stats?season=YYYY: every active member (most away matches first, then home, then name)
 * and every live event of the season by date.
 */
export const statsAnswer = successAnswer({ members: z.array(restMemberStats), events: z.array(restEventStats) });
export type StatsAnswer = z.infer<typeof statsAnswer>;
