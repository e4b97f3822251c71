import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, unfold, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * Polls in the browser (docs/product.md, Polls): an admin asks one on /events; a member votes
 * offline and the vote lands when the connection returns; the result shows as the poll says (after
 * the member's own vote, or only after the close); in German at 360 px and in English.
 */

const PHONE = { viewport: { width: 360, height: 740 } };
const SHOTS = process.env.E2E_SCREENSHOTS;

/** The serious and critical accessibility violations of the polls as they are now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('.polls').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

// The other browser tests see /events without polls, also when a test here failed halfway.
test.afterEach(async ({ request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { polls } = (await admin.get('/api/polls')) as { polls: { id: string }[] };
  for (const { id } of polls) await request.delete(`/api/polls/${id}`, { headers: { authorization: `Bearer ${admin.token}` } });
});

test('an admin asks a poll on /events at 360 px; a member votes offline, the vote lands, and the result shows after the vote', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const eventTitle = `${uniqueName('Bochum ')} (A)`;
  const eventId = await admin.createEvent(eventTitle, daysAhead(10));
  const member = await admin.registeredMember(uniqueName('voter'));
  const question = uniqueName('Wann fährt der Bus? ');

  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN, PHONE);
  await adminPage.getByRole('button', { name: 'Umfrage erstellen' }).click();
  const form = adminPage.getByRole('dialog', { name: 'Umfrage erstellen' });
  const answer = (number: number) => form.getByRole('textbox', { name: `Antwort ${number}`, exact: true });
  await form.getByLabel('Frage').fill(question);
  await answer(1).fill('7 Uhr');
  await answer(2).fill('8 Uhr');
  await form.getByRole('button', { name: 'Antwort hinzufügen' }).click();
  await answer(3).fill('Gar nicht');
  await form.getByRole('button', { name: 'Antwort hinzufügen' }).click();
  await answer(4).fill('9 Uhr');
  await form.getByRole('button', { name: 'Antwort 3 entfernen' }).click();
  await expect(answer(3)).toHaveValue('9 Uhr');
  await form.getByLabel('Ende').fill(`${daysAhead(5, '20:00').replace(' ', 'T')}`);
  await form.getByLabel('Zu einem Termin').selectOption(eventId);
  expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await adminPage.screenshot({ path: `${SHOTS}/polls-form-de-360.png` });
  await form.getByRole('button', { name: 'Erstellen' }).click();
  await expect(form).toHaveCount(0);

  // The list follows through the sync; an admin sees the counts from the start (on a phone after opening the polls).
  await expect(adminPage.locator('.polls .fold-teaser')).toHaveText(question);
  await unfold(adminPage, 'Umfragen');
  const adminPoll = adminPage.getByRole('article', { name: question });
  await expect(adminPoll).toContainText('Endet');
  await expect(adminPoll).toContainText('0 Mitglieder haben abgestimmt');
  await expect(adminPoll.getByRole('link', { name: eventTitle })).toHaveAttribute('href', `/events/${eventId}`);
  const { polls } = await admin.get('/api/polls');
  const pollId = polls.find((p: { question: string }) => p.question === question).id as string;

  const { context, page } = await memberPage(browser, member, PHONE);
  const poll = page.getByRole('article', { name: question });
  // Folded on a phone: the heading says a poll waits for the member's vote.
  await expect(page.getByRole('button', { name: 'Umfragen · 1 wartet auf deine Stimme', expanded: false })).toBeVisible();
  await unfold(page, 'Umfragen');
  await expect(poll.getByRole('radio')).toHaveCount(3);
  await expect(poll).toContainText('Das Ergebnis siehst du nach deiner Stimme.');
  await expect(poll.getByRole('button', { name: 'Abstimmen' })).toBeDisabled();

  // Offline: the vote is made on the device and waits.
  await untilServiceWorkerControls(page);
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await poll.getByLabel('8 Uhr').check();
  await poll.getByRole('button', { name: 'Abstimmen' }).click();
  await expect(page.getByText('Stimme gespeichert – sie wird gesendet, sobald du online bist')).toBeVisible();
  await expect(page.getByText('1 Änderung wartet')).toBeVisible();
  await expect(poll).toContainText('Das Ergebnis erscheint, sobald deine Stimme übertragen ist.');
  await expect(poll.getByRole('button', { name: 'Stimme ändern' })).toBeDisabled();
  expect((await admin.get(`/api/polls/${pollId}`)).poll.voters).toBe(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/polls-voted-offline-de-360.png` });

  // Back online: the vote lands and the result shows, with counts and percent.
  await context.setOffline(false);
  await expect.poll(async () => (await admin.get(`/api/polls/${pollId}`)).poll.voters, { timeout: 15_000 }).toBe(1);
  await expect(page.getByText('1 Änderung wartet')).toHaveCount(0);
  await expect(poll).toContainText('1 Mitglied hat abgestimmt');
  const chosen = poll.locator('.poll-option').filter({ hasText: '8 Uhr' });
  await expect(chosen).toContainText('1 Stimme · 100 %');
  await expect(chosen).toContainText('deine Wahl');
  await expect(poll.locator('.poll-option').filter({ hasText: '7 Uhr' })).toContainText('0 Stimmen · 0 %');
  await expect(poll.getByLabel('8 Uhr')).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/polls-result-de-360.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // The admin's list follows too, and the poll shows on its event's page.
  await expect(adminPoll).toContainText('1 Mitglied hat abgestimmt');
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('article', { name: question })).toContainText('1 Stimme · 100 %');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await context.close();
  await adminContext.close();
});

test('results after the close, in English: hidden after the vote, shown to all once an admin closes the poll; deleted after a confirmation', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const member = await admin.registeredMember(uniqueName('secret'));
  const memberApi = await Api.signIn(request, member.username, member.password);
  const { user } = await memberApi.get('/api/auth/profile');
  const question = uniqueName('Which away trip? ');
  await admin.post('/api/polls', {
    question,
    options: ['Hamburg', 'Munich', 'Cologne'],
    multiple: true,
    results: 'after_close',
  });

  const { context, page } = await memberPage(browser, member);
  await memberApi.put(`/api/auth/users/${user.id}`, { language: 'en' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Polls' });
  const poll = section.getByRole('article', { name: question });
  await expect(poll).toContainText('Several answers possible');
  await expect(poll).toContainText('Open until an admin closes it');
  await poll.getByLabel('Hamburg').check();
  await poll.getByLabel('Cologne').check();
  await poll.getByRole('button', { name: 'Vote' }).click();
  await expect(page.getByText('Vote saved', { exact: true })).toBeVisible();
  // Voted, and still no result: it shows when the poll closes.
  await expect(poll.getByRole('button', { name: 'Withdraw vote' })).toBeVisible();
  await expect(poll).toContainText('The result is shown when the poll closes.');
  await expect(poll).not.toContainText('votes');

  // The admin closes it now, after a confirmation.
  const { context: adminContext, page: adminPage } = await memberPage(browser, ADMIN, PHONE);
  await unfold(adminPage, 'Umfragen');
  const adminPoll = adminPage.getByRole('article', { name: question });
  await expect(adminPoll).toContainText('1 Mitglied hat abgestimmt');
  await adminPoll.getByRole('button', { name: `Jetzt beenden ${question}` }).click();
  const confirmClose = adminPage.getByRole('dialog', { name: 'Umfrage beenden?' });
  await expect(confirmClose).toContainText(question);
  await confirmClose.getByRole('button', { name: 'Jetzt beenden' }).click();
  await expect(adminPoll).toContainText('Beendet');

  // The member's page follows without a reload: closed, the result for everyone.
  await expect(poll).toContainText('Closed');
  await expect(poll.locator('.poll-option').filter({ hasText: 'Hamburg' })).toContainText('1 vote · 100%');
  await expect(poll.locator('.poll-option').filter({ hasText: 'Munich' })).toContainText('0 votes · 0%');
  await expect(poll).toContainText('1 member voted');
  await expect(poll.getByRole('checkbox', { name: /Munich/ })).toBeDisabled();
  await expect(poll.getByRole('button', { name: 'Withdraw vote' })).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/polls-closed-en.png` });
  expect(await seriousViolations(page)).toEqual([]);
  expect(await seriousViolations(adminPage)).toEqual([]);

  // Deleted after a confirmation: gone for the member too.
  await adminPoll.getByRole('button', { name: `Löschen ${question}` }).click();
  const confirmDelete = adminPage.getByRole('dialog', { name: 'Umfrage löschen?' });
  await confirmDelete.getByRole('button', { name: 'Löschen' }).click();
  await expect(adminPoll).toHaveCount(0);
  await expect(poll).toHaveCount(0, { timeout: 15_000 });

  await adminContext.close();
  await context.close();
});
