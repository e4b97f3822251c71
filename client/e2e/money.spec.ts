import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, signInThroughForm, uniqueName } from './support.js';

/**
 * Money (docs/product.md, "Tickets and money"): a member sees a bought ticket on /my-tickets and reports it paid; the admin's
 * /debts shows the same total, and its CSV keeps umlauts and amounts (BOM, semicolons, 18,50).
 */
test('my tickets, the paid request, the debt overview and its CSV agree', async ({ page, request, browser }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const username = uniqueName('Jürgen');
  const registered = await request.post('/api/auth/register', {
    data: { username, email: `${uniqueName('juergen')}@example.org`, password: 'fan-pass' },
  });
  expect(registered.ok()).toBe(true);
  const userId = (await registered.json()).user.id as string;
  await admin.put(`/api/auth/users/${userId}/approve`);
  const member = await Api.signIn(request, username, 'fan-pass');

  const title = uniqueName('Köln ') + ' (A)';
  const eventId = await admin.createEvent(title, daysAhead(20));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 18.5 });

  await page.setViewportSize({ width: 360, height: 780 });
  await signInThroughForm(page, username, 'fan-pass');
  await page
    .getByRole('button', { name: 'Menü' })
    .click()
    .catch(() => undefined);
  await page.getByRole('navigation').getByRole('link', { name: 'Meine Tickets' }).click();
  await expect(page).toHaveURL(/\/my-tickets$/);
  await expect(page.getByTestId('unpaid-total')).toContainText('18,50 €');
  const unpaid = page.locator('[data-list="unpaid"]');
  const ticket = unpaid.locator('li', { hasText: title });
  await expect(ticket).toContainText('18,50 €');
  await ticket.getByRole('button', { name: 'Ich habe bezahlt' }).click();
  await expect(ticket).toContainText('Bezahlung gemeldet');
  await expect(ticket.getByRole('button', { name: 'Ich habe bezahlt' })).toHaveCount(0);
  await expect
    .poll(async () => (await member.get('/api/tickets/my')).tickets.find((t: any) => t.event_id === eventId)?.paid_requested)
    .toBe(true);
  // Nothing overflows at 360 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The admin's debt overview: the same amount, and the CSV downloads.
  const { context, page: adminPage } = await memberPage(browser, ADMIN, { acceptDownloads: true });
  await adminPage.goto('/debts');
  const row = adminPage.getByTestId('balances-table').locator('tr', { hasText: username });
  await expect(row).toContainText('18,50 €');
  await expect(row).toContainText('1');

  const download = adminPage.waitForEvent('download');
  await adminPage.getByRole('button', { name: 'Schulden als CSV' }).click();
  const file = fs.readFileSync((await (await download).path())!);
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = file.toString('utf8');
  expect(text).toContain(`${username};`);
  expect(text).toMatch(new RegExp(`${username};[^;]*;18,50;1`));

  const ticketsDownload = adminPage.waitForEvent('download');
  await adminPage.getByRole('button', { name: 'Unbezahlte Tickets als CSV' }).click();
  const tickets = fs.readFileSync((await (await ticketsDownload).path())!).toString('utf8');
  expect(tickets.startsWith('\uFEFF')).toBe(true);
  expect(tickets).toContain(title);
  expect(tickets).toContain('18,50');
  await context.close();
});

/** A text cell as the shared CSV writer writes it when guarded: an apostrophe first, quoted for its quotes. */
const guardedCell = (text: string) => `"'${text.replace(/"/g, '""')}"`;
/**
 * A cell that would run as a formula in a spreadsheet: one starting with = + - @ (quoted or not),
 * other than a negative amount (a member's credit, written as the number it is: `-7,00`).
 */
const UNGUARDED_FORMULA = /(^|;)"?(?:[=+@]|-(?!\d+,\d{2}(?:;|$)))/m;

/**
 * A ticket ticked "Gekauft" without a price takes the event's price (preselected in the table, and
 * by the server over REST); one on an event without a price stays "Preis offen" on /debts, in both
 * CSV exports and on /my-tickets, counted apart from the totals. Names from members, guests and event
 * titles that look like formulas reach both CSV files as text with a leading apostrophe.
 */
test('bought without a price, the price open, and formula-like names in the treasurer’s CSV', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const formula = '=HYPERLINK("http://x","y")';
  const username = `${formula}${uniqueName('')}`;
  const member = { username, password: 'fan-pass' };
  const registered = await request.post('/api/auth/register', {
    data: { username, email: `${uniqueName('formel')}@example.org`, password: member.password },
  });
  expect(registered.ok()).toBe(true);
  const memberId = (await registered.json()).user.id as string;
  await admin.put(`/api/auth/users/${memberId}/approve`);
  const title = `${formula} ${uniqueName('Köln')} (A)`;
  const eventId = (await admin.post('/api/events', { title, date: daysAhead(21), location: 'Köln', ticket_price: 18.5 })).event
    .id as string;
  const openTitle = `${uniqueName('Pokal ')} (A)`;
  const openEventId = (
    await admin.post('/api/events', { title: openTitle, date: daysAhead(28), location: 'Kiel', ticket_price: 0 })
  ).event.id as string;
  await admin.post(`/api/events/${eventId}/attendees`, { user_id: memberId });
  const guestName = `+${formula}`;
  const guest = await admin.post('/api/guests', { event_id: eventId, guest_name: guestName, brought_by: memberId });
  // Over REST: bought with nothing else takes the event's price …
  expect((await admin.put(`/api/attendees/${guest.guest.id}`, { bought: true })).attendance.price).toBe(18.5);
  // … and on an event without a price (no stadium), the price stays open.
  await admin.post(`/api/events/${openEventId}/attendees`, { user_id: memberId });
  const open = await admin.put(`/api/tickets/event/${openEventId}/user/${memberId}/status`, { bought: true });
  expect(open.attendance.price).toBeNull();

  const { context, page } = await memberPage(browser, ADMIN, { acceptDownloads: true });

  // The attendee table: ticking Gekauft preselects the event's price, saved as 18,50 €.
  await page.goto(`/events/${eventId}`);
  await page.getByRole('button', { name: 'Tabelle bearbeiten' }).click();
  await page.getByLabel(`Gekauft: ${username}`).check();
  await expect(page.getByLabel(`Ticket: ${username}`)).toHaveValue('custom');
  await expect(page.getByLabel(`Preis (€): ${username}`)).toHaveValue('18.50');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('button', { name: 'Tabelle bearbeiten' })).toBeVisible();
  const memberRow = page.locator('tr', { has: page.getByRole('rowheader', { name: username, exact: true }) });
  await expect(memberRow).toContainText('18,50 €');

  // /debts: 37,00 € and the open price counted apart; the open ticket says so.
  await page.goto('/debts');
  const debtRow = page.getByTestId('balances-table').locator('tr', { hasText: username });
  await expect(debtRow.locator('td.num').first()).toContainText('37,00 €');
  await expect(debtRow.locator('.debt-open-prices')).toHaveText('+ 1 Ticket mit offenem Preis');
  await expect(debtRow).toContainText('3');
  await expect(page.locator('.ticket-item', { hasText: openTitle })).toContainText('Preis offen');
  await expect(page.getByTestId('debts-total')).toContainText('mit offenem Preis');

  const debtsDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Schulden als CSV' }).click();
  const debts = fs.readFileSync((await (await debtsDownload).path())!).toString('utf8');
  const debtLine = debts.split('\r\n').find((line) => line.includes(uniqueSuffix(username)))!;
  expect(debtLine.startsWith(guardedCell(username))).toBe(true);
  expect(debtLine.endsWith(';37,00;3;1')).toBe(true);
  expect(debts).not.toMatch(UNGUARDED_FORMULA);

  const ticketsDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Unbezahlte Tickets als CSV' }).click();
  const tickets = fs.readFileSync((await (await ticketsDownload).path())!).toString('utf8');
  const lines = tickets.split('\r\n').filter((line) => line.includes(uniqueSuffix(username)));
  expect(lines).toHaveLength(3);
  for (const line of lines) expect(line.startsWith(guardedCell(username))).toBe(true);
  expect(lines.find((line) => line.includes(guardedCell(guestName)))).toContain(`${guardedCell(title)};`);
  expect(lines.find((line) => line.includes(openTitle))).toContain(';Preis offen;');
  expect(tickets).not.toMatch(UNGUARDED_FORMULA);

  // The user table says the same, and a paid request on the open ticket shows its price as open.
  await page.goto('/users');
  await expect(page.locator('tr', { has: page.getByRole('link', { name: username, exact: true }) })).toContainText(
    '37,00 € + 1 Ticket mit offenem Preis',
  );
  const memberApi = await Api.signIn(request, member.username, member.password);
  await memberApi.put(`/api/tickets/${open.attendance.id}/request-paid`);
  await page.goto('/admin/tasks');
  const requestRow = page.locator('tr', { hasText: openTitle });
  await expect(requestRow).toContainText('Preis offen');
  await expect(requestRow).not.toContainText('0,00');
  await context.close();

  // The member's /my-tickets: the same figures, the open price said, never 0,00 €.
  const { context: fanContext, page: fanPage } = await memberPage(browser, member);
  await fanPage.goto('/my-tickets');
  await expect(fanPage.getByTestId('unpaid-total')).toContainText('37,00 € + 1 Ticket mit offenem Preis');
  const openTicket = fanPage.locator('[data-list="unpaid"] li', { hasText: openTitle });
  await expect(openTicket).toContainText('Preis offen');
  await expect(openTicket).not.toContainText('0,00');
  await fanContext.close();
});

/** The unique tail of a name made with uniqueName (what finds its line in a file). */
function uniqueSuffix(name: string): string {
  return name.slice(-8);
}

/**
 * The stadium price form checks the price once, with the money input's rule: a price its field
 * already refuses is not sent, and the reason shows once. Thousands separators are understood.
 */
test('the stadium price form refuses a wrong price once and sends nothing; 1.234,50 is understood', async ({ page, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const name = `${uniqueName('Preisarena')}`;
  await admin.post('/api/stadiums', { team_name: 'Preis FC', stadium_name: name, city: 'Köln' });
  const sent: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().includes('/api/ticket-prices')) sent.push(req.url());
  });
  await signInThroughForm(page, ADMIN.username, ADMIN.password);
  await page.goto('/config?tab=stadiums');
  const card = page.getByRole('article', { name });
  await card.getByLabel('Ticketart').fill('Loge');
  await card.getByLabel('Preis (€)').fill('18,555');
  const tooPrecise = card.getByText('Beträge haben höchstens zwei Nachkommastellen (Cent)');
  await expect(tooPrecise).toHaveCount(1);
  await card.getByRole('button', { name: 'Preis hinzufügen' }).click();
  await expect(card.getByLabel('Preis (€)')).toHaveAttribute('aria-invalid', 'true');
  await expect(tooPrecise).toHaveCount(1);
  await expect(card.getByRole('alert')).toHaveCount(0);
  expect(sent).toEqual([]);

  await card.getByLabel('Preis (€)').fill('1.234,50');
  await expect(card.getByText('= 1.234,50 €')).toBeVisible();
  await card.getByRole('button', { name: 'Preis hinzufügen' }).click();
  await expect(card.locator('.price-list')).toContainText('Loge1.234,50 €');
  expect(sent).toHaveLength(1);
});
