import type { CreditLine } from '../domain/money/bankStatements.js';

/*
 * A bank statement as the treasurer's import reads it (docs/architecture.md, "Bank statements"):
 * only incoming credits in euros count, each with the bank's own reference for it, so that a line
 * booked once is known again in the next month's statement.
 */

export type StatementFormat = 'camt.053' | 'camt.052' | 'mt940' | 'csv';

/** One incoming credit of a statement: the domain's `CreditLine`, which keeps and books it. */
export type { CreditLine as StatementLine } from '../domain/money/bankStatements.js';
export interface ParsedStatement {
  format: StatementFormat;
  lines: CreditLine[];
}

/** A file that is no statement this import knows, or a broken one: said in the treasurer's words. */
export class StatementUnreadable extends Error {
  constructor(readonly reason: string) {
    super(`bank statement unreadable: ${reason}`);
  }
}

/**
 * A CSV statement in a layout the import does not know and no mapping fits (none chosen yet, or the
 * kept one names columns this file lacks): the treasurer chooses which column holds what.
 */
export class CsvMappingNeeded extends Error {
  constructor(readonly columns: string[]) {
    super('a CSV layout without a fitting column mapping');
  }
}
