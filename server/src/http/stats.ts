import { statsAnswer, statsQuery, todayIn } from '@fankurve/shared';
import { seasonStats } from '../domain/attendance/stats.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, withQuery } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Statistics';

/** A season in numbers (docs/product.md, Statistics): every signed-in member reads it. */
export function statsRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    withQuery(
      apiRoute({
        method: 'get',
        path: '/api/stats',
        tag,
        summary: "A season's attendance per event and every active member's matches and tickets",
        answers: { 200: statsAnswer },
      }),
      statsQuery,
    ),
    async (c) => {
      const actor = requireActor(c);
      const { members, events } = await seasonStats(
        deps.store.db,
        actor,
        c.req.valid('query').season,
        todayIn(deps.config.clubTimeZone),
      );
      return c.json({ success: true as const, members, events }, 200);
    },
  );
}
