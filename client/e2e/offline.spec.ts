import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

test('a member answers offline after an offline reload; the server and the admin see it after reconnect', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Union')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(10));
  const member = await admin.registeredMember(uniqueName('offline'));

  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN);
  await expect(eventCard(adminPage, title)).toContainText('0 dabei');

  const { context: memberContext, page } = await memberPage(browser, member);
  await expect(eventCard(page, title)).toBeVisible();
  // The service worker has taken over and precached the shell before the connection goes.
  await untilServiceWorkerControls(page);

  await memberContext.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  await expect(eventCard(page, title)).toBeVisible();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();

  await eventCard(page, title).getByRole('button', { name: 'Zusage' }).click();
  await expect(eventCard(page, title).getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  const before = await admin.get(`/api/events/${eventId}`);
  expect(before.attendees).toHaveLength(0);

  await memberContext.setOffline(false);
  await expect
    .poll(
      async () =>
        (await admin.get(`/api/events/${eventId}`)).attendees.map(
          (a: { username: string; status: string }) => `${a.username}:${a.status}`,
        ),
      {
        timeout: 5_000,
      },
    )
    .toEqual([`${member.username}:going`]);
  // The admin's open page shows it without a reload.
  await expect(eventCard(adminPage, title)).toContainText('1 dabei', { timeout: 5_000 });
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);

  await memberContext.close();
  await adminContext.close();
});
