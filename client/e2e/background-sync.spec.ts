import { SYNC_SCHEMAS } from '@fankurve/shared';
import { expect, test, type BrowserContext, type Page, type Worker } from '@playwright/test';
import {
  ADMIN,
  Api,
  daysAhead,
  eventCard,
  memberPage,
  signInThroughForm,
  uniqueName,
  untilServiceWorkerControls,
} from './support.js';

/*
 * Background sync (docs/architecture.md, Background sync). A change queued offline asks Chromium for
 * a one-off sync; Chromium fires it in the service worker when the connection returns — also for
 * Playwright's emulated network, so these tests need no DevTools command to fire it — and the worker
 * sends the change with the app's replication unless a window of the app is open or nobody is
 * signed in. The worker keeps what it did in the device store (`backgroundSyncOutcome`).
 */

const SYNC_PATH = /^\/api\/sync\/[a-z_]+\/\d+\/(pull|push)$/;
const ATTENDEES_PUSH = /^\/api\/sync\/attendees\/\d+\/push$/;

async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  await expect.poll(() => context.serviceWorkers().length).toBeGreaterThan(0);
  return context.serviceWorkers()[0]!;
}

/** A value of the device store (client/src/data/deviceStore.ts), read in the service worker: no window of the app needed. */
function deviceValue(worker: Worker, key: string): Promise<unknown> {
  return worker.evaluate(
    (wanted) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('fankurve-device');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('values')) {
            db.close();
            resolve(null);
            return;
          }
          const get = db.transaction('values').objectStore('values').get(wanted);
          get.onsuccess = () => {
            db.close();
            resolve(get.result ?? null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    key,
  );
}

/** The sync requests the service worker makes (not a page). */
function workerSyncRequests(context: BrowserContext): string[] {
  const paths: string[] = [];
  context.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.serviceWorker() && SYNC_PATH.test(path)) paths.push(path);
  });
  return paths;
}

const windowCount = (worker: Worker) =>
  worker.evaluate(
    async () =>
      (await (self as unknown as ServiceWorkerGlobalScope).clients.matchAll({ type: 'window', includeUncontrolled: true }))
        .length,
  );

const answers = async (admin: Api, eventId: string) =>
  (await admin.get(`/api/events/${eventId}`)).attendees.map(
    (a: { username: string; status: string }) => `${a.username}:${a.status}`,
  );

/** The server's attendee rows of the event, with their seq (the sync pull, read as the admin). */
async function serverRows(admin: Api, eventId: string): Promise<{ id: string; seq: number; status: string }[]> {
  const rows: { id: string; seq: number; status: string; event_id: string; _deleted?: boolean }[] = [];
  let checkpoint: unknown = null;
  for (;;) {
    const answer = await admin.post(`/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, { checkpoint, limit: 1000 });
    rows.push(...answer.documents);
    if (answer.documents.length < 1000) break;
    checkpoint = answer.checkpoint;
  }
  return rows.filter((row) => row.event_id === eventId && !row._deleted);
}

/** A member's device that answered "going" on the event card while offline (the change waits), with the worker in control. */
async function answeredOffline(page: Page, context: BrowserContext, title: string): Promise<void> {
  await expect(eventCard(page, title)).toBeVisible();
  await untilServiceWorkerControls(page);
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await eventCard(page, title).getByRole('button', { name: 'Zusage' }).click();
  await expect(eventCard(page, title).getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  // The page asked the browser for a one-off sync.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
          sync: { getTags(): Promise<string[]> };
        };
        return registration.sync.getTags();
      }),
    )
    .toEqual(['fankurve-outbox']);
}

test('a change queued offline reaches the server from the service worker while the app is closed; the app finds it sent', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Hintergrund')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(11));
  const member = await admin.registeredMember(uniqueName('bgsync'));
  const { context, page } = await memberPage(browser, member);
  const worker = await serviceWorkerOf(context);
  const fromWorker = workerSyncRequests(context);

  await answeredOffline(page, context, title);
  // The first change that waits also asks the browser, once, to keep the app's storage.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('storagePersistAsked'))).not.toBeNull();
  await page.close();
  await expect.poll(() => windowCount(worker)).toBe(0);
  expect(await answers(admin, eventId)).toEqual([]);

  // The connection returns with no window of the app open: the worker sends the change.
  await context.setOffline(false);
  await expect.poll(() => answers(admin, eventId), { timeout: 20_000 }).toEqual([`${member.username}:going`]);
  await expect.poll(() => deviceValue(worker, 'backgroundSyncOutcome')).toMatchObject({ outcome: 'synced' });
  expect(fromWorker.filter((path) => ATTENDEES_PUSH.test(path))).toHaveLength(1);
  const [sent] = await serverRows(admin, eventId);
  expect(sent).toMatchObject({ status: 'going' });

  // The app again, first offline: the answer shows and nothing waits any more.
  await context.setOffline(true);
  const again = await context.newPage();
  const pushes: string[] = [];
  again.on('request', (request) => {
    if (ATTENDEES_PUSH.test(new URL(request.url()).pathname)) pushes.push(request.url());
  });
  await again.goto('/events');
  await expect(eventCard(again, title).getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  await expect(again.getByText('Offline', { exact: true })).toBeVisible();
  await expect(again.getByText(/Änderung(en)? warte/)).toHaveCount(0);

  // Online: the app replicates, and nothing is pushed a second time.
  const attendeesPulled = again.waitForResponse((response) => /\/api\/sync\/attendees\/\d+\/pull$/.test(response.url()));
  await context.setOffline(false);
  await attendeesPulled;
  await expect(again.getByRole('status').filter({ hasText: 'Synchronisiert' })).toBeVisible();
  await expect(eventCard(again, title)).toContainText('1 dabei');
  expect(pushes).toEqual([]);
  expect(await serverRows(admin, eventId)).toEqual([sent]);
  await context.close();
});

test('with a window of the app open the worker leaves the sending to it', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Fenster')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(12));
  const member = await admin.registeredMember(uniqueName('bgwindow'));
  const { context, page } = await memberPage(browser, member);
  const worker = await serviceWorkerOf(context);
  const fromWorker = workerSyncRequests(context);

  await answeredOffline(page, context, title);
  await context.setOffline(false);
  await expect
    .poll(() => deviceValue(worker, 'backgroundSyncOutcome'), { timeout: 20_000 })
    .toMatchObject({ outcome: 'windowOpen' });
  // The page's own replication sent it.
  await expect.poll(() => answers(admin, eventId)).toEqual([`${member.username}:going`]);
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);
  expect(fromWorker).toEqual([]);
  expect(await serverRows(admin, eventId)).toHaveLength(1);
  await context.close();
});

test('signed out, the worker sends nothing: the change stays for the next sign-in here', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Abgemeldet')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(13));
  const member = await admin.registeredMember(uniqueName('bgnosession'));
  const { context, page } = await memberPage(browser, member);
  const worker = await serviceWorkerOf(context);
  const fromWorker = workerSyncRequests(context);

  await answeredOffline(page, context, title);
  expect(await deviceValue(worker, 'session')).toMatchObject({ token: expect.any(String) });
  // The bar folds its last items into the menu when they do not fit.
  const menu = page.getByRole('button', { name: 'Menü' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByText(/1 Änderung wurde noch nicht gesendet/)).toBeVisible();
  // Sign-out removes the worker's copy of the token.
  await expect.poll(() => deviceValue(worker, 'session')).toBeNull();
  await page.close();
  await expect.poll(() => windowCount(worker)).toBe(0);

  await context.setOffline(false);
  await expect
    .poll(() => deviceValue(worker, 'backgroundSyncOutcome'), { timeout: 20_000 })
    .toMatchObject({ outcome: 'noSession' });
  expect(fromWorker).toEqual([]);
  expect(await answers(admin, eventId)).toEqual([]);

  // The member signs in here again: the app sends the parked change.
  const again = await context.newPage();
  await signInThroughForm(again, member.username, member.password);
  await expect.poll(() => answers(admin, eventId), { timeout: 10_000 }).toEqual([`${member.username}:going`]);
  await context.close();
});

test('a session ended meanwhile: the worker changes nothing, and the app tells the member at its next start', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Beendet')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(14));
  const member = await admin.registeredMember(uniqueName('bgended'));
  const { context, page } = await memberPage(browser, member);
  const worker = await serviceWorkerOf(context);

  await answeredOffline(page, context, title);
  await page.close();
  await expect.poll(() => windowCount(worker)).toBe(0);
  // The member signs out this device from another one.
  const elsewhere = await Api.signIn(request, member.username, member.password);
  await elsewhere.post('/api/auth/sessions/end-others', {});

  await context.setOffline(false);
  await expect
    .poll(() => deviceValue(worker, 'backgroundSyncOutcome'), { timeout: 20_000 })
    .toMatchObject({ outcome: 'unauthorized' });
  expect(await answers(admin, eventId)).toEqual([]);

  const again = await context.newPage();
  await again.goto('/events');
  await expect(again.getByText('Sitzung abgelaufen, bitte melde dich erneut an')).toBeVisible();
  await expect(again.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await context.close();
});
