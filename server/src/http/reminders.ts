import { remindNowAnswer, remindNowInput, unansweredAnswer } from '@fankurve/shared';
import { write } from '../db/store.js';
import { listUnanswered, remindNow, type RemindNowResult } from '../domain/events/reminders.js';
import { getSiteConfig } from '../domain/club/settings.js';
import { reminderMail } from '../mail/templates.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Events';

/**
 * The admin's reminders by hand (docs/product.md and docs/architecture.md, Answer deadlines and
 * reminders): who has not answered an event, and "remind now". The domain decides whom and how;
 * the e-mails go out after the answer (`mailer.track`), like the recovery mails.
 */
export function reminderRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}/unanswered',
      tag,
      summary: 'The members who have not answered the event yet, with when each can be reminded by hand again (admin)',
      params: idParams,
      answers: { 200: unansweredAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const members = await listUnanswered(deps.store.db, actor, c.req.valid('param').id, new Date().toISOString());
      return c.json({ success: true as const, members }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events/{id}/reminders',
      tag,
      summary:
        'Remind the members who have not answered now (admin; all, or `user_ids` among them): by push, else by e-mail where SMTP is set; each member at most once an hour per event',
      params: idParams,
      body: remindNowInput,
      answers: { 200: remindNowAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const channels = { push: deps.push.settings.configured, mail: deps.mailer.configured };
      const result = await write(deps.store, (w) => remindNow(w, actor, c.req.valid('param').id, c.req.valid('json'), channels));
      if (result.mails.length > 0) deps.mailer.track(sendReminderMails(deps, result));
      return c.json({ success: true as const, reminded: result.reminded, skipped: result.skipped }, 200);
    },
  );
}

async function sendReminderMails(deps: AppDeps, result: RemindNowResult): Promise<void> {
  const { site_title: siteTitle } = await getSiteConfig(deps.store.db);
  const link = `${deps.config.publicUrl.replace(/\/+$/, '')}/events/${encodeURIComponent(result.event.id)}`;
  // One failed address does not keep the others from their mail (each failure is logged).
  const sent = await Promise.allSettled(
    result.mails.map((to) =>
      deps.mailer.send(
        reminderMail({ to: to.email, username: to.username, language: to.language, event: result.event, link, siteTitle }),
      ),
    ),
  );
  for (const outcome of sent) if (outcome.status === 'rejected') console.error('Sending a reminder mail failed:', outcome.reason);
}
