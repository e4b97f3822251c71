import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/**
 * An older season's event (docs/product.md, Always there, also without signal): the device holds its
 * counts and the member's own row; its attendees and comments load when it is opened online and stay.
 */
test('an older season’s event loads its attendees and comments online, keeps them offline, and says what it lacks', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const other = await admin.registeredMember(uniqueName('Altfan'));
  const otherApi = await Api.signIn(request, other.username, other.password);
  const member = await admin.registeredMember(uniqueName('Neufan'));
  const titles = [`${uniqueName('Damals')} (A)`, `${uniqueName('Einst')} (H)`];
  const ids: string[] = [];
  for (const [index, title] of titles.entries()) {
    const id = await admin.createEvent(title, daysAhead(30 + index));
    await otherApi.post(`/api/attendance/${id}`, { status: 'going' });
    await otherApi.post(`/api/comments/event/${id}`, { comment: `Erinnerung an ${title}` });
    // Three seasons ago (an admin corrects the date).
    await admin.put(`/api/events/${id}`, { date: `2023-0${4 + index}-10 15:30` });
    ids.push(id);
  }

  const { context, page } = await memberPage(browser, member);
  await untilServiceWorkerControls(page);

  await page.goto(`/events/${ids[0]}`);
  await expect(page.getByRole('heading', { name: titles[0] })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Teilnehmer', exact: true })).toContainText(other.username);
  await expect(page.getByText(`Erinnerung an ${titles[0]}`)).toBeVisible();

  await context.setOffline(true);
  await page.goto(`/events/${ids[1]}`);
  await expect(page.getByRole('heading', { name: titles[1] })).toBeVisible();
  const notice = page.getByRole('region', { name: 'Teilnehmer', exact: true });
  await expect(notice).toContainText('1 dabei');
  await expect(notice.getByRole('status')).toContainText('aus einer früheren Saison');
  await expect(page.getByText(`Erinnerung an ${titles[1]}`)).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    await page.evaluate(() => window.innerWidth),
  );

  // The one opened online stays on the device.
  await page.goto(`/events/${ids[0]}`);
  await expect(page.getByRole('region', { name: 'Teilnehmer', exact: true })).toContainText(other.username);
  await expect(page.getByText(`Erinnerung an ${titles[0]}`)).toBeVisible();

  // Back online, the other one loads by itself.
  await page.goto(`/events/${ids[1]}`);
  await expect(page.getByRole('region', { name: 'Teilnehmer', exact: true }).getByRole('status')).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('region', { name: 'Teilnehmer', exact: true })).toContainText(other.username);
  await expect(page.getByText(`Erinnerung an ${titles[1]}`)).toBeVisible();
  await context.close();
});
