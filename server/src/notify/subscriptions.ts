import { newId } from '@fankurve/shared';
import { isAdminPushTopic, pushTopicsFor, type PushTopic } from '@fankurve/shared/push';
import type { PushRegistrationInput, PushTopicsInput } from '@fankurve/shared/schemas/push';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WriteContext } from '../db/store.js';
import { isAdmin, requireAdmin, type Actor } from '../domain/actor.js';
import { DomainError } from '../domain/errors.js';

/*
 * The push side of a member's devices and settings (docs/architecture.md, web push): one
 * subscription per signed-in device (session), the topics the member switched off. Not replicated:
 * no seq, no domain event; the rows go with the session (foreign key, migration 006).
 */

/** Push services a subscription may point at (their hosts or host suffixes); PUSH_ENDPOINT_HOSTS adds more. */
export const KNOWN_PUSH_SERVICES = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  '.push.services.mozilla.com',
  '.push.apple.com',
  '.notify.windows.com',
];

/**
 * Whether the server may send to this endpoint: the well-known push services (Chrome and Edge via
 * FCM/WNS, Firefox, Safari) or a host of PUSH_ENDPOINT_HOSTS (a self-hosted push service; tests).
 * Anything else is refused, so a subscription cannot make the server post to arbitrary addresses.
 */
export function isAllowedEndpoint(endpoint: string, extraHosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const hostname = url.hostname.toLowerCase();
  if (extraHosts.includes(url.host.toLowerCase()) || extraHosts.includes(hostname)) return true;
  if (url.port !== '') return false;
  return KNOWN_PUSH_SERVICES.some((known) =>
    known.startsWith('.') ? hostname.endsWith(known) && hostname.length > known.length : hostname === known,
  );
}

export interface PushStatus {
  /** This device (session) has a subscription on the server. */
  enabled: boolean;
  /** The server can send (VAPID keys and contact usable). */
  configured: boolean;
  /** The application server key to subscribe with; null when not configured. */
  publicKey: string | null;
  /** The endpoint registered for this device, to compare with the browser's subscription. */
  endpoint: string | null;
  /** When this device last sent its subscription. */
  updatedAt: string | null;
  deviceName: string | null;
  /** Devices of the user with push on. */
  devices: number;
}

export interface PushSettings {
  configured: boolean;
  publicKey: string | null;
  /** Hosts besides the well-known push services (PUSH_ENDPOINT_HOSTS). */
  extraHosts: readonly string[];
}

/** Saves this device's subscription (replacing the one it had and any other holder of the endpoint). */
export async function saveSubscription(
  w: WriteContext,
  actor: Actor,
  sessionId: string,
  input: PushRegistrationInput,
  settings: PushSettings,
): Promise<void> {
  if (!settings.configured) throw new DomainError('pushNotConfigured', 409);
  if (!isAllowedEndpoint(input.token.endpoint, settings.extraHosts)) throw new DomainError('pushEndpointNotAllowed', 400);
  const session = await w.db.selectFrom('sessions').select(['device_name']).where('id', '=', sessionId).executeTakeFirst();
  const deviceName = input.deviceName || session?.device_name || 'Browser';
  const existing = await w.db
    .selectFrom('push_subscriptions')
    .select(['created_at', 'endpoint'])
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  // The endpoint identifies the browser's subscription: another session that held it (the browser
  // was signed in as someone else before) loses it, and this device keeps one subscription.
  await w.db
    .deleteFrom('push_subscriptions')
    .where((eb) => eb.or([eb('session_id', '=', sessionId), eb('endpoint', '=', input.token.endpoint)]))
    .execute();
  await w.db
    .insertInto('push_subscriptions')
    .values({
      id: newId(),
      user_id: actor.id,
      session_id: sessionId,
      endpoint: input.token.endpoint,
      p256dh: input.token.keys.p256dh,
      auth: input.token.keys.auth,
      device_name: deviceName.slice(0, 100),
      created_at: existing && existing.endpoint === input.token.endpoint ? existing.created_at : w.now,
      updated_at: w.now,
    })
    .execute();
}

/** Removes this device's subscription; none is fine (the device may have been unsubscribed already). */
export async function removeSubscription(w: WriteContext, sessionId: string): Promise<void> {
  await w.db.deleteFrom('push_subscriptions').where('session_id', '=', sessionId).execute();
}

export async function subscriptionStatus(
  db: Kysely<Database>,
  actor: Actor,
  sessionId: string,
  settings: PushSettings,
): Promise<PushStatus> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select(['session_id', 'endpoint', 'updated_at', 'device_name'])
    .where('user_id', '=', actor.id)
    .execute();
  const mine = rows.find((row) => row.session_id === sessionId);
  return {
    enabled: Boolean(mine),
    configured: settings.configured,
    publicKey: settings.publicKey,
    endpoint: mine?.endpoint ?? null,
    updatedAt: mine?.updated_at ?? null,
    deviceName: mine?.device_name ?? null,
    devices: rows.length,
  };
}

export interface TopicSetting {
  topic: PushTopic;
  enabled: boolean;
  /** An admin topic (shown to admins only). */
  admin: boolean;
}

/** The topics the actor has and whether each is on. */
export async function listTopics(db: Kysely<Database>, actor: Actor): Promise<TopicSetting[]> {
  const off = new Set(
    (await db.selectFrom('push_topics_off').select('topic').where('user_id', '=', actor.id).execute()).map((row) => row.topic),
  );
  return pushTopicsFor(isAdmin(actor) ? 'admin' : 'user').map((topic) => ({
    topic,
    enabled: !off.has(topic),
    admin: isAdminPushTopic(topic),
  }));
}

/** Switches topics on or off; an admin topic needs an admin (members have none to switch). */
export async function setTopics(w: WriteContext, actor: Actor, input: PushTopicsInput): Promise<TopicSetting[]> {
  const entries = Object.entries(input.topics) as [PushTopic, boolean][];
  if (entries.some(([topic]) => isAdminPushTopic(topic))) requireAdmin(actor);
  const on = entries.filter(([, enabled]) => enabled).map(([topic]) => topic);
  const off = entries.filter(([, enabled]) => !enabled).map(([topic]) => topic);
  if (on.length > 0) {
    await w.db.deleteFrom('push_topics_off').where('user_id', '=', actor.id).where('topic', 'in', on).execute();
  }
  if (off.length > 0) {
    await w.db
      .insertInto('push_topics_off')
      .values(off.map((topic) => ({ user_id: actor.id, topic })))
      .onConflict((oc) => oc.columns(['user_id', 'topic']).doNothing())
      .execute();
  }
  return listTopics(w.db, actor);
}
