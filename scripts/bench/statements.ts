/**
 * Reading a bank statement of 10,000 credits (docs/architecture.md, Bank statements): the same
 * credits written as CAMT.053, MT940 and the Sparkasse's CSV-CAMT, each parsed by the server's
 * parser in this process, median of 3. Target: under 2 s each.
 */
import { parseStatement } from '../../server/src/bankStatements/index.js';

export interface StatementFigures {
  lines: number;
  /** Per format: the file's size and the median parse time. */
  formats: { format: string; bytes: number; medianMs: number }[];
}

const LINES = 10_000;
const RUNS = 3;

const amount = (i: number) => `${(i % 90) + 10}.${String(i % 100).padStart(2, '0')}`;
const purpose = (i: number) => `FK7Q3MK2W Fan ${i}: Union - Bayern 14.03.`;

function camt(): string {
  const entries = Array.from(
    { length: LINES },
    (_, i) =>
      `<Ntry><Amt Ccy="EUR">${amount(i)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2030-03-14</Dt></BookgDt>` +
      `<AcctSvcrRef>R${i}</AcctSvcrRef><NtryDtls><TxDtls><Refs><EndToEndId>E${i}</EndToEndId></Refs><RltdPties><Dbtr><Nm>Fan ${i}</Nm></Dbtr>` +
      `<DbtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></DbtrAcct></RltdPties><RmtInf><Ustrd>${purpose(i)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>${entries}</Stmt></BkToCstmrStmt></Document>`;
}

function mt940(): string {
  let total = 0;
  const lines = Array.from({ length: LINES }, (_, i) => {
    total += Math.round(Number(amount(i)) * 100);
    const text = amount(i).replace('.', ',');
    return `:61:3003140314CR${text}NTRFNONREF//B${i}\n:86:166?00GUTSCHRIFT?20SVWZ+${purpose(i).slice(0, 22)}?21${purpose(i).slice(22)}?31DE02120300000000202051?32Fan ${i}`;
  });
  const closing = `${Math.floor(total / 100)},${String(total % 100).padStart(2, '0')}`;
  return [
    ':20:STARTUMSE',
    ':25:37040044/0532013000',
    ':28C:00001/001',
    ':60F:C300313EUR0,00',
    ...lines,
    `:62F:C300314EUR${closing}`,
    '-',
  ].join('\n');
}

function csv(): string {
  const header =
    '"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Kundenreferenz (End-to-End)";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"Betrag";"Waehrung"';
  const rows = Array.from(
    { length: LINES },
    (_, i) =>
      `"DE89370400440532013000";"14.03.30";"14.03.30";"GUTSCHR. UEBERWEISUNG";"${purpose(i)}";"E${i}";"Fan ${i}";"DE02120300000000202051";"${amount(i).replace('.', ',')}";"EUR"`,
  );
  return [header, ...rows].join('\r\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function benchStatements(): StatementFigures {
  const formats = [
    ['camt.053', camt()],
    ['mt940', mt940()],
    ['csv', csv()],
  ] as const;
  return {
    lines: LINES,
    formats: formats.map(([format, text]) => {
      const bytes = new TextEncoder().encode(text);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const parsed = parseStatement(bytes);
        times.push(performance.now() - started);
        if (parsed.lines.length !== LINES) throw new Error(`${format}: ${parsed.lines.length} of ${LINES} lines read`);
      }
      return { format, bytes: bytes.byteLength, medianMs: median(times) };
    }),
  };
}
