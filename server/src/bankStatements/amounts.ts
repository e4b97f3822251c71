import { StatementUnreadable } from './types.js';

/**
 * Whole cents of an amount as a statement writes it: `1234.56` (CAMT), `1234,56` (MT940),
 * `1.234,56` or `-12,5` (German CSV, `decimal: ','`). More than two decimals is refused: a
 * statement never books fractions of a cent.
 */
export function centsOf(text: string, decimal: '.' | ','): number {
  const thousands = decimal === ',' ? '.' : ',';
  const cleaned = text.trim().split(thousands).join('').replace(/\s/g, '');
  const match = new RegExp(`^([+-]?)(\\d+)(?:\\${decimal}(\\d{0,2}))?$`).exec(cleaned);
  if (!match) throw new StatementUnreadable(`amount "${text}"`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new StatementUnreadable(`amount "${text}"`);
  return match[1] === '-' ? -cents : cents;
}

/** `YYYY-MM-DD` of `YYYY-MM-DD…`, `DD.MM.YYYY`, `DD.MM.YY` or `YYMMDD`; two-digit years are 20YY. */
export function isoDateOf(text: string): string {
  const value = text.trim();
  let match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (match) return checked(match[1]!, match[2]!, match[3]!, text);
  match = /^(\d{2})\.(\d{2})\.(\d{2}|\d{4})$/.exec(value);
  if (match) return checked(match[3]!.length === 2 ? `20${match[3]}` : match[3]!, match[2]!, match[1]!, text);
  match = /^(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (match) return checked(`20${match[1]}`, match[2]!, match[3]!, text);
  throw new StatementUnreadable(`date "${text}"`);
}

function checked(year: string, month: string, day: string, text: string): string {
  const iso = `${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) throw new StatementUnreadable(`date "${text}"`);
  return iso;
}

/** An IBAN as the statement gives it, in electronic format (no spaces, upper case). */
export const ibanOf = (text: string | undefined | null): string => (text ?? '').replace(/\s+/g, '').toUpperCase();

/** Text of a statement field: lines joined by spaces, spaces collapsed. */
export const oneLine = (text: string | undefined | null): string => (text ?? '').replace(/\s+/g, ' ').trim();
