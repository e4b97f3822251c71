import {
  addAttendeeInput,
  attendeeAnswer,
  attendeeUpdateInput,
  messageAnswer,
  MESSAGES,
  transferStatusInput,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import { findAttendeeWithNames } from '../domain/attendance/attendeeRows.js';
import { addAttendee, removeAttendee, setTransferStatus, updateAttendee } from '../domain/attendance/attendees.js';
import { toRestAttendee } from './attendance.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Attendance';
const memberParams = z.object({ eventId: z.string().min(1).max(64), userId: z.string().min(1).max(64) });

/** The admin's attendee table: add a member, remove anyone, transfer status, edit a row (member or guest). */
export function attendeeRoutes(app: Api, deps: AppDeps): void {
  const withNames = async (id: string) => toRestAttendee(await findAttendeeWithNames(deps.store.db, id));

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events/{id}/attendees',
      tag,
      summary: 'Add a member who does not attend yet (admin)',
      params: idParams,
      body: addAttendeeInput,
      answers: { 201: attendeeAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => addAttendee(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.attendeeAdded, attendance: await withNames(row.id) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/attendance/{eventId}/user/{userId}',
      tag,
      summary: "Remove a member's attendance, also with a bought ticket (admin)",
      params: memberParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { eventId, userId } = c.req.valid('param');
      await write(deps.store, (w) => removeAttendee(w, actor, eventId, userId));
      return c.json({ success: true as const, message: MESSAGES.attendanceRemoved }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/attendance/{eventId}/user/{userId}/transfer-status',
      tag,
      summary: "Set a member's transfer status: outstanding, reserved or waiting_list (admin)",
      params: memberParams,
      body: transferStatusInput,
      answers: { 200: attendeeAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { eventId, userId } = c.req.valid('param');
      const row = await write(deps.store, (w) =>
        setTransferStatus(w, actor, eventId, userId, c.req.valid('json').transfer_status),
      );
      return c.json({ success: true as const, message: MESSAGES.attendeeUpdated, attendance: await withNames(row.id) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/attendees/{attendeeId}',
      tag,
      summary: 'Edit an attendee row, member or guest: ticket fields, transfer status, answers (admin)',
      params: z.object({ attendeeId: z.string().min(1).max(64) }),
      body: attendeeUpdateInput,
      answers: { 200: attendeeAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => updateAttendee(w, actor, c.req.valid('param').attendeeId, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.attendeeUpdated, attendance: await withNames(row.id) }, 200);
    },
  );
}
