import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * POST /api/ledger/entries with an Idempotency-Key (docs/architecture.md, Ledger, "Manual entries"):
 * a double submit books once; a repeated key answers the first answer with its status and books
 * nothing; the same key with another body is refused; a refusal is answered again alike.
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const post = (body: unknown, key?: string, token = admin) =>
  t.call('POST', '/api/ledger/entries', { token, body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });

const entriesOf = async (userId: string) =>
  (await t.db.selectFrom('ledger').select(['id', 'amount_cents']).where('user_id', '=', userId).execute()).length;

describe('Idempotency-Key on POST /api/ledger/entries', () => {
  it('50 identical parallel requests with one key book one entry and all answer 201 with it', async () => {
    const fan = await t.member('Doppelklick');
    const body = { user_id: fan.id, kind: 'payment', amount: 12.5 };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(body, 'booking-1')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    const ids = new Set(answers.map((answer) => answer.body.entry.id));
    expect(ids.size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ success: true, message: MESSAGES.ledgerEntryBooked, entry: { amount: -12.5 } });
    expect(await entriesOf(fan.id)).toBe(1);
    const balance = await t.call('GET', `/api/ledger/members/${fan.id}`, { token: admin });
    expect(balance.body.balance).toBe(-12.5);

    // Later, the same key again: the first answer, nothing booked.
    const again = await post(body, 'booking-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(answers[0]!.body);
    expect(await entriesOf(fan.id)).toBe(1);

    // A new key books anew; without a key every request books.
    expect((await post(body, 'booking-2')).status).toBe(201);
    expect((await post(body)).status).toBe(201);
    expect((await post(body)).status).toBe(201);
    expect(await entriesOf(fan.id)).toBe(4);
  });

  it('the same key with another body is 409 and books nothing; keys are per admin', async () => {
    const fan = await t.member('Anderbetrag');
    expect((await post({ user_id: fan.id, kind: 'charge', amount: 5 }, 'k-1')).status).toBe(201);
    const other = await post({ user_id: fan.id, kind: 'charge', amount: 6 }, 'k-1');
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ success: false, code: 'idempotencyKeyReused', message: MESSAGES.idempotencyKeyReused });
    expect(await entriesOf(fan.id)).toBe(1);

    const secondAdmin = await t.member('Zweitkasse');
    await t.db.updateTable('users').set({ scope: 'admin' }).where('id', '=', secondAdmin.id).execute();
    const theirs = await post({ user_id: fan.id, kind: 'charge', amount: 6 }, 'k-1', secondAdmin.token);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(await entriesOf(fan.id)).toBe(2);
  });

  it('a refusal is answered again with its status', async () => {
    const missing = { user_id: 'no-such-user', kind: 'payment', amount: 3 };
    const first = await post(missing, 'k-missing');
    expect(first.status).toBe(404);
    const second = await post(missing, 'k-missing');
    expect(second.status).toBe(404);
    expect(second.body).toEqual(first.body);
  });

  it('an empty or too long key is 400 and books nothing', async () => {
    const fan = await t.member('Schluesselfan');
    const body = { user_id: fan.id, kind: 'payment', amount: 1 };
    for (const key of ['', 'x'.repeat(101), 'mit leerzeichen']) {
      const res = await post(body, key);
      expect(res.status, key).toBe(400);
      expect(res.body.code).toBe('idempotencyKeyInvalid');
    }
    expect(await entriesOf(fan.id)).toBe(0);
  });
});
