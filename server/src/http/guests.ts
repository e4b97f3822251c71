import { addGuestInput, guestAnswer, messageAnswer, MESSAGES, updateGuestInput } from '@fankurve/shared';
import { write } from '../db/store.js';
import { findAttendeeWithNames } from '../domain/attendance/attendeeRows.js';
import { addGuest, removeGuest, updateGuest } from '../domain/attendance/guests.js';
import { toRestAttendee } from './attendance.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Guests';

/**
 * Guests a member brings (docs/product.md, "Attendance and guests"): POST /api/guests, and PUT and
 * DELETE /api/guests/{id} for the detail screen. The attendees sync push calls the same domain functions.
 */
export function guestRoutes(app: Api, deps: AppDeps): void {
  const withNames = async (id: string) => toRestAttendee(await findAttendeeWithNames(deps.store.db, id));

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/guests',
      tag,
      summary: 'Bring a guest (members for themselves; admins also for another member via brought_by)',
      body: addGuestInput,
      answers: { 201: guestAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => addGuest(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.guestAdded, guest: await withNames(row.id) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/guests/{id}',
      tag,
      summary: "Change a guest's name and answers (the member who brought them, or an admin)",
      params: idParams,
      body: updateGuestInput,
      answers: { 200: guestAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => updateGuest(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.guestUpdated, guest: await withNames(row.id) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/guests/{id}',
      tag,
      summary: 'Remove a guest (the member who brought them unless the ticket is bought, or an admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => removeGuest(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.guestRemoved }, 200);
    },
  );
}
