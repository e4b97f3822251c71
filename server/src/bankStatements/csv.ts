import { parse } from 'csv-parse/sync';
import { centsOf, ibanOf, isoDateOf, oneLine } from './amounts.js';
import { CsvMappingNeeded, StatementUnreadable, type ParsedStatement, type StatementLine } from './types.js';

/*
 * CSV statements as German banks export them: semicolons, German numbers (`1.234,56`) and dates
 * (`14.03.25`), a header row. The Sparkasse's "CSV-CAMT" layout is known by its header; any other
 * layout is read by a mapping of its columns the treasurer chooses once (and the club keeps).
 */

/** Which column holds what, by the header's text. Amounts are signed: a debit is negative. */
export type CsvMapping = {
  booked_on: string;
  amount: string;
  name?: string;
  iban?: string;
  purpose?: string;
  reference?: string;
  currency?: string;
};

/** The Sparkasse's CSV-CAMT export (and the banks that copied it). */
export const SPARKASSE_CSV_CAMT: CsvMapping = {
  booked_on: 'Buchungstag',
  amount: 'Betrag',
  name: 'Beguenstigter/Zahlungspflichtiger',
  iban: 'Kontonummer/IBAN',
  purpose: 'Verwendungszweck',
  reference: 'Kundenreferenz (End-to-End)',
  currency: 'Waehrung',
};

type Row = Record<string, string>;

/** The rows of a CSV text with its header's names; the delimiter is the one the header uses most. */
export function csvRows(text: string): { header: string[]; rows: Row[] } {
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const delimiter = [';', ',', '\t'].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  let records: string[][];
  try {
    records = parse(text, { delimiter, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    throw new StatementUnreadable(`broken CSV: ${(error as Error).message.split('\n')[0]}`);
  }
  const [header, ...body] = records;
  if (!header || header.length < 2) throw new StatementUnreadable('no CSV header');
  const rows = body.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i] ?? ''])));
  return { header, rows };
}

/** Whether the header is the Sparkasse's CSV-CAMT layout. */
export const isSparkasseCsvCamt = (header: string[]): boolean =>
  [SPARKASSE_CSV_CAMT.booked_on, SPARKASSE_CSV_CAMT.amount, SPARKASSE_CSV_CAMT.purpose!].every((name) => header.includes(name));

/** The fields a mapping names, the required ones first. */
export const CSV_MAPPING_FIELDS = ['booked_on', 'amount', 'name', 'iban', 'purpose', 'reference', 'currency'] as const;

/** Whether every column the mapping names is in the header. */
const fits = (mapping: CsvMapping, header: readonly string[]): boolean =>
  CSV_MAPPING_FIELDS.every((field) => mapping[field] === undefined || header.includes(mapping[field]));

/**
 * A mapping as the treasurer sent it (JSON text or an object): the date and amount columns named,
 * every name a column's text of at most 200 characters; null when it is none.
 */
export function csvMappingOf(value: unknown): CsvMapping | null {
  let object = value;
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return null;
  const mapping: Record<string, string> = {};
  for (const [field, column] of Object.entries(object)) {
    if (!(CSV_MAPPING_FIELDS as readonly string[]).includes(field)) return null;
    if (column === null || column === undefined || column === '') continue;
    if (typeof column !== 'string' || column.length > 200) return null;
    mapping[field] = column;
  }
  if (!mapping.booked_on || !mapping.amount) return null;
  return mapping as unknown as CsvMapping;
}

/**
 * The credits of a CSV statement: the Sparkasse's layout when its header says so, else the mapping
 * chosen (the one sent with the file, else the one the club kept). Without one that fits, the
 * header's columns go back to the treasurer (`CsvMappingNeeded`).
 */
export function parseCsv(text: string, mapping?: CsvMapping): ParsedStatement {
  const { header, rows } = csvRows(text);
  const used = mapping && fits(mapping, header) ? mapping : isSparkasseCsvCamt(header) ? SPARKASSE_CSV_CAMT : null;
  // A text of one line is no statement: there is nothing to map.
  if (!used && rows.length === 0) throw new StatementUnreadable('a CSV header without rows');
  if (!used) throw new CsvMappingNeeded(header);
  const lines: StatementLine[] = [];
  for (const row of rows) {
    const cents = centsOf(row[used.amount] ?? '', ',');
    if (cents <= 0) continue;
    lines.push({
      booked_on: isoDateOf(row[used.booked_on] ?? ''),
      amount_cents: cents,
      currency: (used.currency && row[used.currency]) || 'EUR',
      name: oneLine(used.name ? row[used.name] : ''),
      iban: ibanOf(used.iban ? row[used.iban] : ''),
      purpose: oneLine(used.purpose ? row[used.purpose] : ''),
      bank_ref: (used.reference && row[used.reference] !== 'NOTPROVIDED' ? row[used.reference] : '') ?? '',
    });
  }
  return { format: 'csv', lines };
}
