import { ticketStatusInput } from '@fankurve/shared';
import { write } from '../db/store.js';
import { findMemberAttendee, updateTicketStatus } from '../domain/tickets.js';
import { toRestAttendee } from './attendance.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Tickets';

export function ticketRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/tickets/event/{eventId}/user/{userId}/status',
      tag,
      summary: "Set a member's ticket fields for an event (admin)",
      params: z.object({ eventId: z.string().min(1).max(64), userId: z.string().min(1).max(64) }),
      body: ticketStatusInput,
    }),
    async (c) => {
      const actor = requireActor(c);
      const { eventId, userId } = c.req.valid('param');
      const row = await write(deps.store, async (w) =>
        updateTicketStatus(w, actor, await findMemberAttendee(w, eventId, userId), c.req.valid('json')),
      );
      return c.json({ success: true, attendance: toRestAttendee(row) }, 200);
    },
  );
}
