import { z } from 'zod';
import { PUSH_ENDPOINT_MAX_LENGTH, PUSH_TOPICS } from '../push.js';
import { lineText, msg } from './common.js';

/* The inputs of the push routes (docs/architecture.md, web push). */

const base64url = /^[A-Za-z0-9_-]+={0,2}$/;
/** An https URL with a host (no user or password part) and an optional port and path. */
const httpsUrl = /^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s]*)?$/;

/** Bytes of a base64url text (padding allowed), or -1 when it is none. */
function base64urlBytes(value: string): number {
  if (!base64url.test(value)) return -1;
  const bare = value.replace(/=+$/, '');
  if (bare.length % 4 === 1) return -1;
  return Math.floor((bare.length * 3) / 4);
}

/**
 * The browser's PushSubscription as JSON (`subscription.toJSON()`): an https endpoint, the
 * device's P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret (RFC 8291).
 */
export const pushSubscriptionJson = z.object(
  {
    endpoint: z
      .string(msg('pushSubscriptionInvalid'))
      .max(PUSH_ENDPOINT_MAX_LENGTH, msg('pushSubscriptionInvalid'))
      .regex(httpsUrl, msg('pushSubscriptionInvalid')),
    expirationTime: z.number().nullable().optional(),
    keys: z.object(
      {
        p256dh: z
          .string(msg('pushSubscriptionInvalid'))
          .max(200, msg('pushSubscriptionInvalid'))
          .refine((value) => base64urlBytes(value) === 65, msg('pushSubscriptionInvalid')),
        auth: z
          .string(msg('pushSubscriptionInvalid'))
          .max(100, msg('pushSubscriptionInvalid'))
          .refine((value) => base64urlBytes(value) === 16, msg('pushSubscriptionInvalid')),
      },
      msg('pushSubscriptionInvalid'),
    ),
  },
  msg('pushSubscriptionInvalid'),
);
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionJson>;

/** POST /api/fcm/token: this device's subscription and a name for the device (docs/product.md, Data). */
export const pushRegistrationInput = z.object({
  token: pushSubscriptionJson,
  deviceName: lineText(z.string().trim().max(100)).optional(),
});
export type PushRegistrationInput = z.infer<typeof pushRegistrationInput>;

/** PUT /api/fcm/topics: topics to switch on (true) or off (false); topics not named stay as they are. */
export const pushTopicsInput = z
  .object({
    topics: z.partialRecord(z.enum(PUSH_TOPICS, msg('pushTopicUnknown')), z.boolean()),
  })
  .strict();
export type PushTopicsInput = z.infer<typeof pushTopicsInput>;
