import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, signInThroughForm, uniqueName } from './support.js';

/**
 * No `unload` or `beforeunload` listener anywhere in the signed-in app (docs/architecture.md, Client
 * data layer): RxDB's leader election says goodbye on `pagehide`, so pages stay eligible for the
 * back/forward cache and browsers report no deprecated API.
 */
test('the signed-in app registers no unload or beforeunload listener', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Lifecycle')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(6));

  // Before any script of the page: every listener added to the window, by type, across reloads.
  await page.addInitScript(() => {
    const added: string[] = JSON.parse(sessionStorage.getItem('addedWindowListeners') ?? '[]');
    const original = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
      if (this === window) {
        added.push(type);
        sessionStorage.setItem('addedWindowListeners', JSON.stringify(added));
      }
      return original.call(this, type, ...(rest as [EventListenerOrEventListenerObject, boolean]));
    } as typeof EventTarget.prototype.addEventListener;
  });
  const added = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('addedWindowListeners') ?? '[]') as string[]);

  // A new device: the card comes from the replication, which runs in the leader tab only, so this
  // tab has been elected (and has registered its farewell) by the time it shows.
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await expect(eventCard(page, title)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Synchronisiert' })).toBeVisible();

  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.goto('/events');
  await expect(eventCard(page, title)).toBeVisible();

  const types = await added();
  // The recording works: the data layer follows the network state.
  expect(types).toContain('online');
  expect(types).not.toContain('unload');
  expect(types).not.toContain('beforeunload');
  expect(await page.evaluate(() => window.onunload === null && window.onbeforeunload === null)).toBe(true);
});
