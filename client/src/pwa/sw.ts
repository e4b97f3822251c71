/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

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

interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
}

function readPayload(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const parsed: unknown = event.data.json();
    return parsed && typeof parsed === 'object' ? (parsed as PushPayload) : {};
  } catch {
    return { body: event.data.text() };
  }
}

/** Only same-origin paths are opened from a notification. */
function targetUrl(url: unknown): string {
  if (typeof url !== 'string' || url === '') return '/events';
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL('/events', self.location.origin).href;
  } catch {
    return '/events';
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(payload.title || 'Fankurve', {
      body: payload.body ?? '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: targetUrl(payload.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = targetUrl((event.notification.data as { url?: unknown } | null)?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const existing = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (existing) {
        const focused = await existing.focus();
        await focused.navigate(url).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
