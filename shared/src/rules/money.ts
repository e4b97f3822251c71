import type { RuleResult } from './result.js';

/** Money is integer cents inside; the REST edge speaks euros with two decimals. */
export function eurosToCents(euros: number): number {
  return Math.round(euros * 100);
}

export function centsToEuros(cents: number): number {
  return Math.round(cents) / 100;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** `25,50 €` in German, `€25.50` in English. */
export function formatMoney(cents: number, language: string = 'de'): string {
  const locale = language === 'en' ? 'en-GB' : 'de-DE';
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });
    formatters.set(locale, formatter);
  }
  return formatter.format(cents / 100);
}

/** An amount as typed, split into its whole euros (digits only) and its decimals (any number of digits). */
interface TypedAmount {
  whole: string;
  fraction: string;
}

/** German grouping: `1.234`, `1.234.567`, `1.234,56` (a decimal comma after point-separated thousands). */
const GROUPED_GERMAN = /^([1-9]\d{0,2}(?:\.\d{3})+)(?:,(\d+))?$/;
/** English grouping with decimals (`1,234.56`) or with two groups or more (`1,234,567`). */
const GROUPED_ENGLISH = /^([1-9]\d{0,2}(?:,\d{3})+)\.(\d+)$|^([1-9]\d{0,2}(?:,\d{3}){2,})$/;
/** No grouping: `18`, `18,5`, `18.50`, `1234,56`. */
const UNGROUPED = /^(\d+)(?:[.,](\d+))?$/;

/** The euro sign and the spaces around it go; what stays must be digits and marks. */
function withoutEuroSign(text: string): string {
  return text.trim().replace(/^€\s*/, '').replace(/\s*€$/, '');
}

/** Reads the marks of a typed amount (see parseEuros for the rule); null for anything that is no amount. */
function readTypedAmount(text: string): TypedAmount | null {
  const trimmed = withoutEuroSign(text);
  const german = GROUPED_GERMAN.exec(trimmed);
  if (german) return { whole: german[1]!.replace(/\./g, ''), fraction: german[2] ?? '' };
  const english = GROUPED_ENGLISH.exec(trimmed);
  if (english) return { whole: (english[1] ?? english[3]!).replace(/,/g, ''), fraction: english[2] ?? '' };
  const plain = UNGROUPED.exec(trimmed);
  if (plain) return { whole: plain[1]!, fraction: plain[2] ?? '' };
  return null;
}

/** At most 9 digits of whole euros (far above any price; the REST schemas cap at 100,000). */
const MAX_WHOLE_DIGITS = 9;

/**
 * Euros as a person types them, to integer cents: `18`, `18,5`, `18.50`, `18,50 €`, `€ 18.50`,
 * `1234,56`, and with thousands separators `1.234,56` (German) or `1,234.56` (English). No sign.
 * Null for anything else, and for more than two decimals (`18,555`, `0.001`: refused, never rounded).
 *
 * The marks: with both a point and a comma, the last one is the decimal mark and the other separates
 * thousands in groups of three. With one kind of mark only:
 * - one or two digits after it: the decimal mark (`18,5`, `18.50`);
 * - a point before exactly three digits is a German thousands separator: `1.234` is 1.234,00 €,
 *   `1.234.567` too. Its English reading (1.234 €) would have three decimals and be no amount, so
 *   the German one is the only amount it can mean. A leading `0.` (`0.001`) is no grouping;
 * - a comma before exactly three digits is a German decimal comma with three decimals: `18,555` and
 *   `1,234` are refused as too precise rather than read as 18.555 € or 1.234 € — the English
 *   thousands comma needs decimals or a second group (`1,234.00`, `1,234,567`). So a German typo never
 *   turns into a thousand times the price; the money input says back what it understood either way.
 */
export function parseEuros(text: string): number | null {
  const amount = readTypedAmount(text);
  if (!amount || amount.whole.length > MAX_WHOLE_DIGITS || amount.fraction.length > 2) return null;
  return Number(amount.whole) * 100 + Number(amount.fraction.padEnd(2, '0'));
}

/**
 * The rule behind every money input (client and server): the amount in cents, or why not — more
 * than two decimals is `moneyTooPrecise` (refused, never rounded), anything else that is no amount
 * `moneyInvalid`. The marks are read as parseEuros says.
 */
export function checkEuros(text: string): RuleResult<number> {
  const cents = parseEuros(text);
  if (cents !== null) return { ok: true, value: cents };
  const amount = readTypedAmount(text);
  const tooPrecise = amount !== null && amount.whole.length <= MAX_WHOLE_DIGITS && amount.fraction.length > 2;
  return { ok: false, code: tooPrecise ? 'moneyTooPrecise' : 'moneyInvalid' };
}

/** Whether a euro amount sent as a JSON number has at most two decimals (12.5 yes, 12.345 no). */
export function hasWholeCents(euros: number): boolean {
  return Math.abs(euros * 100 - eurosToCents(euros)) < 1e-6;
}

/** Cents as the text of a price input: `1850` → `18.50`. */
export function centsToInputText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** The same, as the REST API's euro amount (two decimals), or null. */
export function parseEurosAmount(text: string): number | null {
  const cents = parseEuros(text);
  return cents === null ? null : centsToEuros(cents);
}
