import { MESSAGES, seasonAccountsAnswer, seasonOf, todayIn, type SeasonAccountsAnswer } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsOf } from '../src/domain/money/seasonAccounts.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * The season's accounts (docs/architecture.md, Ledger, "Season accounts"): GET /api/ledger/accounts
 * adds up a season's ledger entries (1 July to 30 June, by the entry's day) per event and per other
 * kind of money, with totals and every member's balance at the season's end. The app dates what it
 * books itself (tickets, bulk charges, reversals) today, so the tests move those entries to the
 * season they look at; each part of the test uses a season of its own. (Who may call it: the
 * permission matrix, and the last part here.)
 */

let t: TestApp;
let admin: string;

type Accounts = SeasonAccountsAnswer['accounts'];

const accounts = async (season?: number | string): Promise<Accounts> =>
  (
    await t.callTyped(
      seasonAccountsAnswer,
      'GET',
      season === undefined ? '/api/ledger/accounts' : `/api/ledger/accounts?season=${season}`,
      { token: admin, status: 200 },
    )
  ).accounts;

const book = async (body: Record<string, unknown>): Promise<string> => {
  const res = await t.call('POST', '/api/ledger/entries', { token: admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.entry.id as string;
};

const reverse = async (entryId: string): Promise<string> => {
  const res = await t.call('POST', `/api/ledger/entries/${entryId}/reverse`, { token: admin });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.entry.id as string;
};

/** Arranging: an entry the app dated today moved to the day the test needs. */
const redate = (ids: { event_id?: string; id?: string }, date: string) => {
  let query = t.db.updateTable('ledger').set({ date });
  if (ids.event_id) query = query.where('event_id', '=', ids.event_id);
  if (ids.id) query = query.where('id', '=', ids.id);
  return query.execute();
};

const ledgerCount = async () => (await t.db.selectFrom('ledger').select('id').execute()).length;

const balanceOf = (report: Accounts, userId: string) => report.balances.find((line) => line.user_id === userId)?.open;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe("an event's figures", () => {
  let anna: { id: string; token: string };
  let bert: { id: string; token: string };
  let eventId: string;

  beforeAll(async () => {
    anna = await t.member('konto-anna');
    bert = await t.member('konto-bert');
    eventId = (await createEventVia(t, admin, { title: 'Auswärts in Bochum (A)', date: '2030-09-14 15:30' })).id;
    const rows: Record<string, string> = {};
    for (const member of [anna, bert]) {
      const added = await t.call('POST', `/api/events/${eventId}/attendees`, { token: admin, body: { user_id: member.id } });
      expect(added.status).toBe(201);
      rows[member.id] = added.body.attendance.id;
    }
    const edit = async (member: { id: string }, body: Record<string, unknown>) =>
      expect((await t.call('PUT', `/api/attendees/${rows[member.id]}`, { token: admin, body })).status).toBe(200);
    // Anna's ticket at 18 €, then at 16 €: the 18 € are reversed and 16 € booked.
    await edit(anna, { bought: true, price: 18 });
    await edit(anna, { price: 16 });
    // Bert's ticket at 20 €, marked paid: a payment of 20 € tied to the event.
    await edit(bert, { bought: true, price: 20 });
    await edit(bert, { paid: true });
    // 5 € each for the flag, and Bert's share reversed on its own.
    const charge = await t.call('POST', '/api/ledger/charges', {
      token: admin,
      body: { target: { event_id: eventId }, amount: 5, note: 'Fahne' },
    });
    expect(charge.status).toBe(201);
    const bertsShare = charge.body.entries.find((entry: { user_id: string }) => entry.user_id === bert.id).id as string;
    await reverse(bertsShare);
    await redate({ event_id: eventId }, '2030-09-10');
  });

  it('adds up the tickets and charges, the payments and the reversals, each reversal against its kind', async () => {
    const report = await accounts(2030);
    expect(report).toMatchObject({ season: '2030/31', from: '2030-07-01', to: '2031-06-30' });
    // Charged: 18 − 18 + 16 (Anna's ticket) + 20 (Bert's) + 5 + 5 − 5 (the flag) = 41 €; collected: Bert's 20 €.
    expect(report.events).toEqual([
      {
        event_id: eventId,
        title: 'Auswärts in Bochum (A)',
        date: '2030-09-14 15:30:00',
        charged: 4100,
        collected: 2000,
        credited: 0,
        refunded: 0,
        open: 2100,
      },
    ]);
    expect(report.other.every((line) => line.entries === 0 && line.amount === 0)).toBe(true);
    expect(report.totals).toEqual({ charged: 4100, collected: 2000, credited: 0, refunded: 0, open: 2100 });
    // At the season's end Anna owes her ticket and her share of the flag; Bert owes nothing and is not listed.
    expect(balanceOf(report, anna.id)).toBe(2100);
    expect(balanceOf(report, bert.id)).toBeUndefined();
    expect(report.balances.find((line) => line.user_id === anna.id)?.username).toBe('konto-anna');
  });

  it('counts a reversal in the season of its own day: a charge reversed next season lowers that season', async () => {
    const reversal = await t.db
      .selectFrom('ledger')
      .select('id')
      .where('event_id', '=', eventId)
      .where('kind', '=', 'reversal')
      .where('user_id', '=', bert.id)
      .executeTakeFirstOrThrow();
    await redate({ id: reversal.id }, '2031-07-01');
    try {
      expect((await accounts(2030)).events[0]).toMatchObject({ charged: 4600, collected: 2000, open: 2600 });
      const next = await accounts(2031);
      expect(next.events).toEqual([expect.objectContaining({ event_id: eventId, charged: -500, collected: 0, open: -500 })]);
      expect(next.totals.open).toBe(-500);
    } finally {
      await redate({ id: reversal.id }, '2030-09-10');
    }
  });
});

describe('the other kinds of money', () => {
  let carl: { id: string; token: string };
  let eve: { id: string; token: string };

  beforeAll(async () => {
    carl = await t.member('konto-carl');
    eve = await t.member('konto-eve');
    await book({ user_id: carl.id, kind: 'charge', amount: 12, date: '2032-08-01', note: 'Busplatz' });
    await book({ user_id: carl.id, kind: 'payment', amount: 10, date: '2032-08-02', note: 'Überweisung' });
    await book({ user_id: carl.id, kind: 'credit', amount: 3, date: '2032-08-03', note: 'Helfer' });
    await book({ user_id: carl.id, kind: 'refund', amount: 1, date: '2032-08-04', note: 'Auszahlung' });
    const mistaken = await book({ user_id: carl.id, kind: 'payment', amount: 7, date: '2032-08-05', note: 'Vertippt' });
    await redate({ id: await reverse(mistaken) }, '2032-08-06');
    await book({ user_id: eve.id, kind: 'credit', amount: 5, date: '2033-06-30', note: 'Gutschein' });
  });

  it('lists charges, payments, credits and refunds tied to no event, a reversed payment lowering the payments', async () => {
    const report = await accounts('2032');
    expect(report.events).toEqual([]);
    expect(report.other).toEqual([
      { kind: 'charge', entries: 1, amount: 1200 },
      // Two payments and the reversal of one: 10 + 7 − 7 €.
      { kind: 'payment', entries: 3, amount: 1000 },
      { kind: 'credit', entries: 2, amount: 800 },
      { kind: 'refund', entries: 1, amount: 100 },
    ]);
    // open = 12 − 10 − 8 + 1 = −5 €: what members owe fell by 5 € in the season.
    expect(report.totals).toEqual({ charged: 1200, collected: 1000, credited: 800, refunded: 100, open: -500 });
  });

  it("gives each member's balance at the season's end: earlier seasons included, zero left out, credit negative and last", async () => {
    const report = await accounts(2032);
    // Carl: 12 − 10 − 3 + 1 − 7 + 7 = 0 €.
    expect(balanceOf(report, carl.id)).toBeUndefined();
    expect(balanceOf(report, eve.id)).toBe(-500);
    // Anna's debt of season 2030/31 is still open at the end of 2032/33.
    const anna = report.balances.find((line) => line.username === 'konto-anna');
    expect(anna?.open).toBe(2100);
    expect(report.balances.at(-1)).toMatchObject({ user_id: eve.id, open: -500 });
    expect(report.balances.every((line) => line.open !== 0)).toBe(true);
    // The season before knew neither Carl's nor Eve's entries.
    const before = await accounts(2031);
    expect(balanceOf(before, eve.id)).toBeUndefined();
    expect(before.other.every((line) => line.entries === 0)).toBe(true);
  });
});

describe("the season's boundaries", () => {
  let dora: { id: string; token: string };

  beforeAll(async () => {
    dora = await t.member('konto-dora');
    await book({ user_id: dora.id, kind: 'payment', amount: 0.5, date: '2034-07-01' });
    await book({ user_id: dora.id, kind: 'charge', amount: 1, date: '2035-06-30' });
    await book({ user_id: dora.id, kind: 'charge', amount: 2, date: '2035-07-01' });
  });

  it('takes 1 July into the season it starts and 30 June into the season it ends', async () => {
    const first = await accounts(2034);
    expect(first).toMatchObject({ season: '2034/35', from: '2034-07-01', to: '2035-06-30' });
    expect(first.other).toEqual([
      { kind: 'charge', entries: 1, amount: 100 },
      { kind: 'payment', entries: 1, amount: 50 },
      { kind: 'credit', entries: 0, amount: 0 },
      { kind: 'refund', entries: 0, amount: 0 },
    ]);
    expect(balanceOf(first, dora.id)).toBe(50);

    const second = await accounts(2035);
    expect(second).toMatchObject({ season: '2035/36', from: '2035-07-01', to: '2036-06-30' });
    expect(second.other[0]).toEqual({ kind: 'charge', entries: 1, amount: 200 });
    expect(second.other[1]).toEqual({ kind: 'payment', entries: 0, amount: 0 });
    expect(balanceOf(second, dora.id)).toBe(250);

    const before = await accounts(2033);
    expect(balanceOf(before, dora.id)).toBeUndefined();
  });

  it('answers the season of the club’s today when none is given', async () => {
    const report = await accounts();
    const year = Number(seasonOf(todayIn(t.runtime.deps.config.clubTimeZone)).slice(0, 4));
    expect(report).toMatchObject({ season: seasonOf(`${year}-07-01`), from: `${year}-07-01`, to: `${year + 1}-06-30` });
  });
});

describe('a bad season', () => {
  it.each([['25'], ['20255'], ['abcd'], ['1999'], ['2101'], ['2025.0'], ['-202'], ['']])(
    'refuses %j with 400 ledgerSeasonInvalid and changes nothing',
    async (season) => {
      const before = await ledgerCount();
      const res = await t.call('GET', `/api/ledger/accounts?season=${encodeURIComponent(season)}`, { token: admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code: 'ledgerSeasonInvalid', message: MESSAGES.ledgerSeasonInvalid });
      expect(await ledgerCount()).toBe(before);
    },
  );

  it('takes the first and the last year of the range', async () => {
    expect((await accounts(2000)).season).toBe('2000/01');
    expect((await accounts(2100)).to).toBe('2101-06-30');
  });
});

describe('who may read the accounts', () => {
  it('refuses an anonymous caller (401) and a member (403, also with a bad season), and answers an admin', async () => {
    const member = await t.member('konto-fan');
    const anonymous = await t.call('GET', '/api/ledger/accounts?season=2030');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.success).toBe(false);
    for (const query of ['?season=2030', '?season=abcd', '']) {
      const res = await t.call('GET', `/api/ledger/accounts${query}`, { token: member.token });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MESSAGES.adminRequired);
      expect(res.body.accounts).toBeUndefined();
    }
    expect((await t.call('GET', '/api/ledger/accounts?season=2030', { token: admin })).status).toBe(200);
  });
});

describe('the rule behind the report', () => {
  it('counts a reversal whose entry is unknown by its sign', () => {
    const report = accountsOf(
      2040,
      [
        { event_id: null, kind: 'reversal', reversed_kind: null, cents: 300, entries: 1 },
        { event_id: null, kind: 'reversal', reversed_kind: null, cents: -200, entries: 1 },
      ],
      new Map(),
      [],
      new Map(),
    );
    expect(report.totals).toEqual({ charged: -200, collected: -300, credited: 0, refunded: 0, open: 100 });
    expect(report.other.slice(0, 2)).toEqual([
      { kind: 'charge', entries: 1, amount: -200 },
      { kind: 'payment', entries: 1, amount: -300 },
    ]);
  });
});
