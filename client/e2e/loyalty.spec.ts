import AxeBuilder from '@axe-core/playwright';
import { seasonOf, todayIn } from '@fankurve/shared/dates';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, signInThroughForm, uniqueName } from './support.js';

/*
 * The ranking page "Allesfahrer" (docs/product.md, Loyalty) on a 360 px phone in German and English:
 * nothing wider than the screen, the member's own place stated and their row highlighted, the chart
 * of away matches per season with its numbers; an admin adjusts a member's points on the same page.
 */

test.use({ viewport: { width: 360, height: 740 } });

/** Last season's label (`2025/26`): its matches are past and counted with the default two seasons. */
function lastSeason(): { label: string; date: string } {
  const start = Number(seasonOf(todayIn('Europe/Berlin')).slice(0, 4)) - 1;
  return { label: `${start}/${String((start + 1) % 100).padStart(2, '0')}`, date: `${start}-10-04 15:30` };
}

/** A member who went to last season's away match with a ticket, and the member's API. */
async function awayFan(request: APIRequestContext, admin: Api, prefix: string) {
  const member = await admin.registeredMember(uniqueName(prefix));
  const api = await Api.signIn(request, member.username, member.password);
  const eventId = await admin.createEvent(`${uniqueName('Bochum')} (A)`, daysAhead(5));
  await api.post(`/api/attendance/${eventId}`, { status: 'going', has_ticket: true, needs_ticket: false });
  // Time passes: the match moves into last season.
  await admin.put(`/api/events/${eventId}`, { date: lastSeason().date });
  const { user } = await api.get('/api/auth/profile');
  return { member, api, id: user.id as string };
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

/** The own row's place cell says the place the page states at the top (`statement`'s first group). */
async function ownPlaceAgrees(page: Page, statement: RegExp): Promise<void> {
  const own = page.locator('tr[data-own="true"]');
  await expect(own).toHaveCount(1);
  const place = (await own.locator('td').first().innerText()).trim();
  await expect(page.getByTestId('loyalty-own-place')).toContainText(statement);
  const stated = statement.exec(await page.getByTestId('loyalty-own-place').innerText())?.[1];
  expect(stated).toBe(place);
}

for (const language of ['de', 'en'] as const) {
  const words = {
    de: {
      title: 'Allesfahrer',
      place: /Du bist auf Platz (\d+) von \d+/,
      points: '1 Punkt',
      chart: 'Deine Auswärtsspiele pro Saison',
      you: 'Du',
      menu: 'Menü',
      awayMatches: 'Auswärtsspiele',
    },
    en: {
      title: 'Away regulars',
      place: /You are in place (\d+) of \d+/,
      points: '1 point',
      chart: 'Your away matches per season',
      you: 'You',
      menu: 'Menu',
      awayMatches: 'Away matches',
    },
  }[language];

  test(`${language}: the ranking at 360 px shows the own place, the own row and the chart, nothing overflows`, async ({
    page,
    request,
  }) => {
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const fan = await awayFan(request, admin, `treu-${language}-`);

    await signInThroughForm(page, fan.member.username, fan.member.password);
    await fan.api.put(`/api/auth/users/${fan.id}`, { language });
    await page.reload();
    // Through the nav bar (folded into the menu on a phone).
    await page.getByRole('button', { name: words.menu }).click();
    await page.getByRole('link', { name: words.title }).click();
    await expect(page).toHaveURL(/\/allesfahrer$/);
    await expect(page.getByRole('heading', { name: words.title, level: 1 })).toBeVisible();

    await ownPlaceAgrees(page, words.place);
    await expect(page.getByTestId('loyalty-own-place')).toContainText(words.points);
    const own = page.locator('tr[data-own="true"]');
    await expect(own.getByRole('rowheader')).toContainText(fan.member.username);
    await expect(own.getByText(words.you, { exact: true })).toBeVisible();
    expect(await own.evaluate((row) => getComputedStyle(row).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');

    // The chart: named, described by its numbers, last season's bar labelled with its one match.
    const chart = page.getByRole('img', { name: words.chart });
    await expect(chart).toBeVisible();
    const season = lastSeason().label;
    await expect(chart.locator('desc')).toContainText(`${season}: 1`);
    const bar = chart.locator('g.season-bar', { has: page.locator('text', { hasText: season }) });
    await expect(bar.locator('.season-chart-value')).toHaveText('1');
    expect(await bar.evaluate((g) => g.classList.contains('counted'))).toBe(true);

    await noSideways(page, `${language} member`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`allesfahrer-${language}-360.png`), fullPage: true });

    // On a desktop the column says its full name.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('columnheader', { name: words.awayMatches })).toBeVisible();
    await noSideways(page, `${language} desktop`);
    await page.screenshot({ path: test.info().outputPath(`allesfahrer-${language}-1280.png`), fullPage: true });
    await fan.api.put(`/api/auth/users/${fan.id}`, { language: 'de' });
  });
}

test('an admin adjusts a member on the ranking page at 360 px; the row and the member follow', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const fan = await awayFan(request, admin, 'treu-admin-');

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/allesfahrer');
  await expect(page.getByRole('heading', { name: 'Allesfahrer', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(fan.member.username) });
  await row.getByRole('button', { name: `Treuepunkte von ${fan.member.username} anpassen` }).click();

  const dialog = page.getByRole('dialog', { name: `Treuepunkte von ${fan.member.username} anpassen` });
  await expect(dialog.getByText('Gezählt: 1 Auswärtsspiel.')).toBeVisible();
  // A fraction is refused on the device with the server's words, nothing sent.
  await dialog.getByLabel('Korrektur in Punkten').fill('1.5');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Die Punkte müssen eine ganze Zahl von -1000 bis 1000 sein')).toBeVisible();
  await noSideways(page, 'admin dialog');

  await dialog.getByLabel('Korrektur in Punkten').fill('-3');
  await dialog.getByLabel('Notiz').fill('Sperre 2024');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
  // 1 away match − 3 = −2 points, the adjustment shown to the admin under the name.
  await expect(row.locator('.ranking-points')).toHaveText('-2');
  await expect(row).toContainText('Korrektur -3 · Sperre 2024');
  await noSideways(page, 'admin');
  await page.screenshot({ path: test.info().outputPath('allesfahrer-admin-360.png'), fullPage: true });

  const mine = await fan.api.get('/api/loyalty/my');
  expect(mine.points).toBe(-2);
  const { adjustments } = await admin.get('/api/loyalty/adjustments');
  expect(adjustments).toContainEqual(expect.objectContaining({ user_id: fan.id, points: -3, note: 'Sperre 2024' }));
});
