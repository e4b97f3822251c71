import {
  centsToEuros,
  createTransportInput,
  messageAnswer,
  MESSAGES,
  transportAnswer,
  transportsAnswer,
  updateTransportInput,
} from '@fankurve/shared';
import { fareAnswer } from '@fankurve/shared/collections/boardings/answers';
import { boardingMessages } from '@fankurve/shared/collections/boardings/collection';
import { captainsInput, seatAssignInput, seatPlanInput } from '@fankurve/shared/collections/boardings/schemas';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { toBool, write } from '../db/store.js';
import { requireAdmin } from '../domain/actor.js';
import { chargeFare } from '../domain/events/transportFares.js';
import { assignSeat, busPartsOf, busViewOf, setCaptains, setSeatPlan, type BusParts } from '../domain/events/transportSeats.js';
import {
  createTransport,
  deleteTransport,
  findLiveTransport,
  listTransports,
  updateTransport,
  type TransportRow,
} from '../domain/events/transports.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Transports';

/** The REST shape of a transport option (`restTransport`): price per seat in euros, booleans, its seat plan, seats and captains. */
export function toRestTransport(row: TransportRow, parts: BusParts) {
  const {
    price_per_seat_cents,
    deleted: _deleted,
    seq: _seq,
    departure_charged_at: _charged,
    seat_count: _count,
    seat_rows: _rows,
    seats_per_row: _perRow,
    seat_choice: _choice,
    charge_at_departure: _atDeparture,
    ...rest
  } = row;
  const { id: _id, ...bus } = busViewOf(row, parts);
  return {
    ...rest,
    price_per_seat: centsToEuros(Number(price_per_seat_cents)),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
    ...bus,
  };
}

/** The options in their REST shape, with their seats and captains read in one go. */
async function restTransports(db: Kysely<Database>, rows: TransportRow[]) {
  const parts = await busPartsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRestTransport(row, parts.get(row.id)!));
}

const restTransportOf = async (db: Kysely<Database>, row: TransportRow) => (await restTransports(db, [row]))[0]!;

/** Transport options: every signed-in user reads them, admins write them. */
export function transportRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/transports/event/{eventId}',
      tag,
      summary: 'Transport options of an event',
      params: z.object({ eventId: z.string().min(1).max(64) }),
      answers: { 200: transportsAnswer },
    }),
    async (c) => {
      requireActor(c);
      const rows = await listTransports(deps.store.db, c.req.valid('param').eventId);
      return c.json({ success: true as const, transports: await restTransports(deps.store.db, rows) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/transports',
      tag,
      summary: 'Add a transport option to an event (admin)',
      body: createTransportInput,
      answers: { 201: transportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => createTransport(w, actor, c.req.valid('json')));
      const transport = await restTransportOf(deps.store.db, row);
      return c.json({ success: true as const, message: MESSAGES.transportSaved, transport }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/transports/{id}',
      tag,
      summary: 'Change a transport option (admin)',
      params: idParams,
      body: updateTransportInput,
      answers: { 200: transportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => updateTransport(w, actor, c.req.valid('param').id, c.req.valid('json')));
      const transport = await restTransportOf(deps.store.db, row);
      return c.json({ success: true as const, message: MESSAGES.transportSaved, transport }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/transports/{id}',
      tag,
      summary: 'Delete a transport option (admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deleteTransport(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.transportDeleted }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/transports/{id}/seat-plan',
      tag,
      summary: "Set or remove a transport option's seat plan (admin)",
      params: idParams,
      body: seatPlanInput,
      answers: { 200: transportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => setSeatPlan(w, actor, c.req.valid('param').id, c.req.valid('json')));
      const transport = await restTransportOf(deps.store.db, row);
      return c.json({ success: true as const, message: boardingMessages.seatPlanSaved, transport }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/transports/{id}/seats/{number}',
      tag,
      summary: 'Give a seat to a passenger or free it (admin; members for themselves when they choose)',
      params: z.object({ id: z.string().min(1).max(64), number: z.string().min(1).max(16) }),
      body: seatAssignInput,
      answers: { 200: transportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id, number } = c.req.valid('param');
      const row = await write(deps.store, (w) => assignSeat(w, actor, id, number, c.req.valid('json').attendee_id));
      const transport = await restTransportOf(deps.store.db, row);
      return c.json({ success: true as const, message: boardingMessages.seatSaved, transport }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/transports/{id}/captains',
      tag,
      summary: "Set a transport option's captains (admin)",
      params: idParams,
      body: captainsInput,
      answers: { 200: transportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => setCaptains(w, actor, c.req.valid('param').id, c.req.valid('json').user_ids));
      const transport = await restTransportOf(deps.store.db, row);
      return c.json({ success: true as const, message: boardingMessages.captainsSaved, transport }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/transports/{id}/charge-fare',
      tag,
      summary: 'Charge the fare to every passenger not charged yet (admin)',
      params: idParams,
      answers: { 200: fareAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      requireAdmin(actor);
      const id = c.req.valid('param').id;
      const result = await write(deps.store, async (w) => chargeFare(w, actor, await findLiveTransport(w.db, id)));
      return c.json(
        {
          success: true as const,
          message: boardingMessages.fareCharged,
          charged: result.charged,
          total: centsToEuros(result.totalCents),
        },
        200,
      );
    },
  );
}
