import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, signInThroughForm, uniqueName } from './support.js';

test('signing out ends the session on the server: the old token no longer works', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('logout'));
  const { context, page } = await memberPage(browser, member);
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();

  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await expect
    .poll(async () => (await request.get('/api/auth/profile', { headers: { authorization: `Bearer ${token}` } })).status())
    .toBe(401);
  await context.close();
});

test('a member who signs out offline keeps the waiting change; it is sent at the next sign-in', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Parked')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(12));
  const member = await admin.registeredMember(uniqueName('parked'));

  const { context, page } = await memberPage(browser, member);
  await expect(eventCard(page, title)).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await eventCard(page, title).getByRole('button', { name: 'Zusage' }).click();
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();

  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByText(/1 Änderung wurde noch nicht gesendet/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `Änderung von ${member.username}` })).toBeVisible();
  expect((await admin.get(`/api/events/${eventId}`)).attendees).toHaveLength(0);

  await context.setOffline(false);
  await signInThroughForm(page, member.username, member.password);
  await expect
    .poll(
      async () =>
        (await admin.get(`/api/events/${eventId}`)).attendees.map(
          (a: { username: string; status: string }) => `${a.username}:${a.status}`,
        ),
      { timeout: 10_000 },
    )
    .toEqual([`${member.username}:going`]);
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);
  await context.close();
});
