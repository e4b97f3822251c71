import { expect, test, type Page } from '@playwright/test';
import { createECDH, randomBytes } from 'node:crypto';
import { ADMIN, Api, daysAhead, memberPage, signInThroughForm, uniqueName } from './support.js';

/*
 * "Remind now" (docs/product.md, Answer deadlines and reminders) on a phone: the admin sees on the
 * event page who has not answered yet and reminds one member by hand; a member reached by push is
 * reminded (and can be again only in an hour), one without push or e-mail (the browser tests' server
 * has no SMTP) is named as unreachable. Members see none of it.
 */

const PHONE = { viewport: { width: 360, height: 740 } };

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Gives the member's session a push subscription (real P-256 keys) with the reminders on. Its address
 * is on this machine (PUSH_ENDPOINT_HOSTS of the browser tests' server) with nothing listening: the
 * server counts the member as reachable by push, and the send fails here instead of leaving it.
 */
async function subscribe(api: Api): Promise<void> {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  await api.post('/api/fcm/token', {
    token: {
      endpoint: `https://127.0.0.1:4918/push/e2e-remind-now-${randomBytes(6).toString('hex')}`,
      expirationTime: null,
      keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    },
    deviceName: 'Phone',
  });
}

test.describe('at 360 px', () => {
  test.use(PHONE);

  test('the admin sees who has not answered and reminds by hand; members see none of it (German)', async ({
    page,
    browser,
    request,
  }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const title = `${uniqueName('Erinnern')} (A)`;
    const eventId = await admin.createEvent(title, daysAhead(8));
    const reachable = await admin.registeredMember(uniqueName('erin-push'));
    const silent = await admin.registeredMember(uniqueName('erin-still'));
    const answered = await admin.registeredMember(uniqueName('erin-dabei'));
    await subscribe(await Api.signIn(request, reachable.username, reachable.password));
    await (
      await Api.signIn(request, answered.username, answered.password)
    ).post(`/api/attendance/${eventId}`, { status: 'going' });

    await signInThroughForm(page, ADMIN.username, ADMIN.password);
    await page.goto(`/events/${eventId}`);
    const section = page.getByRole('region', { name: 'Erinnerungen' });
    const open = section.getByRole('group', { name: /^Noch keine Antwort \(\d+\)$/ });
    await expect(open.getByText(reachable.username, { exact: true })).toBeVisible();
    await expect(open.getByText(silent.username, { exact: true })).toBeVisible();
    await expect(open.getByText(answered.username, { exact: true })).toHaveCount(0);
    await expect(open.getByRole('button', { name: /^Alle \d+ jetzt erinnern$/ })).toBeEnabled();

    // One reached by push: reminded, and the row waits an hour.
    await open.getByRole('button', { name: `${reachable.username} jetzt erinnern` }).click();
    await expect(open.getByRole('status')).toHaveText('1 Mitglied erinnert');
    const reachableRow = open.getByRole('listitem').filter({ hasText: reachable.username });
    await expect(reachableRow).toContainText(/wieder ab \d/);
    await expect(reachableRow.getByRole('button')).toHaveCount(0);
    await expect(
      section.locator('.reminder-list').last().getByRole('listitem').filter({ hasText: reachable.username }),
    ).toContainText('von Hand');

    // One without push and without e-mail: named as unreachable, nothing recorded.
    await open.getByRole('button', { name: `${silent.username} jetzt erinnern` }).click();
    await expect(open.getByRole('status')).toHaveText(
      `0 Mitglieder erinnert · weder Push noch E-Mail möglich: ${silent.username}`,
    );
    await expect(open.getByRole('button', { name: `${silent.username} jetzt erinnern` })).toBeEnabled();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('remind-now-de-360.png'), fullPage: true });

    // Within the hour the server skips the member however the admin asks.
    const again = await admin.post(`/api/events/${eventId}/reminders`, { user_ids: [await idOf(admin, reachable.username)] });
    expect(again).toMatchObject({ reminded: [], skipped: [{ username: reachable.username, reason: 'recentlyReminded' }] });

    // A member sees neither the list nor the buttons.
    const member = await memberPage(browser, silent, PHONE);
    await member.page.goto(`/events/${eventId}`);
    await expect(member.page.getByRole('heading', { name: title })).toBeVisible();
    await expect(member.page.getByRole('region', { name: 'Erinnerungen' })).toHaveCount(0);
    await expect(member.page.getByRole('button', { name: /jetzt erinnern/ })).toHaveCount(0);
    await member.context.close();
  });
});

async function idOf(admin: Api, username: string): Promise<string> {
  const users = (await admin.get('/api/auth/users')).users as Array<{ id: string; username: string }>;
  return users.find((user) => user.username === username)!.id;
}
