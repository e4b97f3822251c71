// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- mt940js ships no types: the declaration travels with this module into every program that compiles it (the client's tests start the server)
/// <reference path="./mt940js.d.ts" />
import { Parser } from 'mt940js';
import { ibanOf, oneLine } from './amounts.js';
import { StatementUnreadable, type ParsedStatement, type StatementLine } from './types.js';

/*
 * MT940 (SWIFT) with the German structured field 86: `?20`-`?29` (and `?60`-`?63`) the purpose,
 * `?32`/`?33` the payer's name, `?31` their IBAN. Read by mt940js; the field 86 subfields by its
 * `structuredDetails`.
 */

/** Whether the text looks like MT940: its transaction lines `:61:` after an opening balance `:60F:`/`:60M:`. */
export function isMt940(text: string): boolean {
  return /^:20:/m.test(text) && /^:60[FM]:/m.test(text) && /^:61:/m.test(text);
}

interface Mt940Transaction {
  date: Date;
  entryDate: Date | '';
  amount: number;
  isReversal?: boolean;
  currency: string;
  details: string;
  structuredDetails?: Record<string, string>;
  bankReference?: string;
  reference?: string;
}

const PURPOSE_FIELDS = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63'];

export function parseMt940(text: string): ParsedStatement {
  if (!isMt940(text)) throw new StatementUnreadable('no MT940 statement');
  let statements: { currency?: string; transactions: Mt940Transaction[] }[];
  try {
    statements = new Parser().parse(text.replace(/\r\n?/g, '\n')) as typeof statements;
  } catch (error) {
    throw new StatementUnreadable(`broken MT940: ${(error as Error).message.split('\n')[0]}`);
  }
  const lines = statements.flatMap((statement) =>
    statement.transactions.filter((transaction) => transaction.amount > 0 && !transaction.isReversal).map(lineOf),
  );
  return { format: 'mt940', lines };
}

function lineOf(transaction: Mt940Transaction): StatementLine {
  const fields = transaction.structuredDetails ?? {};
  const structured = Object.keys(fields).length > 0;
  const purpose = structured
    ? PURPOSE_FIELDS.map((key) => fields[key] ?? '')
        .join('')
        .replace(/^SVWZ\+/, '')
    : transaction.details;
  const reference = [transaction.bankReference, transaction.reference].find((value) => value && value !== 'NONREF') ?? '';
  const booked = transaction.entryDate || transaction.date;
  return {
    booked_on: booked.toISOString().slice(0, 10),
    amount_cents: Math.round(transaction.amount * 100),
    currency: transaction.currency || 'EUR',
    name: oneLine(`${fields['32'] ?? ''}${fields['33'] ?? ''}`),
    iban: ibanOf(fields['31']),
    purpose: oneLine(purpose),
    bank_ref: reference,
  };
}
