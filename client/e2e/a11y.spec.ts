import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/*
 * Accessibility: axe on every page, in German and English, on a phone (390 px) and a desktop (1280 px),
 * with data on the pages (an event with attendees, a comment with a mention, a debt). No serious or
 * critical violation is allowed; the failure lists them.
 */

const LANGUAGES = ['de', 'en'] as const;
const WIDTHS = [390, 1280] as const;
type Language = (typeof LANGUAGES)[number];

/** The serious and critical violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${node.failureSummary ?? ''}`,
      ),
    );
}

/** Opens a page, waits until it has loaded (its heading, no loading text) and checks it with axe. */
async function check(page: Page, path: string, label: string, ready?: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.loading')).toHaveCount(0);
  if (ready) await ready(page);
  expect(await seriousViolations(page), `${label} ${path}`).toEqual([]);
}

interface Data {
  eventId: string;
  eventTitle: string;
  memberId: string;
  member: { username: string; password: string };
}

async function signedIn(
  browser: Browser,
  request: APIRequestContext,
  width: number,
  account: { username: string; password: string },
  language: Language,
) {
  const api = await Api.signIn(request, account.username, account.password);
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  const { user } = await api.get('/api/auth/profile');
  await api.put(`/api/auth/users/${user.id}`, { language: 'de' });
  await signInThroughForm(page, account.username, account.password);
  await api.put(`/api/auth/users/${user.id}`, { language });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: language === 'de' ? 'Termine' : 'Events' })).toBeVisible();
  return { context, page };
}

let data: Data;

test.beforeAll(async ({ request }) => {
  const adminApi = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await adminApi.registeredMember(uniqueName('barriere'));
  const other = await adminApi.registeredMember(uniqueName('zugang'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const otherApi = await Api.signIn(request, other.username, other.password);
  const eventTitle = `${uniqueName('Augsburg')} (A)`;
  const eventId = await adminApi.createEvent(eventTitle, daysAhead(8));
  const going = await memberApi.post(`/api/attendance/${eventId}`, { status: 'going' });
  await otherApi.post(`/api/attendance/${eventId}`, { status: 'maybe' });
  // A ticket bought and not paid: a debt on /my-tickets, /debts and the member's admin page.
  await adminApi.put(`/api/attendees/${going.attendance.id}`, { bought: true, price: 22.5 });
  await otherApi.post(`/api/comments/event/${eventId}`, { comment: `Wer fährt, @${member.username}?` });
  // A pending registration: the tasks page has something to show.
  const waiting = uniqueName('offen');
  await request.post('/api/auth/register', {
    data: { username: waiting, email: `${waiting}@example.org`, password: 'fan-pass' },
  });
  const memberId = (await memberApi.get('/api/auth/profile')).user.id as string;
  data = { eventId, eventTitle, memberId, member };
});

// The other browser tests expect the admin in German.
test.afterAll(async ({ request }) => {
  const adminApi = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { user } = await adminApi.get('/api/auth/profile');
  await adminApi.put(`/api/auth/users/${user.id}`, { language: 'de' });
});

for (const language of LANGUAGES) {
  for (const width of WIDTHS) {
    test(`axe finds no serious or critical violation (${language}, ${width} px)`, async ({ browser, request }) => {
      test.setTimeout(180_000);
      const label = `${language} ${width}px`;
      const words =
        language === 'de'
          ? { language: 'Sprache', stadiums: 'Stadionverwaltung' }
          : { language: 'Language', stadiums: 'Stadium management' };
      const eventReady = async (page: Page) => {
        await expect(page.getByRole('heading', { level: 1, name: data.eventTitle })).toBeVisible();
        await expect(page.locator('section#comments li.comment').first()).toBeVisible();
      };

      // Signed out: the login and registration pages in the chosen language.
      const anonymous = await browser.newContext({ viewport: { width, height: 800 } });
      const start = await anonymous.newPage();
      await start.goto('/login');
      await start.getByLabel('Sprache').selectOption(language);
      await expect(start.getByLabel(words.language)).toHaveValue(language);
      expect(await seriousViolations(start), `${label} /login`).toEqual([]);
      await check(start, '/register', label);
      for (const path of ['/impressum', '/datenschutz', '/register?invite=no-such-invite']) await check(start, path, label);
      await anonymous.close();

      // A member's pages.
      const member = await signedIn(browser, request, width, data.member, language);
      for (const path of ['/events', '/my-tickets', '/profile']) await check(member.page, path, `${label} member`);
      await check(member.page, `/events/${data.eventId}`, `${label} member`, eventReady);
      await member.context.close();

      // The admin's pages.
      const admin = await signedIn(browser, request, width, ADMIN, language);
      for (const path of ['/events', '/my-tickets', '/profile', '/debts', '/users', '/admin/tasks', '/admin/invites', '/config'])
        await check(admin.page, path, `${label} admin`);
      await check(admin.page, `/events/${data.eventId}`, `${label} admin`, eventReady);
      await check(admin.page, `/users/${data.memberId}`, `${label} admin`);
      await check(admin.page, '/config?tab=stadiums', `${label} admin`, async (page) => {
        await expect(page.getByRole('tab', { name: words.stadiums })).toHaveAttribute('aria-selected', 'true');
      });
      // The folded or unfolded menu of the nav bar, open.
      const toggle = admin.page.locator('.menu-toggle');
      if (await toggle.isVisible()) {
        await toggle.click();
        await expect(admin.page.locator('#main-menu')).toBeVisible();
        expect(await seriousViolations(admin.page), `${label} admin menu`).toEqual([]);
      }
      await admin.context.close();
    });
  }
}
