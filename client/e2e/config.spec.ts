import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { ADMIN, Api, memberPage, png, signInThroughForm, uniqueName } from './support.js';

/*
 * Team configuration (docs/architecture.md, "Team configuration and theme"): the admin's form, and what it changes everywhere at once — the nav
 * bar of a member's open page, the document title, <meta name="theme-color"> and the web app manifest.
 */

const DEFAULTS = { team_id: 553, team_name: '1. FC Union Berlin', site_title: 'Fankurve', theme_color: '#00397D' };

const navbarColours = (page: Page) =>
  page.locator('header.navbar').evaluate((bar) => {
    const style = getComputedStyle(bar);
    const title = getComputedStyle(bar.querySelector('.brand-title')!);
    return { background: style.backgroundColor, text: title.color };
  });

/** The horizontal overflow of the page (0: nothing wider than the screen). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

// Every other browser test expects the default club: put it back whatever happened.
test.afterEach(async ({ request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  await admin.put('/api/config', { ...DEFAULTS, auto_import_matches: false });
  await request.delete('/api/config/logo', { headers: { authorization: `Bearer ${admin.token}` } });
});

test("the admin changes colour and title; a member's open page takes them without a reload, and so does the manifest", async ({
  browser,
  request,
}, testInfo) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('farbe'));

  const { context: memberContext, page: fanPage } = await memberPage(browser, member);
  expect(await navbarColours(fanPage)).toEqual({ background: 'rgb(0, 57, 125)', text: 'rgb(255, 255, 255)' });
  // Set on the open page: still there at the end means the page was never reloaded.
  await fanPage.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const { context: adminContext, page } = await memberPage(browser, ADMIN);
  await page.getByRole('navigation').getByRole('link', { name: 'Konfiguration' }).click();
  await expect(page).toHaveURL(/\/config$/);
  await expect(page.getByRole('tab')).toHaveText(['Teamkonfiguration', 'Stadionverwaltung']);
  await expect(page.getByRole('tab', { name: 'Teamkonfiguration' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Team-ID')).toHaveValue('553');
  await expect(page.getByLabel('Vereinsname')).toHaveValue('1. FC Union Berlin');
  await expect(page.getByText(/^Version \d+\.\d+\.\d+/)).toBeVisible();
  await expect(page.getByText('Team-ID beim Spieldienst suchen')).toBeVisible();

  // Bad input is refused on the device with the server's words, and nothing is saved.
  await page.getByLabel('Themenfarbe', { exact: true }).fill('#12');
  await page.getByLabel('Seitentitel').fill('   ');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Seitentitel ist erforderlich')).toBeVisible();
  await expect(page.getByText('Die Themenfarbe muss aus # und sechs Hexadezimalziffern bestehen, z. B. #00397D')).toBeVisible();
  expect((await admin.get('/api/config')).config.site_title).toBe('Fankurve');

  // A light yellow: the bar's text turns dark.
  const title = uniqueName('Eiserne ');
  await page.getByLabel('Seitentitel').fill(title);
  await page.getByLabel('Themenfarbe', { exact: true }).fill('#FFE000');
  await page.getByLabel('Tägliche automatische Spielübernahme').check();
  await page.getByRole('button', { name: 'Speichern' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Konfiguration gespeichert' });
  await expect(saved).toBeVisible();
  const shownAt = Date.now();
  // The notice clears after 3 s.
  await expect(page.getByText('Konfiguration gespeichert')).toHaveCount(0, { timeout: 6_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(2_000);

  // The admin's own page took it at once.
  await expect(page.locator('.brand-title')).toHaveText(title);
  await expect(page).toHaveTitle(title);
  expect((await admin.get('/api/config')).config).toMatchObject({
    site_title: title,
    theme_color: '#FFE000',
    auto_import_matches: true,
  });

  // The member's open page, through the change stream: nav bar colour and readable text, title, meta theme-color.
  await expect(fanPage.locator('.brand-title')).toHaveText(title);
  await expect(fanPage).toHaveTitle(title);
  await expect(fanPage.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#FFE000');
  await expect.poll(() => navbarColours(fanPage)).toEqual({ background: 'rgb(255, 224, 0)', text: 'rgb(0, 0, 0)' });
  // The primary buttons follow the same rule.
  const button = fanPage.locator('.button-primary').first();
  if ((await button.count()) > 0) await expect(button).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(page.getByRole('button', { name: 'Speichern' })).toHaveCSS('color', 'rgb(0, 0, 0)');
  await page.screenshot({ path: testInfo.outputPath('yellow-admin.png') });
  await fanPage.screenshot({ path: testInfo.outputPath('yellow-member.png') });

  // The installed app's manifest, served from the configuration.
  const manifest = await (await request.get('/api/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ name: title, theme_color: '#FFE000', start_url: '/events', display: 'standalone' });
  const href = await fanPage.locator('link[rel="manifest"]').getAttribute('href');
  expect((await (await request.get(href!)).json()).name).toBe(title);

  // A dark red: white text again.
  await page.getByLabel('Themenfarbe', { exact: true }).fill('#8B0000');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(saved).toBeVisible();
  await expect.poll(() => navbarColours(fanPage)).toEqual({ background: 'rgb(139, 0, 0)', text: 'rgb(255, 255, 255)' });
  await expect(fanPage.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#8B0000');

  expect(await fanPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await memberContext.close();
  await adminContext.close();
});

test('a logo uploaded shows in the nav bar of every open page and in the manifest; deleted after confirmation', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('logo'));
  const { context: memberContext, page: fanPage } = await memberPage(browser, member);
  await expect(fanPage.locator('.brand-logo')).toHaveCount(0);

  const { context: adminContext, page } = await memberPage(browser, ADMIN);
  await page.goto('/config');
  await expect(page.getByText('Kein Logo')).toBeVisible();

  // Not an image: refused with the words of docs/product.md, "Error texts", before anything is sent.
  await page.getByLabel('Logo hochladen').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await expect(page.getByText('Nur Bilddateien sind erlaubt')).toBeVisible();

  await page
    .getByLabel('Logo hochladen')
    .setInputFiles({ name: 'wappen.png', mimeType: 'image/png', buffer: png(160, 160, [200, 16, 46]) });
  await expect(page.getByText('Logo erfolgreich hochgeladen')).toBeVisible();
  const logo = (await admin.get('/api/config')).config.logo_filename as string;
  expect(logo).toMatch(/^logo-.+\.png$/);
  await expect(page.getByRole('img', { name: 'Logo des Vereins' })).toHaveAttribute('src', `/uploads/${logo}`);
  for (const open of [page, fanPage]) {
    const navLogo = open.locator('header.navbar .brand-logo');
    await expect(navLogo).toHaveAttribute('src', `/uploads/${logo}`);
    await expect.poll(() => navLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  }
  const manifest = await (await request.get('/api/manifest.webmanifest')).json();
  expect(manifest.icons).toEqual([{ src: `/uploads/${logo}`, sizes: '160x160', type: 'image/png', purpose: 'any' }]);

  await expect(page.getByText('Logo ersetzen')).toBeVisible();
  await page.getByRole('button', { name: 'Logo löschen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Logo löschen?' });
  await confirm.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.locator('header.navbar .brand-logo')).toHaveCount(1);
  await page.getByRole('button', { name: 'Logo löschen' }).click();
  await confirm.getByRole('button', { name: 'Logo löschen' }).click();
  await expect(page.getByText('Logo gelöscht')).toBeVisible();
  await expect(page.locator('header.navbar .brand-logo')).toHaveCount(0);
  await expect(fanPage.locator('header.navbar .brand-logo')).toHaveCount(0);
  expect((await (await request.get('/api/manifest.webmanifest')).json()).icons[0].src).toBe('/icons/icon-192.png');

  await memberContext.close();
  await adminContext.close();
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the team configuration fits the phone in German and in English', async ({ browser, page, request }, testInfo) => {
    // A second admin who reads English (the standing admin stays German for the other tests).
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const english = await admin.registeredMember(uniqueName('admin-en'));
    const englishApi = await Api.signIn(request, english.username, english.password);
    const englishId = (await englishApi.get('/api/auth/profile')).user.id as string;
    await admin.put(`/api/auth/users/${englishId}`, { scope: 'admin', language: 'en' });
    await admin.put('/api/config', { ...DEFAULTS, site_title: 'Eisern Union Fanclub Köpenick 1966' });
    try {
      await teamConfigurationFitsThePhone(browser, page, english, testInfo);
    } finally {
      // The long title is this test's alone: put the default back before anything else can fail.
      await admin.put('/api/config', { ...DEFAULTS, auto_import_matches: false });
    }
  });
});

async function teamConfigurationFitsThePhone(
  browser: Browser,
  page: Page,
  english: { username: string; password: string },
  testInfo: TestInfo,
): Promise<void> {
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/config');
  await expect(page.getByRole('heading', { name: 'Teamkonfiguration' })).toBeVisible();
  await page.getByText('Team-ID beim Spieldienst suchen').click();
  await expect(page.getByRole('button', { name: 'Teams anzeigen' })).toBeVisible();
  // Polled: the nav bar lays the long title out once the site configuration and the sync state have settled.
  await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('team-config-de-360.png'), fullPage: true });

  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const phone = await context.newPage();
  await phone.goto('/login');
  await phone.getByLabel('Benutzername').fill(english.username);
  await phone.getByLabel('Passwort').fill(english.password);
  await phone.getByRole('button', { name: 'Anmelden' }).click();
  await expect(phone.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
  await phone.goto('/config');
  await expect(phone.getByRole('tab', { name: 'Team configuration' })).toHaveAttribute('aria-selected', 'true');
  await expect(phone.getByRole('heading', { name: 'Team configuration' })).toBeVisible();
  await expect(phone.getByLabel('Site title')).toHaveValue('Eisern Union Fanclub Köpenick 1966');
  await expect(phone.getByLabel('Daily automatic match import')).not.toBeChecked();
  await expect(phone.getByText('Upload logo')).toBeVisible();
  await expect.poll(() => overflow(phone)).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: testInfo.outputPath('team-config-en-360.png'), fullPage: true });
  await context.close();
}
