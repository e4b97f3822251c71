import { PUSH_RESEND_AFTER_MS, type PushTopic } from '@fankurve/shared/push';
import type { PushStatus } from '@fankurve/shared';
import { isApiError } from '../api/client.js';
import {
  fetchPushStatus,
  fetchPushTopics,
  removePushSubscription,
  savePushTopics,
  sendPushSubscription,
  type PushTopicSetting,
} from '../api/push.js';

/*
 * Web push on this device (docs/architecture.md, Web Push): whether it can work here
 * and why not, switching it on (permission, subscription with the server's VAPID key, sent to the
 * server with a device name) and off, and keeping the server's copy current: sent again when the
 * browser's subscription changed or after 7 days. The server keeps one subscription per signed-in
 * device and drops it when the session ends.
 */

/** Why push does not work here (the texts are `push.reasons.<reason>`). */
export type PushProblem =
  | 'insecureContext'
  | 'noNotification'
  | 'noServiceWorker'
  | 'noPushManager'
  | 'permissionDenied'
  | 'notConfigured'
  | 'initFailed'
  | 'subscribeFailed';

export class PushError extends Error {
  constructor(readonly reason: PushProblem) {
    super(reason);
    this.name = 'PushError';
  }
}

export interface PushState {
  /** On: this device has a subscription that the server knows. */
  enabled: boolean;
  /** Why push cannot be switched on here; null when it can. */
  problem: PushProblem | null;
  /** The server could not be asked (offline): `enabled` is what the browser says. */
  offline: boolean;
}

/** A topic, whether it is on for the member, and whether only admins get it. */
export type TopicSetting = PushTopicSetting;

/** What this device last sent, so it knows when to send again (after 7 days). */
interface SentRecord {
  endpoint: string;
  sentAt: number;
}

const SENT_STORAGE_KEY = 'pushSubscription';
/** How long to wait for the service worker. */
const SERVICE_WORKER_WAIT_MS = 10_000;

/** The checks that need no permission and no network; null when the browser can do push. */
export function browserProblem(): PushProblem | null {
  if (typeof window === 'undefined' || !window.isSecureContext) return 'insecureContext';
  if (!('Notification' in window)) return 'noNotification';
  if (!('serviceWorker' in navigator)) return 'noServiceWorker';
  if (!('PushManager' in window)) return 'noPushManager';
  return null;
}

export const notificationPermission = (): NotificationPermission | null =>
  typeof Notification === 'undefined' ? null : Notification.permission;

function readSent(): SentRecord | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(SENT_STORAGE_KEY) ?? 'null') as Partial<SentRecord> | null;
    return parsed && typeof parsed.endpoint === 'string' && typeof parsed.sentAt === 'number' ? (parsed as SentRecord) : null;
  } catch {
    return null;
  }
}

function writeSent(record: SentRecord | null): void {
  try {
    if (record) localStorage.setItem(SENT_STORAGE_KEY, JSON.stringify(record));
    else localStorage.removeItem(SENT_STORAGE_KEY);
  } catch {
    // storage blocked: the subscription is sent again next time
  }
}

async function serverStatus(): Promise<PushStatus> {
  return fetchPushStatus();
}

/** The service worker registration, or null when there is none within 10 seconds. */
async function registration(waitMs = SERVICE_WORKER_WAIT_MS): Promise<ServiceWorkerRegistration | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options.applicationServerKey;
  if (!key) return false;
  const mine = new Uint8Array(key);
  const theirs = keyBytes(publicKey);
  return mine.length === theirs.length && mine.every((byte, i) => byte === theirs[i]);
}

/** A short name for this device, e.g. "Chrome · Android" (the server falls back to the sign-in's). */
export function deviceName(userAgent = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /(Chrome|Chromium|CriOS)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone/.test(userAgent)
      ? 'iPhone'
      : /iPad/.test(userAgent)
        ? 'iPad'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Mac OS X/.test(userAgent)
            ? 'Mac'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : null;
  return system ? `${browser} · ${system}` : browser;
}

async function send(subscription: PushSubscription): Promise<void> {
  await sendPushSubscription(subscription.toJSON(), deviceName());
  writeSent({ endpoint: subscription.endpoint, sentAt: Date.now() });
}

/** The state of push on this device: on, off, or why it cannot be switched on. */
export async function readPushState(): Promise<PushState> {
  const problem = browserProblem();
  if (problem) return { enabled: false, problem, offline: false };
  if (notificationPermission() === 'denied') return { enabled: false, problem: 'permissionDenied', offline: false };
  const reg = await registration(3_000);
  const subscription = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  try {
    const status = await serverStatus();
    if (!status.configured) return { enabled: false, problem: 'notConfigured', offline: false };
    const enabled = Boolean(subscription && status.enabled && status.endpoint === subscription.endpoint);
    return { enabled, problem: null, offline: false };
  } catch (error) {
    if (isApiError(error) && error.offline) return { enabled: Boolean(subscription && readSent()), problem: null, offline: true };
    throw error;
  }
}

/**
 * Switches push on for this device. Call it straight from the click (the permission request must
 * come from the user's gesture, and Safari wants it before anything else is awaited). Throws a
 * PushError with the reason when it cannot; an ApiError when the server refused.
 */
export async function enablePush(): Promise<PushState> {
  const problem = browserProblem();
  if (problem) throw new PushError(problem);
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') throw new PushError('permissionDenied');
  const status = await serverStatus();
  if (!status.configured || !status.publicKey) throw new PushError('notConfigured');
  const reg = await registration();
  if (!reg) throw new PushError('initFailed');
  let subscription = await reg.pushManager.getSubscription().catch(() => null);
  if (subscription && !sameKey(subscription, status.publicKey)) {
    // Made with another server key (the server's keys changed): it would not receive anything.
    await subscription.unsubscribe().catch(() => false);
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(status.publicKey) });
    } catch (error) {
      console.warn('Push subscription failed', error);
      throw new PushError('subscribeFailed');
    }
  }
  await send(subscription);
  return { enabled: true, problem: null, offline: false };
}

/** Switches push off for this device: the server forgets it, then the browser's subscription ends. */
export async function disablePush(): Promise<PushState> {
  await removePushSubscription();
  writeSent(null);
  const reg = browserProblem() ? null : await registration(3_000);
  const subscription = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  await subscription?.unsubscribe().catch(() => false);
  return { enabled: false, problem: browserProblem(), offline: false };
}

/**
 * Keeps the server's copy current: sends the browser's subscription again when it is not
 * the one the server has for this device, or was sent more than 7 days ago. Does nothing where
 * push was never switched on here. Quiet: failures wait for the next start.
 */
export async function keepPushSubscriptionFresh(): Promise<void> {
  if (browserProblem() || notificationPermission() !== 'granted') return;
  const sent = readSent();
  if (!sent) return;
  try {
    const reg = await registration(3_000);
    if (!reg) return;
    let subscription = await reg.pushManager.getSubscription();
    const status = await serverStatus();
    if (!status.configured || !status.publicKey) return;
    if (!subscription || !sameKey(subscription, status.publicKey)) {
      await subscription?.unsubscribe().catch(() => false);
      subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(status.publicKey) });
    }
    const stale = Date.now() - sent.sentAt > PUSH_RESEND_AFTER_MS;
    if (stale || status.endpoint !== subscription.endpoint || sent.endpoint !== subscription.endpoint) await send(subscription);
  } catch (error) {
    console.warn('Push subscription upkeep failed', error);
  }
}

/**
 * At sign-out: the browser's subscription ends (the server drops its copy with the session), so
 * the next member on this device gets nothing meant for this one.
 */
export async function forgetPushOnSignOut(): Promise<void> {
  writeSent(null);
  if (browserProblem()) return;
  const reg = await registration(3_000);
  const subscription = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  await subscription?.unsubscribe().catch(() => false);
}

export async function fetchTopics(): Promise<TopicSetting[]> {
  return fetchPushTopics();
}

export async function saveTopics(topics: Partial<Record<PushTopic, boolean>>): Promise<TopicSetting[]> {
  return savePushTopics(topics);
}
