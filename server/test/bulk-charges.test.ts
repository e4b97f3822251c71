import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitCents } from '../src/domain/money/bulkCharges.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Bulk charges (docs/architecture.md, Ledger, "Bulk charges"): POST /api/ledger/charges charges all
 * active members, everyone going to an event or a transport option's passengers, an amount each or a
 * total split evenly; POST /api/ledger/charges/{id}/reverse takes every entry back. Bad input says
 * what is wrong and books nothing. (Who may call them: the permission matrix.)
 */

let t: TestApp;
let admin: string;
let anna: { id: string; token: string };
let bert: { id: string; token: string };
let carl: { id: string; token: string };
let eventId: string;
let transportId: string;

const charge = (body: unknown) => t.call('POST', '/api/ledger/charges', { token: admin, body });
const chargesOf = async (userId: string) =>
  t.db
    .selectFrom('ledger')
    .select(['amount_cents', 'description', 'kind'])
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();
const ledgerCount = async () => (await t.db.selectFrom('ledger').select('id').execute()).length;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  anna = await t.member('bulk-anna');
  bert = await t.member('bulk-bert');
  carl = await t.member('bulk-carl');
  eventId = (await createEventVia(t, admin, { title: 'Away at Union (A)', date: '2031-05-01 15:30' })).id;
  for (const member of [anna, bert]) {
    expect((await t.call('POST', `/api/attendance/${eventId}`, { token: member.token, body: { status: 'going' } })).status).toBe(
      200,
    );
  }
  expect(
    (await t.call('POST', '/api/guests', { token: anna.token, body: { event_id: eventId, guest_name: 'Zoe' } })).status,
  ).toBe(201);
  transportId = (
    await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: eventId, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 10 },
    })
  ).body.transport.id;
  const reserved = await t.call('PUT', `/api/attendance/${eventId}/user/${bert.id}/transfer-status`, {
    token: admin,
    body: { transfer_status: 'reserved' },
  });
  expect(reserved.status).toBe(200);
});
afterAll(() => t.close());

describe('a bulk charge', () => {
  it('splits a total evenly, the cents that do not divide to the first', () => {
    expect(splitCents(1000, 3)).toEqual([334, 333, 333]);
    expect(splitCents(1001, 3)).toEqual([334, 334, 333]);
    expect(splitCents(900, 3)).toEqual([300, 300, 300]);
  });

  it('charges every active member an amount each', async () => {
    const res = await charge({ target: { all_members: true }, amount: 24, note: 'Mitgliedsbeitrag 2031' });
    expect(res.status).toBe(201);
    const charged = new Set(res.body.entries.map((entry: { user_id: string }) => entry.user_id));
    for (const member of [anna, bert, carl]) expect(charged.has(member.id)).toBe(true);
    expect(res.body.total).toBe(24 * res.body.entries.length);
    expect(await chargesOf(carl.id)).toEqual([{ amount_cents: 2400, description: 'Mitgliedsbeitrag 2031', kind: 'charge' }]);
  });

  it("splits a total over everyone going to an event, a guest's share to the member who brought them", async () => {
    const res = await charge({ target: { event_id: eventId }, total: 10, note: 'Fahne' });
    expect(res.status).toBe(201);
    expect(res.body.total).toBe(10);
    // By name: anna, her guest Zoe, bert; the odd cent to the first.
    expect(
      res.body.entries.map((entry: { user_id: string; amount: number; description: string }) => [
        entry.user_id,
        entry.amount,
        entry.description,
      ]),
    ).toEqual([
      [anna.id, 3.34, 'Fahne'],
      [anna.id, 3.33, 'Fahne (Zoe)'],
      [bert.id, 3.33, 'Fahne'],
    ]);
    expect(res.body.entries.every((entry: { event_id: string }) => entry.event_id === eventId)).toBe(true);
  });

  it("charges a transport option's passengers (a reserved seat) the fare, and its reversal takes every entry back", async () => {
    const res = await charge({ target: { transport_id: transportId }, amount: 10, note: 'Busfahrt' });
    expect(res.status).toBe(201);
    expect(res.body.entries.map((entry: { user_id: string }) => entry.user_id)).toEqual([bert.id]);

    const reversed = await t.call('POST', `/api/ledger/charges/${res.body.id}/reverse`, { token: admin });
    expect(reversed.status).toBe(201);
    expect(reversed.body.entries).toEqual([expect.objectContaining({ user_id: bert.id, kind: 'reversal', amount: -10 })]);
    const again = await t.call('POST', `/api/ledger/charges/${res.body.id}/reverse`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MESSAGES.chargeReversed);
  });

  it('does not reverse twice an entry an admin reversed on its own', async () => {
    const res = await charge({ target: { event_id: eventId }, amount: 1, note: 'Aufkleber' });
    const first = res.body.entries[0].id as string;
    expect((await t.call('POST', `/api/ledger/entries/${first}/reverse`, { token: admin })).status).toBe(201);
    const reversed = await t.call('POST', `/api/ledger/charges/${res.body.id}/reverse`, { token: admin });
    expect(reversed.body.entries).toHaveLength(res.body.entries.length - 1);
    const reversalsOfFirst = await t.db.selectFrom('ledger').select('id').where('reverses_id', '=', first).execute();
    expect(reversalsOfFirst).toHaveLength(1);
  });

  const emptyEvent = async () => (await createEventVia(t, admin, { title: 'Nobody goes (H)', date: '2031-06-01 15:30' })).id;

  it.each([
    [
      'an amount and a total',
      () => ({ target: { all_members: true }, amount: 1, total: 5, note: 'x' }),
      400,
      MESSAGES.chargeAmountOrTotal,
    ],
    ['neither an amount nor a total', () => ({ target: { all_members: true }, note: 'x' }), 400, MESSAGES.chargeAmountOrTotal],
    ['no note', () => ({ target: { all_members: true }, amount: 1 }), 400, MESSAGES.chargeNoteRequired],
    ['a blank note', () => ({ target: { all_members: true }, amount: 1, note: '   ' }), 400, MESSAGES.chargeNoteRequired],
    ['a negative amount', () => ({ target: { all_members: true }, amount: -5, note: 'x' }), 400, MESSAGES.ledgerAmountInvalid],
    ['a fraction of a cent', () => ({ target: { all_members: true }, amount: 1.005, note: 'x' }), 400, MESSAGES.moneyTooPrecise],
    ['no target', () => ({ amount: 1, note: 'x' }), 400, null],
    ['an unknown kind of target', () => ({ target: { everyone: true }, amount: 1, note: 'x' }), 400, null],
    ['an unknown event', () => ({ target: { event_id: 'no-such-event' }, amount: 1, note: 'x' }), 404, MESSAGES.eventNotFound],
    [
      'an unknown transport',
      () => ({ target: { transport_id: 'no-such' }, amount: 1, note: 'x' }),
      404,
      MESSAGES.transportNotFound,
    ],
    [
      'an event nobody goes to',
      async () => ({ target: { event_id: await emptyEvent() }, total: 5, note: 'x' }),
      400,
      MESSAGES.chargeNobody,
    ],
    [
      'a total under a cent each',
      () => ({ target: { event_id: eventId }, total: 0.02, note: 'x' }),
      400,
      MESSAGES.chargeTotalTooSmall,
    ],
  ])('refuses %s, booking nothing', async (_label, body, status, message) => {
    const sent = await body();
    const before = await ledgerCount();
    const res = await charge(sent);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toBe(message);
    expect(await ledgerCount()).toBe(before);
  });

  it('says an unknown bulk charge is not found', async () => {
    const res = await t.call('POST', '/api/ledger/charges/no-such/reverse', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(MESSAGES.chargeNotFound);
  });
});
