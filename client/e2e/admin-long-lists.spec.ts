import { SYNC_SCHEMAS } from '@fankurve/shared';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

const EVENTS = 6;
const GUESTS_PER_EVENT = 9;

/**
 * Paid requests of one member for `EVENTS × (1 + GUESTS_PER_EVENT)` bought tickets: their own and their
 * guests' at each event, reported paid the way a device pushes it.
 */
async function manyPaidRequests(admin: Api, member: Api): Promise<string[]> {
  const rowIds: string[] = [];
  for (let e = 0; e < EVENTS; e++) {
    const eventId = await admin.createEvent(uniqueName('Lange Liste ') + ' (A)', daysAhead(40 + e));
    rowIds.push((await member.post(`/api/attendance/${eventId}`, { status: 'going' })).attendance.id);
    for (let g = 0; g < GUESTS_PER_EVENT; g++)
      rowIds.push((await member.post('/api/guests', { event_id: eventId, guest_name: `Gast ${g}` })).guest.id);
  }
  for (const id of rowIds) await admin.put(`/api/attendees/${id}`, { bought: true, price: 12 });
  const pulled = await member.post(`/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
    checkpoint: null,
    limit: 1000,
  });
  const rows = (pulled.documents as { id: string }[]).filter((doc) => rowIds.includes(doc.id));
  expect(rows).toHaveLength(rowIds.length);
  const conflicts = await member.post(
    `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`,
    rows.map((row) => ({ assumedMasterState: row, newDocumentState: { ...row, paid_requested: true } })),
  );
  // Answered with every row's result (its new seq).
  expect(conflicts).toHaveLength(rows.length);
  expect(conflicts).toEqual(expect.arrayContaining([expect.objectContaining({ paid_requested: true })]));
  return rowIds;
}

test('a long task list shows its first 50 rows and the next ones on "show more"', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('Vielzahler'));
  const rowIds = await manyPaidRequests(admin, await Api.signIn(request, member.username, member.password));
  const open = (await admin.get('/api/admin/pending-paid-requests')).requests.length as number;
  expect(open).toBeGreaterThanOrEqual(rowIds.length);

  await page.setViewportSize({ width: 360, height: 780 });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin/tasks');
  const section = page.getByRole('region', { name: /Offene Bezahlt-Meldungen/ });
  await expect(section.getByRole('heading')).toContainText(String(open));
  const rows = section.locator('tbody tr');
  await expect(rows).toHaveCount(50);
  await expect(section).toContainText(`noch ${open - 50} nicht gezeigt`);

  await section.getByRole('button', { name: `${Math.min(50, open - 50)} weitere zeigen` }).click();
  await expect(rows).toHaveCount(Math.min(100, open));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The admin accepts them all, so later tests find a short list again.
  const requests = (await admin.get('/api/admin/pending-paid-requests')).requests as { id: string }[];
  for (const { id } of requests.filter((r) => rowIds.includes(r.id))) await admin.put(`/api/admin/accept-paid-request/${id}`);
  if (open > rowIds.length) await expect(section.getByRole('heading')).toContainText(String(open - rowIds.length));
  else await expect(section).toHaveCount(0);
});

const LONG_USER_LIST = 45;

/**
 * The layout shift (CLS, as the browser scores it) of opening `path` until `ready` shows and every
 * sliced list has all its rows (no `SlicesRoom` holds room any more).
 */
async function layoutShiftOpening(page: Page, path: string, ready: Locator): Promise<number> {
  await page.addInitScript(() => {
    if ('layoutShifts' in window) return; // added once a page is enough
    const shifts: number[] = [];
    (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(path);
  await expect(ready).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('.slices-room')].every((room) => room.getBoundingClientRect().height === 0),
      ),
    )
    .toBe(true);
  // The last slice's frame is painted, so its shift (if any) is recorded.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
  return shifts.reduce((sum, value) => sum + value, 0);
}

test('long admin lists fill in without moving what follows them (no layout shift)', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const known = ((await admin.get('/api/auth/users')).users as unknown[]).length;
  for (let n = known; n < LONG_USER_LIST; n++) await admin.registeredMember(uniqueName('Listenfan'));

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  const usersShift = await layoutShiftOpening(page, '/users', page.getByRole('region', { name: 'Mitglieder importieren' }));
  await expect(page.locator('.users-table tbody tr')).toHaveCount(Math.max(known, LONG_USER_LIST));
  expect(usersShift).toBeLessThan(0.02);

  // The balances answer after the debts, as on a slow line: the page must not show half of itself.
  await page.route('**/api/ledger', async (route) => {
    await page.waitForResponse('**/api/tickets/debts');
    await route.continue();
  });
  const debtsShift = await layoutShiftOpening(page, '/debts', page.getByRole('heading', { name: 'Alle unbezahlten Tickets' }));
  await expect(page.getByTestId('balances-table').locator('tbody tr')).not.toHaveCount(0);
  expect(debtsShift).toBeLessThan(0.02);
});
