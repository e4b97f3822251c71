import { camtFormatOf, parseCamt } from './camt.js';
import { parseCsv, type CsvMapping } from './csv.js';
import { isMt940, parseMt940 } from './mt940.js';
import { StatementUnreadable, type ParsedStatement } from './types.js';

export {
  CsvMappingNeeded,
  StatementUnreadable,
  type ParsedStatement,
  type StatementFormat,
  type StatementLine,
} from './types.js';
export { CSV_MAPPING_FIELDS, SPARKASSE_CSV_CAMT, csvMappingOf, csvRows, type CsvMapping } from './csv.js';

/**
 * A statement file's text: UTF-8 (with or without a byte order mark), else ISO-8859-1 as German
 * banks still write MT940 and CSV (Windows-1252, its superset, for € and typographic quotes). An XML
 * file names its encoding itself.
 */
export function statementText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * Reads a statement file (docs/architecture.md, "Bank statements"): CAMT.053 or CAMT.052 by their
 * XML, MT940 by its fields, anything else as CSV (by the mapping when its columns are there, or the
 * Sparkasse's layout).
 */
export function parseStatement(bytes: Uint8Array, mapping?: CsvMapping): ParsedStatement {
  const text = statementText(bytes);
  if (text.trim().length === 0) throw new StatementUnreadable('an empty file');
  if (camtFormatOf(text)) return parseCamt(text);
  if (/^\s*</.test(text)) throw new StatementUnreadable('XML that is no CAMT.052 or CAMT.053');
  if (isMt940(text)) return parseMt940(text);
  return parseCsv(text, mapping);
}
