import { expect, test } from '@playwright/test';
import { paymentCodeOf } from '@fankurve/shared/rules/paymentCode';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/**
 * The treasurer's bank statement (docs/architecture.md, Bank statements): the admin imports the
 * month's CAMT.053 on /debts at 360 px, books every credit that carries a payment code with one tap
 * and one without by the member's name, and the member's /my-tickets shows the payment and the ticket paid; the same file again books
 * nothing. A CSV export of a layout the app does not know asks once which column holds what (in
 * English here), and the next file of that layout reads at once.
 */

function camt053(entries: { ref: string; amount: string; purpose: string; name: string }[]): Buffer {
  const body = entries
    .map(
      (entry) => `<Ntry><Amt Ccy="EUR">${entry.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
      <BookgDt><Dt>2030-03-14</Dt></BookgDt><AcctSvcrRef>${entry.ref}</AcctSvcrRef><NtryDtls><TxDtls>
      <RltdPties><Dbtr><Nm>${entry.name}</Nm></Dbtr></RltdPties><RmtInf><Ustrd>${entry.purpose}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    )
    .join('');
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${body}</Stmt></BkToCstmrStmt></Document>`);
}

test('the treasurer books the statement’s payments with one tap; the member sees them, and a second import books nothing', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const login = await admin.registeredMember(uniqueName('Bank'));
  const member = await Api.signIn(request, login.username, login.password);
  const title = `${uniqueName('Bochum ')} (A)`;
  const eventId = await admin.createEvent(title, daysAhead(14));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  await admin.put(`/api/attendees/${attendance.attendance.id}`, { bought: true, price: 18.5 });

  const ref = uniqueName('E2E-BANK-');
  const file = {
    name: 'auszug.xml',
    mimeType: 'application/xml',
    buffer: camt053([
      { ref, amount: '18.50', purpose: `${paymentCodeOf(login.id)} ${login.username}: Bochum`, name: 'Kim Kassenwart' },
      { ref: `${ref}-X`, amount: '7.00', purpose: 'Spende ohne Referenz', name: 'Unbekannt' },
    ]),
  };

  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
  await page.goto('/debts');
  await page.getByLabel('Datei des Kontoauszugs').setInputFiles(file);
  await expect(page.getByTestId('statement-count')).toHaveText('2 Gutschriften');
  const lines = page.getByTestId('statement-line');
  await expect(lines.nth(0)).toContainText('18,50 €');
  await expect(lines.nth(0)).toContainText('Referenz');
  await expect(lines.nth(0).getByTestId('statement-line-pays')).toContainText(`Bezahlt damit: ${title}`);
  await expect(lines.nth(1).getByTestId('statement-line-pays')).toHaveCount(0);
  await expect(lines.nth(1).getByLabel('Mitglied')).toHaveValue('');
  await page.getByRole('button', { name: 'Den Treffer per Referenz buchen' }).click();
  await expect(page.getByText('1 gebucht, 0 bereits früher gebucht')).toBeVisible();
  await expect(lines.nth(0)).toContainText('bereits gebucht');
  // The line without a reference: the treasurer finds the member by name and books it (credit now).
  const unmatched = lines.nth(1);
  await expect(unmatched.getByRole('button', { name: 'Buchen' })).toBeDisabled();
  await unmatched.getByLabel('Mitglied').fill(login.username.toUpperCase());
  await unmatched.getByRole('button', { name: 'Buchen' }).click();
  await expect(unmatched).toContainText('bereits gebucht');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // The same file again: the line is known, nothing to book by reference.
  await page.getByLabel('Datei des Kontoauszugs').setInputFiles(file);
  await expect(lines.nth(0)).toContainText('bereits gebucht');
  await expect(page.getByRole('button', { name: /per Referenz buchen/ })).toHaveCount(0);
  await context.close();

  const { context: memberContext, page: memberView } = await memberPage(browser, login, {
    viewport: { width: 360, height: 800 },
  });
  await memberView.goto('/my-tickets');
  await expect(memberView.getByTestId('ledger-balance')).toContainText('7,00 € Guthaben');
  await expect(memberView.locator('[data-list="paid"]')).toContainText(title);
  await expect(memberView.getByTestId('statement')).toContainText('Kim Kassenwart');
  await memberContext.close();
});

test('a CSV layout the app does not know: the treasurer maps its columns once, the club keeps the mapping (English, 360 px)', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const login = await admin.registeredMember(uniqueName('Csv'));
  const column = uniqueName('Valuta');
  const csv = (amount: string) => ({
    name: 'umsaetze.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${column};Umsatz in EUR;Auftraggeber;Verwendungszweck\n14.03.2030;${amount};Kim;${paymentCodeOf(login.id)} Fahrt\n`,
    ),
  });
  const { context, page } = await memberPage(browser, ADMIN, { viewport: { width: 360, height: 800 } });
  const me = await admin.get('/api/auth/profile');
  await admin.put(`/api/auth/users/${me.user.id}`, { language: 'en' });
  try {
    await page.reload();
    await page.goto('/debts');
    await page.getByLabel('Statement file').setInputFiles(csv('12,00'));
    const form = page.getByRole('form', { name: 'Which column holds what?' });
    await expect(form).toBeVisible();
    // The guesses by the headers' words; the booking day's column has a name no guess knows.
    await expect(form.getByLabel('Amount *')).toHaveValue('Umsatz in EUR');
    await expect(form.getByLabel("Payer's name")).toHaveValue('Auftraggeber');
    await expect(form.getByLabel('Purpose')).toHaveValue('Verwendungszweck');
    await expect(form.getByRole('button', { name: 'Read with this mapping' })).toBeDisabled();
    await form.getByLabel('Booking day *').selectOption(column);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('csv-mapping-en-360.png'), fullPage: true });
    await form.getByRole('button', { name: 'Read with this mapping' }).click();
    await expect(page.getByTestId('statement-count')).toHaveText('1 credit');
    await expect(page.getByTestId('statement-line')).toContainText('€12.00');
    await expect(page.getByTestId('statement-line')).toContainText('reference');
    await expect(page.getByTestId('statement-line-pays')).toContainText('€12.00 becomes credit');

    // The next month's file of that layout reads without asking.
    await page.getByLabel('Statement file').setInputFiles(csv('13,00'));
    await expect(page.getByTestId('statement-line')).toContainText('€13.00');
    await expect(page.getByRole('form', { name: 'Which column holds what?' })).toHaveCount(0);
  } finally {
    await admin.put(`/api/auth/users/${me.user.id}`, { language: 'de' });
    await context.close();
  }
});
