import { createRoute } from '@hono/zod-openapi';
import { MESSAGES } from '@fankurve/shared';
import { PUSH_TOPICS } from '@fankurve/shared/push';
import { pushRegistrationInput, pushTopicsInput } from '@fankurve/shared/schemas/push';
import { write } from '../db/store.js';
import { listTopics, removeSubscription, saveSubscription, setTopics, subscriptionStatus } from '../notify/subscriptions.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Push';

/*
 * Web push (docs/architecture.md, web push): this device's subscription (SPEC 7 keeps the names of
 * a messaging provider's token routes: the "token" is the browser's PushSubscription as JSON), its
 * state, and the notification topics the member switched off. "This device" is the session of the
 * bearer token: one subscription per session, removed with it (sign-out ends the session).
 */

const statusSchema = z.object({
  enabled: z.boolean().openapi({ description: 'This device has a subscription on the server' }),
  configured: z.boolean().openapi({ description: 'The server can send (VAPID keys and contact usable)' }),
  publicKey: z.string().nullable().openapi({ description: 'The VAPID public key to subscribe with (base64url)' }),
  endpoint: z.string().nullable().openapi({ description: "This device's registered endpoint" }),
  updatedAt: z.string().nullable().openapi({ description: 'When this device last sent its subscription' }),
  deviceName: z.string().nullable(),
  devices: z.number().int().openapi({ description: "The user's devices with push on" }),
});

const statusAnswer = z.object({ success: z.literal(true), message: z.string().optional(), data: statusSchema });

const topicsAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    topics: z.array(z.object({ topic: z.enum(PUSH_TOPICS), enabled: z.boolean(), admin: z.boolean() })),
  }),
});

/** The route of apiRoute with its successful answer documented. */
function answering<R extends ReturnType<typeof apiRoute>, S extends z.ZodType>(route: R, schema: S, description: string) {
  return createRoute({
    ...route,
    responses: {
      ...route.responses,
      200: { description, content: { 'application/json': { schema } } },
    },
  });
}

export function pushRoutes(app: Api, deps: AppDeps): void {
  const settings = () => deps.push.settings;

  app.openapi(
    answering(
      apiRoute({
        method: 'post',
        path: '/api/fcm/token',
        tag,
        summary: "Registers this device's push subscription (replaces the one it had)",
        body: pushRegistrationInput,
      }),
      statusAnswer,
      "This device's push state",
    ),
    async (c) => {
      const actor = requireActor(c);
      const sessionId = c.get('sessionId')!;
      await write(deps.store, (w) => saveSubscription(w, actor, sessionId, c.req.valid('json'), settings()));
      const data = await subscriptionStatus(deps.store.db, actor, sessionId, settings());
      return c.json({ success: true as const, message: MESSAGES.pushEnabled, data }, 200);
    },
  );

  app.openapi(
    answering(
      apiRoute({
        method: 'delete',
        path: '/api/fcm/token',
        tag,
        summary: "Removes this device's push subscription (no body: the session names the device)",
      }),
      statusAnswer,
      "This device's push state",
    ),
    async (c) => {
      const actor = requireActor(c);
      const sessionId = c.get('sessionId')!;
      await write(deps.store, (w) => removeSubscription(w, sessionId));
      const data = await subscriptionStatus(deps.store.db, actor, sessionId, settings());
      return c.json({ success: true as const, message: MESSAGES.pushDisabled, data }, 200);
    },
  );

  app.openapi(
    answering(
      apiRoute({
        method: 'get',
        path: '/api/fcm/token/status',
        tag,
        summary: "This device's push state, and whether and with which key the server sends",
      }),
      statusAnswer,
      "This device's push state",
    ),
    async (c) => {
      const actor = requireActor(c);
      const data = await subscriptionStatus(deps.store.db, actor, c.get('sessionId')!, settings());
      return c.json({ success: true as const, data }, 200);
    },
  );

  app.openapi(
    answering(
      apiRoute({
        method: 'get',
        path: '/api/fcm/topics',
        tag,
        summary: "The user's notification topics and which are on (admins also get the admin topics)",
      }),
      topicsAnswer,
      'The topics',
    ),
    async (c) => {
      const actor = requireActor(c);
      const topics = await listTopics(deps.store.db, actor);
      return c.json({ success: true as const, data: { topics } }, 200);
    },
  );

  app.openapi(
    answering(
      apiRoute({
        method: 'put',
        path: '/api/fcm/topics',
        tag,
        summary: 'Switches notification topics on or off (admin topics: admins only)',
        body: pushTopicsInput,
      }),
      topicsAnswer,
      'The topics after the change',
    ),
    async (c) => {
      const actor = requireActor(c);
      const topics = await write(deps.store, (w) => setTopics(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.pushTopicsSaved, data: { topics } }, 200);
    },
  );
}
