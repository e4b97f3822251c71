import { z } from 'zod';
import { STATEMENT_BOOK_MAX_LINES } from '../constants.js';
import { checkLedgerDate, LEDGER_NOTE_MAX_LENGTH, MANUAL_LEDGER_KINDS } from '../rules/ledger.js';
import { hasWholeCents } from '../rules/money.js';
import { parseAccountsSeason } from '../rules/seasonAccounts.js';
import { lineText, msg } from './common.js';

/**
 * POST /api/ledger/entries (admin; docs/product.md, Input rules): what the admin books by hand for
 * one member. The amount is euros above 0 and at most 100,000 with at most two decimals (more is
 * refused, never rounded); the kind gives its sign. The day defaults to the club's today; the note is
 * the entry's text (one line, at most 200).
 */
export const ledgerEntryInput = z
  .object({
    user_id: z.string(msg('userNotFound')).min(1, msg('userNotFound')).max(64, msg('userNotFound')),
    kind: z.enum(MANUAL_LEDGER_KINDS, msg('ledgerKindInvalid')),
    amount: z
      .number(msg('ledgerAmountInvalid'))
      .gt(0, msg('ledgerAmountInvalid'))
      .max(100000, msg('ledgerAmountInvalid'))
      .refine(hasWholeCents, msg('moneyTooPrecise')),
    date: z
      .string(msg('ledgerDateInvalid'))
      .refine((text) => checkLedgerDate(text).ok, msg('ledgerDateInvalid'))
      .optional(),
    note: lineText(z.string(msg('invalidInput')).trim().max(LEDGER_NOTE_MAX_LENGTH, msg('ledgerNoteTooLong'))).optional(),
  })
  .strict();
export type LedgerEntryInput = z.infer<typeof ledgerEntryInput>;

/**
 * POST /api/ledger/statements/{id}/book (admin; docs/architecture.md, Bank statements): the lines of
 * a kept statement to book, each with the member it pays for.
 */
export const statementBookInput = z
  .object({
    lines: z
      .array(
        z
          .object({
            line_id: z
              .string(msg('statementLinesInvalid'))
              .min(1, msg('statementLinesInvalid'))
              .max(12, msg('statementLineUnknown')),
            user_id: z.string(msg('userNotFound')).min(1, msg('userNotFound')).max(64, msg('userNotFound')),
          })
          .strict(),
        msg('statementLinesInvalid'),
      )
      .min(1, msg('statementLinesInvalid'))
      .max(STATEMENT_BOOK_MAX_LINES, msg('statementLinesInvalid')),
  })
  .strict();
export type StatementBookInput = z.infer<typeof statementBookInput>;

const euros = (code: 'ledgerAmountInvalid') =>
  z.number(msg(code)).gt(0, msg(code)).max(100000, msg(code)).refine(hasWholeCents, msg('moneyTooPrecise'));
const anId = (code: 'eventNotFound' | 'transportNotFound') => z.string(msg(code)).min(1, msg(code)).max(64, msg(code));

/**
 * POST /api/ledger/charges (admin; docs/architecture.md, Ledger, "Bulk charges"): one charge to
 * every active member, everyone going to an event, or the passengers of a transport option; an
 * amount each, or a total split evenly. The note is the entries' text.
 */
export const ledgerChargeInput = z
  .object({
    target: z.union(
      [
        z.object({ all_members: z.literal(true, msg('chargeTargetInvalid')) }).strict(),
        z.object({ event_id: anId('eventNotFound') }).strict(),
        z.object({ transport_id: anId('transportNotFound') }).strict(),
      ],
      msg('chargeTargetInvalid'),
    ),
    amount: euros('ledgerAmountInvalid').optional(),
    total: euros('ledgerAmountInvalid').optional(),
    note: lineText(
      z
        .string(msg('chargeNoteRequired'))
        .trim()
        .min(1, msg('chargeNoteRequired'))
        .max(LEDGER_NOTE_MAX_LENGTH, msg('ledgerNoteTooLong')),
    ),
  })
  .strict()
  .refine((input) => (input.amount === undefined) !== (input.total === undefined), msg('chargeAmountOrTotal'));
export type LedgerChargeInput = z.infer<typeof ledgerChargeInput>;

/**
 * The query of GET /api/ledger/accounts (admin; docs/architecture.md, Ledger, "Season accounts"):
 * `season`, the year the season starts in (four digits, ACCOUNTS_SEASON_MIN to ACCOUNTS_SEASON_MAX;
 * none: the season of the club's today). rules/seasonAccounts.ts `checkAccountsSeason` checks again
 * in the domain.
 */
export const ledgerAccountsQuery = z.object({
  season: z
    .string(msg('ledgerSeasonInvalid'))
    .refine((text) => parseAccountsSeason(text) !== null, msg('ledgerSeasonInvalid'))
    .optional()
    .meta({ description: 'The year the season starts in (1 July), e.g. 2025 for 2025/26; the current season when left out' }),
});
export type LedgerAccountsQuery = z.input<typeof ledgerAccountsQuery>;
