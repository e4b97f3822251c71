import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/**
 * A bulk charge on /debts (docs/architecture.md, Ledger, "Bulk charges"): the admin splits a total
 * over everyone going to an event at 360 px; the screen says who pays a cent more, and the members'
 * statements show their share.
 */
test('the admin splits a total over everyone going to an event; each member sees their share', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const title = `${uniqueName('Fahne ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(20));
  const logins = [];
  for (const name of ['Aa', 'Bb', 'Cc']) {
    const login = await admin.registeredMember(uniqueName(`Bulk${name}`));
    const member = await Api.signIn(request, login.username, login.password);
    await member.post(`/api/attendance/${eventId}`, { status: 'going' });
    logins.push(login);
  }

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
  await page.goto('/debts');
  const form = page.getByRole('form', { name: 'Sammelbelastung' });
  await form.getByLabel('Wer').selectOption({ label: 'Alle, die zu einem Termin fahren' });
  await form.getByLabel('Termin').selectOption({ label: `${title} · ${daysAhead(20).slice(0, 10)}` });
  await form.getByLabel('Betrag', { exact: true }).selectOption({ label: 'Summe, gleich aufgeteilt' });
  await form.getByLabel('Betrag in Euro').fill('10');
  await form.getByLabel('Wofür').fill('Neue Fahne');
  await expect(form).toContainText('Cents, die nicht aufgehen');
  await form.getByRole('button', { name: 'Belasten' }).click();
  await expect(
    page.getByText('3 Personen mit zusammen 10,00 € belastet; die Ersten nach Namen tragen je einen Cent mehr'),
  ).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await context.close();

  const shares = [];
  for (const login of logins) {
    const member = await Api.signIn(request, login.username, login.password);
    const charges = (await member.get('/api/ledger/my')).entries.filter(
      (entry: { description: string }) => entry.description === 'Neue Fahne',
    );
    shares.push(charges.map((entry: { amount: number }) => entry.amount));
  }
  expect(shares).toEqual([[3.34], [3.33], [3.33]]);
});
