import {
  attendanceAnswer,
  centsToEuros,
  MESSAGES,
  pendingRequestsAnswer,
  pendingUsersAnswer,
  taskCountsAnswer,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import { acceptRequest, countPendingTasks, listPendingRequests, type PendingRequest } from '../domain/attendance/requests.js';
import { listPendingUsers } from '../domain/people/userAdmin.js';
import { toRestAttendee } from './attendance.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Admin';

/**
 * A pending request at the REST edge: price in euros, 0 when not known yet (the REST contract),
 * and `price_open` saying so, for screens that show "price open" instead; `open_amount` what is
 * still open on the ticket (what accepting books).
 */
function toRestRequest({ price_cents, open_cents, ...request }: PendingRequest) {
  return {
    ...request,
    price: centsToEuros(price_cents ?? 0),
    open_amount: open_cents === null ? null : centsToEuros(open_cents),
  };
}

/** The admin's pending tasks (the /admin/tasks screen; docs/product.md, "Screens"). */
export function adminRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/admin/pending-users',
      tag,
      summary: 'Registrations waiting for approval (admin)',
      answers: { 200: pendingUsersAnswer },
    }),
    async (c) => {
      const users = await listPendingUsers(deps.store.db, requireActor(c));
      return c.json({ success: true as const, users }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/admin/pending-paid-requests',
      tag,
      summary: 'Open paid requests (admin)',
      answers: { 200: pendingRequestsAnswer },
    }),
    async (c) => {
      const requests = await listPendingRequests(deps.store.db, requireActor(c), 'paid');
      return c.json({ success: true as const, requests: requests.map(toRestRequest) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/admin/pending-received-requests',
      tag,
      summary: 'Open received requests (admin)',
      answers: { 200: pendingRequestsAnswer },
    }),
    async (c) => {
      const requests = await listPendingRequests(deps.store.db, requireActor(c), 'received');
      return c.json({ success: true as const, requests: requests.map(toRestRequest) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/admin/pending-tasks-count',
      tag,
      summary: 'Number of pending tasks (admin)',
      answers: { 200: taskCountsAnswer },
    }),
    async (c) => {
      const counts = await countPendingTasks(deps.store.db, requireActor(c));
      return c.json({ success: true as const, ...counts }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/admin/accept-paid-request/{id}',
      tag,
      summary: 'Accept a paid request: the ticket becomes paid (admin)',
      params: idParams,
      answers: { 200: attendanceAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => acceptRequest(w, actor, c.req.valid('param').id, 'paid'));
      return c.json({ success: true as const, message: MESSAGES.paidRequestAccepted, attendance: toRestAttendee(row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/admin/accept-received-request/{id}',
      tag,
      summary: 'Accept a received request: the ticket becomes received (admin)',
      params: idParams,
      answers: { 200: attendanceAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => acceptRequest(w, actor, c.req.valid('param').id, 'received'));
      return c.json({ success: true as const, message: MESSAGES.receivedRequestAccepted, attendance: toRestAttendee(row) }, 200);
    },
  );
}
