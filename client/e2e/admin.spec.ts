import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, memberPage, signInThroughForm, uniqueName } from './support.js';

/** Opens the folded nav menu on narrow screens. */
async function openMenu(page: Page) {
  const toggle = page.locator('.menu-toggle');
  if (await toggle.isVisible()) await toggle.click();
}

test('an admin approves a registration in /admin/tasks, the badge counts it, and the member signs in', async ({
  page,
  request,
}) => {
  const username = uniqueName('waiting');
  const registered = await request.post('/api/auth/register', {
    data: { username, email: `${username}@example.org`, password: 'geheim123' },
  });
  expect(registered.status()).toBe(201);

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await openMenu(page);
  const tasksLink = page.getByRole('link', { name: /Aufgaben/ });
  await expect(tasksLink.locator('.badge')).toHaveText(/^[1-9]\d*$/);
  await tasksLink.click();
  await expect(page.getByRole('heading', { name: 'Offene Aufgaben', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Offene Registrierungen/ })).toBeVisible();

  const row = page.getByRole('row', { name: new RegExp(username) });
  await row.getByRole('button', { name: 'Freigeben' }).click();
  const dialog = page.getByRole('dialog', { name: 'Registrierung freigeben' });
  await expect(dialog).toContainText(username);
  await expect(dialog).toContainText(`${username}@example.org`);
  await dialog.getByRole('button', { name: 'Freigeben' }).click();
  await expect(page.getByRole('row', { name: new RegExp(username) })).toHaveCount(0);

  // The member signs in in a fresh context.
  const { context, page: fanPage } = await memberPage(
    page.context().browser()!,
    { username, password: 'geheim123' },
    { locale: 'de-DE' },
  );
  await expect(fanPage.getByRole('navigation')).toContainText(username);
  await context.close();
});

test('/users works at 360 px and in English: table, create user with a temporary password', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const profile = await admin.get('/api/auth/profile');
  await admin.put(`/api/auth/users/${profile.user.id}`, { language: 'en' });
  try {
    await page.setViewportSize({ width: 360, height: 780 });
    await signInThroughForm(page, ADMIN.username, ADMIN.password).catch(async () => {
      // The admin's language is English: the events heading is 'Events'.
      await expect(page).toHaveURL(/\/events$/);
    });
    await page.goto('/users');
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Debt' })).toBeVisible();
    // Nothing but the table itself scrolls sideways at 360 px.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    const username = uniqueName('created');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByLabel('Email').fill(`${username}@example.org`);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const password = (await page.getByTestId('temporary-password').textContent())!.trim();
    expect(password.length).toBeGreaterThanOrEqual(8);
    await page.getByRole('dialog', { name: 'User created' }).getByRole('button', { name: 'Close' }).first().click();
    await expect(page.getByRole('link', { name: username })).toBeVisible();

    await page.getByRole('link', { name: username }).click();
    await expect(page.getByRole('heading', { name: username, level: 1 })).toBeVisible();
    await page.getByLabel('New password').fill('abc');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Password must be at least 4 characters long')).toBeVisible();
  } finally {
    await admin.put(`/api/auth/users/${profile.user.id}`, { language: 'de' });
  }
});
