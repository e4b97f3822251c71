import { expect, test, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, promptsSettled, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * Web push in the browser (docs/architecture.md, web push). Debian's Chromium has no Google push
 * service, so no real push message can reach it; instead Chromium's DevTools protocol hands a push
 * message straight to the service worker (`ServiceWorker.deliverPushMessage`, the same path as the
 * "Push" button of DevTools), which then runs the app's real `push` handler on the real payload.
 */

interface Shown {
  title: string;
  body: string;
  url: string | undefined;
  lang: string;
}

/** A member signed in through the form in a context that allows notifications, with the service worker in control. */
async function signedInMember(
  context: BrowserContext,
  request: Parameters<typeof Api.signIn>[0],
  baseURL: string,
): Promise<Page> {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('pushfan'));
  const page = await context.newPage();
  await signInThroughForm(page, member.username, member.password);
  await untilServiceWorkerControls(page);
  return page;
}

/** Delivers a push message to the page's service worker registration through the DevTools protocol. */
async function deliverPush(page: Page, baseURL: string, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const registration of updated)
      if (!registration.isDeleted) registrations.set(registration.scopeURL, registration.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  const scope = new URL('/', baseURL).href;
  await expect.poll(() => registrations.get(scope), { message: 'the registration id of the app scope' }).toBeTruthy();
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(baseURL).origin,
    registrationId: registrations.get(scope)!,
    data,
  });
  await cdp.detach();
}

/** The notifications the service worker registration shows, read in the page. */
function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      url: (n.data as { url?: string } | null)?.url,
      lang: n.lang,
    }));
  });
}

async function closeAll(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const n of await (await navigator.serviceWorker.ready).getNotifications()) n.close();
  });
}

async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  await expect.poll(() => context.serviceWorkers().length).toBeGreaterThan(0);
  return context.serviceWorkers()[0]!;
}

test('a push message shows its notification (declarative format, the older one, plain text); a click opens the event', async ({
  context,
  request,
  baseURL,
}) => {
  const page = await signedInMember(context, request, baseURL!);
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Pushspiel')} (H)`;
  const eventId = await admin.createEvent(title, daysAhead(9));
  const target = new URL(`/events/${eventId}`, baseURL).href;

  // The declarative web push message the server sends (server/src/notify/pushNotifier.ts).
  await deliverPush(
    page,
    baseURL!,
    JSON.stringify({
      web_push: 8030,
      notification: { title: 'Neues Spiel', body: `${title} · Alte Försterei`, navigate: target, lang: 'de' },
      app_badge: 2,
    }),
  );
  await expect
    .poll(() => shownNotifications(page))
    .toEqual([{ title: 'Neues Spiel', body: `${title} · Alte Försterei`, url: target, lang: 'de' }]);
  await closeAll(page);

  // The older flat format, a target on another origin (opens the events list instead), and plain text: each still shows.
  await deliverPush(page, baseURL!, JSON.stringify({ title: 'Alt', body: 'Flach', url: 'https://elsewhere.example/phish' }));
  await expect
    .poll(() => shownNotifications(page))
    .toEqual([{ title: 'Alt', body: 'Flach', url: new URL('/events', baseURL).href, lang: '' }]);
  await closeAll(page);
  await deliverPush(page, baseURL!, 'kein JSON');
  await expect
    .poll(() => shownNotifications(page))
    .toEqual([{ title: 'Fankurve', body: 'kein JSON', url: new URL('/events', baseURL).href, lang: '' }]);
  await closeAll(page);

  // The click. Chromium cannot click a notification without a display, and DevTools has no command for
  // it, so the test dispatches a notificationclick event, carrying the notification the push handler
  // showed, at the service worker's global scope: the app's own listener runs with it. The event is
  // synthetic, so it has no user activation (focus() is refused) and waitUntil would throw: the test
  // gives this one event a waitUntil that collects the promise, and waits for it.
  await deliverPush(
    page,
    baseURL!,
    JSON.stringify({
      web_push: 8030,
      notification: { title: 'Geändert', body: title, navigate: target, lang: 'de' },
      app_badge: 0,
    }),
  );
  await expect.poll(async () => (await shownNotifications(page)).length).toBe(1);
  await page.goto('/events');
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);
  const worker = await serviceWorkerOf(context);
  const clicked = await worker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    if (!notification) return 'no notification';
    const event = new NotificationEvent('notificationclick', { notification });
    const pending: Promise<unknown>[] = [];
    Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => pending.push(promise) });
    scope.dispatchEvent(event);
    await Promise.all(pending);
    return `handled ${pending.length}`;
  });
  expect(clicked).toBe('handled 1');
  await expect(page).toHaveURL(target);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  // The handler closed the notification.
  await expect.poll(() => shownNotifications(page)).toEqual([]);
});

test('where the browser cannot get a push subscription, the switch on the profile says so', async ({
  context,
  request,
  baseURL,
}) => {
  const page = await signedInMember(context, request, baseURL!);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const settings = page.locator('section.push-settings');
  const toggle = settings.getByRole('switch', { name: 'Push-Benachrichtigungen auf diesem Gerät' });
  await expect(settings.getByText('Ausgeschaltet.')).toBeVisible();
  await expect(toggle).toBeEnabled();
  await toggle.click();
  // Debian's Chromium has no Google push service: subscribe() fails, and the member is told so.
  await expect(settings.getByRole('alert')).toHaveText('Anmeldung beim Push-Dienst fehlgeschlagen: kein Token erhalten.', {
    timeout: 20_000,
  });
  await expect(toggle).not.toBeChecked();
  // The topics are there (a member: no admin topics).
  await expect(settings.getByRole('checkbox', { name: 'Ich wurde erwähnt' })).toBeChecked();
  await expect(settings.getByRole('checkbox', { name: 'Neue Registrierungen' })).toHaveCount(0);
  const status = await page.evaluate(async () => {
    const response = await fetch('/api/fcm/token/status', {
      headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    return (await response.json()) as { data: { enabled: boolean; configured: boolean } };
  });
  expect(status.data).toMatchObject({ enabled: false, configured: true });
});

test("the push prompt after sign-in on a new device: 'Einschalten' asks the browser and says why it failed; asked once per device", async ({
  browser,
  request,
  baseURL,
}) => {
  // A device that never answered the prompt (the config's default storage marks it as answered).
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 360, height: 740 } });
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('prompt'));
  const page = await context.newPage();
  await signInThroughForm(page, member.username, member.password);
  const prompt = page.getByRole('dialog', { name: 'Benachrichtigungen einschalten?' });
  await expect(prompt).toBeVisible();
  // The prompt is offered while the browser has not been asked; the member then allows notifications.
  await context.grantPermissions(['notifications'], { origin: baseURL! });
  await prompt.getByRole('button', { name: 'Einschalten' }).click();
  // Debian's Chromium has no Google push service: the member learns why nothing was switched on.
  await expect(page.getByText('Anmeldung beim Push-Dienst fehlgeschlagen: kein Token erhalten.')).toBeVisible({
    timeout: 20_000,
  });
  await expect(prompt).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('pushPromptDone'))).not.toBeNull();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  await promptsSettled(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await context.close();
});
