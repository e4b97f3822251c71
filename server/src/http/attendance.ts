import { centsToEuros, MESSAGES, setAttendanceInput } from '@fankurve/shared';
import { listOwnAttendance, removeOwnAttendance, setOwnAttendance } from '../domain/attendance.js';
import type { AttendeeRow } from '../db/schema.js';
import { toBool, write } from '../db/store.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Attendance';
const eventParams = z.object({ eventId: z.string().min(1).max(64) });

const BOOLEAN_FIELDS = [
  'needs_ticket',
  'has_ticket',
  'needs_transport',
  'is_free',
  'is_price_tbd',
  'bought',
  'paid',
  'received',
  'paid_requested',
  'received_requested',
] as const;

/** The REST shape of an attendee row (SPEC 3 Attendee): booleans, price in euros, guest fields. */
export function toRestAttendee(row: AttendeeRow & { username?: string | null; brought_by_username?: string | null }) {
  const { price_cents, deleted: _deleted, seq: _seq, ...rest } = row;
  const flags = Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, toBool(row[field])]));
  return {
    ...rest,
    ...flags,
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
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => setOwnAttendance(w, actor, c.req.valid('param').eventId, c.req.valid('json')));
      return c.json({ success: true, message: MESSAGES.attendanceSaved, attendance: toRestAttendee(row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/attendance/{eventId}',
      tag,
      summary: 'Remove own attendance (not going)',
      params: eventParams,
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => removeOwnAttendance(w, actor, c.req.valid('param').eventId));
      return c.json({ success: true, message: MESSAGES.attendanceRemoved }, 200);
    },
  );

  app.openapi(apiRoute({ method: 'get', path: '/api/attendance/my', tag, summary: 'Own attendances' }), async (c) => {
    const rows = await listOwnAttendance(deps.store.db, requireActor(c));
    return c.json(
      {
        success: true,
        attendance: rows.map((row) => ({
          ...toRestAttendee(row),
          event_title: row.event_title,
          event_date: row.event_date,
          event_location: row.event_location,
        })),
      },
      200,
    );
  });
}
