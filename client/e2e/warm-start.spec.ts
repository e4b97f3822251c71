import { expect, test, type Route } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, signInThroughForm, uniqueName } from './support.js';

// Without the service worker, so that the test sees (and can hold back) every chunk request.
test.use({ serviceWorkers: 'block' });

/**
 * A warm start paints the events list before RxDB has loaded (docs/architecture.md, Client data
 * layer): the screen's chunk holds its queries, RxDB and Dexie are the `sync` chunk that only the
 * data layer imports, dynamically.
 */
test('a warm start shows the remembered events list while the RxDB chunk is still loading', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Warm')} (A)`;
  await admin.createEvent(title, daysAhead(5));
  // An event two seasons back: the snapshot names its season for the selector, without its events.
  const oldTitle = `${uniqueName('Warm old')} (A)`;
  await admin.createEvent(oldTitle, daysAhead(-730));
  const member = await admin.registeredMember(uniqueName('warm'));

  await signInThroughForm(page, member.username, member.password);
  await expect(eventCard(page, title)).toBeVisible();
  // The list is remembered for the next start, with the news and polls above it.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('snapshot:eventsList')?.includes('"title"') ?? false))
    .toBe(true);
  const snapshot = await page.evaluate(
    () =>
      (
        JSON.parse(localStorage.getItem('snapshot:eventsList')!) as {
          value: { season: string; seasons: string[]; events: { title: string }[] };
        }
      ).value,
  );
  expect(snapshot.events.map((event) => event.title)).toContain(title);
  expect(snapshot.events.map((event) => event.title)).not.toContain(oldTitle);
  expect(snapshot.seasons.length).toBeGreaterThanOrEqual(2);
  expect(snapshot.seasons).toContain(snapshot.season);
  await expect
    .poll(() =>
      page.evaluate(() => ['snapshot:announcements', 'snapshot:polls'].every((key) => localStorage.getItem(key) !== null)),
    )
    .toBe(true);

  // The next start: the RxDB chunk does not arrive until the test lets it.
  const held: Route[] = [];
  await page.route(/\/assets\/sync-[\w-]+\.js$/, (route) => void held.push(route));
  await page.reload();
  await expect.poll(() => held.length).toBe(1);
  await expect(eventCard(page, title)).toBeVisible();
  // The season selector offers the older seasons before the database is there.
  await expect(page.getByRole('combobox', { name: 'Saison' }).getByRole('option')).toHaveCount(snapshot.seasons.length);
  expect(held.length).toBe(1);

  // Once it arrives, the device database takes over and the replication starts: its first pull
  // answers (the sync indicator says "Synchronisiert" already before the sync chunk has run).
  const pulled = page.waitForResponse((response) => /\/api\/sync\/[^/]+\/\d+\/pull$/.test(new URL(response.url()).pathname));
  for (const route of held) await route.continue();
  await pulled;
  await expect(page.getByRole('status').filter({ hasText: 'Synchronisiert' })).toBeVisible();
  await expect(eventCard(page, title)).toBeVisible();
});
