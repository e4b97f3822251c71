import { z } from 'zod';

/* Answers of the lists for the day (server/src/http/exports.ts): spreadsheets, not JSON. */

/**
 * A CSV file as the app writes every one (shared/src/rules/csv.ts): UTF-8 with a byte order mark,
 * semicolons, CRLF line ends; a header line, then one line per row.
 */
export const csvFileAnswer = z.string().meta({ id: 'CsvFile', description: 'UTF-8 CSV with BOM, semicolon-separated' });
