import fs from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/*
 * The season's accounts (docs/architecture.md, Ledger, "Season accounts"): the treasurer opens
 * /debts/accounts from /debts on a phone (360 px), reads an event's figures, the other kinds of money,
 * the totals and a member's balance at the season's end in euros, downloads the CSV and prints; offline
 * the page says it needs a connection. In English too. The far season 2098/99 holds only this test's
 * manual entries, so its totals are this test's alone.
 */

const FAR_SEASON = 2098;

/** Nothing on the page is wider than the window. */
async function fits(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function csvOf(download: Download): Promise<string> {
  const bytes = fs.readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.toString('utf8').slice(1);
}

test("the treasurer reads a season's accounts at 360 px, downloads the CSV and prints; in English too", async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const login = await admin.registeredMember(uniqueName('Kasse'));
  const member = await Api.signIn(request, login.username, login.password);
  const memberId = (await member.get('/api/auth/profile')).user.id as string;
  // This season: a ticket at 25,50 € marked paid, and 4 € for the flag, both booked to the event.
  const title = `${uniqueName('Kassenbericht ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(10));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 25.5 });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { paid: true });
  await admin.post('/api/ledger/charges', { target: { event_id: eventId }, amount: 4, note: 'Fahne' });
  // The far season: a charge of 12 € and a payment of 5 €, tied to no event.
  await admin.post('/api/ledger/entries', {
    user_id: memberId,
    kind: 'charge',
    amount: 12,
    date: `${FAR_SEASON}-08-01`,
    note: 'Busplatz',
  });
  await admin.post('/api/ledger/entries', {
    user_id: memberId,
    kind: 'payment',
    amount: 5,
    date: `${FAR_SEASON + 1}-06-30`,
    note: 'Bar',
  });

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
  await page.goto('/debts');
  await page.getByRole('link', { name: 'Kassenbericht der Saison' }).click();
  await expect(page).toHaveURL(/\/debts\/accounts$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Kassenbericht \d{4}\/\d{2}$/ })).toBeVisible();

  // The event's figures: charged 29,50 €, collected 25,50 €, open 4,00 €, each after its name on the phone.
  const event = page.getByTestId('accounts-events').locator(`tr[data-event="${eventId}"]`);
  await expect(event).toContainText(title);
  await expect(event.locator('td[data-figure="charged"]')).toHaveText('Belastet29,50 €');
  await expect(event.locator('td[data-figure="collected"]')).toHaveText('Eingezahlt25,50 €');
  await expect(event.locator('td[data-figure="credited"]')).toHaveText('Gutgeschrieben0,00 €');
  await expect(event.locator('td[data-figure="open"]')).toHaveText('Offen4,00 €');
  await fits(page);

  // Offline the page says it needs a connection, and loads again when the connection returns.
  await context.setOffline(true);
  await expect(page.getByText('Diese Seite braucht eine Internetverbindung', { exact: false })).toBeVisible();
  await context.setOffline(false);
  await expect(event.locator('td[data-figure="open"]')).toHaveText('Offen4,00 €');

  // The far season, reached with the season picker from the season after it: its totals, the other
  // kinds and the member's balance on its last day.
  await page.goto(`/debts/accounts?season=${FAR_SEASON + 1}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Kassenbericht 2099/00' })).toBeVisible();
  await page.getByRole('button', { name: 'Vorherige Saison 2098/99' }).click();
  await expect(page).toHaveURL(/\/debts\/accounts\?season=2098$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Kassenbericht 2098/99' })).toBeVisible();
  await expect(page.getByText('Keine Buchungen zu Terminen in dieser Saison')).toBeVisible();
  const totals = page.getByTestId('accounts-totals');
  await expect(totals.locator('tr[data-figure="charged"]')).toHaveText('Belastet12,00 €');
  await expect(totals.locator('tr[data-figure="collected"]')).toHaveText('Eingezahlt5,00 €');
  await expect(totals.locator('tr[data-figure="refunded"]')).toHaveText('Erstattet0,00 €');
  await expect(totals.locator('tr[data-figure="open"]')).toHaveText('Offen7,00 €');
  const payments = page.getByTestId('accounts-other').locator('tr[data-kind="payment"]');
  await expect(payments.locator('th')).toHaveText('Zahlung');
  await expect(payments.locator('td')).toHaveText(['1', '5,00 €']);
  await expect(page.getByRole('heading', { name: 'Kontostände am 30.06.2099' })).toBeVisible();
  // 25,50 − 25,50 + 4 (this season) + 12 − 5 = 11 € owed at the end of 2098/99.
  await expect(page.getByTestId('accounts-balances').locator(`tr[data-member="${memberId}"]`)).toHaveText(
    `${login.username}11,00 €`,
  );
  await fits(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV herunterladen' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('kassenbericht-2098-99.csv');
  const lines = (await csvOf(file)).split('\r\n');
  expect(lines[0]).toBe('Teil;Posten;Tag;Buchungen;Belastet;Eingezahlt;Gutgeschrieben;Erstattet;Offen');
  expect(lines).toContain('Ohne Termin;Belastung;;1;12,00;;;;12,00');
  expect(lines).toContain('Ohne Termin;Zahlung;;1;;5,00;;;-5,00');
  expect(lines).toContain('Summe;2098/99;;;12,00;5,00;0,00;0,00;7,00');
  expect(lines).toContain(`Kontostand am Saisonende;${login.username};2099-06-30;;;;;;11,00`);

  // Print: the browser's dialog, and on paper the report without the navigation bar and the buttons.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void (window as unknown as { printed: number }).printed++;
  });
  await page.getByRole('button', { name: 'Drucken' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.navbar')).toBeHidden();
  await expect(page.getByRole('button', { name: 'CSV herunterladen' })).toBeHidden();
  await expect(totals).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await context.close();

  // A second admin who reads English (the standing admin stays German for the other tests).
  const english = await admin.registeredMember(uniqueName('kasse-en'));
  const englishId = (await (await Api.signIn(request, english.username, english.password)).get('/api/auth/profile')).user
    .id as string;
  await admin.put(`/api/auth/users/${englishId}`, { scope: 'admin' });
  const en = await memberPage(browser, english, { viewport: { width: 360, height: 800 } });
  await admin.put(`/api/auth/users/${englishId}`, { language: 'en' });
  await en.page.goto(`/debts/accounts?season=${FAR_SEASON}`);
  await expect(en.page.getByRole('heading', { level: 1, name: 'Season accounts 2098/99' })).toBeVisible();
  const englishTotals = en.page.getByTestId('accounts-totals');
  await expect(englishTotals.locator('tr[data-figure="charged"]')).toHaveText('Charged€12.00');
  await expect(englishTotals.locator('tr[data-figure="open"]')).toHaveText('Open€7.00');
  await fits(en.page);
  const englishDownload = en.page.waitForEvent('download');
  await en.page.getByRole('button', { name: 'Download CSV' }).click();
  const englishLines = (await csvOf(await englishDownload)).split('\r\n');
  expect(englishLines[0]).toBe('Part;Item;Day;Entries;Charged;Collected;Credited;Refunded;Open');
  expect(englishLines).toContain('Total;2098/99;;;12,00;5,00;0,00;0,00;7,00');
  await en.context.close();
});
