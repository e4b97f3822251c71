import { describe, expect, it } from 'vitest';
import { csvMappingOf, CsvMappingNeeded, parseStatement, StatementUnreadable } from '../src/bankStatements/index.js';

/*
 * The bank statement parsers (docs/architecture.md, "Bank statements") on statements written here
 * in each format: CAMT.053 and CAMT.052 in an old and a new version, MT940 with the German field 86,
 * the Sparkasse's CSV-CAMT and a mapped layout, in UTF-8 and ISO-8859-1. Only booked credits in
 * euros count, each with the bank's reference.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);
/** ISO-8859-1 bytes of a text within Latin-1 (ä, ö, ü, ß), as German banks still write CSV and MT940. */
const latin1 = (text: string) => Uint8Array.from([...text].map((character) => character.charCodeAt(0)));

function camt053(version: string, entries: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>053D2025031400001</MsgId><CreDtTm>2025-03-14T06:00:00+01:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>2025031400001</Id>
      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
      ${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

/** A credit entry with one transaction; `debtor` as version 02-07 (`Dbtr/Nm`) or 08 (`Dbtr/Pty/Nm`) writes it. */
function entry(o: {
  amount: string;
  ccy?: string;
  cd?: 'CRDT' | 'DBIT';
  date?: string;
  acctSvcrRef?: string;
  endToEnd?: string;
  name: string;
  iban?: string;
  purpose: string[];
  v8?: boolean;
  status?: string;
}): string {
  const debtor = o.v8 ? `<Dbtr><Pty><Nm>${o.name}</Nm></Pty></Dbtr>` : `<Dbtr><Nm>${o.name}</Nm></Dbtr>`;
  return `<Ntry>
    <Amt Ccy="${o.ccy ?? 'EUR'}">${o.amount}</Amt>
    <CdtDbtInd>${o.cd ?? 'CRDT'}</CdtDbtInd>
    <Sts>${o.v8 ? `<Cd>${o.status ?? 'BOOK'}</Cd>` : (o.status ?? 'BOOK')}</Sts>
    <BookgDt><Dt>${o.date ?? '2025-03-14'}</Dt></BookgDt>
    <ValDt><Dt>${o.date ?? '2025-03-14'}</Dt></ValDt>
    ${o.acctSvcrRef ? `<AcctSvcrRef>${o.acctSvcrRef}</AcctSvcrRef>` : ''}
    <BkTxCd/>
    <NtryDtls><TxDtls>
      <Refs>${o.endToEnd ? `<EndToEndId>${o.endToEnd}</EndToEndId>` : ''}</Refs>
      <RltdPties>${debtor}${o.iban ? `<DbtrAcct><Id><IBAN>${o.iban}</IBAN></Id></DbtrAcct>` : ''}</RltdPties>
      <RmtInf>${o.purpose.map((part) => `<Ustrd>${part}</Ustrd>`).join('')}</RmtInf>
    </TxDtls></NtryDtls>
  </Ntry>`;
}

describe('CAMT', () => {
  it.each([
    ['053', '02', false],
    ['053', '08', true],
  ])('reads camt.%s.001.%s: credits with name, IBAN, purpose and the bank reference', (_kind, version, v8) => {
    const xml = camt053(
      version,
      entry({
        amount: '23.40',
        acctSvcrRef: 'ACSR-0001',
        endToEnd: 'E2E-1',
        name: 'Jürgen Müller',
        iban: 'DE02 1203 0000 0000 2020 51',
        purpose: ['FK7Q3MK2W coco: Union - Bayern', ' 14.03.'],
        v8,
      }) +
        entry({ amount: '12.00', endToEnd: 'E2E-2', name: 'Kim', purpose: ['ohne Referenz'], v8 }) +
        entry({ amount: '99.99', cd: 'DBIT', name: 'Stadion GmbH', purpose: ['Tickets'], v8 }) +
        entry({ amount: '5.00', endToEnd: 'NOTPROVIDED', name: 'Pat', purpose: ['Spende'], v8 }),
    );
    const statement = parseStatement(utf8(xml));
    expect(statement.format).toBe('camt.053');
    expect(statement.lines).toEqual([
      {
        booked_on: '2025-03-14',
        amount_cents: 2340,
        currency: 'EUR',
        name: 'Jürgen Müller',
        iban: 'DE02120300000000202051',
        purpose: 'FK7Q3MK2W coco: Union - Bayern 14.03.',
        bank_ref: 'ACSR-0001',
      },
      {
        booked_on: '2025-03-14',
        amount_cents: 1200,
        currency: 'EUR',
        name: 'Kim',
        iban: '',
        purpose: 'ohne Referenz',
        bank_ref: 'E2E-2',
      },
      // NOTPROVIDED is no reference: the import derives one.
      { booked_on: '2025-03-14', amount_cents: 500, currency: 'EUR', name: 'Pat', iban: '', purpose: 'Spende', bank_ref: '' },
    ]);
  });

  it('reads a camt.052 report in two versions, booked entries only', () => {
    for (const version of ['03', '08']) {
      const v8 = version === '08';
      const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.${version}">
  <BkToCstmrAcctRpt><GrpHdr><MsgId>052</MsgId></GrpHdr>
    <Rpt><Id>1</Id>
      ${entry({ amount: '40', acctSvcrRef: 'R-1', name: 'Alex', purpose: ['Beitrag'], v8 })}
      ${entry({ amount: '7.5', acctSvcrRef: 'R-2', name: 'Pending', purpose: ['noch offen'], v8, status: 'PDNG' })}
    </Rpt>
  </BkToCstmrAcctRpt>
</Document>`;
      const statement = parseStatement(utf8(xml));
      expect(statement.format).toBe('camt.052');
      expect(statement.lines.map((line) => [line.amount_cents, line.name, line.bank_ref])).toEqual([[4000, 'Alex', 'R-1']]);
    }
  });

  it('lists a foreign currency as it is (the import shows it, never books it)', () => {
    const statement = parseStatement(
      utf8(camt053('02', entry({ amount: '10.00', ccy: 'CHF', acctSvcrRef: 'X', name: 'Zürcher', purpose: ['Fahrt'] }))),
    );
    expect(statement.lines).toEqual([expect.objectContaining({ amount_cents: 1000, currency: 'CHF' })]);
  });

  it('splits a batch entry into its transactions, each with its own amount and a reference of its place', () => {
    const xml = camt053(
      '02',
      `<Ntry><Amt Ccy="EUR">30.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2025-03-15</Dt></BookgDt>
        <AcctSvcrRef>BATCH-9</AcctSvcrRef>
        <NtryDtls>
          <TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">10.00</Amt></TxAmt></AmtDtls><RltdPties><Dbtr><Nm>A</Nm></Dbtr></RltdPties><RmtInf><Ustrd>eins</Ustrd></RmtInf></TxDtls>
          <TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">20.00</Amt></TxAmt></AmtDtls><RltdPties><Dbtr><Nm>B</Nm></Dbtr></RltdPties><RmtInf><Ustrd>zwei</Ustrd></RmtInf></TxDtls>
        </NtryDtls></Ntry>`,
    );
    expect(parseStatement(utf8(xml)).lines.map((line) => [line.amount_cents, line.name, line.bank_ref])).toEqual([
      [1000, 'A', 'BATCH-9/1'],
      [2000, 'B', 'BATCH-9/2'],
    ]);
  });

  it('refuses broken XML and XML that is no statement', () => {
    expect(() => parseStatement(utf8(camt053('02', '<Ntry><Amt>1</Amt>')))).toThrow(StatementUnreadable);
    expect(() => parseStatement(utf8('<?xml version="1.0"?><Invoice/>'))).toThrow(StatementUnreadable);
    expect(() => parseStatement(utf8(camt053('02', entry({ amount: '1.234', name: 'X', purpose: [] }))))).toThrow(
      StatementUnreadable,
    );
  });
});

describe('MT940', () => {
  const mt940 = (transactions: string) =>
    [
      ':20:STARTUMSE',
      ':25:37040044/0532013000',
      ':28C:00001/001',
      ':60F:C250313EUR1000,00',
      transactions,
      ':62F:C250314EUR935,41',
      '-',
    ].join('\r\n');

  it('reads credits with the German field 86: purpose ?20-?29, name ?32/?33, IBAN ?31', () => {
    const text = mt940(
      [
        ':61:2503140314CR23,40NTRFNONREF//BANKREF-1',
        ':86:166?00GUTSCHRIFT?109310?20SVWZ+FK7Q3MK2W coco: Uni?21on - Bayern 14.03.?30COBADEFFXXX',
        '?31DE02120300000000202051?32Jürgen Müller?33 und Frau',
        ':61:2503140314DR99,99NTRFNONREF',
        ':86:105?00LASTSCHRIFT?20Tickets?32Stadion GmbH',
        ':61:2503140314CR12,00NTRFNONREF',
        ':86:166?00GUTSCHRIFT?20Beitrag März?32Kim',
      ].join('\r\n'),
    );
    const statement = parseStatement(latin1(text));
    expect(statement.format).toBe('mt940');
    expect(statement.lines).toEqual([
      {
        booked_on: '2025-03-14',
        amount_cents: 2340,
        currency: 'EUR',
        name: 'Jürgen Müller und Frau',
        iban: 'DE02120300000000202051',
        purpose: 'FK7Q3MK2W coco: Union - Bayern 14.03.',
        bank_ref: 'BANKREF-1',
      },
      {
        booked_on: '2025-03-14',
        amount_cents: 1200,
        currency: 'EUR',
        name: 'Kim',
        iban: '',
        purpose: 'Beitrag März',
        bank_ref: '',
      },
    ]);
  });
});

describe('CSV', () => {
  const SPARKASSE_HEADER =
    '"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Glaeubiger ID";"Mandatsreferenz";"Kundenreferenz (End-to-End)";"Sammlerreferenz";"Lastschrift Ursprungsbetrag";"Auslagenersatz Ruecklastschrift";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"BIC (SWIFT-Code)";"Betrag";"Waehrung";"Info"';

  it.each([
    ['UTF-8 with a byte order mark', (text: string) => utf8(`\uFEFF${text}`)],
    ['ISO-8859-1', latin1],
  ])("reads the Sparkasse's CSV-CAMT in %s", (_encoding, encode) => {
    const text = [
      SPARKASSE_HEADER,
      '"DE89370400440532013000";"14.03.25";"14.03.25";"GUTSCHR. UEBERWEISUNG";"FK7Q3MK2W coco: Union - Bayern 14.03.";"";"";"E2E-7";"";"";"";"Jürgen Müller";"DE02120300000000202051";"BYLADEM1001";"1.023,40";"EUR";"Umsatz gebucht"',
      '"DE89370400440532013000";"14.03.25";"14.03.25";"FOLGELASTSCHRIFT";"Strom";"";"";"";"";"";"";"Stadtwerke";"DE44500105175407324931";"";"-45,00";"EUR";"Umsatz gebucht"',
      '"DE89370400440532013000";"15.03.25";"15.03.25";"GUTSCHR. UEBERWEISUNG";"Spende";"";"";"NOTPROVIDED";"";"";"";"Kim Öztürk";"";"";"5,5";"EUR";"Umsatz gebucht"',
    ].join('\r\n');
    const statement = parseStatement(encode(text));
    expect(statement.format).toBe('csv');
    expect(statement.lines).toEqual([
      {
        booked_on: '2025-03-14',
        amount_cents: 102340,
        currency: 'EUR',
        name: 'Jürgen Müller',
        iban: 'DE02120300000000202051',
        purpose: 'FK7Q3MK2W coco: Union - Bayern 14.03.',
        bank_ref: 'E2E-7',
      },
      {
        booked_on: '2025-03-15',
        amount_cents: 550,
        currency: 'EUR',
        name: 'Kim Öztürk',
        iban: '',
        purpose: 'Spende',
        bank_ref: '',
      },
    ]);
  });

  it('reads another layout by the mapping the treasurer chose', () => {
    const text = [
      'Datum,Betrag (EUR),Name,Zweck',
      '01.04.2025,"25,00",Alex,FK7Q3MK2W Beitrag',
      '02.04.2025,"-3,00",Bank,Gebühr',
    ].join('\n');
    const mapping = { booked_on: 'Datum', amount: 'Betrag (EUR)', name: 'Name', purpose: 'Zweck' };
    expect(parseStatement(utf8(text), mapping).lines).toEqual([
      {
        booked_on: '2025-04-01',
        amount_cents: 2500,
        currency: 'EUR',
        name: 'Alex',
        iban: '',
        purpose: 'FK7Q3MK2W Beitrag',
        bank_ref: '',
      },
    ]);
  });

  it('takes a mapping naming the date and amount columns, as JSON or an object, and nothing else', () => {
    expect(csvMappingOf('{"booked_on":"Datum","amount":"Betrag","name":"Name","purpose":""}')).toEqual({
      booked_on: 'Datum',
      amount: 'Betrag',
      name: 'Name',
    });
    expect(csvMappingOf({ booked_on: 'Datum', amount: 'Betrag' })).toEqual({ booked_on: 'Datum', amount: 'Betrag' });
    for (const bad of [
      '{',
      '[]',
      '"Datum"',
      '{"amount":"Betrag"}',
      '{"booked_on":"D","amount":"B","colour":"C"}',
      '{"booked_on":1,"amount":"B"}',
    ]) {
      expect(csvMappingOf(bad), bad).toBeNull();
    }
    expect(csvMappingOf({ booked_on: 'D'.repeat(201), amount: 'B' })).toBeNull();
  });

  it('asks for a mapping for a layout it does not know or one the mapping does not fit; refuses an empty file', () => {
    const text = 'Datum;Betrag;Name\n01.04.2025;25,00;Alex';
    const asked = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof CsvMappingNeeded ? error.columns : error;
      }
      return null;
    };
    expect(asked(() => parseStatement(utf8(text)))).toEqual(['Datum', 'Betrag', 'Name']);
    expect(asked(() => parseStatement(utf8(text), { booked_on: 'Tag', amount: 'Betrag' }))).toEqual(['Datum', 'Betrag', 'Name']);
    expect(() => parseStatement(utf8(''))).toThrow(StatementUnreadable);
    expect(() => parseStatement(utf8('just some text'))).toThrow(StatementUnreadable);
  });

  it('refuses an amount of a fraction of a cent and a date that does not exist', () => {
    const mapping = { booked_on: 'Datum', amount: 'Betrag' };
    expect(() => parseStatement(utf8('Datum;Betrag\n01.04.2025;1,234'), mapping)).toThrow(/amount "1,234"/);
    expect(() => parseStatement(utf8('Datum;Betrag\n31.02.2025;1,00'), mapping)).toThrow(/date "31.02.2025"/);
  });
});
