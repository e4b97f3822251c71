import { expect, test, type Page } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { ADMIN, Api, signInThroughForm, uniqueName } from './support.js';

/*
 * Password recovery in the browser: the login page's link, /forgot-password and
 * /reset-password/{token}, in German at 360 px. The server runs without SMTP_URL (the mail goes to
 * its log), so the test puts a reset token into the database directly, stored hashed as the server
 * stores it.
 */

function insertResetToken(username: string): string {
  const file = path.join(process.env.E2E_DATA_DIR!, 'fankurve.sqlite');
  const db = new SQLite(file);
  try {
    db.pragma('busy_timeout = 5000');
    const user = db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: string };
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    db.prepare(
      'INSERT INTO password_resets (id, user_id, token_hash, expires_at, used, created_at) VALUES (?, ?, ?, ?, 0, ?)',
    ).run(
      `e2e-${token.slice(0, 12)}`,
      user.id,
      createHash('sha256').update(token).digest('hex'),
      new Date(now.getTime() + 60 * 60 * 1000).toISOString(),
      now.toISOString(),
    );
    return token;
  } finally {
    db.close();
  }
}

const noSideways = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test.use({ viewport: { width: 360, height: 740 } });

test('forgot and reset the password in German at 360 px; change password from the menu', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('vergesslich'), 'alt-pass');

  await page.goto('/login');
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Passwort vergessen' })).toBeVisible();
  await noSideways(page);
  await page.getByLabel('E-Mail').fill(`${member.username}@example.org`);
  await page.getByRole('button', { name: 'Link senden' }).click();
  await expect(page.getByRole('status')).toContainText('Wenn ein Konto mit dieser E-Mail-Adresse existiert');
  // An unknown address gets the same confirmation.
  await page.goto('/forgot-password');
  await page.getByLabel('E-Mail').fill(`${uniqueName('niemand')}@example.org`);
  await page.getByRole('button', { name: 'Link senden' }).click();
  await expect(page.getByRole('status')).toContainText('Wenn ein Konto mit dieser E-Mail-Adresse existiert');

  const token = insertResetToken(member.username);
  await page.goto(`/reset-password/${token}`);
  await expect(page.getByRole('heading', { name: 'Neues Passwort setzen' })).toBeVisible();
  await noSideways(page);
  const fresh = page.getByLabel('Neues Passwort');
  const confirm = page.getByLabel('Passwort bestätigen');
  const save = page.getByRole('button', { name: 'Passwort speichern' });
  await fresh.fill('neu-pass');
  await confirm.fill('neu-pazz');
  await save.click();
  await expect(page.getByText('Die Passwörter stimmen nicht überein')).toBeVisible();
  await fresh.fill('abc');
  await confirm.fill('abc');
  await save.click();
  await expect(page.getByText('Das Passwort muss mindestens 4 Zeichen lang sein')).toBeVisible();
  await fresh.fill('neu-pass');
  await confirm.fill('neu-pass');
  await save.click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Dein Passwort wurde zurückgesetzt')).toBeVisible();

  // The link works once only.
  await page.goto(`/reset-password/${token}`);
  await page.getByLabel('Neues Passwort').fill('dritt-pass');
  await page.getByLabel('Passwort bestätigen').fill('dritt-pass');
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByText('Ungültiger oder abgelaufener Link zum Zurücksetzen')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Neuen Link anfordern' })).toBeVisible();

  await signInThroughForm(page, member.username, 'neu-pass');
  await page.getByRole('button', { name: 'Menü' }).click();
  await page.getByRole('link', { name: 'Passwort ändern' }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByRole('heading', { name: 'Passwort ändern' })).toBeVisible();
  await noSideways(page);
});
