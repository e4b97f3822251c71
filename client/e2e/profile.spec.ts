import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, memberPage, promptsSettled, uniqueName } from './support.js';

/** The profile page and the install prompt (docs/architecture.md, "Profile and prompts"). */

const SHOTS = process.env.PROFILE_SHOTS_DIR ?? '/tmp/pw-profile';

/** The login form of the page as it is (no new page load, so a kept install offer stays kept). */
async function submitSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort').fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

async function noHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * A synthetic `beforeinstallprompt`, as Chromium fires it when the app is installable. This checks the
 * app's reaction to the browser's event (its own dialog, calling prompt() from a click), not Chromium's
 * installability decision. Answers whether the app took the event over (preventDefault).
 */
async function offerInstall(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true });
    const w = window as unknown as { installPrompted?: number };
    Object.assign(event, {
      prompt: () => {
        w.installPrompted = (w.installPrompted ?? 0) + 1;
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: 'dismissed', platform: 'web' }),
    });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
}

const installPrompted = (page: Page) =>
  page.evaluate(() => (window as unknown as { installPrompted?: number }).installPrompted ?? 0);

test('the profile at 360 px in German and English: every section, nothing wider than the screen', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('profil'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Profil', level: 1 })).toBeVisible();
  for (const heading of ['Meine Daten', 'Sprache', 'App installieren', 'Passwort', 'Angemeldete Geräte'])
    await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
  const facts = page.getByRole('region', { name: 'Meine Daten' });
  await expect(facts.getByText(member.username, { exact: true })).toBeVisible();
  await expect(facts.getByText(`${member.username}@example.org`)).toBeVisible();
  await expect(facts.getByText('Mitglied', { exact: true })).toBeVisible();
  // Member since: today, as a German date (the app's one date format, client/src/i18n/dates.ts).
  await expect(facts.getByText(new RegExp(`^\\d{2}\\.\\d{2}\\.${new Date().getFullYear()}$`))).toBeVisible();
  await expect(page.getByRole('link', { name: 'Passwort ändern' })).toHaveAttribute('href', '/change-password');
  await expect(page.getByText('Dieses Gerät')).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/profile-de-360.png`, fullPage: true });

  const memberApi = await Api.signIn(request, member.username, member.password);
  const me = (await memberApi.get('/api/auth/profile')).user;
  await memberApi.put(`/api/auth/users/${me.id}`, { language: 'en' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  for (const heading of ['My details', 'Language', 'Install the app', 'Password', 'Signed-in devices'])
    await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
  // Two sessions now (the API's sign-in too): the list and its actions fit as well.
  await expect(page.getByRole('button', { name: 'Sign out all other devices' })).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/profile-en-360.png`, fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/profile-en-desktop.png`, fullPage: true });
  await context.close();
});

test('changing the language on the profile switches the app at once, is saved on the server and survives a reload', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('sprache'));
  const { context, page } = await memberPage(browser, member);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Profil', level: 1 })).toBeVisible();

  await page.getByLabel('Sprache der App').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(page.getByText('Language saved')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const memberApi = await Api.signIn(request, member.username, member.password);
  expect((await memberApi.get('/api/auth/profile')).user.language).toBe('en');

  // Reload with the device's own memory of the language gone: the profile (server and cache) brings it back.
  await page.evaluate(() => localStorage.removeItem('language'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(page.getByLabel('App language')).toHaveValue('en');

  // Another device: the login page in German (its default), the app in English once signed in.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto('/login');
  await submitSignIn(otherPage, member.username, member.password);
  await expect(otherPage.getByRole('heading', { name: 'Events', exact: true })).toBeVisible();

  // And back to German.
  await page.getByLabel('App language').selectOption('de');
  await expect(page.getByRole('heading', { name: 'Profil', level: 1 })).toBeVisible();
  await expect.poll(async () => (await memberApi.get('/api/auth/profile')).user.language).toBe('de');
  await other.close();
  await context.close();
});

test('the devices list shows both browsers; signing one out sends it to the login page', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('geraete'));
  const first = await memberPage(browser, member);
  const second = await memberPage(browser, member);

  await first.page.goto('/profile');
  const devices = first.page.getByRole('list', { name: 'Angemeldete Geräte' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await expect(devices.getByRole('listitem').filter({ hasText: 'Dieses Gerät' })).toHaveCount(1);
  const otherDevice = devices.getByRole('listitem').filter({ hasNotText: 'Dieses Gerät' });
  await expect(otherDevice.getByText(/Zuletzt aktiv: \d\d\.\d\d\.\d{4}, \d\d:\d\d/)).toBeVisible();

  await otherDevice.getByRole('button', { name: /abmelden$/ }).click();
  await expect(first.page.getByText('Das Gerät wurde abgemeldet')).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(first.page.getByText('Du bist nur auf diesem Gerät angemeldet.')).toBeVisible();
  // The second browser learns it through its change stream (or its next request) and goes to /login.
  await expect(second.page).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(second.page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();

  // Sign out all other devices, after a confirmation.
  const third = await Api.signIn(request, member.username, member.password);
  await first.page.reload();
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await first.page.getByRole('button', { name: 'Alle anderen Geräte abmelden' }).click();
  const dialog = first.page.getByRole('dialog', { name: 'Andere Geräte abmelden?' });
  await expect(dialog).toContainText('Das andere Gerät, auf dem du angemeldet bist, wird abgemeldet.');
  await dialog.getByRole('button', { name: 'Abmelden' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(first.page.getByText('Alle anderen Geräte wurden abgemeldet')).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  expect((await request.get('/api/auth/profile', { headers: { authorization: `Bearer ${third.token}` } })).status()).toBe(401);
  await expect(first.page.getByRole('heading', { name: 'Profil', level: 1 })).toBeVisible(); // this device stays signed in

  await first.context.close();
  await second.context.close();
});

test("the install prompt follows the browser's install offer after sign-in; 'not now' ends it for good", async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('install'));
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto('/login');
  // The offer usually comes while the login page is open: it is kept, and nothing shows yet.
  expect(await offerInstall(page)).toBe(true);
  // No prompt sequence runs before sign-in.
  await expect(page.locator('html')).not.toHaveAttribute('data-prompts');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await submitSignIn(page, member.username, member.password);
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  const prompt = page.getByRole('dialog', { name: 'App installieren?' });
  await expect(prompt).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/install-prompt-360.png` });
  await prompt.getByRole('button', { name: 'Nicht jetzt' }).click();
  await expect(prompt).toHaveCount(0);
  expect(await installPrompted(page)).toBe(0);

  // Shown once on this device: a new page load and a new offer bring no prompt, but the profile's
  // own button still opens the browser's install dialog.
  await page.goto('/profile');
  expect(await offerInstall(page)).toBe(true);
  const section = page.getByRole('region', { name: 'App installieren' });
  await expect(section.getByRole('button', { name: 'App installieren' })).toBeVisible();
  await promptsSettled(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await section.getByRole('button', { name: 'App installieren' }).click();
  expect(await installPrompted(page)).toBe(1);
  // The browser's offer is used up: the profile says so until the browser offers again.
  await expect(section.getByText('Dieser Browser bietet hier keine Installation der App an.')).toBeVisible();

  await page.reload();
  expect(await offerInstall(page)).toBe(true);
  await promptsSettled(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await context.close();
});

test("the prompt's 'install' opens the browser's install dialog; none for a member who must change the password", async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('installjetzt'));
  const { context, page } = await memberPage(browser, member);
  await offerInstall(page);
  const prompt = page.getByRole('dialog', { name: 'App installieren?' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Installieren' }).click();
  await expect(prompt).toHaveCount(0);
  expect(await installPrompted(page)).toBe(1);
  await context.close();

  // An account made by the admin must change its password first: no prompt on that page.
  const name = uniqueName('neu');
  const created = await admin.post('/api/auth/users', { username: name, email: `${name}@example.org` });
  const fresh = await browser.newContext();
  const freshPage = await fresh.newPage();
  await freshPage.goto('/login');
  await offerInstall(freshPage);
  await submitSignIn(freshPage, name, created.temporaryPassword);
  await expect(freshPage).toHaveURL(/\/change-password$/);
  await promptsSettled(freshPage);
  await expect(freshPage.getByRole('dialog')).toHaveCount(0);
  await fresh.close();
});

test('the install section: a guide on iOS Safari, "installed" when running as the app', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('ios'));
  // What Safari on an iPhone reports (its User-Agent; in the installed app also navigator.standalone),
  // emulated in Chromium: this checks the app's reading of those reports.
  const userAgent =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const safari = await memberPage(browser, member, { viewport: { width: 360, height: 740 }, userAgent });
  await safari.page.goto('/profile');
  const section = safari.page.getByRole('region', { name: 'App installieren' });
  await expect(section.getByRole('listitem')).toHaveText([
    'Tippe auf den Teilen-Button (das Quadrat mit dem Pfeil nach oben).',
    'Wähle „Zum Home-Bildschirm“.',
    'Tippe auf „Hinzufügen“.',
  ]);
  await expect(safari.page.getByText('Mobile Safari auf iOS')).toBeVisible(); // the device list names it
  await noHorizontalOverflow(safari.page);
  await safari.page.screenshot({ path: `${SHOTS}/profile-ios-360.png`, fullPage: true });
  await safari.context.close();

  const app = await browser.newContext({ viewport: { width: 360, height: 740 }, userAgent });
  await app.addInitScript(() => Object.defineProperty(Navigator.prototype, 'standalone', { get: () => true }));
  const appPage = await app.newPage();
  await appPage.goto('/login');
  await offerInstall(appPage); // an installed app is never offered again, whatever the browser says
  await submitSignIn(appPage, member.username, member.password);
  await appPage.getByRole('heading', { name: 'Termine' }).waitFor();
  await promptsSettled(appPage);
  await expect(appPage.getByRole('dialog')).toHaveCount(0);
  await appPage.goto('/profile');
  await expect(
    appPage.getByRole('region', { name: 'App installieren' }).getByText('Die App ist auf diesem Gerät installiert.'),
  ).toBeVisible();
  await app.close();
});
