import {
  attendanceAnswer,
  centsToEuros,
  messageAnswer,
  MESSAGES,
  ownAttendanceAnswer,
  setAttendanceInput,
} from '@fankurve/shared';
import { listOwnAttendance, removeOwnAttendance, setOwnAttendance } from '../domain/attendance.js';
import type { AttendeeRow } from '../db/schema.js';
import { toBool, write } from '../db/store.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Attendance';
const eventParams = z.object({ eventId: z.string().min(1).max(64) });

type Flag =
  | 'needs_ticket'
  | 'has_ticket'
  | 'needs_transport'
  | 'is_free'
  | 'is_price_tbd'
  | 'bought'
  | 'paid'
  | 'received'
  | 'paid_requested'
  | 'received_requested';

/**
 * The REST shape of an attendee row (`restAttendee`, with the usernames when the row has them):
 * booleans, price in euros, guest fields.
 */
export function toRestAttendee<Row extends AttendeeRow>(row: Row) {
  const { price_cents, deleted: _deleted, seq: _seq, ...rest } = row;
  // The flags' 0/1 are replaced in place below, so the fields keep the row's order.
  const fields: Omit<typeof rest, Flag> = rest;
  return {
    ...fields,
    needs_ticket: toBool(row.needs_ticket),
    has_ticket: toBool(row.has_ticket),
    needs_transport: toBool(row.needs_transport),
    is_free: toBool(row.is_free),
    is_price_tbd: toBool(row.is_price_tbd),
    bought: toBool(row.bought),
    paid: toBool(row.paid),
    received: toBool(row.received),
    paid_requested: toBool(row.paid_requested),
    received_requested: toBool(row.received_requested),
    price: price_cents === null ? null : centsToEuros(price_cents),
    guest_id: row.user_id === null ? row.id : null,
  };
}

export function attendanceRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/attendance/{eventId}',
      tag,
      summary: 'Set or change own attendance',
      params: eventParams,
      body: setAttendanceInput,
      answers: { 200: attendanceAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => setOwnAttendance(w, actor, c.req.valid('param').eventId, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.attendanceSaved, attendance: toRestAttendee(row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/attendance/{eventId}',
      tag,
      summary: 'Remove own attendance (not going)',
      params: eventParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => removeOwnAttendance(w, actor, c.req.valid('param').eventId));
      return c.json({ success: true as const, message: MESSAGES.attendanceRemoved }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/attendance/my',
      tag,
      summary: 'Own attendances',
      answers: { 200: ownAttendanceAnswer },
    }),
    async (c) => {
      const rows = await listOwnAttendance(deps.store.db, requireActor(c));
      return c.json(
        {
          success: true as const,
          attendance: rows.map((row) => ({
            ...toRestAttendee(row),
            event_title: row.event_title,
            event_date: row.event_date,
            event_location: row.event_location,
          })),
        },
        200,
      );
    },
  );
}
