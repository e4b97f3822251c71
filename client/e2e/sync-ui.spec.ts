import { SYNC_SCHEMAS } from '@fankurve/shared';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, signInThroughForm, uniqueName } from './support.js';

/** The card (section) of the detail page with this heading. */
const section = (page: Page, heading: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) });

/** The member's notices as the server has them (through the sync pull the devices use). */
async function serverNotices(api: Api): Promise<{ id: string; code: string; is_read: boolean }[]> {
  const body = await api.post('/api/sync/notices/1/pull', { checkpoint: null, limit: 1000 });
  return body.documents;
}

/**
 * Leaves `count` refusals for the member without a device: their attendance of the event, a ticket
 * the admin buys, and a pushed drop-out of it (as a device that missed the purchase would send it).
 */
async function refuseDropOut(admin: Api, member: Api, eventId: string, count: number): Promise<void> {
  const { user } = await member.get('/api/auth/profile');
  await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  // Bought and paid: no debt blocks the member's next answers, the bought ticket blocks the drop-out.
  await admin.put(`/api/tickets/event/${eventId}/user/${user.id}/status`, { bought: true, paid: true });
  const pulled = await member.post(`/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
    checkpoint: null,
    limit: 1000,
  });
  const row = (pulled.documents as { event_id: string; user_id: string | null }[]).find(
    (doc) => doc.event_id === eventId && doc.user_id === user.id,
  );
  for (let i = 0; i < count; i++)
    await member.post(`/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`, [
      { assumedMasterState: row, newDocumentState: { ...row, _deleted: true } },
    ]);
}

/**
 * Title, sync state and menu button share the nav bar's first row, side by side inside the window,
 * and nothing is wider than the window. A screenshot of the bar goes with the test's results.
 */
async function expectOneRow(page: Page, testInfo: TestInfo, name: string, menuLabel: string): Promise<void> {
  const width = page.viewportSize()!.width;
  await expect(page.getByRole('button', { name: menuLabel, exact: true })).toBeVisible();
  // All three read in one frame: the sync text may change (a resync starting) between separate reads.
  type Box = { x: number; y: number; width: number; height: number };
  const [brand, sync, menu] = (await page.evaluate(() =>
    ['.navbar .brand', '.navbar .sync', '.navbar .menu-toggle'].map((selector) => {
      const { x, y, width, height } = document.querySelector(selector)!.getBoundingClientRect();
      return { x, y, width, height };
    }),
  )) as [Box, Box, Box];
  for (const box of [brand, sync, menu]) {
    expect(box.x, name).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, name).toBeLessThanOrEqual(width);
  }
  // One row: the three overlap vertically and follow each other from left to right.
  expect(Math.max(brand.y, sync.y, menu.y), name).toBeLessThan(
    Math.min(brand.y + brand.height, sync.y + sync.height, menu.y + menu.height),
  );
  expect(brand.x + brand.width, name).toBeLessThanOrEqual(sync.x + 0.5);
  expect(sync.x + sync.width, name).toBeLessThanOrEqual(menu.x + 0.5);
  const bar = (await page.locator('.navbar').boundingBox())!;
  expect(bar.height, name).toBeLessThanOrEqual(64);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), name).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), clip: { x: 0, y: 0, width, height: 120 } });
}

test('an offline drop-out that the server refuses stays in the sync indicator until the member has read it', async ({
  page,
  context,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Abgelehnt')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(9));
  const member = await admin.registeredMember(uniqueName('absage'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const { user } = await memberApi.get('/api/auth/profile');
  await memberApi.post(`/api/attendance/${eventId}`, { status: 'going' });

  await signInThroughForm(page, member.username, member.password);
  const card = eventCard(page, title);
  await expect(card.getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Synchronisiert', { exact: true })).toBeVisible();

  // Offline, the member drops out; meanwhile the admin has bought the ticket.
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await admin.put(`/api/tickets/event/${eventId}/user/${user.id}/status`, { bought: true });
  await card.getByRole('button', { name: 'Absage' }).click();
  await expect(card.getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();

  // Back online the server refuses it: the answer comes back and the indicator counts the refusal.
  await context.setOffline(false);
  const badge = page.getByRole('button', { name: '1 abgelehnte Änderung anzeigen' });
  await expect(badge).toBeVisible();
  await expect(badge).toContainText('1');
  await expect(card.getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);

  await badge.click();
  const dialog = page.getByRole('dialog', { name: 'Abgelehnte Änderungen' });
  await expect(dialog).toBeVisible();
  const item = dialog.getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Deine Absage');
  await expect(item.getByRole('link', { name: title })).toHaveAttribute('href', `/events/${eventId}`);
  await expect(item).toContainText('Dein Ticket wurde bereits gekauft.');
  await expect(item.locator('time')).toHaveText(/^Abgelehnt am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);

  // Escape closes the list and gives the focus back to the badge; Enter opens it again.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(badge).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();

  await item.getByRole('button', { name: 'Gelesen', exact: true }).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(0);
  await expect(dialog).toContainText('Alles gelesen.');
  await expect(badge).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The read state reached the server (and so the member's other devices); a reload shows no refusal.
  await expect
    .poll(async () => (await serverNotices(memberApi)).map((notice) => `${notice.code}:${notice.is_read}`))
    .toEqual(['ticketAlreadyBought:true']);
  await page.reload();
  await expect(card).toBeVisible();
  await expect(page.getByText('Synchronisiert', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /abgelehnte Änderung/ })).toHaveCount(0);
});

test('"Mark all read" empties the list; a refusal names the event even when it is gone', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const kept = `${uniqueName('Bleibt')} (A)`;
  const gone = `${uniqueName('Weg')} (A)`;
  const keptId = await admin.createEvent(kept, daysAhead(11));
  const goneId = await admin.createEvent(gone, daysAhead(12));
  const member = await admin.registeredMember(uniqueName('alle'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  await refuseDropOut(admin, memberApi, keptId, 1);
  await refuseDropOut(admin, memberApi, goneId, 1);
  const deleted = await request.delete(`/api/events/${goneId}`, { headers: { authorization: `Bearer ${admin.token}` } });
  expect(deleted.ok()).toBe(true);

  await signInThroughForm(page, member.username, member.password);
  await page.getByRole('button', { name: '2 abgelehnte Änderungen anzeigen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abgelehnte Änderungen' });
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await expect(dialog.getByRole('listitem').filter({ hasText: kept }).getByRole('link', { name: kept })).toBeVisible();
  await expect(dialog.getByRole('listitem').filter({ hasText: gone })).toContainText('Deine Absage');

  await dialog.getByRole('button', { name: 'Alle gelesen' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /abgelehnte Änderung/ })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Synchronisiert' })).toBeFocused();
  await expect.poll(async () => (await serverNotices(memberApi)).map((notice) => notice.is_read)).toEqual([true, true]);
});

test('the events list says it is loading while the first sync runs, and that it waits for a connection offline', async ({
  page,
  context,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Erstsync')} (A)`;
  await admin.createEvent(title, daysAhead(5));
  const member = await admin.registeredMember(uniqueName('frisch'));

  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/sync/events/**', async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });

  await signInThroughForm(page, member.username, member.password);
  const loading = page.getByText('Termine werden geladen…');
  await expect(loading).toBeVisible();
  await expect(page.getByText('Noch keine Termine.')).toHaveCount(0);

  await context.setOffline(true);
  await expect(page.getByText('Sie erscheinen, sobald eine Verbindung besteht.', { exact: false })).toBeVisible();
  await expect(loading).toHaveCount(0);

  release();
  await context.setOffline(false);
  await expect(eventCard(page, title)).toBeVisible({ timeout: 15_000 });
  await expect(loading).toHaveCount(0);
  await expect(page.getByText('Noch keine Termine.')).toHaveCount(0);
});

test('at 360 px, offline with 3 changes waiting, the nav bar keeps title, sync state and menu button in one row', async ({
  browser,
  request,
}, testInfo) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const prefix = uniqueName('Schmal');
  const titles = [1, 2, 3].map((n) => `${prefix} ${n} (A)`);
  for (const [index, title] of titles.entries()) await admin.createEvent(title, daysAhead(14 + index));
  const member = await admin.registeredMember(uniqueName('schmal'));

  const { context, page } = await memberPage(browser, member, { viewport: { width: 360, height: 740 } });
  await expect(eventCard(page, titles[2]!)).toBeVisible();
  await expect(page.getByText('Synchronisiert', { exact: true })).toBeVisible();
  await expectOneRow(page, testInfo, 'de-360-synced', 'Menü');

  await context.setOffline(true);
  for (const title of titles) await eventCard(page, title).getByRole('button', { name: 'Zusage' }).click();
  await expect(page.getByText('3 Änderungen warten')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveAttribute('title', 'Offline · 3 Änderungen warten');
  await expectOneRow(page, testInfo, 'de-360-offline-3-waiting', 'Menü');

  // The folded menu still opens below the row.
  await page.getByRole('button', { name: 'Menü', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Termine' })).toBeVisible();
  await context.close();
});

for (const language of ['de', 'en'] as const) {
  test(`every sync state with refusals keeps one row at 360 px and on a desktop (${language})`, async ({
    browser,
    request,
  }, testInfo) => {
    const words =
      language === 'de'
        ? { menu: 'Menü', events: 'Termine', syncing: 'Synchronisiere…', synced: 'Synchronisiert', going: 'Zusage' }
        : { menu: 'Menu', events: 'Events', syncing: 'Syncing…', synced: 'Synced', going: 'Going' };
    const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
    const prefix = uniqueName(`Zustand ${language}`);
    const titles = [1, 2, 3].map((n) => `${prefix} ${n} (A)`);
    const ids: string[] = [];
    for (const [index, title] of titles.entries()) ids.push(await admin.createEvent(title, daysAhead(20 + index)));
    const member = await admin.registeredMember(uniqueName('zustand'));
    const memberApi = await Api.signIn(request, member.username, member.password);
    const { user } = await memberApi.get('/api/auth/profile');
    await memberApi.put(`/api/auth/users/${user.id}`, { language });
    // Two refusals on two events: a repeat on the same event would fold into one notice.
    for (const n of [1, 2])
      await refuseDropOut(admin, memberApi, await admin.createEvent(`${prefix} abgelehnt ${n} (A)`, daysAhead(30 + n)), 1);

    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    // The events arrive only when released: the first sync stays visible.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sync/events/**', async (route) => {
      await released;
      await route.continue().catch(() => undefined);
    });
    await page.goto('/login');
    await page.getByLabel('Benutzername').fill(member.username);
    await page.getByLabel('Passwort').fill(member.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByRole('heading', { name: words.events, level: 1 })).toBeVisible();

    const badge = page.locator('.sync-refusals');
    await expect(page.getByText(words.syncing, { exact: true })).toBeVisible();
    await expect(badge).toContainText('2');
    await expectOneRow(page, testInfo, `${language}-360-syncing-refusals`, words.menu);

    release();
    await expect(eventCard(page, titles[2]!)).toBeVisible();
    await expect(page.getByText(words.synced, { exact: true })).toBeVisible();
    await expectOneRow(page, testInfo, `${language}-360-synced-refusals`, words.menu);

    await context.setOffline(true);
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();
    await expectOneRow(page, testInfo, `${language}-360-offline-refusals`, words.menu);

    for (const title of titles) await eventCard(page, title).getByRole('button', { name: words.going, exact: true }).click();
    await expect(page.locator('.sync-pending')).toHaveText(language === 'de' ? '3 Änderungen warten' : '3 changes waiting');
    await expectOneRow(page, testInfo, `${language}-360-offline-3-waiting-refusals`, words.menu);

    // The list at 360 px.
    await badge.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`${language}-360-refusal-list.png`) });
    await page.keyboard.press('Escape');

    // Online with the changes still waiting (pushes held back by the route of this check).
    await page.route('**/api/sync/attendees/**', () => undefined);
    await context.setOffline(false);
    await expect(page.locator('.sync-pending')).toBeVisible();
    await expectOneRow(page, testInfo, `${language}-360-online-waiting-refusals`, words.menu);

    // A desktop: one row with the links, the full text in one line.
    await page.setViewportSize({ width: 1280, height: 800 });
    await context.setOffline(true);
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();
    const bar = (await page.locator('.navbar').boundingBox())!;
    expect(bar.height).toBeLessThanOrEqual(64);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expect(page.locator('.sync-text')).toHaveText(
      language === 'de' ? 'Offline · 3 Änderungen warten' : 'Offline · 3 changes waiting',
    );
    await expect(badge.locator('.sync-refusals-label')).toBeVisible();
    await expect(badge).toContainText(language === 'de' ? 'abgelehnt' : 'refused');
    await page.screenshot({
      path: testInfo.outputPath(`${language}-1280-offline-3-waiting-refusals.png`),
      clip: { x: 0, y: 0, width: 1280, height: 120 },
    });
    // The narrowest width with the links in the bar: still one row, nothing wider than the window.
    await page.setViewportSize({ width: 1200, height: 800 });
    expect((await page.locator('.navbar').boundingBox())!.height).toBeLessThanOrEqual(64);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: testInfo.outputPath(`${language}-1200-offline-3-waiting-refusals.png`),
      clip: { x: 0, y: 0, width: 1200, height: 120 },
    });
    await context.close();
  });
}

test('an event without an answer shows no answer as selected, on the card and on the detail page', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Offen')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(7));
  const member = await admin.registeredMember(uniqueName('offen'));

  await signInThroughForm(page, member.username, member.password);
  const card = eventCard(page, title);
  await expect(card.getByRole('button', { name: 'Absage' })).toBeVisible();
  await expect(card.getByRole('button', { pressed: true })).toHaveCount(0);
  for (const name of ['Zusage', 'Vielleicht', 'Absage'])
    await expect(card.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'false');

  await page.goto(`/events/${eventId}`);
  const answer = section(page, 'Deine Antwort');
  await expect(answer.getByRole('button', { name: 'Absage' })).toBeVisible();
  await expect(answer.getByRole('button', { pressed: true })).toHaveCount(0);
  await expect(answer.getByRole('button', { name: 'Absage' })).toHaveCSS('background-color', 'rgb(255, 255, 255)');

  // An answer is selected; dropping out leaves none selected again.
  await answer.getByRole('button', { name: 'Vielleicht' }).click();
  await expect(answer.getByRole('button', { name: 'Vielleicht' })).toHaveAttribute('aria-pressed', 'true');
  await answer.getByRole('button', { name: 'Absage' }).click();
  await expect(answer.getByLabel('Ich brauche ein Ticket')).toHaveCount(0);
  await expect(answer.getByRole('button', { pressed: true })).toHaveCount(0);
});
