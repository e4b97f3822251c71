import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/*
 * The audit log (docs/architecture.md, Audit log): an admin changes a member's ticket price and books
 * a charge; /admin/log on a phone (360 px) answers "who changed this ticket, when?" with the change
 * before → after, narrows to the member from their page, and downloads the filtered log as CSV.
 */

test('the admin reads who changed a ticket and when at 360 px, narrowed to the member, and downloads it', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const login = await admin.registeredMember(uniqueName('Log'));
  const member = await Api.signIn(request, login.username, login.password);
  const title = `${uniqueName('Aue ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(21));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 20 });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { price: 22.5 });

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
  await page.goto(`/users/${login.id}`);
  await page.getByRole('link', { name: 'Protokoll' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/log\\?user_id=${login.id}$`));
  // The approval of the registration, the purchase, the new price: newest first.
  const entries = page.getByTestId('audit-entries').locator('li.audit-entry');
  await expect(entries).toHaveCount(3);
  await expect(entries.last()).toContainText('Registrierung angenommen');
  const newest = entries.first();
  await expect(newest).toContainText('Ticket geändert');
  await expect(newest).toContainText('von admin');
  await expect(newest).toContainText(login.username);
  await expect(newest).toContainText(title);
  await expect(newest.locator('dt')).toHaveText(['Preis']);
  await expect(newest.locator('dd')).toHaveText(['20,00 → 22,50']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('audit-log-de-360.png'), fullPage: true });

  // Only people: the approval, nothing of the member's ticket; only settings: nothing of this member.
  await page.getByLabel('Art').selectOption('people');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Registrierung angenommen');
  await page.getByLabel('Art').selectOption('settings');
  await expect(page.getByText('Keine Einträge.')).toBeVisible();
  await page.getByLabel('Art').selectOption('');
  await expect(entries).toHaveCount(3);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Als CSV herunterladen' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('protokoll.csv');
  const lines = fs
    .readFileSync((await file.path())!)
    .toString('utf8')
    .slice(1)
    .split('\r\n');
  expect(lines[0]).toBe('Zeit;Admin;Art;Aktion;Mitglied;Termin;Datensatz;Änderungen');
  expect(lines[1]).toContain(';admin;money;ticket.status;');
  expect(lines[1]).toContain('price_cents: 20,00 → 22,50');
  await context.close();
});
