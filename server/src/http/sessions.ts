import { MESSAGES, messageAnswer, otherSessionsEndedAnswer, sessionsAnswer } from '@fankurve/shared';
import { write } from '../db/store.js';
import { endOtherSessions, endSession, listSessions } from '../domain/people/sessions.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Auth';

/** Sign-out and the user's own signed-in devices (docs/architecture.md, "Sessions, throttles and limits"). */
export function sessionRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/logout',
      tag,
      summary: 'Sign out: ends this session',
      access: 'password-change',
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c, { allowPasswordChangePending: true });
      await write(deps.store, (w) => endSession(w, actor, c.get('sessionId')!));
      return c.json({ success: true as const, message: MESSAGES.signedOut }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/sessions',
      tag,
      summary: 'The signed-in devices of the user',
      answers: { 200: sessionsAnswer },
    }),
    async (c) => {
      const sessions = await listSessions(deps.store.db, requireActor(c), c.get('sessionId'));
      return c.json({ success: true as const, sessions }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/sessions/end-others',
      tag,
      summary: 'Signs out every other device of the user',
      answers: { 200: otherSessionsEndedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const ended = await write(deps.store, (w) => endOtherSessions(w, actor, c.get('sessionId')));
      return c.json({ success: true as const, message: MESSAGES.otherSessionsEnded, ended }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/auth/sessions/{id}',
      tag,
      summary: 'Signs out one device of the user',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => endSession(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.sessionEnded }, 200);
    },
  );
}
