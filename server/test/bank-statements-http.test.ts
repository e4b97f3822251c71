import { MESSAGES, paymentCodeOf, STATEMENT_MAX_BYTES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uploadFile, type TestApp } from './helpers.js';

/*
 * The treasurer's statement routes (docs/architecture.md, "Bank statements"): POST
 * /api/ledger/statements with a file, POST /api/ledger/statements/{id}/book; every bad input says
 * what is wrong and books nothing. (Who may call them: the permission matrix.)
 */

let t: TestApp;
let admin: string;
let coco: { id: string; token: string };

const camt = (entries: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>${entries}</Stmt></BkToCstmrStmt></Document>`;
const credit = (o: { amount: string; ref: string; purpose: string; ccy?: string; iban?: string }) =>
  `<Ntry><Amt Ccy="${o.ccy ?? 'EUR'}">${o.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2030-03-14</Dt></BookgDt>
  <AcctSvcrRef>${o.ref}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>Coco Schmidt</Nm></Pty></Dbtr>
  ${o.iban ? `<DbtrAcct><Id><IBAN>${o.iban}</IBAN></Id></DbtrAcct>` : ''}</RltdPties><RmtInf><Ustrd>${o.purpose}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
const file = (text: string | Uint8Array, field = 'file') => ({
  field,
  bytes: typeof text === 'string' ? new TextEncoder().encode(text) : text,
  filename: 'statement.xml',
  type: 'application/xml',
});
const importStatement = (text: string | Uint8Array, field?: string) =>
  uploadFile(t, '/api/ledger/statements', { token: admin, ...file(text, field) });
const book = (id: string, body: unknown) => t.call('POST', `/api/ledger/statements/${id}/book`, { token: admin, body });
const payments = async () =>
  (await t.call('GET', '/api/ledger/my', { token: coco.token })).body.entries.filter(
    (entry: { kind: string }) => entry.kind === 'payment',
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  coco = await t.member('http-coco');
});
afterAll(() => t.close());

describe('importing and booking a statement', () => {
  it('matches the credit carrying the payment code, books it with one request, and never again', async () => {
    const statement = camt(
      credit({ amount: '23.40', ref: 'HTTP-1', purpose: `${paymentCodeOf(coco.id)} http-coco: Union - Bayern 14.03.` }) +
        credit({ amount: '10.00', ref: 'HTTP-CHF', purpose: 'Fahrt', ccy: 'CHF' }),
    );
    const imported = await importStatement(statement);
    expect(imported.status).toBe(200);
    expect(imported.body.statement).toMatchObject({
      format: 'camt.053',
      lines: [
        {
          line_id: '1',
          booked_on: '2030-03-14',
          amount: 23.4,
          currency: 'EUR',
          name: 'Coco Schmidt',
          bank_ref: 'HTTP-1',
          duplicate: false,
          match: { user_id: coco.id, username: 'http-coco', reason: 'reference' },
        },
        { line_id: '2', amount: 10, currency: 'CHF', match: null },
      ],
    });
    const id = imported.body.statement.id as string;
    const foreign = await book(id, { lines: [{ line_id: '2', user_id: coco.id }] });
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toBe(MESSAGES.statementForeignCurrency);

    expect((await book(id, { lines: [{ line_id: '1', user_id: coco.id }] })).body).toEqual({ booked: 1, duplicates: 0 });
    expect(await payments()).toEqual([expect.objectContaining({ amount: -23.4, date: '2030-03-14' })]);

    const again = await importStatement(statement);
    expect(again.body.statement.lines[0].duplicate).toBe(true);
    expect((await book(again.body.statement.id, { lines: [{ line_id: '1', user_id: coco.id }] })).body).toEqual({
      booked: 0,
      duplicates: 1,
    });
    expect(await payments()).toHaveLength(1);
  });

  it.each([
    ['no file', () => ({ field: 'other', text: camt('') }), 400, MESSAGES.statementFileMissing],
    [
      'an image',
      () => ({ text: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) }),
      400,
      MESSAGES.statementUnreadable,
    ],
    ['a text that is no statement', () => ({ text: 'Liebe Kasse, anbei das Geld.' }), 400, MESSAGES.statementUnreadable],
    [
      'an XML invoice',
      () => ({ text: '<?xml version="1.0"?><Invoice><Total>5</Total></Invoice>' }),
      400,
      MESSAGES.statementUnreadable,
    ],
    [
      'an amount of a fraction of a cent',
      () => ({ text: camt(credit({ amount: '1.005', ref: 'X', purpose: 'x' })) }),
      400,
      MESSAGES.statementUnreadable,
    ],
    ['a file over 16 MB', () => ({ text: new Uint8Array(STATEMENT_MAX_BYTES + 100 * 1024) }), 413, MESSAGES.statementTooLarge],
  ])('refuses %s, keeping nothing', async (_label, make, status, message) => {
    const before = await t.db.selectFrom('bank_statements').select('id').execute();
    const { text, field } = make() as { text: string | Uint8Array; field?: string };
    const res = await importStatement(text, field);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await t.db.selectFrom('bank_statements').select('id').execute()).toHaveLength(before.length);
  });

  it.each([
    ['no lines', { lines: [] }, 400, MESSAGES.statementLinesInvalid],
    ['lines that are no list', { lines: 'all' }, 400, MESSAGES.statementLinesInvalid],
    ['a line without a member', { lines: [{ line_id: '1' }] }, 400, MESSAGES.userNotFound],
    ['an unknown line', { lines: [{ line_id: '7', user_id: 'x' }] }, 400, MESSAGES.statementLineUnknown],
    ['an unknown member', { lines: [{ line_id: '1', user_id: 'nobody' }] }, 404, MESSAGES.userNotFound],
    ['another field', { lines: [{ line_id: '1', user_id: 'x' }], all: true }, 400, null],
  ])('refuses booking with %s, booking nothing', async (_label, body, status, message) => {
    const imported = await importStatement(camt(credit({ amount: '5.00', ref: `BAD-${_label}`, purpose: 'Beitrag' })));
    const res = await book(imported.body.statement.id, body);
    expect(res.status).toBe(status);
    if (message) expect(res.body.message).toBe(message);
    expect(await t.db.selectFrom('bank_payments').select('bank_ref').where('bank_ref', '=', `BAD-${_label}`).execute()).toEqual(
      [],
    );
  });

  it('says a statement that is unknown is gone', async () => {
    const res = await book('no-such-statement', { lines: [{ line_id: '1', user_id: coco.id }] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(MESSAGES.statementNotFound);
  });
});
