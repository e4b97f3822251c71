import { RETENTION_YEARS_MAX, RETENTION_YEARS_MIN, type Language } from '../constants.js';
import type { CoreMessageCode } from '../messages.js';
import type { RuleResult } from './result.js';
import { FORMER_MEMBER_PREFIX } from './usernames.js';

/*
 * Erasure with retention (docs/product.md, Data protection): an erased member's account keeps a
 * numbered pseudonym; what the books need of it is kept until the end of its retention, then the
 * retention job removes it. The server erases and removes; the client shows the pseudonym in the
 * reader's language and tells a member beforehand why erasure has to wait.
 */

/** The stored pseudonym of the erased account numbered `number` (German, the club's language), or its English form. */
export const formerMemberName = (number: number, language: Language = 'de'): string =>
  `${FORMER_MEMBER_PREFIX[language]} ${number}`;

const STORED_FORM = new RegExp(`^${FORMER_MEMBER_PREFIX.de} (\\d+)$`);

/** The number of an erased account from its stored pseudonym; null for any other name. */
export function formerMemberNumber(username: string): number | null {
  const match = STORED_FORM.exec(username);
  return match ? Number(match[1]) : null;
}

/** A member's name as shown: an erased account's pseudonym in the reader's language, any other name as it is. */
export function shownMemberName(username: string, language: Language): string {
  const number = formerMemberNumber(username);
  return number === null ? username : formerMemberName(number, language);
}

/**
 * The last day something of the year of `date` (`YYYY-MM-DD…`) is kept: the end of that year plus
 * `years` years. An entry of 14 March 2026 with 10 years is kept until 31 December 2036.
 */
export function retentionEnd(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) + years}-12-31`;
}

/** Whether what belongs to the day `date` may be removed on the club's day `today`. */
export const retentionOver = (date: string, years: number, today: string): boolean => retentionEnd(date, years) < today;

/**
 * Why a member's account cannot be erased yet, or null: the books must stay whole, so a balance
 * other than zero (owed or in credit) waits until it is settled or written off, and a bought ticket
 * whose price is still open waits until it is charged and settled.
 */
export function erasureProblem(owed: { balanceCents: number; openPriceCount: number }): CoreMessageCode | null {
  if (owed.balanceCents !== 0) return 'erasureBalanceOpen';
  if (owed.openPriceCount > 0) return 'erasureTicketPriceOpen';
  return null;
}

/** The retention in whole years, RETENTION_YEARS_MIN to RETENTION_YEARS_MAX, as a number or as typed text. */
export function checkRetentionYears(value: unknown): RuleResult<number> {
  const number = typeof value === 'string' && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < RETENTION_YEARS_MIN || number > RETENTION_YEARS_MAX)
    return { ok: false, code: 'retentionYearsInvalid' };
  return { ok: true, value: number };
}
