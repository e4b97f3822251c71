import { MESSAGES, paymentCodeOf, STATEMENT_MAX_BYTES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, uploadFile, type TestApp } from './helpers.js';

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
const importStatement = (text: string | Uint8Array, field?: string, fields?: Record<string, string>) =>
  uploadFile(t, '/api/ledger/statements', { token: admin, ...file(text, field), fields });
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

  it("shows what each matched line pays: the oldest tickets in full, after the same member's earlier lines, the rest credit", async () => {
    const dana = await t.member('http-dana');
    // Both answered before either is bought (an unpaid ticket blocks new answers).
    const answer = async (title: string, date: string) => {
      const event = await createEventVia(t, admin, { title, date });
      const answered = await t.call('POST', `/api/attendance/${event.id}`, { token: dana.token, body: { status: 'going' } });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      return answered.body.attendance.id as string;
    };
    const rows = [await answer('Union – Bayern', '2030-03-14 15:30'), await answer('Hertha – Union', '2030-04-02 18:30')];
    for (const [row, price] of [
      [rows[0], 20],
      [rows[1], 15],
    ] as const) {
      const bought = await t.call('PUT', `/api/attendees/${row}`, { token: admin, body: { bought: true, price } });
      expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    }
    const code = paymentCodeOf(dana.id);
    const imported = await importStatement(
      camt(
        credit({ amount: '25.00', ref: 'PAYS-1', purpose: `${code} erste` }) +
          credit({ amount: '20.00', ref: 'PAYS-2', purpose: `${code} zweite` }) +
          credit({ amount: '9.00', ref: 'PAYS-3', purpose: 'unbekannt' }),
      ),
    );
    expect(imported.status).toBe(200);
    expect(imported.body.statement.lines.map((line: { pays: unknown }) => line.pays)).toEqual([
      { tickets: [{ event_title: 'Union – Bayern', event_date: '2030-03-14 15:30:00', guest_name: null }], credit: 0 },
      { tickets: [{ event_title: 'Hertha – Union', event_date: '2030-04-02 18:30:00', guest_name: null }], credit: 10 },
      null,
    ]);
  });

  it('asks which column holds what for a CSV layout it does not know, and the club keeps the answer', async () => {
    const code = paymentCodeOf(coco.id);
    const csv = `Wertstellung;Umsatz;Zahler;Text\n14.03.2030;12,50;Coco;${code} Fahrt\n15.03.2030;-3,00;Bank;Gebühr`;
    const asked = await importStatement(csv);
    expect(asked.status).toBe(400);
    expect(asked.body).toEqual({
      success: false,
      code: 'statementCsvMappingNeeded',
      message: MESSAGES.statementCsvMappingNeeded,
      columns: ['Wertstellung', 'Umsatz', 'Zahler', 'Text'],
      mapping: null,
    });

    // A mapping that is none, or names a column the file lacks, is refused and kept nowhere.
    for (const bad of ['{"amount":"Umsatz"}', 'kein JSON', '{"booked_on":"Datum","amount":"Umsatz"}']) {
      const res = await importStatement(csv, undefined, { mapping: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toBe(MESSAGES.statementCsvMappingInvalid);
    }
    expect(await t.db.selectFrom('settings').select('value').where('key', '=', 'statement_csv_mapping').execute()).toEqual([]);

    const mapping = { booked_on: 'Wertstellung', amount: 'Umsatz', name: 'Zahler', purpose: 'Text' };
    const read = await importStatement(csv, undefined, { mapping: JSON.stringify(mapping) });
    expect(read.status).toBe(200);
    expect(read.body.statement).toMatchObject({
      format: 'csv',
      lines: [{ booked_on: '2030-03-14', amount: 12.5, name: 'Coco', match: { user_id: coco.id, reason: 'reference' } }],
    });
    // The next file of that layout reads without asking; a file of another layout asks again, offering the kept mapping.
    expect((await importStatement(csv.replace('12,50', '13,50'))).body.statement.lines[0].amount).toBe(13.5);
    const other = await importStatement('Tag;Summe\n01.04.2030;5,00');
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'statementCsvMappingNeeded', columns: ['Tag', 'Summe'], mapping });
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
