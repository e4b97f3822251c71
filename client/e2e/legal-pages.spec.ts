import { expect, test } from '@playwright/test';
import { ADMIN, Api, signInThroughForm, untilServiceWorkerControls } from './support.js';

/**
 * The imprint and the privacy notice (docs/architecture.md, Team configuration and theme): until
 * written, /admin/tasks reminds the admin; the admin writes both in the team configuration; an
 * anonymous visitor opens /impressum from the sign-in page and reads the text with its links
 * clickable, and after one load also offline (from the device's copy of the configuration).
 */

const IMPRINT = [
  'Fanclub Eiserne Kurve e. V.',
  'An der Alten Försterei 1, 12555 Berlin',
  '',
  'Vereinsregister: https://www.example.org/register/vr-12345-b-mit-einer-sehr-langen-adresse-die-auf-dem-telefon-umbrechen-muss',
  'Kontakt: vorstand@example.org',
].join('\n');
const PRIVACY = 'Wir speichern deinen Namen und deine E-Mail-Adresse.\nFragen an mailto:datenschutz@example.org';

test('the admin writes imprint and privacy notice; anyone reads them, also offline', async ({ browser, request }) => {
  // Neither written yet (a fresh server; cleared in case this spec ran before on it).
  const api = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { config } = await api.get('/api/config');
  const team = {
    team_id: config.team_id,
    team_name: config.team_name,
    site_title: config.site_title,
    theme_color: config.theme_color,
  };
  await api.put('/api/config', { ...team, imprint: null, privacy_notice: null });

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, ADMIN.username, ADMIN.password);
  await admin.goto('/admin/tasks');
  const reminder = admin.getByTestId('legal-texts-reminder');
  await expect(reminder).toContainText('Impressum und Datenschutzerklärung fehlen noch');
  await reminder.getByRole('link', { name: 'In der Konfiguration eintragen' }).click();
  await expect(admin).toHaveURL(/\/config$/);
  await admin.getByLabel('Impressum', { exact: true }).fill(IMPRINT);
  await admin.getByLabel('Datenschutzerklärung', { exact: true }).fill(PRIVACY);
  await expect(admin.getByText(`${[...IMPRINT].length} von 20.000 Zeichen`)).toBeVisible();
  await admin.getByRole('button', { name: 'Speichern' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Konfiguration gespeichert' })).toBeVisible();
  await admin.goto('/admin/tasks');
  await expect(admin.getByRole('heading', { name: 'Offene Aufgaben', level: 1 })).toBeVisible();
  await expect(admin.getByTestId('legal-texts-reminder')).toHaveCount(0);
  // The signed-in frame links them too.
  await admin.getByRole('contentinfo').getByRole('link', { name: 'Datenschutz' }).click();
  await expect(admin.getByRole('heading', { name: 'Datenschutzerklärung', level: 1 })).toBeVisible();
  await adminContext.close();

  // An anonymous visitor on a phone, from the sign-in page.
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Impressum' }).click();
  await expect(page).toHaveURL(/\/impressum$/);
  await expect(page.getByRole('heading', { name: 'Impressum', level: 1 })).toBeVisible();
  await expect(page.getByText('An der Alten Försterei 1, 12555 Berlin')).toBeVisible();
  const register = page.getByRole('link', { name: /^https:\/\/www\.example\.org\/register\// });
  await expect(register).toHaveAttribute('href', /^https:\/\/www\.example\.org\/register\/vr-12345-b/);
  await expect(register).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(page.getByRole('link', { name: 'vorstand@example.org' })).toHaveAttribute('href', 'mailto:vorstand@example.org');
  // The text is no HTML and nothing scrolls sideways, the long address included.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByLabel('Sprache').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Imprint', level: 1 })).toBeVisible();
  await page.getByLabel('Language').selectOption('de');

  // Offline after one load: the app starts from the service worker, the text from the device's copy.
  await untilServiceWorkerControls(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Impressum', level: 1 })).toBeVisible();
  await expect(page.getByText('Fanclub Eiserne Kurve e. V.')).toBeVisible();
  await page.getByRole('link', { name: 'Datenschutz' }).click();
  await expect(page.getByRole('heading', { name: 'Datenschutzerklärung', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'mailto:datenschutz@example.org' })).toHaveAttribute(
    'href',
    'mailto:datenschutz@example.org',
  );
  await context.close();
});
