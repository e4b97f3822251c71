import { boardingAnswer } from '@fankurve/shared/collections/boardings/answers';
import { boardingMessages } from '@fankurve/shared/collections/boardings/collection';
import { boardingInput } from '@fankurve/shared/collections/boardings/schemas';
import { toBool, write } from '../../db/store.js';
import type { Api, AppDeps } from '../../http/context.js';
import { apiRoute, z } from '../../http/openapi.js';
import { requireActor } from '../../http/session.js';
import { tickBoarding, type BoardingRow } from './domain.js';

const tag = 'Transports';

/** The REST shape of a boarding (`restBoarding`). */
export function toRestBoarding(row: BoardingRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    transport_id: row.transport_id,
    attendee_id: row.attendee_id,
    on_board: toBool(row.on_board),
    by: row.by_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Boarding over REST: what a captain's device does offline through the boardings sync collection. */
export function boardingRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/transports/{id}/boarding/{attendeeId}',
      tag,
      summary: 'Tick a passenger on board or off (a captain of the option, or admin)',
      params: z.object({ id: z.string().min(1).max(64), attendeeId: z.string().min(1).max(64) }),
      body: boardingInput,
      answers: { 200: boardingAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id, attendeeId } = c.req.valid('param');
      const row = await write(deps.store, (w) => tickBoarding(w, actor, id, attendeeId, c.req.valid('json').on_board));
      return c.json({ success: true as const, message: boardingMessages.boardingSaved, boarding: toRestBoarding(row) }, 200);
    },
  );
}
