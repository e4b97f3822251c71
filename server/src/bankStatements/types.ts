/*
 * A bank statement as the treasurer's import reads it (docs/architecture.md, "Bank statements"):
 * only incoming credits in euros count, each with the bank's own reference for it, so that a line
 * booked once is known again in the next month's statement.
 */

export type StatementFormat = 'camt.053' | 'camt.052' | 'mt940' | 'csv';

/** One incoming credit of a statement. */
export interface StatementLine {
  /** The day the bank booked it, `YYYY-MM-DD`. */
  booked_on: string;
  /** Whole cents, above zero. */
  amount_cents: number;
  currency: string;
  /** The payer as the bank names them, '' when it does not. */
  name: string;
  /** The payer's IBAN in electronic format, '' when the bank does not give it. */
  iban: string;
  /** The transfer's purpose (unstructured remittance), lines joined by spaces. */
  purpose: string;
  /**
   * The bank's reference of the line: AcctSvcrRef, else the EndToEndId, else '' (the import then
   * derives one from the date, amount, IBAN and purpose).
   */
  bank_ref: string;
}

export interface ParsedStatement {
  format: StatementFormat;
  lines: StatementLine[];
}

/** A file that is no statement this import knows, or a broken one: said in the treasurer's words. */
export class StatementUnreadable extends Error {
  constructor(readonly reason: string) {
    super(`bank statement unreadable: ${reason}`);
  }
}
