/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { BACKGROUND_SYNC_TAG } from '../data/backgroundSyncRequest.js';
import { runBackgroundSync } from './backgroundSync.js';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

// A new version takes over at once; the page reloads itself at a calm moment (src/pwa/register.ts).
void self.skipWaiting();
clientsClaim();

// The whole build is precached, so the installed app starts with no network.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every navigation (deep links like /events/…) gets the precached app shell; the API and uploads go to the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/uploads\//],
  }),
);

/*
 * Push (docs/architecture.md, web push). The server sends the declarative web push format
 * (W3C Push API "declarative push message"; Safari 18.4+ shows it without this worker):
 *   { web_push: 8030, notification: { title, body, navigate, lang }, app_badge }
 * Every other browser hands it to this worker, which shows the same notification and sets the app
 * badge. The older { title, body, url } is read too. A push always shows a notification (browsers
 * revoke push for silent ones), whatever arrived.
 */

const FALLBACK_TITLE = 'Fankurve';
const ICON = '/icons/icon-192.png';

interface Shown {
  title: string;
  body: string;
  /** Where a tap leads (same origin only). */
  url: string;
  lang?: string;
  /** The unread-mention count for the app badge; null: leave the badge as it is. */
  badge: number | null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function badgeOf(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : null;
}

/** Reads a push message: the declarative format, the older flat one, or plain text. */
function readPush(data: { json(): unknown; text(): string } | null): Shown {
  if (!data) return { title: FALLBACK_TITLE, body: '', url: targetUrl(null), badge: null };
  let parsed: unknown;
  try {
    parsed = data.json();
  } catch {
    return { title: FALLBACK_TITLE, body: data.text(), url: targetUrl(null), badge: null };
  }
  const message = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  const declarative = message.notification && typeof message.notification === 'object';
  const notification = declarative ? (message.notification as Record<string, unknown>) : message;
  return {
    title: text(notification.title) || FALLBACK_TITLE,
    body: text(notification.body),
    url: targetUrl(declarative ? notification.navigate : (message.url ?? message.navigate)),
    lang: text(notification.lang) || undefined,
    // The spec puts app_badge beside `notification`; some senders put it inside.
    badge: badgeOf(message.app_badge ?? notification.app_badge),
  };
}

/** Only same-origin targets are opened from a notification; anything else opens the events list. */
function targetUrl(url: unknown): string {
  const fallback = new URL('/events', self.location.origin).href;
  if (typeof url !== 'string' || url === '') return fallback;
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : fallback;
  } catch {
    return fallback;
  }
}

async function setBadge(count: number | null): Promise<void> {
  if (count === null) return;
  const badging = self.navigator as WorkerNavigator & {
    setAppBadge?: (n?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  if (typeof badging.setAppBadge !== 'function') return;
  try {
    if (count === 0 && typeof badging.clearAppBadge === 'function') await badging.clearAppBadge();
    else await badging.setAppBadge(count);
  } catch {
    // badging not allowed here (e.g. not installed): the notification is what counts
  }
}

self.addEventListener('push', (event) => {
  event.waitUntil(
    (async () => {
      let shown: Shown;
      try {
        shown = readPush(event.data);
      } catch {
        shown = { title: FALLBACK_TITLE, body: '', url: targetUrl(null), badge: null };
      }
      await Promise.all([
        self.registration.showNotification(shown.title, {
          body: shown.body,
          icon: ICON,
          badge: ICON,
          lang: shown.lang,
          data: { url: shown.url },
        }),
        setBadge(shown.badge),
      ]);
    })(),
  );
});

/**
 * A tap: an app window this worker controls (the focused one first) comes to the front and goes to
 * the target; without one, a new window opens there.
 */
async function openTarget(url: string): Promise<void> {
  const target = targetUrl(url);
  const sameOrigin = (client: WindowClient) => new URL(client.url).origin === self.location.origin;
  // Windows this worker controls can be sent elsewhere; the focused one first.
  const controlled = (await self.clients.matchAll({ type: 'window' })).filter(sameOrigin);
  controlled.sort((a, b) => Number(b.focused) - Number(a.focused));
  for (const client of controlled) {
    // Focusing needs the click's user activation: without it (or when refused) going there still helps.
    const focused = await client.focus().catch(() => client);
    const navigated = await focused.navigate(target).catch(() => null);
    if (navigated) return;
  }
  await self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: unknown } | null)?.url;
  event.waitUntil(openTarget(typeof url === 'string' ? url : ''));
});

// The browser renewed or dropped the subscription: subscribe again with the same key. The app sends
// the new one to the server the next time it runs (src/pwa/push.ts, keepPushSubscriptionFresh).
self.addEventListener('pushsubscriptionchange', (event) => {
  const change = event as ExtendableEvent & { oldSubscription?: PushSubscription | null };
  const key = change.oldSubscription?.options.applicationServerKey;
  if (!key) return;
  change.waitUntil(
    self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }).then(
      () => undefined,
      () => undefined,
    ),
  );
});

/*
 * Background sync (docs/architecture.md, Background sync): the app asked for it when a change had to
 * wait for the network; the browser fires it once the device is online, also when the app is closed.
 * With a window of the app open, that window's leader tab sends the changes; otherwise this worker
 * does, with the app's replication (src/pwa/backgroundSync.ts). A failure (no network) rejects, and
 * the browser tries again later; what is still waiting after that goes at the app's next start.
 */

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== BACKGROUND_SYNC_TAG) return;
  sync.waitUntil(
    runBackgroundSync({
      origin: self.location.origin,
      windowOpen: async () => (await self.clients.matchAll({ type: 'window', includeUncontrolled: true })).length > 0,
    }).then(() => undefined),
  );
});
