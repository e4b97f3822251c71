import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, memberPage, uniqueName } from './support.js';

/*
 * The app's storage on the device (docs/architecture.md, Background sync; docs/product.md, Profile):
 * the profile says whether the browser keeps it and how much it uses; installing the app asks the
 * browser once to keep it.
 */

async function noHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

const persisted = (page: Page) => page.evaluate(() => navigator.storage.persisted());

test('the profile shows whether storage is persistent and how much is used, in German and English at 360 px', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('speicher'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });

  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Speicher auf diesem Gerät' });
  await expect(section).toBeVisible();
  const kept = await persisted(page);
  await expect(section.getByRole('definition').first()).toHaveText(kept ? 'Ja' : 'Nein');
  // Megabytes with the German decimal comma and thousands dot.
  await expect(section.getByRole('definition').nth(1)).toHaveText(/^\d{1,3}(\.\d{3})*,\d MB von \d{1,3}(\.\d{3})* MB$/);
  await expect(section.getByText(kept ? /behält die Daten der App/ : /darf der Browser die Daten der App löschen/)).toBeVisible();
  await noHorizontalOverflow(page);

  const memberApi = await Api.signIn(request, member.username, member.password);
  const me = (await memberApi.get('/api/auth/profile')).user;
  await memberApi.put(`/api/auth/users/${me.id}`, { language: 'en' });
  await page.reload();
  const english = page.getByRole('region', { name: 'Storage on this device' });
  await expect(english).toBeVisible();
  await expect(english.getByText('Persistent', { exact: true })).toBeVisible();
  await expect(english.getByRole('definition').first()).toHaveText(kept ? 'Yes' : 'No');
  await expect(english.getByRole('definition').nth(1)).toHaveText(/^\d{1,3}(,\d{3})*\.\d MB of \d{1,3}(,\d{3})* MB$/);
  await noHorizontalOverflow(page);

  await page.setViewportSize({ width: 1280, height: 900 });
  await noHorizontalOverflow(page);
  await context.close();
});

test('installing the app asks the browser once to keep its storage', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('persist'));
  const { context, page } = await memberPage(browser, member);
  /** Counts the page's calls of `navigator.storage.persist()` from now on (the browser's answer stays). */
  const countAsks = () =>
    page.evaluate(() => {
      const storage = navigator.storage as StorageManager & { asked?: number };
      const persist = storage.persist.bind(storage);
      storage.asked = 0;
      storage.persist = () => {
        storage.asked! += 1;
        return persist();
      };
    });
  const asked = () => page.evaluate(() => (navigator.storage as StorageManager & { asked?: number }).asked);
  await countAsks();
  expect(await page.evaluate(() => localStorage.getItem('storagePersistAsked'))).toBeNull();
  const keptBefore = await persisted(page);

  // Chromium reports an installation with `appinstalled`.
  await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  await expect.poll(() => page.evaluate(() => localStorage.getItem('storagePersistAsked'))).not.toBeNull();
  // Asked, unless the browser kept the storage already.
  expect(await asked()).toBe(keptBefore ? 0 : 1);

  // Remembered on the device: after a reload, another installation does not ask again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  await countAsks();
  await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  expect(await asked()).toBe(0);
  await context.close();
});

test('a browser without the Storage API: the profile says so in one line', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('nostorage'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'storage', { get: () => undefined }));
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Speicher auf diesem Gerät' });
  await expect(section.getByText('Dieser Browser gibt keine Auskunft über den Speicher der App.')).toBeVisible();
  await expect(section.getByRole('definition')).toHaveCount(0);
  await noHorizontalOverflow(page);
  await context.close();
});
