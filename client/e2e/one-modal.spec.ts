import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/*
 * One modal at a time (docs/architecture.md, Profile and prompts): the push prompt that comes a few
 * seconds after sign-in waits while the member is in another dialog — here "return ticket?" — and
 * comes once it is closed. The page's clock is Playwright's, moved on by hand: no waiting for time.
 */

test('the push prompt waits while the return-ticket dialog is open, and comes after it closed (360 px)', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Hoffenheim')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(9));
  await admin.put(`/api/events/${eventId}/contingent`, { tickets: 1 });
  const login = await admin.registeredMember(uniqueName('modal'));
  const member = await Api.signIn(request, login.username, login.password);
  await member.post(`/api/attendance/${eventId}`, { status: 'going', needs_ticket: true });

  // A device that never answered the push prompt (the config's default storage marks it answered).
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.clock.install();
  await signInThroughForm(page, login.username, login.password);
  await page.goto(`/events/${eventId}`);
  const section = page.getByRole('region', { name: 'Ticketkontingent' });
  await section.getByRole('button', { name: 'Ticket zurückgeben' }).click();
  const returning = page.getByRole('dialog', { name: 'Ticket zurückgeben?' });
  await expect(returning).toBeVisible();

  // Long past the prompt's delay: still only the member's own dialog.
  await page.clock.runFor(10_000);
  await expect(page.locator('html')).toHaveAttribute('data-prompts', 'waiting');
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(page.getByRole('dialog', { name: 'Benachrichtigungen einschalten?' })).toHaveCount(0);

  // Closed: the prompt's turn comes after its delay.
  await returning.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(returning).toHaveCount(0);
  await page.clock.runFor(10_000);
  await expect(page.getByRole('dialog', { name: 'Benachrichtigungen einschalten?' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await context.close();
});
