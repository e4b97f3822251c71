import {
  centsToEuros,
  createTransportInput,
  messageAnswer,
  MESSAGES,
  transportAnswer,
  transportsAnswer,
  updateTransportInput,
} from '@fankurve/shared';
import { toBool, write } from '../db/store.js';
import {
  createTransport,
  deleteTransport,
  listTransports,
  updateTransport,
  type TransportRow,
} from '../domain/events/transports.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Transports';

/** The REST shape of a transport option (`restTransport`): price per seat in euros, booleans. */
export function toRestTransport(row: TransportRow) {
  const { price_per_seat_cents, deleted: _deleted, seq: _seq, ...rest } = row;
  return {
    ...rest,
    price_per_seat: centsToEuros(Number(price_per_seat_cents)),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
  };
}

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
      return c.json({ success: true as const, transports: rows.map(toRestTransport) }, 200);
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
      return c.json({ success: true as const, message: MESSAGES.transportSaved, transport: toRestTransport(row) }, 201);
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
      return c.json({ success: true as const, message: MESSAGES.transportSaved, transport: toRestTransport(row) }, 200);
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
}
