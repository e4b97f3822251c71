import {
  debtorOf,
  ledgerEntryAnswer,
  ledgerMembersAnswer,
  ledgerPaymentAnswer,
  ledgerStatementAnswer,
  MESSAGES,
  newId,
  ticketsCoveredBy,
  whatPaymentPays,
  type LedgerStatementAnswer,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../src/db/store.js';
import { ticketRowOf } from '../src/domain/tickets/tickets.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';
import { legacyUser, migrationDatabase } from './migration-steps.js';

/*
 * The ledger (docs/architecture.md, Ledger; docs/product.md, Tickets and money): its arithmetic, how
 * it follows the tickets, its agreement with the debt views, bad input and the migration's backfill.
 */

let t: TestApp;
let admin: string;
let commits: Commit[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  commits = [];
  t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
});
afterAll(() => t.close());

let eventCounter = 0;

/** A fresh event on a day of 2030 (`day` orders the tickets: the oldest event is paid first). */
async function event(day: string, title = `Auswärts ${++eventCounter} (A)`) {
  return (await createEventVia(t, admin, { title, date: `${day} 15:30` })).id;
}

/** The admin adds the member to an event and buys their ticket with the body's fields; returns the row id. */
async function buy(userId: string, eventId: string, body: Record<string, unknown>) {
  const added = await t.call('POST', `/api/events/${eventId}/attendees`, { token: admin, body: { user_id: userId } });
  expect(added.status).toBe(201);
  const id = added.body.attendance.id as string;
  await edit(id, { bought: true, ...body });
  return id;
}

async function edit(attendeeId: string, body: Record<string, unknown>) {
  const res = await t.call('PUT', `/api/attendees/${attendeeId}`, { token: admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const book = (body: Record<string, unknown>, token: string | null = admin) =>
  t.call('POST', '/api/ledger/entries', { token, body });

async function booked(body: Record<string, unknown>) {
  return (await t.callTyped(ledgerEntryAnswer, 'POST', '/api/ledger/entries', { token: admin, body, status: 201 })).entry;
}

const mine = (token: string) => t.callTyped(ledgerStatementAnswer, 'GET', '/api/ledger/my', { token });
const statementOfMember = (userId: string) =>
  t.callTyped(ledgerStatementAnswer, 'GET', `/api/ledger/members/${userId}`, { token: admin });

/** Whether the row is paid, and its open paid request, as stored. */
async function paidState(attendeeId: string) {
  const row = await t.db
    .selectFrom('attendees')
    .select(['paid', 'paid_requested'])
    .where('id', '=', attendeeId)
    .executeTakeFirstOrThrow();
  return { paid: Number(row.paid) === 1, requested: Number(row.paid_requested) === 1 };
}

/** The entries linked to a ticket, oldest first: kind and signed cents. */
async function entriesOfTicket(attendeeId: string) {
  const rows = await t.db
    .selectFrom('ledger')
    .select(['kind', 'amount_cents', 'user_id'])
    .where('attendee_id', '=', attendeeId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => `${row.kind} ${Number(row.amount_cents)}`);
}

/** The running balance of a statement must be the sum of its lines, in the statement's order. */
function expectRunningBalance(statement: LedgerStatementAnswer) {
  let sum = 0;
  for (const line of statement.entries) {
    sum = Math.round((sum + line.amount) * 100) / 100;
    expect(line.balance_after).toBeCloseTo(sum, 2);
  }
  expect(statement.balance).toBeCloseTo(sum, 2);
}

describe('the allocation rule', () => {
  const ticket = (id: string, charge: number, date: string) => ({ id, charge_cents: charge, event_date: date, created_at: '' });

  it('pays the oldest first, each only when covered fully, and stops at the first it cannot cover', () => {
    const unpaid = [ticket('b', 2000, '2030-02-01'), ticket('a', 1800, '2030-01-01'), ticket('c', 500, '2030-03-01')];
    // Nothing paid in: the balance is the charges.
    expect(ticketsCoveredBy(4300, unpaid)).toEqual([]);
    // 30 € in: a (18) yes, b (20) not with 12 left, so c waits behind b.
    expect(ticketsCoveredBy(1300, unpaid)).toEqual(['a']);
    expect(ticketsCoveredBy(500, unpaid)).toEqual(['a', 'b']);
    expect(ticketsCoveredBy(-100, unpaid)).toEqual(['a', 'b', 'c']);
    // A ticket without a charge (price open) is never paid by money.
    expect(ticketsCoveredBy(-100, [ticket('open', 0, '2030-01-01')])).toEqual([]);
  });

  it('says what one more payment pays: the tickets it completes and what is left as credit', () => {
    const unpaid = [ticket('b', 2000, '2030-02-01'), ticket('a', 1800, '2030-01-01'), ticket('c', 500, '2030-03-01')];
    expect(whatPaymentPays(4300, unpaid, 1000)).toEqual({ ticketIds: [], creditCents: 0 });
    // 12 € already in: 10 € more completes a; b still lacks 18 €.
    expect(whatPaymentPays(3100, unpaid, 1000)).toEqual({ ticketIds: ['a'], creditCents: 0 });
    expect(whatPaymentPays(4300, unpaid, 5000)).toEqual({ ticketIds: ['a', 'b', 'c'], creditCents: 700 });
    // In credit already: all of it is credit.
    expect(whatPaymentPays(-200, [], 1500)).toEqual({ ticketIds: [], creditCents: 1500 });
  });
});

describe('ledger arithmetic', () => {
  it('a payment across several tickets, partial cover, credit paying a later ticket, a manual charge and its reversal', async () => {
    const fan = await t.member('rechner');
    const first = await buy(fan.id, await event('2030-03-01'), { price: 18 });
    const second = await buy(fan.id, await event('2030-04-01'), { price: 20 });
    const third = await buy(fan.id, await event('2030-05-01'), { price: 25 });
    expect((await mine(fan.token)).balance).toBe(63);

    // 30 € pay the oldest ticket; the 12 € left do not cover the second, which stays unpaid.
    const payment = await booked({ user_id: fan.id, kind: 'payment', amount: 30, date: '2030-02-10', note: 'Überweisung' });
    expect(payment).toMatchObject({ kind: 'payment', amount: -30, date: '2030-02-10', description: 'Überweisung' });
    expect((await mine(fan.token)).balance).toBe(33);
    expect(await paidState(first)).toEqual({ paid: true, requested: false });
    expect((await paidState(second)).paid).toBe(false);
    // The money was already in: settling writes no payment for the ticket.
    expect(await entriesOfTicket(first)).toEqual(['ticket 1800']);

    // 40 € more: 52 € unused pay the second and the third; 7 € are left as credit.
    await booked({ user_id: fan.id, kind: 'payment', amount: 40, date: '2030-02-20' });
    expect((await mine(fan.token)).balance).toBe(-7);
    expect((await paidState(second)).paid).toBe(true);
    expect((await paidState(third)).paid).toBe(true);

    // The credit pays a later ticket as soon as it is bought …
    const fourth = await buy(fan.id, await event('2030-06-01'), { price: 5 });
    expect((await paidState(fourth)).paid).toBe(true);
    expect((await mine(fan.token)).balance).toBe(-2);
    // … but not one it does not cover.
    const fifth = await buy(fan.id, await event('2030-07-01'), { price: 10 });
    expect((await paidState(fifth)).paid).toBe(false);
    expect((await mine(fan.token)).balance).toBe(8);

    // A manual charge (the bus seat) raises the balance; its reversal takes it back.
    const bus = await booked({ user_id: fan.id, kind: 'charge', amount: 3.5, date: '2030-07-01', note: 'Busplatz' });
    expect((await mine(fan.token)).balance).toBe(11.5);
    const reversal = await t.callTyped(ledgerEntryAnswer, 'POST', `/api/ledger/entries/${bus.id}/reverse`, {
      token: admin,
      status: 201,
    });
    expect(reversal.message).toBe(MESSAGES.ledgerEntryReversedNow);
    expect(reversal.entry).toMatchObject({ kind: 'reversal', amount: -3.5, reverses_id: bus.id, description: 'Busplatz' });
    expect((await mine(fan.token)).balance).toBe(8);

    const statement = await mine(fan.token);
    expectRunningBalance(statement);
    // Ordered by day: the tickets count from the club's today, the payments from their days in 2030.
    const kinds = statement.entries.map((line) => line.kind);
    expect(kinds.slice(0, 5)).toEqual(['ticket', 'ticket', 'ticket', 'ticket', 'ticket']);
    expect(statement.entries.find((line) => line.id === bus.id)?.reversed).toBe(true);
    expect(statement.entries.find((line) => line.id === reversal.entry.id)?.reversed).toBe(false);
    // The admin's view of the member is the same statement.
    expect(await statementOfMember(fan.id)).toEqual(statement);
  });

  it('a credit booked first pays the next ticket; a refund and a charge raise the balance', async () => {
    const fan = await t.member('guthaben');
    await booked({ user_id: fan.id, kind: 'credit', amount: 50, note: 'Gutschrift Saisonabschluss' });
    expect((await mine(fan.token)).balance).toBe(-50);
    const ticket = await buy(fan.id, await event('2030-03-02'), { price: 18.5 });
    expect((await paidState(ticket)).paid).toBe(true);
    await booked({ user_id: fan.id, kind: 'refund', amount: 31.5, note: 'Rest ausgezahlt' });
    expect((await mine(fan.token)).balance).toBe(0);
    await booked({ user_id: fan.id, kind: 'charge', amount: 60, note: 'Mitgliedsbeitrag' });
    const statement = await mine(fan.token);
    expect(statement.balance).toBe(60);
    expectRunningBalance(statement);
    expect(statement.entries.map((line) => [line.kind, line.amount])).toEqual([
      ['credit', -50],
      ['ticket', 18.5],
      ['refund', 31.5],
      ['charge', 60],
    ]);
  });

  it('reversing a payment takes back what it paid, newest ticket first; what is left still pays the oldest', async () => {
    const fan = await t.member('storno');
    const older = await buy(fan.id, await event('2030-03-04'), { price: 18 });
    const newer = await buy(fan.id, await event('2030-03-05'), { price: 20 });
    await booked({ user_id: fan.id, kind: 'payment', amount: 18 });
    const mistake = await booked({ user_id: fan.id, kind: 'payment', amount: 20 });
    expect([(await paidState(older)).paid, (await paidState(newer)).paid]).toEqual([true, true]);
    expect((await mine(fan.token)).balance).toBe(0);

    commits = [];
    await t.callTyped(ledgerEntryAnswer, 'POST', `/api/ledger/entries/${mistake.id}/reverse`, { token: admin, status: 201 });
    expect([(await paidState(older)).paid, (await paidState(newer)).paid]).toEqual([true, false]);
    expect((await mine(fan.token)).balance).toBe(20);
    expect([...commits[0]!.collections].sort()).toEqual(['attendees', 'events', 'ledger']);
    // A credit pays the newer ticket again; a ticket the admin marked paid has its own payment, so
    // reversing the credit unpays the newer ticket, not the newest one.
    const credit = await booked({ user_id: fan.id, kind: 'credit', amount: 20 });
    expect((await paidState(newer)).paid).toBe(true);
    const ticked = await buy(fan.id, await event('2030-03-06'), { price: 7, paid: true });
    await t.callTyped(ledgerEntryAnswer, 'POST', `/api/ledger/entries/${credit.id}/reverse`, { token: admin, status: 201 });
    expect([(await paidState(older)).paid, (await paidState(newer)).paid, (await paidState(ticked)).paid]).toEqual([
      true,
      false,
      true,
    ]);
    expect((await mine(fan.token)).balance).toBe(20);
  });

  it('a payment settles the paid request of the ticket it pays', async () => {
    const fan = await t.member('anfrager');
    const ticket = await buy(fan.id, await event('2030-03-03'), { price: 12 });
    expect((await t.call('PUT', `/api/tickets/${ticket}/request-paid`, { token: fan.token })).status).toBe(200);
    expect(await paidState(ticket)).toEqual({ paid: false, requested: true });
    commits = [];
    await booked({ user_id: fan.id, kind: 'payment', amount: 12 });
    expect(await paidState(ticket)).toEqual({ paid: true, requested: false });
    const events = commits.flatMap((commit) => commit.events);
    expect(events.map((e) => e.type)).toEqual(['ledger.booked', 'ticket.paid']);
    expect([...commits[0]!.collections].sort()).toEqual(['attendees', 'events', 'ledger']);
    const tasks = await t.call('GET', '/api/admin/pending-paid-requests', { token: admin });
    expect(JSON.stringify(tasks.body)).not.toContain(ticket);
  });
});

describe('the admin marking a ticket paid', () => {
  it('books the payment of its price, reverses it when unticked, and follows a price change while paid', async () => {
    const fan = await t.member('bezahler');
    const ticket = await buy(fan.id, await event('2030-04-02'), { price: 18 });
    await edit(ticket, { paid: true });
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 1800', 'payment -1800']);
    expect((await mine(fan.token)).balance).toBe(0);

    // A paid ticket's payment is corrected in the attendee table, never reversed by hand.
    const statement = await mine(fan.token);
    for (const line of statement.entries) {
      const res = await t.call('POST', `/api/ledger/entries/${line.id}/reverse`, { token: admin });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('ledgerEntryFollowsTicket');
    }

    // A new price on a paid ticket: paid stays paid in full.
    await edit(ticket, { price: 20 });
    expect(await entriesOfTicket(ticket)).toEqual([
      'ticket 1800',
      'payment -1800',
      'reversal -1800',
      'ticket 2000',
      'reversal 1800',
      'payment -2000',
    ]);
    expect((await mine(fan.token)).balance).toBe(0);

    await edit(ticket, { paid: false });
    expect((await mine(fan.token)).balance).toBe(20);
    expect((await paidState(ticket)).paid).toBe(false);
    expectRunningBalance(await mine(fan.token));
  });

  it('accepting a paid request books the payment', async () => {
    const fan = await t.member('melder');
    const ticket = await buy(fan.id, await event('2030-04-03'), { price: 9.99 });
    expect((await t.call('PUT', `/api/tickets/${ticket}/request-paid`, { token: fan.token })).status).toBe(200);
    expect((await t.call('PUT', `/api/admin/accept-paid-request/${ticket}`, { token: admin })).status).toBe(200);
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 999', 'payment -999']);
    expect((await mine(fan.token)).balance).toBe(0);
  });

  it('a ticket ticked paid while its price was open gets its payment once the price is known', async () => {
    const fan = await t.member('offenzahler');
    const ticket = await buy(fan.id, await event('2030-04-04'), { is_price_tbd: true });
    await edit(ticket, { paid: true });
    expect(await entriesOfTicket(ticket)).toEqual([]);
    await edit(ticket, { price: 15 });
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 1500', 'payment -1500']);
    expect((await mine(fan.token)).balance).toBe(0);
  });
});

describe('the ledger follows the tickets', () => {
  it('buy, change the price, unbuy, buy again, and an admin deleting a bought row', async () => {
    const fan = await t.member('folger');
    const eventId = await event('2030-05-02');
    const ticket = await buy(fan.id, eventId, { price: 18 });
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 1800']);
    await edit(ticket, { price: 22.5 });
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 1800', 'reversal -1800', 'ticket 2250']);
    expect((await mine(fan.token)).balance).toBe(22.5);
    // An edit that leaves the ticket as it is writes nothing.
    await edit(ticket, { received: true });
    expect(await entriesOfTicket(ticket)).toHaveLength(3);
    await edit(ticket, { bought: false });
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 1800', 'reversal -1800', 'ticket 2250', 'reversal -2250']);
    expect((await mine(fan.token)).balance).toBe(0);
    // Free and price open charge nothing.
    await edit(ticket, { bought: true, is_free: true });
    await edit(ticket, { is_price_tbd: true });
    expect((await mine(fan.token)).balance).toBe(0);
    await edit(ticket, { price: 30 });
    expect((await mine(fan.token)).balance).toBe(30);

    const removed = await t.call('DELETE', `/api/attendance/${eventId}/user/${fan.id}`, { token: admin });
    expect(removed.status).toBe(200);
    expect((await entriesOfTicket(ticket)).at(-1)).toBe('reversal -3000');
    const statement = await mine(fan.token);
    expect(statement.balance).toBe(0);
    expectRunningBalance(statement);
  });

  it("a guest's ticket is charged to the member who brought them, and goes with the guest", async () => {
    const host = await t.member('gastgeberin');
    const eventId = await event('2030-05-03');
    const guest = await t.call('POST', '/api/guests', {
      token: admin,
      body: { event_id: eventId, guest_name: 'Kalle', brought_by: host.id },
    });
    expect(guest.status).toBe(201);
    const guestId = guest.body.guest.id as string;
    await edit(guestId, { bought: true, price: 7.75 });
    const statement = await mine(host.token);
    expect(statement.balance).toBe(7.75);
    expect(statement.entries[0]).toMatchObject({
      kind: 'ticket',
      event_id: eventId,
      description: expect.stringContaining('Kalle'),
    });
    expect((await t.call('DELETE', `/api/guests/${guestId}`, { token: admin })).status).toBe(200);
    expect((await mine(host.token)).balance).toBe(0);
  });

  it("a paid ticket that is no longer bought leaves its payment as the member's credit", async () => {
    const fan = await t.member('rueckgeber');
    const ticket = await buy(fan.id, await event('2030-05-04'), { price: 18, paid: true });
    expect(await entriesOfTicket(ticket)).toEqual(['ticket 1800', 'payment -1800']);
    await edit(ticket, { bought: false });
    expect((await mine(fan.token)).balance).toBe(-18);
    // The credit pays the member's next ticket.
    const next = await buy(fan.id, await event('2030-05-05'), { price: 18 });
    expect((await paidState(next)).paid).toBe(true);
    expect((await mine(fan.token)).balance).toBe(0);
  });

  it('pulls only the member’s own entries through sync', async () => {
    const fan = await t.member('sync-fan');
    const other = await t.member('sync-other');
    await booked({ user_id: fan.id, kind: 'charge', amount: 4 });
    await booked({ user_id: other.id, kind: 'charge', amount: 5 });
    const res = await t.call('POST', '/api/sync/ledger/0/pull', { token: fan.token, body: { checkpoint: null, limit: 1000 } });
    expect(res.status).toBe(200);
    const documents = res.body.documents as { user_id: string; amount_cents: number }[];
    expect(documents.length).toBeGreaterThan(0);
    expect(documents.every((doc) => doc.user_id === fan.id)).toBe(true);
    expect(documents.map((doc) => doc.amount_cents)).toEqual([400]);
  });
});

describe('agreement with the debt views', () => {
  it('for ticket-only data the balance is the debt of /my-tickets, /debts and the user table', async () => {
    const jurgen = await t.member('juergen-ledger');
    const other = await t.member('oezlem-ledger');
    await buy(jurgen.id, await event('2030-06-02'), { price: 18.5 });
    await buy(jurgen.id, await event('2030-06-03'), { price: 22, paid: true });
    const archivedEvent = await event('2030-06-04');
    await buy(jurgen.id, archivedEvent, { price: 10.25 });
    await buy(jurgen.id, await event('2030-06-05'), { is_price_tbd: true });
    const unticked = await buy(jurgen.id, await event('2030-06-06'), { price: 5, paid: true });
    await edit(unticked, { paid: false });
    const requested = await buy(jurgen.id, await event('2030-06-07'), { price: 11 });
    expect((await t.call('PUT', `/api/tickets/${requested}/request-paid`, { token: jurgen.token })).status).toBe(200);
    expect((await t.call('PUT', `/api/admin/accept-paid-request/${requested}`, { token: admin })).status).toBe(200);
    const guestEvent = await event('2030-06-08');
    const guest = await t.call('POST', '/api/guests', {
      token: admin,
      body: { event_id: guestEvent, guest_name: 'Paula', brought_by: jurgen.id },
    });
    await edit(guest.body.guest.id, { bought: true, price: 7.75 });
    const changed = await buy(jurgen.id, await event('2030-06-09'), { price: 40 });
    await edit(changed, { price: 35 });
    await buy(other.id, await event('2030-06-10'), { price: 30 });
    expect((await t.call('DELETE', `/api/events/${archivedEvent}`, { token: admin })).status).toBe(200);

    const total = 18.5 + 10.25 + 5 + 7.75 + 35;
    for (const member of [jurgen, other]) {
      const ledger = await mine(member.token);
      const tickets = await t.call('GET', '/api/tickets/my', { token: member.token });
      const debts = await t.call('GET', '/api/tickets/debts', { token: admin });
      const debt = debts.body.debts.find((d: { user_id: string }) => d.user_id === member.id);
      const users = await t.call('GET', '/api/auth/users', { token: admin });
      const listed = users.body.users.find((u: { id: string }) => u.id === member.id);
      const balances = await t.callTyped(ledgerMembersAnswer, 'GET', '/api/ledger', { token: admin });
      const row = balances.members.find((m) => m.user_id === member.id)!;
      expect(ledger.balance).toBeCloseTo(tickets.body.unpaidTotal, 2);
      expect(ledger.balance).toBeCloseTo(debt.total_debt, 2);
      expect(ledger.balance).toBeCloseTo(listed.total_debt, 2);
      expect(row.balance).toBeCloseTo(ledger.balance, 2);
      expect(row.unpaid_count).toBe(debt.unpaid_count);
      expect(row.open_price_count).toBe(debt.open_price_count);
      expectRunningBalance(ledger);
    }
    expect((await mine(jurgen.token)).balance).toBeCloseTo(total, 2);
    expect((await mine(other.token)).balance).toBe(30);
  });

  it('lists every active member and anyone else with a balance, largest first', async () => {
    const balances = await t.callTyped(ledgerMembersAnswer, 'GET', '/api/ledger', { token: admin });
    const values = balances.members.map((m) => m.balance);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const active = await t.call('GET', '/api/auth/users', { token: admin });
    for (const user of active.body.users as { id: string; username: string }[]) {
      expect(balances.members.find((m) => m.user_id === user.id)?.username).toBe(user.username);
    }
    // A member who owes is not erased: the debt stays on the list until it is settled or written off.
    const leaver = await t.member('ausgetreten');
    await booked({ user_id: leaver.id, kind: 'charge', amount: 12 });
    const refused = await t.call('DELETE', `/api/auth/users/${leaver.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('erasureBalanceOpen');
    const after = await t.callTyped(ledgerMembersAnswer, 'GET', '/api/ledger', { token: admin });
    expect(after.members.find((m) => m.user_id === leaver.id)).toMatchObject({ username: 'ausgetreten', balance: 12 });
    // Written off, the account is erased; its statement stays under the pseudonym, settled.
    await booked({ user_id: leaver.id, kind: 'credit', amount: 12 });
    expect((await t.call('DELETE', `/api/auth/users/${leaver.id}`, { token: admin })).status).toBe(200);
    const settled = await t.callTyped(ledgerMembersAnswer, 'GET', '/api/ledger', { token: admin });
    expect(settled.members.find((m) => m.user_id === leaver.id)).toBeUndefined();
    expect((await statementOfMember(leaver.id)).balance).toBe(0);
    expect((await statementOfMember(leaver.id)).entries).toHaveLength(2);
  });
});

describe('GET /api/ledger/my/payment', () => {
  it('answers 409 when nothing is owed or the club has no account, else the balance with its reference and EPC payload', async () => {
    const fan = await t.member('ueberweiser');
    const nothing = await t.call('GET', '/api/ledger/my/payment', { token: fan.token });
    expect(nothing.status).toBe(409);
    expect(nothing.body).toEqual({ success: false, code: 'ledgerNothingOwed', message: MESSAGES.ledgerNothingOwed });
    await buy(fan.id, await event('2030-08-01', 'Hertha BSC (A)'), { price: 18.5 });
    await t.db.deleteFrom('settings').where('key', 'in', ['account_holder', 'iban', 'bic']).execute();
    const noAccount = await t.call('GET', '/api/ledger/my/payment', { token: fan.token });
    expect(noAccount.status).toBe(409);
    expect(noAccount.body.code).toBe('ledgerNoClubAccount');
    await t.db
      .insertInto('settings')
      .values([
        { key: 'account_holder', value: 'Eiserne Fans e.V.' },
        { key: 'iban', value: 'DE89370400440532013000' },
      ])
      .execute();
    const payment = await t.callTyped(ledgerPaymentAnswer, 'GET', '/api/ledger/my/payment', { token: fan.token });
    expect(payment.amount).toBe(18.5);
    expect(payment.reference).toContain('ueberweiser');
    expect(payment.reference).toContain('Hertha BSC (A) 01.08.');
    expect(payment.epc.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      '',
      'Eiserne Fans e.V.',
      'DE89370400440532013000',
      'EUR18.5',
      '',
      '',
      payment.reference,
    ]);
  });
});

describe('bad input', () => {
  let fan: { id: string; token: string };
  beforeAll(async () => {
    fan = await t.member('falsch');
  });

  const everything = async () => ({
    ledger: await t.db.selectFrom('ledger').selectAll().orderBy('id').execute(),
    counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
  });
  const valid = () => ({ user_id: fan.id, kind: 'payment', amount: 10, date: '2030-01-02', note: 'ok' });

  it.each([
    ['three decimals', { amount: 10.005 }, 400, 'moneyTooPrecise'],
    ['a negative amount', { amount: -5 }, 400, 'ledgerAmountInvalid'],
    ['zero', { amount: 0 }, 400, 'ledgerAmountInvalid'],
    ['too much', { amount: 100000.01 }, 400, 'ledgerAmountInvalid'],
    ['an amount as text', { amount: '10' }, 400, 'ledgerAmountInvalid'],
    ['an unknown user', { user_id: newId() }, 404, 'userNotFound'],
    ['no user', { user_id: undefined }, 400, 'userNotFound'],
    ['a day that does not exist', { date: '2030-02-30' }, 400, 'ledgerDateInvalid'],
    ['a date with a time', { date: '2030-02-03 10:00' }, 400, 'ledgerDateInvalid'],
    ['a year out of range', { date: '1999-12-31' }, 400, 'ledgerDateInvalid'],
    ['the kind ticket', { kind: 'ticket' }, 400, 'ledgerKindInvalid'],
    ['the kind reversal', { kind: 'reversal' }, 400, 'ledgerKindInvalid'],
    ['an unknown kind', { kind: 'gift' }, 400, 'ledgerKindInvalid'],
    ['a note with a control character', { note: 'a\u0007b' }, 400, 'textHasControlCharacters'],
    ['a note too long', { note: 'x'.repeat(201) }, 400, 'ledgerNoteTooLong'],
    ['an unknown field', { extra: 1 }, 400, 'invalidInput'],
  ])('refuses %s with a clear message and writes nothing', async (_name, change, status, code) => {
    const before = await everything();
    const res = await book({ ...valid(), ...change });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toContain(code in MESSAGES ? MESSAGES[code as keyof typeof MESSAGES] : '');
    expect(await everything()).toEqual(before);
  });

  it('refuses a pending registration as the member', async () => {
    const registered = await t.call('POST', '/api/auth/register', {
      body: { username: 'wartend', email: 'wartend@example.org', password: 'pending-pass' },
    });
    const before = await everything();
    const res = await book({ ...valid(), user_id: registered.body.user.id });
    expect(res.status).toBe(404);
    expect(await everything()).toEqual(before);
  });

  it('reversing: 404 for an unknown entry, 409 for a reversal and for one already reversed, nothing written', async () => {
    const unknown = await t.call('POST', `/api/ledger/entries/${newId()}/reverse`, { token: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('ledgerEntryNotFound');
    const entry = await booked(valid());
    const reversal = await t.callTyped(ledgerEntryAnswer, 'POST', `/api/ledger/entries/${entry.id}/reverse`, {
      token: admin,
      status: 201,
    });
    const before = await everything();
    const again = await t.call('POST', `/api/ledger/entries/${entry.id}/reverse`, { token: admin });
    expect([again.status, again.body.code]).toEqual([409, 'ledgerEntryReversed']);
    const ofReversal = await t.call('POST', `/api/ledger/entries/${reversal.entry.id}/reverse`, { token: admin });
    expect([ofReversal.status, ofReversal.body.code]).toEqual([409, 'ledgerReversalOfReversal']);
    expect(await everything()).toEqual(before);
  });

  it('an unknown member on the statement route is 404', async () => {
    const res = await t.call('GET', `/api/ledger/members/${newId()}`, { token: admin });
    expect([res.status, res.body.code]).toEqual([404, 'userNotFound']);
  });
});

describe('migration 014: the backfill', () => {
  it('books every bought ticket with a known price and the payment of every paid one, so balances are the debts', async () => {
    const { db, migrateTo, close } = await migrationDatabase();
    try {
      await migrateTo('013_shared_counters');
      const at = '2025-01-01T00:00:00.000Z';
      const user = (id: string) => legacyUser(id, at);
      await db
        .insertInto('users')
        .values([user('anna'), user('bernd')])
        .execute();
      const ev = (id: string, deleted = 0) => ({
        id,
        title: `Spiel ${id}`,
        date: '2025-03-01 15:30:00',
        location: 'X',
        created_at: at,
        updated_at: at,
        seq: 2,
        deleted,
      });
      await db
        .insertInto('events')
        .values([ev('e1'), ev('e2'), ev('gone', 1)])
        .execute();
      const row = (id: string, fields: Record<string, unknown>) => ({
        id,
        event_id: 'e1',
        user_id: null,
        guest_name: null,
        brought_by: null,
        status: 'going',
        price_cents: null,
        is_free: 0,
        is_price_tbd: 0,
        bought: 0,
        paid: 0,
        deleted: 0,
        created_at: '2025-02-01T10:00:00.000Z',
        updated_at: '2025-02-03T10:00:00.000Z',
        seq: 3,
        ...fields,
      });
      await db
        .insertInto('attendees')
        .values([
          row('a-unpaid', { user_id: 'anna', bought: 1, price_cents: 1850 }),
          row('a-paid', { user_id: 'anna', event_id: 'e2', bought: 1, paid: 1, price_cents: 2000 }),
          row('a-guest', { guest_name: 'Kalle', brought_by: 'anna', bought: 1, price_cents: 775 }),
          row('a-open', { user_id: 'bernd', bought: 1, is_price_tbd: 1 }),
          row('a-free', { user_id: 'bernd', event_id: 'e2', bought: 1, is_free: 1, price_cents: 0 }),
          row('a-not-bought', { guest_name: 'Mia', brought_by: 'bernd', price_cents: 1000 }),
          row('a-deleted', { user_id: 'bernd', bought: 1, price_cents: 999, deleted: 1 }),
          row('a-gone-event', { user_id: 'bernd', event_id: 'gone', bought: 1, price_cents: 999 }),
        ])
        .execute();
      const counterBefore = Number((await db.selectFrom('counters').select('value').executeTakeFirstOrThrow()).value);

      await migrateTo('014_ledger');

      const entries = await db.selectFrom('ledger').selectAll().orderBy('seq').execute();
      const dated = (id: string, kind: string) => entries.find((e: any) => e.attendee_id === id && e.kind === kind)?.date;
      // A ticket counts from the row's creation day, its payment from the row's last change.
      expect([dated('a-paid', 'ticket'), dated('a-paid', 'payment')]).toEqual(['2025-02-01', '2025-02-03']);
      expect(new Set(entries.map((e: any) => `${e.attendee_id} ${e.kind} ${Number(e.amount_cents)} ${e.user_id}`))).toEqual(
        new Set(['a-unpaid ticket 1850 anna', 'a-paid ticket 2000 anna', 'a-paid payment -2000 anna', 'a-guest ticket 775 anna']),
      );
      expect(entries.find((e: any) => e.attendee_id === 'a-guest')?.description).toBe('Spiel e1 · Kalle');
      // Each entry its own seq above what the counter had; the counter moved on past them.
      const seqs = entries.map((e: any) => Number(e.seq));
      expect(seqs).toEqual([counterBefore + 1, counterBefore + 2, counterBefore + 3, counterBefore + 4]);
      expect(Number((await db.selectFrom('counters').select('value').executeTakeFirstOrThrow()).value)).toBe(counterBefore + 4);

      // The balances are the debts: the prices of the bought, unpaid tickets of the same rows.
      const rows: any[] = await db
        .selectFrom('attendees')
        .selectAll()
        .where('deleted', '=', 0)
        .where('event_id', '!=', 'gone')
        .execute();
      const debts = new Map<string, number>();
      for (const ticket of rows.map((row) => ticketRowOf(row))) {
        const debtor = debtorOf(ticket);
        if (ticket.bought && !ticket.paid && debtor !== null)
          debts.set(debtor, (debts.get(debtor) ?? 0) + (ticket.price_cents ?? 0));
      }
      for (const id of ['anna', 'bernd']) {
        const balance = entries
          .filter((e: any) => e.user_id === id)
          .reduce((sum: number, e: any) => sum + Number(e.amount_cents), 0);
        expect(balance, id).toBe(debts.get(id) ?? 0);
      }
    } finally {
      await close();
    }
  });
});
