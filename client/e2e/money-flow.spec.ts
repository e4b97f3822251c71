import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/**
 * The whole money flow (docs/product.md, "Tickets and money") across two devices: a member reports "paid" offline, reconnects; the
 * admin's open /admin/tasks shows it without a reload; the admin accepts; the member's ticket moves
 * to paid without a reload.
 */
test('an offline paid request reaches the open task list live; the accepted ticket moves to paid on the member’s page', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('zahler'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const title = `${uniqueName('Augsburg')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(14));
  const attendance = await memberApi.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 18.5 });

  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN);
  await adminPage.goto('/admin/tasks');
  await expect(adminPage.getByRole('heading', { name: 'Offene Aufgaben' })).toBeVisible();

  const { context: memberContext, page } = await memberPage(browser, member);
  await page.goto('/my-tickets');
  const ticket = page.locator('[data-list="unpaid"] li', { hasText: title });
  await expect(ticket).toContainText('18,50 €');

  await memberContext.setOffline(true);
  await ticket.getByRole('button', { name: 'Ich habe bezahlt' }).click();
  await expect(ticket).toContainText('Bezahlung gemeldet');
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  await memberContext.setOffline(false);

  // The admin's open page hears of it through the change stream, no reload.
  const row = adminPage.locator('tr', { hasText: member.username });
  await expect(row).toContainText(title, { timeout: 10_000 });
  await expect(row).toContainText('18,50 €');
  await row.getByRole('button', { name: 'Bestätigen' }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Bezahlt-Meldung bestätigen' });
  await expect(dialog).toContainText(member.username);
  await expect(dialog).toContainText('18,50 €');
  await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(row).toHaveCount(0);

  // The member's page moves the ticket to paid without a reload.
  await expect(page.locator('[data-list="paid"] li', { hasText: title })).toBeVisible({ timeout: 10_000 });
  await expect(page.locator('[data-list="unpaid"] li', { hasText: title })).toHaveCount(0);
  await memberContext.close();
  await adminContext.close();
});
