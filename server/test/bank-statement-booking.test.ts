import { paymentCodeOf } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../src/db/store.js';
import type { Actor } from '../src/domain/actor.js';
import { bookStatementLines, keepStatement, lineKey, type CreditLine } from '../src/domain/money/bankStatements.js';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * Keeping a statement's credits and booking them as payments (docs/architecture.md, "Bank
 * statements"): matched by the payment code or a learned IBAN, and never booked twice, also when the
 * same statement comes again or two admins book it at once.
 */

let t: TestApp;
const admin: Actor = { id: 'admin', username: 'admin', scope: 'admin' };
const otherAdmin: Actor = { id: 'admin', username: 'admin', scope: 'admin' };
let coco: { id: string; token: string };
let kim: { id: string; token: string };

const credit = (o: Partial<CreditLine>): CreditLine => ({
  booked_on: '2025-03-14',
  amount_cents: 2340,
  currency: 'EUR',
  name: 'Someone',
  iban: '',
  purpose: '',
  bank_ref: '',
  ...o,
});
const keep = (lines: CreditLine[], actor: Actor = admin) =>
  write(t.runtime.deps.store, (w) => keepStatement(w, actor, { format: 'camt.053', lines }));
const book = (id: string, picks: { line_id: string; user_id: string }[], actor: Actor = admin) =>
  write(t.runtime.deps.store, (w) => bookStatementLines(w, actor, id, picks));
const paymentsOf = (userId: string) =>
  t.db
    .selectFrom('ledger')
    .select(['amount_cents', 'kind', 'date', 'description'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'payment')
    .execute();

beforeAll(async () => {
  t = await createTestApp();
  coco = await t.member('stmt-coco');
  kim = await t.member('stmt-kim');
});
afterAll(() => t.close());

describe('a bank statement', () => {
  it("matches a credit by the member's payment code and books it once, however often it comes", async () => {
    const line = credit({
      purpose: `${paymentCodeOf(coco.id)} stmt-coco: Union - Bayern 14.03.`,
      iban: 'DE02120300000000202051',
      bank_ref: 'ACSR-1',
    });
    const first = await keep([line]);
    expect(first.lines).toEqual([
      expect.objectContaining({
        line_id: '1',
        amount_cents: 2340,
        duplicate: false,
        match: { user_id: coco.id, username: 'stmt-coco', reason: 'reference' },
      }),
    ]);
    expect(await book(first.id, [{ line_id: '1', user_id: coco.id }])).toEqual({ booked: 1, duplicates: 0 });
    expect(await paymentsOf(coco.id)).toEqual([
      {
        amount_cents: -2340,
        kind: 'payment',
        date: '2025-03-14',
        description: `Someone: ${paymentCodeOf(coco.id)} stmt-coco: Union - Bayern 14.03.`,
      },
    ]);

    // The same statement again: the line is a duplicate and books nothing.
    const again = await keep([line]);
    expect(again.lines[0]!.duplicate).toBe(true);
    expect(await book(again.id, [{ line_id: '1', user_id: coco.id }])).toEqual({ booked: 0, duplicates: 1 });
    expect(await book(first.id, [{ line_id: '1', user_id: coco.id }])).toEqual({ booked: 0, duplicates: 1 });
    expect(await paymentsOf(coco.id)).toHaveLength(1);
  });

  it('learns the IBAN of a booked payment: the next credit from it matches without a code', async () => {
    const next = await keep([
      credit({ iban: 'DE02120300000000202051', purpose: 'Fahrt Mai', bank_ref: 'ACSR-2', amount_cents: 1500 }),
    ]);
    expect(next.lines[0]!.match).toEqual({ user_id: coco.id, username: 'stmt-coco', reason: 'iban' });
  });

  it('books a line two admins book at the same moment once', async () => {
    const statement = await keep([credit({ bank_ref: 'ACSR-PARALLEL', amount_cents: 700, purpose: 'Beitrag' })]);
    const results = await Promise.all([
      book(statement.id, [{ line_id: '1', user_id: kim.id }], admin),
      book(statement.id, [{ line_id: '1', user_id: kim.id }], otherAdmin),
    ]);
    expect(results.map((result) => result.booked).sort()).toEqual([0, 1]);
    expect(results.map((result) => result.duplicates).sort()).toEqual([0, 1]);
    expect(await paymentsOf(kim.id)).toHaveLength(1);
  });

  it('tells two lines without a bank reference apart by what they say, and the same line twice as a duplicate', async () => {
    const a = credit({ purpose: 'Spende', amount_cents: 500 });
    const b = credit({ purpose: 'Spende', amount_cents: 600 });
    expect(lineKey(a)).not.toBe(lineKey(b));
    expect(lineKey(a)).toMatch(/^H:[0-9a-f]{40}$/);
    const statement = await keep([a, b, a]);
    expect(statement.lines.map((line) => line.duplicate)).toEqual([false, false, true]);
  });

  it('refuses a member (403), an unknown or expired statement (404), an unknown or twice-named line (400), another currency (409), and books nothing', async () => {
    const member: Actor = { id: kim.id, username: 'stmt-kim', scope: 'user' };
    await expect(keep([credit({})], member)).rejects.toMatchObject({ code: 'adminRequired', status: 403 });
    const statement = await keep([
      credit({ bank_ref: 'R-CHF', currency: 'CHF' }),
      credit({ bank_ref: 'R-EUR', amount_cents: 100 }),
    ]);
    await expect(book(statement.id, [{ line_id: '2', user_id: kim.id }], member)).rejects.toMatchObject({ status: 403 });
    await expect(book('no-such-statement', [{ line_id: '1', user_id: kim.id }])).rejects.toMatchObject({
      code: 'statementNotFound',
      status: 404,
    });
    await expect(book(statement.id, [{ line_id: '9', user_id: kim.id }])).rejects.toMatchObject({
      code: 'statementLineUnknown',
      status: 400,
    });
    await expect(
      book(statement.id, [
        { line_id: '2', user_id: kim.id },
        { line_id: '2', user_id: kim.id },
      ]),
    ).rejects.toMatchObject({ code: 'statementLineTwice', status: 400 });
    await expect(book(statement.id, [{ line_id: '1', user_id: kim.id }])).rejects.toMatchObject({
      code: 'statementForeignCurrency',
      status: 409,
    });
    await expect(book(statement.id, [{ line_id: '2', user_id: 'nobody' }])).rejects.toMatchObject({
      code: 'userNotFound',
      status: 404,
    });
    await t.db
      .updateTable('bank_statements')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', statement.id)
      .execute();
    await expect(book(statement.id, [{ line_id: '2', user_id: kim.id }])).rejects.toMatchObject({
      code: 'statementNotFound',
      status: 404,
    });
    expect(await paymentsOf(kim.id)).toHaveLength(1);
  });
});
