import { expect, test } from '@playwright/test';
import { ADMIN, Api, signInThroughForm, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * The admin's online-only pages (docs/architecture.md, Online-only pages): offline they say that they
 * need a connection, and they load by themselves when it returns — no reload.
 */
test('offline, /users, /admin/tasks, /users/{id}, /config and /debts say they need a connection and load when it returns', async ({
  page,
  context,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('verbindung'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const memberId = (await memberApi.get('/api/auth/profile')).user.id as string;
  const waiting = uniqueName('wartet');
  await request.post('/api/auth/register', {
    data: { username: waiting, email: `${waiting}@example.org`, password: 'fan-pass' },
  });

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  // The app's shell and chunks come from the service worker while offline.
  await untilServiceWorkerControls(page);
  const message = page.getByText('Diese Seite braucht eine Internetverbindung', { exact: false });
  const pages = [
    { path: '/users', loaded: page.getByRole('button', { name: 'Benutzer anlegen' }) },
    { path: '/admin/tasks', loaded: page.getByRole('cell', { name: waiting, exact: true }) },
    { path: `/users/${memberId}`, loaded: page.getByRole('heading', { level: 1, name: member.username }) },
    { path: '/config', loaded: page.getByRole('tab', { name: 'Teamkonfiguration' }) },
    { path: '/debts', loaded: page.getByRole('button', { name: 'Schulden als CSV' }) },
  ];
  for (const { path, loaded } of pages) {
    await context.setOffline(true);
    await page.goto(path);
    await expect(message, path).toBeVisible();
    await expect(page.getByText('Sobald die Verbindung wieder da ist, lädt sie von selbst.')).toBeVisible();
    await expect(page.getByText('Wird geladen…')).toHaveCount(0);
    await context.setOffline(false);
    await expect(loaded, path).toBeVisible();
    await expect(message).toHaveCount(0);
  }

  // In English too.
  const { user } = await admin.get('/api/auth/profile');
  await admin.put(`/api/auth/users/${user.id}`, { language: 'en' });
  await page.goto('/events');
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  await context.setOffline(true);
  await page.goto('/admin/tasks');
  await expect(page.getByText('This page needs an internet connection', { exact: false })).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('heading', { level: 1, name: 'Pending tasks' })).toBeVisible();
  await expect(page.getByRole('cell', { name: waiting, exact: true })).toBeVisible();
  await admin.put(`/api/auth/users/${user.id}`, { language: 'de' });
});
