import AxeBuilder from '@axe-core/playwright';
import { todayIn } from '@fankurve/shared/dates';
import { seasonLabel, seasonYearOf } from '@fankurve/shared/rules/stats';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * The statistics page /stats (docs/product.md, Statistics): reached from /profile and /allesfahrer,
 * at 360 px and on a desktop, in German and English; the charts drawn under the
 * Content-Security-Policy, each with its numbers as a table; offline the current season still shows
 * from the device's data, an older season says it needs a connection and loads when it returns.
 */

const today = () => todayIn('Europe/Berlin');
const currentSeason = () => seasonYearOf(today());

/** Yesterday (club time) when it lies in the current season: a past day whose events count. */
function pastDayOfSeason(): string | null {
  const [y, m, d] = today().split('-').map(Number) as [number, number, number];
  const yesterday = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  return seasonYearOf(yesterday) === currentSeason() ? yesterday : null;
}

interface Fixture {
  member: { username: string; password: string };
  api: Api;
  id: string;
  titles: { away: string; home: string; ahead: string; lastSeason: string };
}

/**
 * A member who went to a past away match (own ticket) and a past home match of this season, goes to
 * an upcoming away match with a ticket and brings a guest who may come, and went to an away match of
 * last season. Events are answered while ahead, then moved to their day.
 */
async function fixture(request: APIRequestContext, prefix: string, pastDay: string): Promise<Fixture> {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName(prefix));
  const api = await Api.signIn(request, member.username, member.password);
  const { user } = await api.get('/api/auth/profile');
  const titles = {
    away: `${uniqueName('Stat Bochum ')} (A)`,
    home: `${uniqueName('Stat Hertha ')} (H)`,
    ahead: `${uniqueName('Stat Köln ')} (A)`,
    lastSeason: `${uniqueName('Stat Vorjahr ')} (A)`,
  };
  const answered = async (title: string, ticket: boolean) => {
    const id = await admin.createEvent(title, daysAhead(6));
    await api.post(`/api/attendance/${id}`, { status: 'going', has_ticket: ticket, needs_ticket: false });
    return id;
  };
  const away = await answered(titles.away, true);
  const home = await answered(titles.home, false);
  const ahead = await answered(titles.ahead, true);
  await api.post('/api/guests', {
    event_id: ahead,
    guest_name: 'Tante Erna',
    status: 'maybe',
    has_ticket: false,
    needs_ticket: true,
  });
  const lastSeason = await answered(titles.lastSeason, true);
  await admin.put(`/api/events/${away}`, { date: `${pastDay} 15:30` });
  await admin.put(`/api/events/${home}`, { date: `${pastDay} 18:30` });
  await admin.put(`/api/events/${lastSeason}`, { date: `${currentSeason() - 1}-10-04 15:30` });
  return { member, api, id: user.id as string, titles };
}

/** Every Content-Security-Policy violation of the page's loads, recorded before any script runs. */
async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportStatsCspViolation', (violation: string) => void violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportStatsCspViolation?: (v: string) => Promise<void> }).reportStatsCspViolation;
      void report?.(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return violations;
}

async function noSideways(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, label).toBeLessThanOrEqual(0);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

/** The numbers of a table row (its `td.num` cells). */
const numbersOf = (row: Locator) => row.locator('td.num').allInnerTexts();

/** Opens a section's table ("As a table") and answers the table. */
async function openTable(section: Locator, asTable: string): Promise<Locator> {
  const details = section.locator('details.stats-table');
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) {
    await details.getByText(asTable, { exact: true }).click();
  }
  const table = section.getByRole('table');
  await expect(table).toBeVisible();
  return table;
}

/** A chart has been drawn: its canvas has a size and pixels that are not blank. */
async function drawn(chart: Locator): Promise<void> {
  await expect
    .poll(() =>
      chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        if (canvas.width === 0 || canvas.height === 0) return false;
        const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
        return false;
      }),
    )
    .toBe(true);
}

const WORDS = {
  de: {
    title: 'Statistik',
    profileLink: 'Statistik',
    loyaltyLink: 'Statistik der Saison',
    season: 'Saison',
    current: `${seasonLabel(currentSeason())} (laufend)`,
    summary: 'Heim 1 · Auswärts 1 · Sonstiges 0',
    tickets: '2 Tickets in dieser Saison',
    asTable: 'Als Tabelle',
    own: 'Deine Saison',
    attendance: 'Dabei pro Termin',
    members: 'Heim- und Auswärtsspiele pro Mitglied',
    membersChart: /^Balkendiagramm: Auswärts- und Heimspiele pro Mitglied/,
    attendanceChart: /^Liniendiagramm: dabei und vielleicht pro Termin/,
    ownChart: /^Balkendiagramm: deine Heim-, Auswärts- und sonstigen Termine/,
    you: 'Du',
  },
  en: {
    title: 'Statistics',
    profileLink: 'Statistics',
    loyaltyLink: 'Season statistics',
    season: 'Season',
    current: `${seasonLabel(currentSeason())} (current)`,
    summary: 'Home 1 · Away 1 · Other 0',
    tickets: '2 tickets this season',
    asTable: 'As a table',
    own: 'Your season',
    attendance: 'Going per event',
    members: 'Home and away matches per member',
    membersChart: /^Bar chart: away and home matches per member/,
    attendanceChart: /^Line chart: going and maybe per event/,
    ownChart: /^Bar chart: your home, away and other events/,
    you: 'You',
  },
} as const;

for (const language of ['de', 'en'] as const) {
  const words = WORDS[language];

  test(`${language}: the season's statistics at 360 px and on a desktop, with their tables, under the CSP`, async ({
    page,
    request,
  }) => {
    const pastDay = pastDayOfSeason();
    test.skip(pastDay === null, 'the first day of a season has no past day in it yet');
    await page.setViewportSize({ width: 360, height: 740 });
    const violations = await recordCspViolations(page);
    const fan = await fixture(request, `stat-${language}-`, pastDay!);

    await signInThroughForm(page, fan.member.username, fan.member.password);
    await fan.api.put(`/api/auth/users/${fan.id}`, { language });
    await page.reload();
    // Reached from /allesfahrer and from /profile (the nav bar has no room for one more link).
    await page.goto('/allesfahrer');
    await page.getByRole('link', { name: words.loyaltyLink }).click();
    await expect(page).toHaveURL(/\/stats$/);
    await page.goto('/profile');
    await page.getByRole('link', { name: words.profileLink, exact: true }).click();
    await expect(page).toHaveURL(/\/stats$/);
    await expect(page.getByRole('heading', { name: words.title, level: 1 })).toBeVisible();
    await expect(page.getByLabel(words.season, { exact: true })).toHaveValue(String(currentSeason()));
    await expect(page.getByLabel(words.season, { exact: true }).locator('option:checked')).toHaveText(words.current);

    // (3) The member's own season: one past home and away match each, tickets for the past and the coming away match.
    const own = page.getByTestId('stats-own');
    await expect(own.getByTestId('stats-own-summary')).toContainText(words.summary);
    await expect(own.getByTestId('stats-own-summary')).toContainText(words.tickets);
    await expect(own.getByRole('img', { name: words.ownChart })).toBeVisible();
    await drawn(own.getByTestId('stats-own-chart'));
    const ownTable = await openTable(own, words.asTable);
    expect((await numbersOf(ownTable.getByRole('row').nth(1)))[0]).toBe('1');
    expect((await numbersOf(ownTable.getByRole('row').nth(2)))[0]).toBe('1');
    expect((await numbersOf(ownTable.getByRole('row').nth(3)))[0]).toBe('0');

    // (1) The club's attendance per event: the chart and the same numbers in its table.
    const attendance = page.getByTestId('stats-attendance');
    await expect(attendance.getByRole('heading', { name: words.attendance })).toBeVisible();
    await expect(attendance.getByRole('img', { name: words.attendanceChart })).toBeVisible();
    await drawn(attendance.getByTestId('stats-attendance-chart'));
    const eventsTable = await openTable(attendance, words.asTable);
    await expect(eventsTable.locator('tr', { hasText: fan.titles.away })).toHaveCount(1);
    expect(await numbersOf(eventsTable.locator('tr', { hasText: fan.titles.away }))).toEqual(['1', '0']);
    expect(await numbersOf(eventsTable.locator('tr', { hasText: fan.titles.home }))).toEqual(['1', '0']);
    // The coming match: the member going, their guest maybe.
    expect(await numbersOf(eventsTable.locator('tr', { hasText: fan.titles.ahead }))).toEqual(['1', '1']);
    // Last season's match is not in this season.
    await expect(eventsTable.locator('tr', { hasText: fan.titles.lastSeason })).toHaveCount(0);

    // (2) Every member's away and home matches: the chart, and the member's own row in the table.
    const members = page.getByTestId('stats-members');
    await expect(members.getByRole('heading', { name: words.members })).toBeVisible();
    await expect(members.getByRole('img', { name: words.membersChart })).toBeVisible();
    await drawn(members.getByTestId('stats-members-chart'));
    const membersTable = await openTable(members, words.asTable);
    const ownRow = membersTable.locator(`tr[data-user-id="${fan.id}"]`);
    await expect(ownRow.getByRole('rowheader')).toContainText(fan.member.username);
    await expect(ownRow.getByText(words.you, { exact: true })).toBeVisible();
    // Away, home, other, tickets.
    expect(await numbersOf(ownRow)).toEqual(['1', '1', '0', '2']);

    await noSideways(page, `${language} 360`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`stats-${language}-360.png`), fullPage: true });

    // Last season, from the server: its match and the member's away match there.
    await page.getByLabel(words.season, { exact: true }).selectOption(String(currentSeason() - 1));
    await expect(page).toHaveURL(new RegExp(`/stats\\?season=${currentSeason() - 1}$`));
    const lastTable = await openTable(page.getByTestId('stats-attendance'), words.asTable);
    expect(await numbersOf(lastTable.locator('tr', { hasText: fan.titles.lastSeason }))).toEqual(['1', '0']);
    const lastMembers = await openTable(page.getByTestId('stats-members'), words.asTable);
    expect(await numbersOf(lastMembers.locator(`tr[data-user-id="${fan.id}"]`))).toEqual(['1', '0', '0', '1']);
    await noSideways(page, `${language} 360 last season`);

    // A desktop: the same page, wider charts, nothing sideways.
    await page.getByLabel(words.season, { exact: true }).selectOption(String(currentSeason()));
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByTestId('stats-own-summary')).toContainText(words.summary);
    await drawn(page.getByTestId('stats-members-chart'));
    expect(await page.getByTestId('stats-members-chart').evaluate((box) => box.getBoundingClientRect().width)).toBeGreaterThan(
      600,
    );
    await noSideways(page, `${language} 1280`);
    await page.screenshot({ path: test.info().outputPath(`stats-${language}-1280.png`), fullPage: true });

    expect(violations).toEqual([]);
    await fan.api.put(`/api/auth/users/${fan.id}`, { language: 'de' });
  });
}

/** Whether any script the page has loaded so far holds Chart.js (its `indexAxis` option appears nowhere else). */
function chartJsLoaded(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const scripts = performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => new URL(url).pathname.endsWith('.js'));
    const texts = await Promise.all(scripts.map((url) => fetch(url).then((response) => response.text())));
    return texts.some((text) => text.includes('indexAxis'));
  });
}

test("Chart.js loads for the statistics page's charts only, not with the shell, the events, the profile or the ranking", async ({
  page,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('stat-chunk-'));
  await signInThroughForm(page, member.username, member.password);
  // The pages that link to /stats, reached in the app as a member would.
  await page.goto('/profile');
  await expect(page.getByRole('link', { name: WORDS.de.profileLink, exact: true })).toBeVisible();
  await page.goto('/allesfahrer');
  await page.getByRole('link', { name: WORDS.de.loyaltyLink }).click();
  await expect(page.getByRole('heading', { name: WORDS.de.title, level: 1 })).toBeVisible();
  // Loaded after the page's figures have painted, for its charts.
  await expect.poll(() => chartJsLoaded(page)).toBe(true);
  await page.goto('/events');
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  expect(await chartJsLoaded(page)).toBe(false);
  await page.goto('/profile');
  await expect(page.getByRole('link', { name: WORDS.de.profileLink, exact: true })).toBeVisible();
  await page.goto('/allesfahrer');
  await expect(page.getByRole('link', { name: WORDS.de.loyaltyLink })).toBeVisible();
  expect(await chartJsLoaded(page)).toBe(false);
});

test('offline the current season still shows from the device; an older season waits for the connection', async ({
  page,
  context,
  request,
}) => {
  const pastDay = pastDayOfSeason();
  test.skip(pastDay === null, 'the first day of a season has no past day in it yet');
  await page.setViewportSize({ width: 360, height: 740 });
  const violations = await recordCspViolations(page);
  const fan = await fixture(request, 'stat-offline-', pastDay!);
  const words = WORDS.de;

  await signInThroughForm(page, fan.member.username, fan.member.password);
  await page.goto('/stats');
  await expect(page.getByTestId('stats-own-summary')).toContainText(words.summary);
  await untilServiceWorkerControls(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: words.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('stats-own-summary')).toContainText(words.summary);
  await expect(page.getByTestId('stats-own-summary')).toContainText(words.tickets);
  await drawn(page.getByTestId('stats-attendance-chart'));
  const eventsTable = await openTable(page.getByTestId('stats-attendance'), words.asTable);
  expect(await numbersOf(eventsTable.locator('tr', { hasText: fan.titles.ahead }))).toEqual(['1', '1']);
  const membersTable = await openTable(page.getByTestId('stats-members'), words.asTable);
  expect(await numbersOf(membersTable.locator(`tr[data-user-id="${fan.id}"]`))).toEqual(['1', '1', '0', '2']);
  await noSideways(page, 'offline 360');
  await page.screenshot({ path: test.info().outputPath('stats-offline-360.png'), fullPage: true });

  // Last season is not on the device: it says so, and loads once the connection returns.
  await page.getByLabel(words.season, { exact: true }).selectOption(String(currentSeason() - 1));
  const note = page.getByTestId('stats-needs-connection');
  await expect(note).toContainText(`Für ${seasonLabel(currentSeason() - 1)} brauchst du eine Verbindung`);
  await expect(page.getByTestId('stats-attendance')).toHaveCount(0);
  await context.setOffline(false);
  await expect(note).toBeHidden();
  const lastTable = await openTable(page.getByTestId('stats-attendance'), words.asTable);
  expect(await numbersOf(lastTable.locator('tr', { hasText: fan.titles.lastSeason }))).toEqual(['1', '0']);
  expect(violations).toEqual([]);
});
