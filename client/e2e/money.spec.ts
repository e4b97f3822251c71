import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/**
 * Money (issue 8): a member sees a bought ticket on /my-tickets and reports it paid; the admin's
 * /debts shows the same total, and its CSV keeps umlauts and amounts (BOM, semicolons, 18,50).
 */
test('my tickets, the paid request, the debt overview and its CSV agree', async ({ page, request, browser }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const username = uniqueName('Jürgen');
  const registered = await request.post('/api/auth/register', {
    data: { username, email: `${uniqueName('juergen')}@example.org`, password: 'fan-pass' },
  });
  expect(registered.ok()).toBe(true);
  const userId = (await registered.json()).user.id as string;
  await admin.put(`/api/auth/users/${userId}/approve`);
  const member = await Api.signIn(request, username, 'fan-pass');

  const title = uniqueName('Köln ') + ' (A)';
  const eventId = await admin.createEvent(title, daysAhead(20));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 18.5 });

  await page.setViewportSize({ width: 360, height: 780 });
  await signInThroughForm(page, username, 'fan-pass');
  await page
    .getByRole('button', { name: 'Menü' })
    .click()
    .catch(() => undefined);
  await page.getByRole('navigation').getByRole('link', { name: 'Meine Tickets' }).click();
  await expect(page).toHaveURL(/\/my-tickets$/);
  await expect(page.getByTestId('unpaid-total')).toContainText('18,50 €');
  const unpaid = page.locator('[data-list="unpaid"]');
  const ticket = unpaid.locator('li', { hasText: title });
  await expect(ticket).toContainText('18,50 €');
  await ticket.getByRole('button', { name: 'Ich habe bezahlt' }).click();
  await expect(ticket).toContainText('Bezahlung gemeldet');
  await expect(ticket.getByRole('button', { name: 'Ich habe bezahlt' })).toHaveCount(0);
  await expect
    .poll(async () => (await member.get('/api/tickets/my')).tickets.find((t: any) => t.event_id === eventId)?.paid_requested)
    .toBe(true);
  // Nothing overflows at 360 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The admin's debt overview: the same amount, and the CSV downloads.
  const context = await browser.newContext({ acceptDownloads: true });
  const adminPage = await context.newPage();
  await signInThroughForm(adminPage, ADMIN.username, ADMIN.password);
  await adminPage.goto('/debts');
  const row = adminPage.getByTestId('debts-table').locator('tr', { hasText: username });
  await expect(row).toContainText('18,50 €');
  await expect(row).toContainText('1');

  const download = adminPage.waitForEvent('download');
  await adminPage.getByRole('button', { name: 'Schulden als CSV' }).click();
  const file = fs.readFileSync((await (await download).path())!);
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = file.toString('utf8');
  expect(text).toContain(`${username};`);
  expect(text).toMatch(new RegExp(`${username};[^;]*;18,50;1`));

  const ticketsDownload = adminPage.waitForEvent('download');
  await adminPage.getByRole('button', { name: 'Unbezahlte Tickets als CSV' }).click();
  const tickets = fs.readFileSync((await (await ticketsDownload).path())!).toString('utf8');
  expect(tickets.startsWith('\uFEFF')).toBe(true);
  expect(tickets).toContain(title);
  expect(tickets).toContain('18,50');
  await context.close();
});
