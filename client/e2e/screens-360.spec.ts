import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/** Every screen in English on a 360 px phone — its heading in English, nothing wider than the screen. */
async function fitsThePhone(page: Page, heading: string): Promise<void> {
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, heading).toBeLessThanOrEqual(0);
}

test('the money, admin and recovery screens in English at 360 px', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('narrow'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const eventId = await admin.createEvent(`${uniqueName('Wolfsburg')} (A)`, daysAhead(9));
  const attendance = await memberApi.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 18.5 });
  const memberId = (await memberApi.get('/api/auth/profile')).user.id as string;
  // A pending registration and a paid request, so the task list has sections to show.
  await request.post('/api/auth/register', {
    data: { username: uniqueName('waiting'), email: `${uniqueName('waiting')}@example.org`, password: 'fan-pass' },
  });
  await memberApi.put(`/api/tickets/${attendance.attendance.id}/request-paid`, {});

  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Sprache').selectOption('en');
  await page.goto('/forgot-password');
  await fitsThePhone(page, 'Forgot password');
  await page.goto('/reset-password/not-a-real-token');
  await fitsThePhone(page, 'Set a new password');
  // The sign-in helper types into the German form.
  await page.goto('/login');
  await page.getByLabel('Language').selectOption('de');

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  const me = await admin.get('/api/auth/profile');
  await admin.put(`/api/auth/users/${me.user.id}`, { language: 'en' });
  await page.reload();
  for (const [path, heading] of [
    ['/my-tickets', 'My tickets'],
    ['/debts', 'Debts'],
    ['/admin/tasks', 'Pending tasks'],
    ['/users', 'Users'],
    [`/users/${memberId}`, member.username],
  ] as const) {
    await page.goto(path);
    await fitsThePhone(page, heading);
    // Money in English: €18.50.
    if (path === '/debts') await expect(page.getByText('€18.50').first()).toBeVisible();
  }
  await admin.put(`/api/auth/users/${me.user.id}`, { language: 'de' });
  await context.close();
});
