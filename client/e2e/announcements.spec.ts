import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, unfold, uniqueName, untilServiceWorkerControls } from './support.js';

const PHONE = { viewport: { width: 360, height: 740 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

/** The serious and critical accessibility violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('.announcements').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

// The other browser tests see /events without news, also when a test here failed halfway.
test.afterEach(async ({ request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { announcements } = (await admin.get('/api/announcements')) as { announcements: { id: string }[] };
  for (const { id } of announcements) {
    await request.delete(`/api/announcements/${id}`, { headers: { authorization: `Bearer ${admin.token}` } });
  }
});

test('an admin posts pinned news on /events at 360 px; a member reads it, also offline; the deletion reaches the member', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const eventTitle = `${uniqueName('Union ')} (A)`;
  const eventId = await admin.createEvent(eventTitle, daysAhead(12));
  const member = await admin.registeredMember(uniqueName('news'));
  const title = uniqueName('Busabfahrt ');

  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN, PHONE);
  await adminPage.getByRole('button', { name: 'Neuigkeit schreiben' }).click();
  const form = adminPage.getByRole('dialog', { name: 'Neuigkeit schreiben' });
  await form.getByLabel('Überschrift').fill(title);
  await form.getByLabel('Text', { exact: true }).fill('Abfahrt um 7:30 Uhr am Stadion.');
  await form.getByLabel('Zu einem Termin').selectOption(eventId);
  await form.getByLabel('Oben anheften').check();
  if (SHOTS) await adminPage.screenshot({ path: `${SHOTS}/announcements-form-360.png` });
  await form.getByRole('button', { name: 'Veröffentlichen' }).click();
  await expect(form).toHaveCount(0);

  // On a phone the news start folded: its newest title shows in one line until the admin opens them.
  await expect(adminPage.locator('.announcements .fold-teaser')).toHaveText(title);
  await unfold(adminPage, 'Neuigkeiten');
  // The list follows through the sync; the admin sees it with its pin marker, edit and delete.
  const adminNews = adminPage.getByRole('article', { name: title });
  await expect(adminNews).toContainText('Angeheftet');
  // Edited: the form starts with what is stored; the list follows.
  await adminNews.getByRole('button', { name: `Bearbeiten ${title}` }).click();
  const editForm = adminPage.getByRole('dialog', { name: 'Neuigkeit bearbeiten' });
  await expect(editForm.getByLabel('Überschrift')).toHaveValue(title);
  await expect(editForm.getByLabel('Oben anheften')).toBeChecked();
  await editForm.getByLabel('Text', { exact: true }).press('ControlOrMeta+End');
  await editForm.getByLabel('Text', { exact: true }).pressSequentially('\nSchals nicht vergessen!');
  await editForm.getByRole('button', { name: 'Speichern' }).click();
  await expect(editForm).toHaveCount(0);
  await expect(adminNews).toContainText('Schals nicht vergessen!');
  expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await adminPage.screenshot({ path: `${SHOTS}/announcements-admin-360.png` });
  expect(await seriousViolations(adminPage)).toEqual([]);

  const { context: memberContext, page } = await memberPage(browser, member, PHONE);
  const news = page.getByRole('article', { name: title });
  await unfold(page, 'Neuigkeiten');
  await expect(news).toBeVisible();
  // Pinned first, line breaks kept, the link to its event; no admin buttons.
  await expect(page.locator('.announcement-list article').first()).toHaveAccessibleName(title);
  expect(await news.locator('.announcement-text').innerText()).toBe('Abfahrt um 7:30 Uhr am Stadion.\nSchals nicht vergessen!');
  await expect(news.getByRole('link', { name: eventTitle })).toHaveAttribute('href', `/events/${eventId}`);
  await expect(news.getByRole('button')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Offline, after a reload, from the device's database.
  await untilServiceWorkerControls(page);
  await memberContext.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
  await unfold(page, 'Neuigkeiten');
  await expect(news).toContainText('Schals nicht vergessen!');
  await expect(news).toContainText('Angeheftet');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/announcements-member-offline-360.png` });
  await memberContext.setOffline(false);

  // The admin deletes it after a confirmation; it disappears for the member without a reload.
  await adminNews.getByRole('button', { name: `Löschen ${title}` }).click();
  const confirm = adminPage.getByRole('dialog', { name: 'Neuigkeit löschen?' });
  await expect(confirm).toContainText(title);
  await confirm.getByRole('button', { name: 'Löschen' }).click();
  await expect(adminNews).toHaveCount(0);
  await expect(news).toHaveCount(0, { timeout: 15_000 });

  await memberContext.close();
  await adminContext.close();
});

test('more than three: a member sees three and "show all", in English, and long texts wrap at 360 px', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('reader'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const { user } = await memberApi.get('/api/auth/profile');
  const prefix = uniqueName('News ');
  for (const [index, body] of [
    { text: `A very long word: ${'Unioner'.repeat(30)} and a long text. ${'Eisern Union! '.repeat(40)}` },
    { text: 'Second' },
    { text: 'Third', pinned: true },
    { text: 'Fourth' },
  ].entries()) {
    await admin.post('/api/announcements', { title: `${prefix} ${index + 1}`, ...body });
  }

  const { context, page } = await memberPage(browser, member, PHONE);
  // Signed in in German (the form's words), then the member's language becomes English.
  await memberApi.put(`/api/auth/users/${user.id}`, { language: 'en' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  const section = page.getByRole('region', { name: 'News' });
  await unfold(page, 'News');
  const titles = section.getByRole('heading', { level: 3 });
  // Pinned first, then newest first; only three until "show all".
  await expect(titles).toHaveText([`${prefix} 3`, `${prefix} 4`, `${prefix} 2`]);
  await expect(section.getByRole('article', { name: `${prefix} 3` })).toContainText('Pinned');
  const toggle = section.getByRole('button', { name: 'Show all 4' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(titles).toHaveText([`${prefix} 3`, `${prefix} 4`, `${prefix} 2`, `${prefix} 1`]);
  await expect(section.getByRole('button', { name: 'Show fewer' })).toHaveAttribute('aria-expanded', 'true');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await seriousViolations(page)).toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/announcements-member-en-360.png`, fullPage: true });

  // The unread count: all four are new to this member until they mark them read; news posted
  // later counts again, and what they saw counts as read once they leave the page.
  const heading = section.getByRole('heading', { level: 2 });
  await expect(heading).toHaveText('News · 4 unread');
  await expect(section.locator('.announcement-new')).toHaveCount(4);
  await section.getByRole('button', { name: 'Mark as read' }).click();
  await expect(heading).toHaveText('News');
  await expect(section.locator('.announcement-new')).toHaveCount(0);
  await page.reload();
  await unfold(page, 'News');
  await expect(section.getByRole('heading', { level: 3 }).first()).toBeVisible();
  await expect(heading).toHaveText('News');
  await admin.post('/api/announcements', { title: `${prefix} 5`, text: 'Fifth' });
  await expect(heading).toHaveText('News · 1 unread');
  await expect(section.getByRole('article', { name: `${prefix} 5` }).locator('.announcement-new')).toHaveText('New');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'My tickets' }).click();
  await expect(page).toHaveURL(/\/my-tickets$/);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Events', exact: true }).click();
  await unfold(page, 'News');
  await expect(section.getByRole('heading', { level: 3 }).first()).toBeVisible();
  await expect(heading).toHaveText('News');
  await context.close();
});
