import {
  attendanceAnswer,
  centsToEuros,
  messageAnswer,
  MESSAGES,
  ownAttendanceAnswer,
  setAttendanceInput,
} from '@fankurve/shared';
import { listOwnAttendance, removeOwnAttendance, setOwnAttendance } from '../domain/attendance/attendance.js';
import type { AttendeeRow } from '../db/schema.js';
import { write } from '../db/store.js';
import { attendeeFieldsOf } from '../domain/attendance/attendeeRows.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Attendance';
const eventParams = z.object({ eventId: z.string().min(1).max(64) });

/**
 * The REST shape of an attendee row (`restAttendee`, with the usernames when the row has them):
 * booleans, price in euros, guest fields.
 */
export function toRestAttendee<Row extends AttendeeRow>(row: Row) {
  // The row's other columns (times, joined usernames) as they are; its fields as `attendeeFieldsOf` reads them.
  const { price_cents: _cents, deleted: _deleted, seq: _seq, ...rest } = row;
  const { price_cents, ...fields } = attendeeFieldsOf(row);
  // The fields are replaced in place, so the answer keeps the row's order of keys.
  const columns: Omit<typeof rest, keyof typeof fields> = rest;
  return {
    ...columns,
    ...fields,
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
