import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, signInThroughForm, uniqueName } from './support.js';

/*
 * Nothing moves once it is in view while a page fills in (docs/architecture.md, Loading): the
 * layout shift of opening a page, as the browser scores it (CLS), stays near zero. What is left is
 * the navigation bar's badges settling (under 0.01).
 */

const MOST_SHIFT = 0.02;

// Without the service worker, so that a test sees (and can hold back) every chunk request.
test.use({ serviceWorkers: 'block' });
const LONG_USER_LIST = 45;

/** From the next page load on, every layout shift is recorded as the browser scores it (CLS). */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if ('layoutShifts' in window) return; // added once a page is enough
    const shifts: number[] = [];
    (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The page's layout shift so far, once every sliced list has all its rows (no `SlicesRoom` holds room). */
async function layoutShiftSoFar(page: Page): Promise<number> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('.slices-room')].every((room) => room.getBoundingClientRect().height === 0),
      ),
    )
    .toBe(true);
  // The last change's frame is painted, so its shift (if any) is recorded.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
  return shifts.reduce((sum, value) => sum + value, 0);
}

/** The layout shift of opening `path` until `ready` shows and every sliced list is complete. */
async function layoutShiftOpening(page: Page, path: string, ready: Locator): Promise<number> {
  await recordLayoutShifts(page);
  await page.goto(path);
  await expect(ready).toBeVisible();
  return layoutShiftSoFar(page);
}

test('long admin lists fill in without moving what follows them', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const known = ((await admin.get('/api/auth/users')).users as unknown[]).length;
  for (let n = known; n < LONG_USER_LIST; n++) await admin.registeredMember(uniqueName('Listenfan'));

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  const usersShift = await layoutShiftOpening(page, '/users', page.getByRole('region', { name: 'Mitglieder importieren' }));
  await expect(page.locator('.users-table tbody tr')).toHaveCount(Math.max(known, LONG_USER_LIST));
  expect(usersShift).toBeLessThan(MOST_SHIFT);

  // The balances answer after the debts, as on a slow line: the page must not show half of itself.
  await page.route('**/api/ledger', async (route) => {
    await page.waitForResponse('**/api/tickets/debts');
    await route.continue();
  });
  const debtsShift = await layoutShiftOpening(page, '/debts', page.getByRole('heading', { name: 'Alle unbezahlten Tickets' }));
  await expect(page.getByTestId('balances-table').locator('tbody tr')).not.toHaveCount(0);
  expect(debtsShift).toBeLessThan(MOST_SHIFT);
});

test('the events list and my tickets open without their sections pushing each other', async ({ page, browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Ohne Ruck')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(9));
  const member = await admin.registeredMember(uniqueName('ruhig'));
  const fan = await Api.signIn(request, member.username, member.password);
  await fan.post(`/api/attendance/${eventId}`, { status: 'going' });

  await page.setViewportSize({ width: 360, height: 780 });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  // A warm start: the list, the news and the polls are remembered; the device database (the RxDB
  // chunk) arrives only after the page has painted from them.
  await expect
    .poll(() =>
      page.evaluate(() =>
        ['snapshot:eventsList', 'snapshot:announcements', 'snapshot:polls'].every((key) => localStorage.getItem(key) !== null),
      ),
    )
    .toBe(true);
  const held: Route[] = [];
  await page.route(/\/assets\/sync-[\w-]+\.js$/, (route) => void held.push(route));
  await recordLayoutShifts(page);
  await page.reload();
  await expect.poll(() => held.length).toBe(1);
  // The admin always sees the news and the polls above the list (to post and ask).
  await expect(page.getByRole('heading', { name: /^Umfragen/ })).toBeVisible();
  await expect(eventCard(page, title)).toBeVisible();
  for (const route of held) await route.continue();
  await expect(page.getByRole('status').filter({ hasText: 'Synchronisiert' })).toBeVisible();
  expect(await layoutShiftSoFar(page)).toBeLessThan(MOST_SHIFT);

  const fanDevice = await memberPage(browser, member, { viewport: { width: 360, height: 780 } });
  const fanPage = fanDevice.page;
  const ticketsShift = await layoutShiftOpening(fanPage, '/my-tickets', fanPage.getByRole('heading', { name: 'Kontoauszug' }));
  await expect(fanPage.getByRole('heading', { name: /Meine Mitfahrgelegenheiten/ })).toBeVisible();
  expect(ticketsShift).toBeLessThan(MOST_SHIFT);
  await fanDevice.context.close();
});
