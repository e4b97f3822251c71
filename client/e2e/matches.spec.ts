import { seasonOf } from '@fankurve/shared/dates';
import { expect, test, type Locator } from '@playwright/test';
import { asSeasonOf, currentSeason, recorded, startFixtureServer, type FixtureServer } from '../../server/test/fixture-server.js';
import { ADMIN, Api, eventCard, memberPage, signInThroughForm, uniqueName } from './support.js';

/*
 * The fixture import in the browser (docs/product.md, "Fixture import"). The e2e server's FOOTBALL_DATA_URL points at this
 * port (playwright.config.ts); the stand-in answers the recorded season of the fixture tests
 * (server/test/fixtures/openligadb), moved to today's season, for whatever team the server asks.
 */

const FEED_PORT = 4917;
const TITLES = [
  'FC Gütersloh (A)',
  'VfB Stuttgart (H)',
  'Borussia Dortmund (A)',
  '1. FSV Mainz 05 (H)',
  'FC Bayern München (A)',
  'Borussia Dortmund (H)',
];

let feed: FixtureServer;

test.beforeAll(async () => {
  feed = await startFixtureServer({ port: FEED_PORT });
  feed.answer('/getmatchesbyteamid/', (path) => ({
    json: asSeasonOf(recorded('matches-team-80-2025'), currentSeason(), Number(path.split('/')[2])),
  }));
});
test.afterAll(() => feed.close());

/** A count of the result dialog by its label (Neu, Geändert, Unverändert). */
const count = (dialog: Locator, label: string) => dialog.locator('.match-sync-counts div', { hasText: label }).locator('dd');

test('the admin syncs the matches on /events, members get them through sync, a second sync creates nothing', async ({
  page,
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const fan = await admin.registeredMember(uniqueName('spielfan'));
  // A retried run finds the events of the first attempt.
  const known = (await admin.get('/api/events')).events.filter((e: { title: string }) => TITLES.includes(e.title)).length;

  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  const button = page.getByRole('button', { name: 'Spiele synchronisieren' });
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Spielimport' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Saison ${seasonOf(`${currentSeason()}-07-01`)}`);
  await expect(count(dialog, 'Neu')).toHaveText(String(TITLES.length - known));
  await expect(count(dialog, 'Geändert')).toHaveText('0');
  await expect(count(dialog, 'Unverändert')).toHaveText(String(known));
  expect(feed.requests.some((path) => path.startsWith('/getmatchesbyteamid/'))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('sync-result.png') });
  await dialog.locator('.modal-actions').getByRole('button', { name: 'Schließen' }).click();
  await expect(dialog).toHaveCount(0);

  // The admin's list and a member's list get the events through sync, without a reload.
  await expect(eventCard(page, 'FC Bayern München (A)')).toBeVisible();
  const { context, page: fanPage } = await memberPage(browser, fan);
  // Home and away (the list shows away matches by default).
  await fanPage.getByRole('group', { name: 'Spielort' }).getByRole('button', { name: 'Alle' }).click();
  for (const title of TITLES) await expect(eventCard(fanPage, title)).toBeVisible();
  await expect(fanPage.getByRole('button', { name: 'Spiele synchronisieren' })).toHaveCount(0);
  await context.close();

  // Again: nothing new, nothing changed.
  await button.click();
  await expect(count(dialog, 'Neu')).toHaveText('0');
  await expect(count(dialog, 'Geändert')).toHaveText('0');
  await expect(count(dialog, 'Unverändert')).toHaveText(String(TITLES.length));
  await dialog.locator('.modal-actions').getByRole('button', { name: 'Schließen' }).click();

  // The service down: the failure's sentence (docs/product.md, Fixture import) with the counts and the reason in plain words, the server's
  // detail behind a disclosure; nothing was written.
  feed.answer('/getmatchesbyteamid/', { status: 503, text: 'Service Unavailable' });
  await button.click();
  await expect(dialog.getByRole('alert')).toContainText('Spiele konnten nicht synchronisiert werden');
  await expect(dialog.getByRole('alert')).toContainText('Der Fußball-Datendienst hat gerade einen Fehler gemeldet.');
  await expect(dialog.locator('details code')).toHaveText(
    'matchServiceError: The match service answered with an error: HTTP 503',
  );
  await expect(count(dialog, 'Neu')).toHaveText('0');
  await expect(dialog).toContainText('Es wurde nichts geändert.');
  await page.screenshot({ path: test.info().outputPath('sync-failed.png') });
});

test('the sync button and its result fit a 360 px phone', async ({ browser }) => {
  feed.answer('/getmatchesbyteamid/', (path) => ({
    json: asSeasonOf(recorded('matches-team-80-2025'), currentSeason(), Number(path.split('/')[2])),
  }));
  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 740 } });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.getByRole('button', { name: 'Spiele synchronisieren' }).click();
  const dialog = page.getByRole('dialog', { name: 'Spielimport' });
  await expect(count(dialog, 'Neu')).toHaveText('0');
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('sync-360.png') });
  await dialog.locator('.modal-actions').getByRole('button', { name: 'Schließen' }).click();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await context.close();
});
