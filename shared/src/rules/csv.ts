/*
 * CSV for the treasurer (docs/architecture.md, Data model: CSV exports): semicolon-separated, UTF-8
 * with a byte order mark, so spreadsheet programs open umlauts and euro amounts correctly; amounts
 * with a decimal comma (`18,50`). Every CSV the app writes is built here.
 *
 * The formula guard: names, titles and e-mail addresses come from members, and a spreadsheet runs a
 * cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula
 * (`=HYPERLINK("http://x","y")`). Such a text cell gets a leading apostrophe, so it stays text.
 * The check looks at the text as a spreadsheet may read it: compatibility-normalised (NFKC, so a
 * full-width `＝` or `＋` counts as `=` or `+`) and without invisible format characters in front
 * (a zero-width space, joiner, byte order mark, direction mark, variation selector or Hangul
 * filler before `=`).
 * Amounts are no text: they are passed as `csvAmount(cents)` and written as numbers, a negative one
 * (`-5,00`) included. Counts are passed as numbers.
 */

const BOM = '\uFEFF';

/** The first characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** An amount cell: cents, written as a number with a decimal comma and never guarded. */
export interface CsvAmount {
  readonly kind: 'csvAmount';
  readonly cents: number;
}

/** A cell: text (guarded), a count, an amount, or empty. */
export type CsvCell = string | number | CsvAmount | null | undefined;

/** Cents as an amount cell: `1850` is written `18,50`, `-500` is written `-5,00`. */
export function csvAmount(cents: number): CsvAmount {
  return { kind: 'csvAmount', cents };
}

/** An amount as the file writes it: `18,50`, `-5,00`. */
function amountText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Invisible characters: format characters (Unicode category Cf: zero-width space and joiners, BOM,
 * direction marks, soft hyphen) and the other default-ignorable ones (combining grapheme joiner,
 * variation selectors, Hangul fillers), which show nothing either.
 */
const LEADING_INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]+/u;

/**
 * Whether a spreadsheet would run the text as a formula (the guard's test). The member import
 * (docs/architecture.md, Member import) refuses such a cell rather than guarding it.
 */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text.normalize('NFKC').replace(LEADING_INVISIBLE, ''));
}

/** A text cell that a spreadsheet would run as a formula gets a leading apostrophe; any other stays as it is. */
export function guardCsvText(text: string): string {
  return looksLikeFormula(text) ? `'${text}` : text;
}

/** What a cell holds, before quoting: the guarded text, the count, or the amount. */
function cellText(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return guardCsvText(cell);
  if (typeof cell === 'number') return String(cell);
  return amountText(cell.cents);
}

/** One field: quoted when it holds a separator, a quote or a line break (quotes doubled). */
export function csvField(cell: CsvCell): string {
  const text = cellText(cell);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: BOM, header, rows, CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return BOM + [header, ...rows].map((row) => row.map(csvField).join(';')).join('\r\n') + '\r\n';
}
