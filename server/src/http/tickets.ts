import {
  attendanceAnswer,
  debtsAnswer,
  MESSAGES,
  myTicketsAnswer,
  ticketStatusAnswer,
  ticketStatusInput,
  todayIn,
  type RequestKind,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import { listDebts, listMyTickets } from '../domain/money/debts.js';
import { findMemberAttendee, requestTicket, updateTicketStatus } from '../domain/tickets/tickets.js';
import { toRestAttendee } from './attendance.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
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
      answers: { 200: ticketStatusAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { eventId, userId } = c.req.valid('param');
      const row = await write(deps.store, async (w) =>
        updateTicketStatus(w, actor, await findMemberAttendee(w, eventId, userId), c.req.valid('json')),
      );
      return c.json({ success: true as const, attendance: toRestAttendee(row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/tickets/my',
      tag,
      summary: "The member's own and their guests' tickets, and the unpaid total",
      answers: { 200: myTicketsAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const mine = await listMyTickets(deps.store.db, actor, todayIn(deps.config.clubTimeZone));
      return c.json({ success: true as const, ...mine }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/tickets/debts',
      tag,
      summary: 'Debts per member and every unpaid ticket (admin)',
      answers: { 200: debtsAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const debts = await listDebts(deps.store.db, actor, todayIn(deps.config.clubTimeZone));
      return c.json({ success: true as const, ...debts }, 200);
    },
  );

  const requestRoute = (kind: RequestKind) =>
    app.openapi(
      apiRoute({
        method: 'put',
        path: `/api/tickets/{id}/request-${kind}`,
        tag,
        summary: `Report one's own (or one's guest's) ticket as ${kind}; an admin accepts it`,
        params: idParams,
        answers: { 200: attendanceAnswer },
      }),
      async (c) => {
        const actor = requireActor(c);
        const row = await write(deps.store, (w) => requestTicket(w, actor, c.req.valid('param').id, kind));
        const message = kind === 'paid' ? MESSAGES.paidRequestSubmitted : MESSAGES.receivedRequestSubmitted;
        return c.json({ success: true as const, message, attendance: toRestAttendee(row) }, 200);
      },
    );
  requestRoute('paid');
  requestRoute('received');
}
