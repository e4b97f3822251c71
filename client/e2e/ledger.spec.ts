import { USERNAME_MAX_LENGTH } from '@fankurve/shared';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName, untilServiceWorkerControls } from './support.js';

/*
 * The ledger (docs/product.md, Tickets and money): the member's balance and statement on /my-tickets,
 * offline and at 360 px; the admin books a payment on /debts and the member's open page follows.
 */

/** A member with a ticket bought at 18,50 € for a new away match; returns their API, id, login and the match's title. */
async function memberWithTicket(admin: Api, request: Parameters<typeof Api.signIn>[0]) {
  const login = await admin.registeredMember(uniqueName('Kassen'));
  const member = await Api.signIn(request, login.username, login.password);
  const id = (await member.get('/api/auth/profile')).user.id as string;
  const title = `${uniqueName('Bochum ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(14));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 18.5 });
  return { member, id, login, title, eventId };
}

/** Nothing on the page is wider than the window, and no table is cut off in its scroll box. */
async function fits(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const cutOff = await page.evaluate(() =>
    [...document.querySelectorAll('.table-scroll')]
      .map((box) => box.scrollWidth - box.clientWidth)
      .filter((overflow) => overflow > 0),
  );
  expect(cutOff).toEqual([]);
}

test('the balance and the statement on /my-tickets, offline after a reload and at 360 px', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { id, login, title } = await memberWithTicket(admin, request);
  await admin.post('/api/ledger/entries', { user_id: id, kind: 'charge', amount: 12, note: 'Busplatz Bochum' });
  await admin.post('/api/ledger/entries', { user_id: id, kind: 'payment', amount: 10, note: 'Bar beim Stammtisch' });

  const { context, page } = await memberPage(browser, login, { viewport: { width: 360, height: 780 } });
  await page.goto('/my-tickets');
  await expect(page.getByTestId('ledger-balance')).toContainText('20,50 € offen');
  const statement = page.getByTestId('statement');
  await expect(statement.locator('tbody tr')).toHaveCount(3);
  // Newest first: the payment, the bus seat, the ticket; each with the balance after it.
  await expect(statement.locator('tbody tr').nth(0)).toContainText('Zahlung · Bar beim Stammtisch');
  await expect(statement.locator('tbody tr').nth(0)).toContainText('-10,00 €');
  await expect(statement.locator('tbody tr').nth(0)).toContainText('20,50 €');
  await expect(statement.locator('tbody tr').nth(1)).toContainText('Belastung · Busplatz Bochum');
  await expect(statement.locator('tbody tr').nth(2)).toContainText(`Ticket · ${title}`);
  await expect(statement.locator('tbody tr').nth(2)).toContainText('18,50 €');
  await fits(page);

  await untilServiceWorkerControls(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Meine Tickets', level: 1 })).toBeVisible();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await expect(page.getByTestId('ledger-balance')).toContainText('20,50 € offen');
  await expect(page.getByTestId('statement').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('statement')).toContainText('Busplatz Bochum');
  await fits(page);
  await context.close();
});

test('an admin books a payment on /debts, the member’s open page follows, and a reversal takes it back', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { id, login, title } = await memberWithTicket(admin, request);

  const { context: memberContext, page: memberPageOpen } = await memberPage(browser, login);
  await memberPageOpen.goto('/my-tickets');
  await expect(memberPageOpen.getByTestId('ledger-balance')).toContainText('18,50 € offen');
  await expect(memberPageOpen.locator('[data-list="unpaid"]')).toContainText(title);

  const { context, page } = await memberPage(browser, ADMIN);
  await page.goto('/debts');
  const row = page.getByTestId('balances-table').locator(`tr[data-member="${id}"]`);
  await expect(row).toContainText('18,50 €');
  const form = page.getByRole('form', { name: 'Buchen' });
  await form.getByLabel('Mitglied').selectOption({ label: login.username });
  await form.getByLabel('Art').selectOption({ label: 'Zahlung' });
  await form.getByLabel('Betrag in Euro').fill('18,50');
  await form.getByLabel('Notiz').fill('Überweisung');
  await form.getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByText('Gebucht')).toBeVisible();
  await expect(row).toContainText('0,00 €');

  // The member's open page, without a reload: settled, and the ticket is paid.
  await expect(memberPageOpen.getByTestId('ledger-balance')).toContainText('Ausgeglichen');
  await expect(memberPageOpen.locator('[data-list="paid"]')).toContainText(title);
  await expect(memberPageOpen.getByTestId('statement')).toContainText('Zahlung · Überweisung');

  // The statement behind the member: only the booked payment can be reversed, the ticket follows its flags.
  await row.getByRole('button', { name: 'Auszug' }).click();
  const statement = page.getByTestId('member-statement');
  await expect(statement.locator('tbody tr')).toHaveCount(2);
  const payment = statement.locator('tbody tr[data-kind="payment"]');
  await expect(statement.locator('tbody tr[data-kind="ticket"]').getByRole('button', { name: 'Stornieren' })).toHaveCount(0);
  await payment.getByRole('button', { name: 'Stornieren' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stornieren' }).click();
  await expect(page.getByText('Buchung storniert')).toBeVisible();
  await expect(row).toContainText('18,50 €');
  await expect(statement.locator('tbody tr')).toHaveCount(3);
  await expect(payment).toContainText('storniert');

  await expect(memberPageOpen.getByTestId('ledger-balance')).toContainText('18,50 € offen');
  await expect(memberPageOpen.locator('[data-list="unpaid"]')).toContainText(title);
  await context.close();
  await memberContext.close();
});

test('the balances and the booking form at 360 px in English', async ({ browser, request }) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const { id, login } = await memberWithTicket(admin, request);
  // The longest name, with spaces: it wraps by words in the balances.
  const longName = `${uniqueName('Lang ')} ${'Wuhlesyndikat Köpenick Fanclub'.repeat(2)}`.slice(0, USERNAME_MAX_LENGTH).trim();
  const registered = await request.post('/api/auth/register', {
    data: { username: longName, password: 'fan-pass', email: `${uniqueName('lang')}@example.org` },
  });
  const longId = (await registered.json()).user.id as string;
  await admin.put(`/api/auth/users/${longId}/approve`);
  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 780 } });
  const me = await admin.get('/api/auth/profile');
  await admin.put(`/api/auth/users/${me.user.id}`, { language: 'en' });
  try {
    await page.reload();
    await page.goto('/debts');
    await expect(page.getByRole('heading', { name: 'Balances' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Book an entry' }).getByLabel('Amount in euros')).toBeVisible();
    const row = page.getByTestId('balances-table').locator(`tr[data-member="${id}"]`);
    await expect(row).toContainText('€18.50');
    // Each name reads as words, not a letter a line; the button stays in the window.
    for (const [member, name] of [
      [id, login.username],
      [longId, longName],
    ] as const) {
      const cell = page
        .getByTestId('balances-table')
        .locator(`tr[data-member="${member}"]`)
        .getByRole('cell', { name, exact: true });
      expect((await cell.boundingBox())!.width).toBeGreaterThan(80);
    }
    const longCell = page
      .getByTestId('balances-table')
      .locator(`tr[data-member="${longId}"]`)
      .getByRole('cell', { name: longName });
    const lineHeight = await longCell.evaluate((cell) => parseFloat(getComputedStyle(cell).lineHeight));
    expect((await longCell.boundingBox())!.height).toBeLessThan(4 * lineHeight);
    const button = row.getByRole('button', { name: 'Statement' });
    expect((await button.boundingBox())!.x + (await button.boundingBox())!.width).toBeLessThanOrEqual(360);
    await fits(page);
    await button.click();
    await expect(page.getByTestId('member-statement')).toContainText('Ticket ·');
    await fits(page);
  } finally {
    await admin.put(`/api/auth/users/${me.user.id}`, { language: 'de' });
    await context.close();
  }
});
