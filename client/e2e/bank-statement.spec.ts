import { expect, test } from '@playwright/test';
import { paymentCodeOf } from '@fankurve/shared/rules/paymentCode';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/**
 * The treasurer's bank statement (docs/architecture.md, Bank statements): the admin imports the
 * month's CAMT.053 on /debts at 360 px, books every credit that carries a payment code with one tap,
 * and the member's /my-tickets shows the payment and the ticket paid; the same file again books
 * nothing.
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
  await expect(lines.nth(1).getByLabel('Mitglied')).toHaveValue('');
  await page.getByRole('button', { name: 'Den Treffer per Referenz buchen' }).click();
  await expect(page.getByText('1 gebucht, 0 bereits früher gebucht')).toBeVisible();
  await expect(lines.nth(0)).toContainText('bereits gebucht');
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
  await expect(memberView.getByTestId('ledger-balance')).toContainText('Ausgeglichen');
  await expect(memberView.locator('[data-list="paid"]')).toContainText(title);
  await expect(memberView.getByTestId('statement')).toContainText('Kim Kassenwart');
  await memberContext.close();
});
