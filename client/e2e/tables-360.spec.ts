import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/*
 * Wide tables on a 360 px phone: the action a row needs stays in view (a column that sticks to the
 * right edge), and the scroll box shows that it scrolls (the shadow at the scrolling edge).
 */

/** The button lies fully inside the window, without scrolling the table. */
async function inTheWindow(page: Page, button: Locator): Promise<void> {
  const box = (await button.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

/**
 * The scroll box overflows and the sticky action cell carries the shadow of the scrolling edge (headless
 * Chromium hides scrollbars, so the thin visible scrollbar cannot be measured here).
 */
async function showsItScrolls(scroller: Locator, actionCell: Locator): Promise<void> {
  expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await actionCell.evaluate((cell) => getComputedStyle(cell).position)).toBe('sticky');
  expect(await actionCell.evaluate((cell) => getComputedStyle(cell).boxShadow)).not.toBe('none');
}

test.use({ viewport: { width: 360, height: 740 } });

test('at 360 px the accept button of a task and the remove button of an attendee stay in view; the tables show they scroll', async ({
  page,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('tabelle'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const eventId = await admin.createEvent(`${uniqueName('Heidenheim an der Brenz')} (A)`, daysAhead(10));
  const attendance = await memberApi.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 31.5 });
  await memberApi.put(`/api/tickets/${attendance.attendance.id}/request-paid`, {});

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin/tasks');
  const row = page.getByRole('row', { name: new RegExp(member.username) });
  const accept = row.getByRole('button', { name: 'Bestätigen' });
  await expect(accept).toBeVisible();
  await inTheWindow(page, accept);
  await showsItScrolls(page.locator('.admin-table-scroll', { has: row }), row.locator('td').last());
  await page.screenshot({ path: test.info().outputPath('tasks-360.png'), fullPage: true });

  await page.goto(`/events/${eventId}`);
  await page.getByRole('button', { name: 'Tabelle bearbeiten' }).click();
  const remove = page.getByRole('button', { name: `Entfernen: ${member.username}` });
  await expect(remove).toBeVisible();
  await inTheWindow(page, remove);
  await showsItScrolls(
    page.locator('.event-detail .table-scroll'),
    page.locator('.attendee-table tbody tr').first().locator('td').last(),
  );
  await page.screenshot({ path: test.info().outputPath('attendees-360.png'), fullPage: true });
});
