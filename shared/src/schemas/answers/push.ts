import { z } from 'zod';
import { PUSH_TOPICS } from '../../push.js';
import { successAnswer, textOrNull } from './common.js';

/* Answers of the web push routes (server/src/http/push.ts): this device's push state and the member's topics. */

/** This device's push state, and whether and with which key the server sends. */
export const pushStatus = z
  .strictObject({
    enabled: z.boolean().meta({ description: 'This device has a subscription on the server' }),
    configured: z.boolean().meta({ description: 'The server can send (VAPID keys and contact usable)' }),
    publicKey: textOrNull.meta({ description: 'The VAPID public key to subscribe with (base64url)' }),
    endpoint: textOrNull.meta({ description: "This device's registered endpoint" }),
    updatedAt: textOrNull.meta({ description: 'When this device last sent its subscription' }),
    deviceName: textOrNull,
    devices: z.number().int().meta({ description: "The user's devices with push on" }),
  })
  .meta({ id: 'PushStatus' });
export type PushStatus = z.infer<typeof pushStatus>;

/** GET /api/fcm/token/status. */
export const pushStatusAnswer = successAnswer({ data: pushStatus });
export type PushStatusAnswer = z.infer<typeof pushStatusAnswer>;

/** POST and DELETE /api/fcm/token: the state afterwards, with the confirmation. */
export const pushStatusChangedAnswer = successAnswer({ message: z.string(), data: pushStatus });
export type PushStatusChangedAnswer = z.infer<typeof pushStatusChangedAnswer>;

/** A notification topic and whether it is on; admin topics go to admins only. */
export const pushTopicSetting = z.strictObject({ topic: z.enum(PUSH_TOPICS), enabled: z.boolean(), admin: z.boolean() });
export type PushTopicSetting = z.infer<typeof pushTopicSetting>;

/** GET /api/fcm/topics. */
export const pushTopicsAnswer = successAnswer({ data: z.strictObject({ topics: z.array(pushTopicSetting) }) });
export type PushTopicsAnswer = z.infer<typeof pushTopicsAnswer>;

/** PUT /api/fcm/topics: the topics after the change. */
export const pushTopicsSavedAnswer = successAnswer({
  message: z.string(),
  data: z.strictObject({ topics: z.array(pushTopicSetting) }),
});
export type PushTopicsSavedAnswer = z.infer<typeof pushTopicsSavedAnswer>;
