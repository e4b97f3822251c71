import { auditAnswer, auditQuery, errorAnswer } from '@fankurve/shared';
import { listAudit } from '../domain/club/auditLog.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, withQuery } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Audit log';

/** The admin's log of admin actions (docs/architecture.md, Audit log): read only, newest first. */
export function auditRoutes(app: Api, deps: AppDeps): void {
  const route = withQuery(
    apiRoute({
      method: 'get',
      path: '/api/audit',
      tag,
      summary:
        'Admin actions on money, tickets, people and settings, newest first: who, when, what, before and after; narrowed by user_id, event_id, kind; `before` the cursor of the next page (admin)',
      access: 'admin',
      answers: {
        200: auditAnswer,
        400: { schema: errorAnswer, description: 'An unknown kind (`auditKindInvalid`) or cursor (`auditCursorInvalid`)' },
      },
    }),
    auditQuery,
  );
  app.openapi(route, async (c) => {
    const actor = requireActor(c);
    return c.json({ success: true as const, ...(await listAudit(deps.store.db, actor, c.req.valid('query'))) }, 200);
  });
}
