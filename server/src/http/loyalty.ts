import {
  loyaltyAdjustmentAnswer,
  loyaltyAdjustmentInput,
  loyaltyAdjustmentsAnswer,
  loyaltyRankingAnswer,
  loyaltyUserParams,
  MESSAGES,
  myLoyaltyAnswer,
  todayIn,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import {
  listLoyaltyAdjustments,
  listRanking,
  myLoyalty,
  setLoyaltyAdjustment,
  type RankedRow,
} from '../domain/tickets/loyalty.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Loyalty';

/** A ranking row as GET /api/loyalty answers it: exactly user_id, username, points, away_matches. */
const toRestRankingRow = (row: RankedRow) => ({
  user_id: row.user_id,
  username: row.username,
  points: row.points,
  away_matches: row.away_matches,
});

/** Loyalty points: every signed-in member reads the ranking and their own figures; admins adjust. */
export function loyaltyRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/loyalty',
      tag,
      summary: 'Every active member by loyalty points, highest first',
      answers: { 200: loyaltyRankingAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const rows = await listRanking(deps.store.db, actor, todayIn(deps.config.clubTimeZone));
      return c.json({ success: true as const, ranking: rows.map(toRestRankingRow) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/loyalty/my',
      tag,
      summary: "The member's own points, place and away matches per season",
      answers: { 200: myLoyaltyAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const mine = await myLoyalty(deps.store.db, actor, todayIn(deps.config.clubTimeZone));
      return c.json({ success: true as const, ...mine }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/loyalty/adjustments',
      tag,
      summary: 'Every manual adjustment of loyalty points (admin)',
      access: 'admin',
      answers: { 200: loyaltyAdjustmentsAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const adjustments = await listLoyaltyAdjustments(deps.store.db, actor);
      return c.json({ success: true as const, adjustments }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/loyalty/{userId}/adjustment',
      tag,
      summary: "Set a member's manual adjustment of loyalty points (admin)",
      access: 'admin',
      params: loyaltyUserParams,
      body: loyaltyAdjustmentInput,
      answers: { 200: loyaltyAdjustmentAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) =>
        setLoyaltyAdjustment(w, actor, c.req.valid('param').userId, c.req.valid('json')),
      );
      return c.json({ success: true as const, message: MESSAGES.loyaltyAdjustmentSaved, row: toRestRankingRow(row) }, 200);
    },
  );
}
