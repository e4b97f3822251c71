import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, eventCard, memberPage, unfold, uniqueName } from './support.js';

/*
 * The next match on a phone's first screen (docs/product.md, Screens): the news and polls above the
 * events list start folded at 360 px, each one line saying what is inside, and open on a tap; on a
 * desktop they show open. Folded news do not count as read.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

// The other browser tests see /events without news and polls, also when this one failed halfway.
test.afterEach(async ({ request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const headers = { authorization: `Bearer ${admin.token}` };
  const { announcements } = (await admin.get('/api/announcements')) as { announcements: { id: string }[] };
  for (const { id } of announcements) await request.delete(`/api/announcements/${id}`, { headers });
  const { polls } = (await admin.get('/api/polls')) as { polls: { id: string }[] };
  for (const { id } of polls) await request.delete(`/api/polls/${id}`, { headers });
});

test('at 360 px the next match shows on the first screen below folded news and polls; a desktop shows them open', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('fold'));
  const eventTitle = `${uniqueName('Next match ')} (A)`;
  await admin.createEvent(eventTitle, daysAhead(1));
  const prefix = uniqueName('Nachricht ');
  for (const index of [1, 2, 3]) {
    await admin.post('/api/announcements', { title: `${prefix} ${index}`, text: `${'Eisern Union! '.repeat(25)}` });
  }
  const question = uniqueName('Treffpunkt? ');
  await admin.post('/api/polls', { question, options: ['Bahnhof', 'Stadion', 'Kneipe'] });
  await admin.post('/api/polls', { question: uniqueName('Schals? '), options: ['Ja', 'Nein'] });

  const { context, page } = await memberPage(browser, member, PHONE);
  const card = eventCard(page, eventTitle);
  await expect(card).toBeVisible();
  // Folded: one line each, the newest title and the first poll's question.
  await expect(page.getByRole('button', { name: /^Neuigkeiten · 3 ungelesen/, expanded: false })).toBeVisible();
  await expect(page.locator('.announcements .fold-teaser')).toHaveText(`${prefix} 3 und 2 weitere`);
  await expect(page.getByRole('button', { name: 'Umfragen · 2 warten auf deine Stimme', expanded: false })).toBeVisible();
  await expect(page.getByRole('article', { name: `${prefix} 3` })).toHaveCount(0);
  const box = await card.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(740);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/events-first-screen-360.png` });

  // Leaving the page with the news folded marks nothing read.
  await page.getByRole('button', { name: 'Menü' }).click();
  await page.getByRole('link', { name: 'Meine Tickets' }).click();
  await expect(page).toHaveURL(/\/my-tickets$/);
  await page.goBack();
  await expect(page.getByRole('button', { name: /^Neuigkeiten · 3 ungelesen/, expanded: false })).toBeVisible();

  // A tap opens each; the match moves below them.
  await unfold(page, 'Neuigkeiten');
  await expect(page.getByRole('article', { name: `${prefix} 3` })).toBeVisible();
  await unfold(page, 'Umfragen');
  await expect(page.getByRole('article', { name: question }).getByRole('radio')).toHaveCount(3);
  await expect(page.getByRole('button', { name: /^Umfragen/, expanded: true })).toBeVisible();
  expect((await card.boundingBox())!.y).toBeGreaterThan(740);
  await context.close();

  // A desktop has room: open from the start, no toggle.
  const desktop = await memberPage(browser, member, { viewport: { width: 1280, height: 800 } });
  await expect(desktop.page.getByRole('article', { name: `${prefix} 1` })).toBeVisible();
  await expect(desktop.page.getByRole('article', { name: question })).toBeVisible();
  await expect(desktop.page.locator('.fold-toggle')).toHaveCount(0);
  await desktop.context.close();
});
