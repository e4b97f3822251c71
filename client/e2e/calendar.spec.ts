import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, memberPage, uniqueName } from './support.js';

/** The calendar feed's section on /profile (docs/architecture.md, "Calendar feed"). */

const SHOTS = process.env.PROFILE_SHOTS_DIR ?? '/tmp/pw-profile';

async function noHorizontalOverflow(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('a member shows, copies, subscribes to and renews the calendar address at 360 px', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('kalender'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Kalender' });
  await expect(section.getByText('jedes Spiel ab 90 Tagen zurück')).toBeVisible();
  // Nothing is loaded (no address created) before the click.
  await expect(section.getByLabel('Kalenderadresse')).toHaveCount(0);
  await section.getByRole('button', { name: 'Adresse anzeigen' }).click();

  const field = section.getByLabel('Kalenderadresse');
  await expect(field).toHaveValue(/^https?:\/\/.+\.ics$/);
  await expect(field).toHaveAttribute('readonly', '');
  const url = await field.inputValue();
  await expect(section.getByRole('link', { name: 'Zum Kalender hinzufügen' })).toHaveAttribute(
    'href',
    url.replace(/^https?:/, 'webcal:'),
  );
  await noHorizontalOverflow(page, 360);

  await section.getByRole('button', { name: 'Kopieren' }).click();
  await expect(page.getByText('Adresse kopiert')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  const feed = await page.request.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toMatch(/^text\/calendar/);
  expect(await feed.text()).toContain('BEGIN:VCALENDAR');

  await section.getByRole('button', { name: 'Neue Adresse' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neue Kalenderadresse?' });
  await expect(dialog.getByText('Die bisherige Adresse funktioniert danach nicht mehr.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Neue Adresse' }).click();
  await expect(dialog).toBeHidden();
  await expect(field).not.toHaveValue(url);
  await expect(field).toHaveValue(/^https?:\/\/.+\.ics$/);
  const renewed = await field.inputValue();
  expect((await page.request.get(url)).status()).toBe(404);
  expect((await page.request.get(renewed)).status()).toBe(200);
  await noHorizontalOverflow(page, 360);
  await section.screenshot({ path: `${SHOTS}/calendar-de-360.png` });

  await context.close();
});

test('the calendar section in English on a desktop, and offline', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('calendar'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 1280, height: 900 } });
  const memberApi = await Api.signIn(request, member.username, member.password);
  const me = (await memberApi.get('/api/auth/profile')).user;
  await memberApi.put(`/api/auth/users/${me.id}`, { language: 'en' });

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  const section = page.getByRole('region', { name: 'Calendar' });
  await expect(section.getByText('every match from 90 days ago on, with your answer')).toBeVisible();
  await section.getByRole('button', { name: 'Show address' }).click();
  const field = section.getByLabel('Calendar address');
  await expect(field).toHaveValue(/^https?:\/\/.+\.ics$/);
  await expect(section.getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', /^webcal:\/\/.+\.ics$/);
  await expect(section.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'New address' })).toBeVisible();
  await noHorizontalOverflow(page, 1280);

  await context.setOffline(true);
  await expect(section.getByText('The calendar address needs an internet connection.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'New address' })).toHaveCount(0);

  await context.close();
});
