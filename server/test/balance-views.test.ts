import {
  debtsAnswer,
  debtsCsv,
  ledgerMembersAnswer,
  ledgerStatementAnswer,
  MESSAGES,
  myTicketsAnswer,
  newId,
  pendingRequestsAnswer,
  adminUsersAnswer,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Every view of what a member owes reads the ledger by one rule (docs/architecture.md, Ledger, "One
 * figure"): GET /api/tickets/my, GET /api/tickets/debts (list and total), GET /api/ledger,
 * GET /api/ledger/my, GET /api/ledger/members/{id}, the user table, the debts CSV and
 * GET /api/ledger/my/payment agree after part payments, overpayments, reversals and returned tickets.
 * A paid report after a part payment books what is still open on the ticket; the debt block leaves a
 * contingent's ticket alone within its payment days.
 */

type User = { id: string; token: string };
let t: TestApp;
let admin: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  await t.db
    .insertInto('settings')
    .values([
      { key: 'account_holder', value: 'Eiserne Fans e.V.' },
      { key: 'iban', value: 'DE89370400440532013000' },
    ])
    .execute();
});
afterAll(() => t.close());

async function event(day: string, extra: Record<string, unknown> = {}) {
  return (await createEventVia(t, admin, { title: `Auswärts ${++counter} (A)`, date: `${day} 15:30`, ...extra })).id;
}

async function buy(user: User, eventId: string, price: number) {
  const added = await t.call('POST', `/api/events/${eventId}/attendees`, { token: admin, body: { user_id: user.id } });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const id = added.body.attendance.id as string;
  const res = await t.call('PUT', `/api/attendees/${id}`, { token: admin, body: { bought: true, price } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}

async function book(user: User, kind: string, amount: number) {
  const res = await t.call('POST', '/api/ledger/entries', { token: admin, body: { user_id: user.id, kind, amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.entry.id as string;
}

const CSV_HEADER = ['Name', 'E-Mail', 'Schulden', 'Unbezahlt', 'Preis offen'] as const;

/** The member's figures in every view, in euros; `owed` views say 0 for credit, `balance` views are signed. */
async function views(user: User) {
  const my = await t.callTyped(myTicketsAnswer, 'GET', '/api/tickets/my', { token: user.token });
  const debts = await t.callTyped(debtsAnswer, 'GET', '/api/tickets/debts', { token: admin });
  const members = await t.callTyped(ledgerMembersAnswer, 'GET', '/api/ledger', { token: admin });
  const ledgerMy = await t.callTyped(ledgerStatementAnswer, 'GET', '/api/ledger/my', { token: user.token });
  const statement = await t.callTyped(ledgerStatementAnswer, 'GET', `/api/ledger/members/${user.id}`, { token: admin });
  const users = await t.callTyped(adminUsersAnswer, 'GET', '/api/auth/users', { token: admin });
  const payment = await t.call('GET', '/api/ledger/my/payment', { token: user.token });
  const debt = debts.debts.find((entry) => entry.user_id === user.id);
  const listed = users.users.find((entry) => entry.id === user.id)!;
  const csvLines = debtsCsv(CSV_HEADER, debts.debts)
    .replace(/^\uFEFF/, '')
    .split('\r\n');
  const csvLine = debt ? csvLines[debts.debts.indexOf(debt) + 1]! : null;
  // Every member's owed figure adds up to the total.
  const owedSum = members.members.reduce((sum, member) => sum + Math.max(0, Math.round(member.balance * 100)), 0) / 100;
  expect(debts.total).toBe(owedSum);
  expect(debts.credit_total).toBe(
    members.members.reduce((sum, member) => sum + Math.max(0, -Math.round(member.balance * 100)), 0) / 100,
  );
  return {
    balances: {
      ledgerMy: ledgerMy.balance,
      statement: statement.balance,
      list: members.members.find((member) => member.user_id === user.id)?.balance ?? 0,
      myTickets: my.balance,
      debts: debt?.balance ?? 0,
      users: listed.balance,
      csv: csvLine === null ? null : csvLine.split(';')[2],
    },
    owed: {
      myTickets: my.unpaidTotal,
      debts: debt?.total_debt ?? 0,
      users: listed.total_debt,
      payment: payment.status === 200 ? payment.body.amount : 0,
    },
    credit: my.credit,
    unpaid: {
      myTickets: my.tickets.filter((ticket) => ticket.state === 'unpaid').length,
      debts: debt?.unpaid_count ?? 0,
      list: members.members.find((member) => member.user_id === user.id)?.unpaid_count ?? 0,
      users: listed.unpaid_count,
    },
    openOnTickets: Object.fromEntries(my.tickets.map((ticket) => [ticket.id, ticket.open_amount])),
    paymentStatus: payment.status,
  };
}

/** Asserts that every view says the same: `balance` signed euros, `unpaid` tickets. */
async function expectAgreement(user: User, balance: number, unpaid: number) {
  const seen = await views(user);
  const owed = Math.max(0, balance);
  const csv = balance === 0 && seen.balances.csv === null ? null : balance.toFixed(2).replace('.', ',');
  expect(seen.balances).toEqual({
    ledgerMy: balance,
    statement: balance,
    list: balance,
    myTickets: balance,
    debts: balance,
    users: balance,
    csv,
  });
  expect(seen.owed).toEqual({ myTickets: owed, debts: owed, users: owed, payment: owed });
  expect(seen.credit).toBe(Math.max(0, -balance));
  expect(seen.unpaid).toEqual({ myTickets: unpaid, debts: unpaid, list: unpaid, users: unpaid });
  expect(seen.paymentStatus).toBe(owed > 0 ? 200 : 409);
  return seen;
}

describe('a paid report after a part payment', () => {
  it('books what is still open on the ticket, the request says so, and the balance is 0 in every view', async () => {
    const steffi = await t.member('Steffi');
    const row = await buy(steffi, await event('2030-05-02'), 21.5);
    await expectAgreement(steffi, 21.5, 1);
    await book(steffi, 'payment', 10);
    const afterPart = await expectAgreement(steffi, 11.5, 1);
    expect(afterPart.openOnTickets[row]).toBe(11.5);

    const reported = await t.call('PUT', `/api/tickets/${row}/request-paid`, { token: steffi.token });
    expect(reported.status).toBe(200);
    const pending = await t.callTyped(pendingRequestsAnswer, 'GET', '/api/admin/pending-paid-requests', { token: admin });
    expect(pending.requests.find((request) => request.id === row)).toMatchObject({ price: 21.5, open_amount: 11.5 });

    const accepted = await t.call('PUT', `/api/admin/accept-paid-request/${row}`, { token: admin });
    expect(accepted.status).toBe(200);
    const entries = await t.db
      .selectFrom('ledger')
      .select(['kind', 'amount_cents'])
      .where('attendee_id', '=', row)
      .orderBy('seq')
      .execute();
    expect(entries.map((entry) => [entry.kind, Number(entry.amount_cents)])).toEqual([
      ['ticket', 2150],
      ['payment', -1150],
    ]);
    const settled = await expectAgreement(steffi, 0, 0);
    expect(settled.openOnTickets[row]).toBe(0);

    // Unticking paid takes back only the booked 11,50 €: the part payment stays hers.
    const unticked = await t.call('PUT', `/api/attendees/${row}`, { token: admin, body: { paid: false } });
    expect(unticked.status).toBe(200);
    await expectAgreement(steffi, 11.5, 1);
  });

  it('a part payment goes to the oldest ticket, so a paid report on a newer one books its whole price', async () => {
    const fan = await t.member('Zweiticket');
    const older = await buy(fan, await event('2030-05-03'), 20);
    const newer = await buy(fan, await event('2030-05-10'), 30);
    await book(fan, 'payment', 5);
    const seen = await expectAgreement(fan, 45, 2);
    expect([seen.openOnTickets[older], seen.openOnTickets[newer]]).toEqual([15, 30]);
    expect((await t.call('PUT', `/api/attendees/${newer}`, { token: admin, body: { paid: true } })).status).toBe(200);
    const after = await expectAgreement(fan, 15, 1);
    expect(after.openOnTickets[older]).toBe(15);
  });
});

describe('every view agrees', () => {
  it('after an overpayment (credit, negative in the CSV), a ticket the credit pays, and the payment reversed', async () => {
    const fan = await t.member('Ueberzahler');
    const first = await buy(fan, await event('2030-06-01'), 20);
    const payment = await book(fan, 'payment', 50);
    await expectAgreement(fan, -30, 0);
    const second = await buy(fan, await event('2030-06-08'), 25);
    const paidByCredit = await expectAgreement(fan, -5, 0);
    expect([paidByCredit.openOnTickets[first], paidByCredit.openOnTickets[second]]).toEqual([0, 0]);
    const reversed = await t.call('POST', `/api/ledger/entries/${payment}/reverse`, { token: admin });
    expect(reversed.status).toBe(201);
    await expectAgreement(fan, 45, 2);
    await book(fan, 'charge', 7.25);
    await expectAgreement(fan, 52.25, 2);
  });

  it('after a returned ticket part-paid by its holder is accepted by the next in line', async () => {
    const holder = await t.member('Rueckgeber');
    const next = await t.member('Nachruecker');
    const eventId = await event('2030-07-01', { ticket_price: 25 });
    expect((await t.call('PUT', `/api/events/${eventId}/contingent`, { token: admin, body: { tickets: 1 } })).status).toBe(200);
    const holderRow = await t.call('POST', `/api/attendance/${eventId}`, {
      token: holder.token,
      body: { status: 'going', needs_ticket: true },
    });
    expect(holderRow.status).toBe(200);
    await expectAgreement(holder, 25, 1);
    await book(holder, 'payment', 10);
    await expectAgreement(holder, 15, 1);
    const waiting = await t.call('POST', `/api/attendance/${eventId}`, {
      token: next.token,
      body: { status: 'going', needs_ticket: true },
    });
    expect(waiting.status).toBe(200);
    const returned = await t.call('PUT', `/api/tickets/${holderRow.body.attendance.id}/return`, { token: holder.token });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    // Returned, not yet taken: the debt stays the holder's.
    await expectAgreement(holder, 15, 1);
    const offers = await t.call('GET', '/api/tickets/offers/my', { token: next.token });
    const accepted = await t.call('PUT', `/api/tickets/offers/${offers.body.offers[0].id}/accept`, { token: next.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await expectAgreement(holder, -10, 0);
    await expectAgreement(next, 25, 1);
  });
});

describe('GET /api/ledger/my/payment above what a GiroCode carries', () => {
  it('answers 409 ledgerAmountTooLarge, not 500', async () => {
    const rich = await t.member('Grossschuldner');
    // 48 charges of 21 million euros each (one entry stays within a 32-bit integer on PostgreSQL).
    await t.db
      .insertInto('ledger')
      .values(
        Array.from({ length: 48 }, (_, index) => ({
          id: newId(),
          user_id: rich.id,
          kind: 'charge' as const,
          amount_cents: 2_100_000_000,
          date: '2030-01-01',
          description: 'Test',
          event_id: null,
          attendee_id: null,
          reverses_id: null,
          created_by: null,
          created_at: new Date().toISOString(),
          seq: 900_000_000 + index,
          deleted: 0,
        })),
      )
      .execute();
    const res = await t.call('GET', '/api/ledger/my/payment', { token: rich.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, code: 'ledgerAmountTooLarge', message: MESSAGES.ledgerAmountTooLarge });
  });
});

describe('the debt block and the payment days', () => {
  it('a freshly allocated ticket does not block within the payment days; afterwards it does, with a message fit for any event', async () => {
    const fan = await t.member('Fristfan');
    const away = await event('2030-08-01', { ticket_price: 30 });
    expect(
      (await t.call('PUT', `/api/events/${away}/contingent`, { token: admin, body: { tickets: 5, payment_days: 7 } })).status,
    ).toBe(200);
    const asked = await t.call('POST', `/api/attendance/${away}`, {
      token: fan.token,
      body: { status: 'going', needs_ticket: true },
    });
    expect(asked.status).toBe(200);
    const row = await t.db
      .selectFrom('attendees')
      .select(['bought', 'paid'])
      .where('id', '=', asked.body.attendance.id)
      .executeTakeFirstOrThrow();
    expect([Number(row.bought), Number(row.paid)]).toEqual([1, 0]);

    const stammtisch = await event('2030-08-05');
    const signUp = await t.call('POST', `/api/attendance/${stammtisch}`, { token: fan.token, body: { status: 'going' } });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);

    // Eight days later the payment days have run out: the next new answer is blocked.
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await t.db
      .updateTable('ticket_requests')
      .set({ allocated_at: eightDaysAgo })
      .where('attendee_id', '=', asked.body.attendance.id)
      .execute();
    const later = await event('2030-08-12');
    const blocked = await t.call('POST', `/api/attendance/${later}`, { token: fan.token, body: { status: 'going' } });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('unpaidDebts');
    expect(MESSAGES.unpaidDebts).not.toMatch(/match/i);
    const guest = await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: later, guest_name: 'Kumpel' } });
    expect(guest.status).toBe(403);
  });

  it('a ticket bought outside a contingent blocks at once', async () => {
    const fan = await t.member('Sofortfan');
    await buy(fan, await event('2030-09-01'), 12);
    const refused = await t.call('POST', `/api/attendance/${await event('2030-09-08')}`, {
      token: fan.token,
      body: { status: 'going' },
    });
    expect(refused.status).toBe(403);
  });
});
