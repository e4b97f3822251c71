import { expect, test } from '@playwright/test';
import { ADMIN, Api, memberPage, signInThroughForm, uniqueName } from './support.js';

test('register, wait for approval, get approved by the admin, sign in', async ({ page, request }) => {
  const username = uniqueName('fan');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: 'Registrieren' }).click();
  // The register page's code may still be loading: the login form (also with a username field) stays until it is there.
  await expect(page.getByRole('heading', { name: 'Registrieren', level: 1 })).toBeVisible();
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('E-Mail').fill(`${username}@example.org`);
  await page.getByLabel('Passwort').fill('geheim123');
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('heading', { name: 'Registrierung eingegangen' })).toBeVisible();

  // Not yet approved: the sign-in is refused with a clear message.
  await page.goto('/login');
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort').fill('geheim123');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toContainText(/Freigabe|freigeschaltet|genehmigt|Admin/i);
  await expect(page).toHaveURL(/\/login$/);

  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const pending = await admin.get('/api/auth/users/pending');
  const user = pending.users.find((u: { username: string }) => u.username === username);
  expect(user).toBeTruthy();
  await admin.put(`/api/auth/users/${user.id}/approve`);

  await signInThroughForm(page, username, 'geheim123');
  await expect(page.getByRole('navigation')).toContainText(username);
  // Signed in: the login page sends the member back to the events.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/events$/);
});

test('a wrong password shows the translated server message and keeps the user on the login page', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Benutzername').fill(ADMIN.username);
  await page.getByLabel('Passwort').fill('wrong-password');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('alert')).not.toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/login$/);
});

test('the app works in English and on a 360 px phone', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('phone'));
  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 }, locale: 'en-GB' });
  const profile = await Api.signIn(request, member.username, member.password);
  const me = await profile.get('/api/auth/profile');
  await profile.put(`/api/auth/users/${me.user.id}`, { language: 'en' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  // Nothing is wider than the phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await context.close();
});

test('English chosen on the registration page is kept: on the device and in the new account', async ({ page, request }) => {
  const username = uniqueName('english');
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Registrieren', level: 1 })).toBeVisible();
  await page.getByLabel('Sprache').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Register', level: 1 })).toBeVisible();
  // Remembered on the device: a reload keeps English.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Register', level: 1 })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.org`);
  await page.getByLabel('Password').fill('secret-123');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Registration received' })).toBeVisible();
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const pending = (await admin.get('/api/auth/users/pending')).users.find((u: { username: string }) => u.username === username);
  expect(pending.language).toBe('en');
});

test('an over-long username or email is answered with the field and its limit, in German and English', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Registrieren', level: 1 })).toBeVisible();
  const name = uniqueName('long');
  await page.getByLabel('Benutzername').fill('u'.repeat(5000));
  await page.getByLabel('E-Mail').fill(`${name}@example.org`);
  await page.getByLabel('Passwort').fill('geheim123');
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('alert')).toHaveText('Der Benutzername darf höchstens 50 Zeichen lang sein');

  // The email's limit is the server's: its answer is translated by code.
  await page.getByLabel('Benutzername').fill(name);
  await page.getByLabel('E-Mail').fill(`${'m'.repeat(200)}@example.org`);
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('alert')).toHaveText('Die E-Mail-Adresse darf höchstens 200 Zeichen lang sein');

  await page.getByLabel('Sprache').selectOption('en');
  await page.getByLabel('Username').fill('u'.repeat(5000));
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText('Username must be at most 50 characters');
});
