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

/** One layout shift as the browser scores it, with what moved (for the failure's message). */
interface Shift {
  value: number;
  at: number;
  moved: string[];
}
type LayoutShiftEntry = PerformanceEntry & {
  value: number;
  hadRecentInput: boolean;
  sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
};

/** From the next page load on, every layout shift is recorded as the browser scores it (CLS). */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if ('layoutShifts' in window) return; // added once a page is enough
    const shifts: Shift[] = [];
    (window as unknown as { layoutShifts: Shift[] }).layoutShifts = shifts;
    const nameOf = (node: Node | null) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.trim().split(/\s+/).join('.')}` : ''}`
        : String(node?.nodeName ?? 'gone');
    const rect = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShiftEntry[])
        if (!entry.hadRecentInput)
          shifts.push({
            value: entry.value,
            at: Math.round(entry.startTime),
            moved: entry.sources.map(
              (source) => `${nameOf(source.node)} ${rect(source.previousRect)} → ${rect(source.currentRect)}`,
            ),
          });
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The page's layout shifts so far, once every sliced list has all its rows (no `SlicesRoom` holds room). */
async function layoutShiftSoFar(page: Page): Promise<Shift[]> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('.slices-room')].every((room) => room.getBoundingClientRect().height === 0),
      ),
    )
    .toBe(true);
  // The last change's frame is painted, so its shift (if any) is recorded.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);
}

/** The shifts' sum stays below MOST_SHIFT; a failure lists each shift and what it moved. */
function expectSteady(shifts: Shift[]): void {
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  const described = shifts.map((shift) => `${shift.value.toFixed(4)} at ${shift.at} ms: ${shift.moved.join('; ')}`).join('\n');
  expect(total, `layout shifts:\n${described}`).toBeLessThan(MOST_SHIFT);
}

/** The layout shifts of opening `path` until `ready` shows and every sliced list is complete. */
async function layoutShiftOpening(page: Page, path: string, ready: Locator): Promise<Shift[]> {
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
  expectSteady(usersShift);

  // The balances answer after the debts, as on a slow line: the page must not show half of itself.
  await page.route('**/api/ledger', async (route) => {
    await page.waitForResponse('**/api/tickets/debts');
    await route.continue();
  });
  const debtsShift = await layoutShiftOpening(page, '/debts', page.getByRole('heading', { name: 'Alle unbezahlten Tickets' }));
  await expect(page.getByTestId('balances-table').locator('tbody tr')).not.toHaveCount(0);
  expectSteady(debtsShift);
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
  // The replication's first pull answered: the device database has opened and taken over (the
  // sync indicator says "Synchronisiert" already before the sync chunk has run).
  const pulled = page.waitForResponse((response) => /\/api\/sync\/[^/]+\/\d+\/pull$/.test(new URL(response.url()).pathname));
  for (const route of held) await route.continue();
  await pulled;
  await expect(page.getByRole('status').filter({ hasText: 'Synchronisiert' })).toBeVisible();
  expectSteady(await layoutShiftSoFar(page));

  const fanDevice = await memberPage(browser, member, { viewport: { width: 360, height: 780 } });
  const fanPage = fanDevice.page;
  // The member's ticket is on the device: what is measured is the page opening from the device's
  // data, not the first sync's rows arriving (a ticket drawn later pushes the lists below it).
  await fanPage.goto('/my-tickets');
  await expect(fanPage.locator('[data-list="pending"] .ticket-item')).toHaveCount(1);
  const ticketsShift = await layoutShiftOpening(fanPage, '/my-tickets', fanPage.getByRole('heading', { name: 'Kontoauszug' }));
  await expect(fanPage.getByRole('heading', { name: /Meine Mitfahrgelegenheiten/ })).toBeVisible();
  expectSteady(ticketsShift);
  await fanDevice.context.close();
});
