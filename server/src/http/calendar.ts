import { calendarFeedAnswer, calendarFileParams, calendarUrlAnswer } from '@fankurve/shared';
import { loadOrCreateSecret, randomSecret } from '../auth/secrets.js';
import { write } from '../db/store.js';
import { calendarFeed, calendarToken, calendarUrl, rotateCalendarToken } from '../domain/events/calendar.js';
import { notFound } from '../domain/errors.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Calendar';

const ICS = { schema: calendarFeedAnswer, mediaType: 'text/calendar', description: 'The iCalendar feed (UTF-8)' } as const;

/** The members' private calendar feed (docs/architecture.md, Calendar feed). */
export function calendarRoutes(app: Api, deps: AppDeps): void {
  // The same secret the session tokens are signed with (JWT_SECRET or its file in the data directory).
  const secret = loadOrCreateSecret(deps.config.dataDir, 'jwt-secret', deps.config.jwtSecret, randomSecret);

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/calendar',
      tag,
      summary: "The member's private calendar feed address (created on the first call)",
      answers: { 200: calendarUrlAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const token = await write(deps.store, (w) => calendarToken(w, actor, secret));
      return c.json({ success: true as const, url: calendarUrl(deps.config.publicUrl, token) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/calendar/rotate',
      tag,
      summary: 'A new calendar feed address; the previous one answers 404 from then on',
      answers: { 200: calendarUrlAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const token = await write(deps.store, (w) => rotateCalendarToken(w, actor, secret));
      return c.json({ success: true as const, url: calendarUrl(deps.config.publicUrl, token) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/calendar/{file}',
      tag,
      summary:
        "The member's events as iCalendar, opened by the feed address alone (`{file}` is `<token>.ics`); 404 for an unknown or rotated token",
      params: calendarFileParams,
      access: 'public',
      answers: { 200: ICS },
    }),
    async (c) => {
      const file = c.req.valid('param').file;
      if (!file.endsWith('.ics')) throw notFound('calendarNotFound');
      const text = await calendarFeed(deps.store.db, file.slice(0, -'.ics'.length), {
        timeZone: deps.config.clubTimeZone,
        publicUrl: deps.config.publicUrl,
      });
      return c.body(text, 200, { 'Content-Type': 'text/calendar; charset=utf-8', 'Cache-Control': 'no-store' });
    },
  );
}
