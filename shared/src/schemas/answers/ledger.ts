import { z } from 'zod';
import { LEDGER_KINDS } from '../../docs/ledger.js';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the ledger routes (server/src/http/ledger.ts); amounts are signed euros, positive raises the debt. */

/** One entry as booked (POST /api/ledger/entries and its reversal). */
export const restLedgerEntry = z
  .strictObject({
    id: z.string(),
    user_id: z.string(),
    kind: z.enum(LEDGER_KINDS),
    amount: z.number(),
    date: z.string(),
    description: z.string(),
    event_id: textOrNull,
    /** The ticket (attendee row) a ticket entry or a ticket's payment belongs to. */
    attendee_id: textOrNull,
    /** For a reversal: the entry it undoes. */
    reverses_id: textOrNull,
    /** The admin who booked it; null for what the app wrote. */
    created_by: textOrNull,
    created_at: z.string(),
  })
  .meta({ id: 'LedgerEntry' });
export type RestLedgerEntry = z.infer<typeof restLedgerEntry>;

/** One line of a member's statement: the entry and the balance after it (`rules/ledger.ts` `statementOf`). */
export const restStatementLine = z
  .strictObject({
    id: z.string(),
    date: z.string(),
    kind: z.enum(LEDGER_KINDS),
    amount: z.number(),
    description: z.string(),
    event_id: textOrNull,
    balance_after: z.number(),
    attendee_id: textOrNull,
    reverses_id: textOrNull,
    /** A reversal names this entry. */
    reversed: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'StatementLine' });
export type RestStatementLine = z.infer<typeof restStatementLine>;

/** GET /api/ledger/my and GET /api/ledger/members/{userId}: the balance (positive: owed) and the statement, oldest first. */
export const ledgerStatementAnswer = successAnswer({ balance: z.number(), entries: z.array(restStatementLine) });
export type LedgerStatementAnswer = z.infer<typeof ledgerStatementAnswer>;

/** One member's balance on /debts. */
export const memberBalance = z
  .strictObject({
    user_id: z.string(),
    username: textOrNull,
    balance: z.number(),
    /** Bought tickets not yet paid … */
    unpaid_count: z.number().int(),
    /** … of which this many have their price open (no charge in the ledger yet). */
    open_price_count: z.number().int(),
  })
  .meta({ id: 'MemberBalance' });
export type MemberBalance = z.infer<typeof memberBalance>;

/** GET /api/ledger (admin): every active member and anyone with a balance, largest balance first. */
export const ledgerMembersAnswer = successAnswer({ members: z.array(memberBalance) });
export type LedgerMembersAnswer = z.infer<typeof ledgerMembersAnswer>;

/** POST /api/ledger/entries (201) and POST /api/ledger/entries/{id}/reverse (201, the reversal). */
export const ledgerEntryAnswer = messageAnswerWith({ entry: restLedgerEntry });
export type LedgerEntryAnswer = z.infer<typeof ledgerEntryAnswer>;

/** GET /api/ledger/my/payment: what to transfer, the reference and the GiroCode's EPC payload. */
export const ledgerPaymentAnswer = successAnswer({ amount: z.number(), reference: z.string(), epc: z.string() });
export type LedgerPaymentAnswer = z.infer<typeof ledgerPaymentAnswer>;

/** A credit of an imported bank statement: whether it was booked before and whom it matches (docs/architecture.md, Bank statements). */
export const statementLineView = z
  .strictObject({
    line_id: z.string(),
    booked_on: z.string(),
    /** Euros. */
    amount: z.number(),
    /** Lines in another currency than EUR are listed, never booked. */
    currency: z.string(),
    name: z.string(),
    iban: z.string(),
    purpose: z.string(),
    bank_ref: z.string(),
    duplicate: z.boolean(),
    match: z
      .strictObject({ user_id: z.string(), username: z.string(), reason: z.enum(['reference', 'iban', 'name_amount']) })
      .nullable(),
  })
  .meta({ id: 'StatementLineView' });

/** POST /api/ledger/statements: the statement kept a day for booking. */
export const statementImportAnswer = z.strictObject({
  statement: z.strictObject({
    id: z.string(),
    format: z.enum(['camt.053', 'camt.052', 'mt940', 'csv']),
    lines: z.array(statementLineView),
  }),
});
export type StatementImportAnswer = z.infer<typeof statementImportAnswer>;

/** POST /api/ledger/statements/{id}/book: lines booked, and lines booked before (not again). */
export const statementBookAnswer = z.strictObject({ booked: z.number().int(), duplicates: z.number().int() });
export type StatementBookAnswer = z.infer<typeof statementBookAnswer>;

/** POST /api/ledger/charges: the bulk charge's id (to reverse it), its entries and their total in euros. */
export const ledgerChargeAnswer = z.strictObject({ id: z.string(), entries: z.array(restLedgerEntry), total: z.number() });
export type LedgerChargeAnswer = z.infer<typeof ledgerChargeAnswer>;

/** POST /api/ledger/charges/{id}/reverse: the reversals booked. */
export const ledgerChargeReversedAnswer = z.strictObject({ entries: z.array(restLedgerEntry) });
