import { formatMoney } from '@fankurve/shared/rules/money';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ADMIN, Api, daysAhead, memberPage, uniqueName } from './support.js';

/*
 * What a member owes, on every screen by one rule (docs/architecture.md, Ledger, "One figure"): after
 * a part payment /my-tickets says what is still open (11,50 €); /debts' total follows a booking
 * without a reload; the paid request's confirmation says what is still open on the ticket and
 * confirming books exactly that. The booking form at 1280 px
 * shows the chosen member's balance and keeps its note field clear of the button.
 */

test('a part payment: /my-tickets, the /debts total and the confirmation say 11,50 €; confirming settles it', async ({
  browser,
  request,
}) => {
  const admin = await Api.signIn(request, ADMIN.username, ADMIN.password);
  const login = await admin.registeredMember(uniqueName('Steffi'));
  const member = await Api.signIn(request, login.username, login.password);
  const id = (await member.get('/api/auth/profile')).user.id as string;
  const eventId = await admin.createEvent(`${uniqueName('Kiel ')} (A)`, daysAhead(10));
  const attendance = await member.post(`/api/attendance/${eventId}`, { status: 'going' });
  const row = attendance.attendance.id as string;
  await admin.put(`/api/attendees/${row}`, { bought: true, price: 21.5 });
  await admin.post('/api/ledger/entries', { user_id: id, kind: 'payment', amount: 10 });

  const own = await memberPage(browser, login, { viewport: { width: 360, height: 780 } });
  await own.page.goto('/my-tickets');
  await expect(own.page.getByTestId('unpaid-total')).toContainText('11,50 €');
  const axe = await new AxeBuilder({ page: own.page }).withRules(['heading-order']).analyze();
  expect(axe.violations).toEqual([]);
  await member.put(`/api/tickets/${row}/request-paid`, {});

  const desk = await memberPage(browser, ADMIN, { viewport: { width: 1280, height: 900 } });
  await desk.page.goto('/debts');
  const total = desk.page.getByTestId('debts-total');
  await expect(total).toBeVisible();
  const before = await admin.get('/api/tickets/debts');
  await expect(total).toContainText(formatMoney(Math.round(before.total * 100), 'de'));

  // The booking form: the chosen member's balance beside the amount; the note clear of the button.
  const form = desk.page.getByRole('form', { name: 'Buchen' });
  await form.getByLabel('Mitglied').selectOption({ label: login.username });
  await expect(form.getByTestId('book-member-balance')).toContainText('11,50 €');
  const note = await form.getByLabel('Notiz').boundingBox();
  const button = await form.getByRole('button', { name: 'Buchen' }).boundingBox();
  const box = await form.boundingBox();
  expect(note!.x + note!.width).toBeLessThanOrEqual(box!.x + box!.width);
  expect(button!.y).toBeGreaterThanOrEqual(note!.y + note!.height + 4);

  // A booking moves the total at once, without a reload.
  await form.getByLabel('Art').selectOption({ label: 'Belastung' });
  await form.getByLabel('Betrag in Euro').fill('1');
  await form.getByRole('button', { name: 'Buchen' }).click();
  await expect(total).toContainText(formatMoney(Math.round((before.total + 1) * 100), 'de'));

  await desk.page.goto('/admin/tasks');
  const task = desk.page.locator('tr, li').filter({ hasText: login.username }).first();
  await task.getByRole('button', { name: /Bestätigen|Annehmen/ }).click();
  const dialog = desk.page.getByRole('dialog');
  // The 1,00 € charge used part of the money not yet used: 21,50 − (10,00 − 1,00) is open.
  await expect(dialog.getByTestId('paid-open-amount')).toHaveText('12,50 €');
  await dialog.getByRole('button', { name: /Bestätigen|Annehmen|bezahlt/ }).click();
  await expect(dialog).toBeHidden();
  const mine = await member.get('/api/ledger/my');
  expect(mine.balance).toBe(0);
  await expect(own.page.getByTestId('unpaid-total')).not.toHaveClass(/debt-total-open/);
  await own.context.close();
  await desk.context.close();
});
