import { MESSAGES } from '@fankurve/shared';
import { write } from '../db/store.js';
import { endOtherSessions, endSession, listSessions } from '../domain/sessions.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Auth';

/** Sign-out and the user's own signed-in devices (docs/architecture.md, sessions). */
export function sessionRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/logout',
      tag,
      summary: 'Sign out: ends this session',
      access: 'password-change',
    }),
    async (c) => {
      const actor = requireActor(c, { allowPasswordChangePending: true });
      await write(deps.store, (w) => endSession(w, actor, c.get('sessionId')!));
      return c.json({ success: true, message: MESSAGES.signedOut }, 200);
    },
  );

  app.openapi(
    apiRoute({ method: 'get', path: '/api/auth/sessions', tag, summary: 'The signed-in devices of the user' }),
    async (c) => {
      const sessions = await listSessions(deps.store.db, requireActor(c), c.get('sessionId'));
      return c.json({ success: true, sessions }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/sessions/end-others',
      tag,
      summary: 'Signs out every other device of the user',
    }),
    async (c) => {
      const actor = requireActor(c);
      const ended = await write(deps.store, (w) => endOtherSessions(w, actor, c.get('sessionId')));
      return c.json({ success: true, message: MESSAGES.otherSessionsEnded, ended }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/auth/sessions/{id}',
      tag,
      summary: 'Signs out one device of the user',
      params: idParams,
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => endSession(w, actor, c.req.valid('param').id));
      return c.json({ success: true, message: MESSAGES.sessionEnded }, 200);
    },
  );
}
