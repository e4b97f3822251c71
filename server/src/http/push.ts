import { MESSAGES, pushStatusAnswer, pushStatusChangedAnswer, pushTopicsAnswer, pushTopicsSavedAnswer } from '@fankurve/shared';
import { pushRegistrationInput, pushTopicsInput } from '@fankurve/shared/schemas/push';
import { write } from '../db/store.js';
import { listTopics, removeSubscription, saveSubscription, setTopics, subscriptionStatus } from '../notify/subscriptions.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Push';

/*
 * Web push (docs/architecture.md, "Web Push"): this device's subscription (the routes keep the names
 * of a messaging provider's token routes: the "token" is the browser's PushSubscription as JSON), its
 * state, and the notification topics the member switched off. "This device" is the session of the
 * bearer token: one subscription per session, removed with it (sign-out ends the session).
 */

export function pushRoutes(app: Api, deps: AppDeps): void {
  const settings = () => deps.push.settings;

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/fcm/token',
      tag,
      summary: "Registers this device's push subscription (replaces the one it had)",
      body: pushRegistrationInput,
      answers: { 200: { schema: pushStatusChangedAnswer, description: "This device's push state" } },
    }),
    async (c) => {
      const actor = requireActor(c);
      const sessionId = c.get('sessionId')!;
      await write(deps.store, (w) => saveSubscription(w, actor, sessionId, c.req.valid('json'), settings()));
      const data = await subscriptionStatus(deps.store.db, actor, sessionId, settings());
      return c.json({ success: true as const, message: MESSAGES.pushEnabled, data }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/fcm/token',
      tag,
      summary: "Removes this device's push subscription (no body: the session names the device)",
      answers: { 200: { schema: pushStatusChangedAnswer, description: "This device's push state" } },
    }),
    async (c) => {
      const actor = requireActor(c);
      const sessionId = c.get('sessionId')!;
      await write(deps.store, (w) => removeSubscription(w, sessionId));
      const data = await subscriptionStatus(deps.store.db, actor, sessionId, settings());
      return c.json({ success: true as const, message: MESSAGES.pushDisabled, data }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/fcm/token/status',
      tag,
      summary: "This device's push state, and whether and with which key the server sends",
      answers: { 200: { schema: pushStatusAnswer, description: "This device's push state" } },
    }),
    async (c) => {
      const actor = requireActor(c);
      const data = await subscriptionStatus(deps.store.db, actor, c.get('sessionId')!, settings());
      return c.json({ success: true as const, data }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/fcm/topics',
      tag,
      summary: "The user's notification topics and which are on (admins also get the admin topics)",
      answers: { 200: { schema: pushTopicsAnswer, description: 'The topics' } },
    }),
    async (c) => {
      const actor = requireActor(c);
      const topics = await listTopics(deps.store.db, actor);
      return c.json({ success: true as const, data: { topics } }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/fcm/topics',
      tag,
      summary: 'Switches notification topics on or off (admin topics: admins only)',
      body: pushTopicsInput,
      answers: { 200: { schema: pushTopicsSavedAnswer, description: 'The topics after the change' } },
    }),
    async (c) => {
      const actor = requireActor(c);
      const topics = await write(deps.store, (w) => setTopics(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.pushTopicsSaved, data: { topics } }, 200);
    },
  );
}
