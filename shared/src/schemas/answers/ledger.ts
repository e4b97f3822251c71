import { z } from 'zod';
import { LEDGER_KINDS } from '../../docs/ledger.js';
import { ACCOUNTS_KINDS } from '../../rules/seasonAccounts.js';
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
    /** Reminders to pay sent for the member's current debt (docs/product.md, Tickets and money, "Reminders to pay") … */
    reminder_count: z.number().int(),
    /** … and when the latest went out (ISO 8601 UTC), null when none. */
    reminded_at: textOrNull,
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
    /**
     * What booking the line for its match pays, after the statement's earlier lines for the same
     * member: the tickets it pays in full (oldest first) and the euros left as credit; null without a match.
     */
    pays: z
      .strictObject({
        tickets: z.array(z.strictObject({ event_title: z.string(), event_date: z.string(), guest_name: textOrNull })),
        credit: z.number(),
      })
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

/** Which column holds what in a CSV statement (the date and the amount needed), by the header's text. */
export const statementCsvMapping = z
  .strictObject({
    booked_on: z.string(),
    amount: z.string(),
    name: z.string().optional(),
    iban: z.string().optional(),
    purpose: z.string().optional(),
    reference: z.string().optional(),
    currency: z.string().optional(),
  })
  .meta({ id: 'StatementCsvMapping' });
export type StatementCsvMapping = z.infer<typeof statementCsvMapping>;

/**
 * POST /api/ledger/statements, 400 `statementCsvMappingNeeded`: a CSV layout no mapping fits; the
 * file's columns, and the mapping the club kept (null when none).
 */
export const statementCsvMappingNeededAnswer = z
  .strictObject({
    success: z.literal(false),
    code: z.literal('statementCsvMappingNeeded'),
    message: z.string(),
    columns: z.array(z.string()),
    mapping: statementCsvMapping.nullable(),
  })
  .meta({ id: 'StatementCsvMappingNeeded' });
export type StatementCsvMappingNeededAnswer = z.infer<typeof statementCsvMappingNeededAnswer>;

/** POST /api/ledger/statements/{id}/book: lines booked, and lines booked before (not again). */
export const statementBookAnswer = z.strictObject({ booked: z.number().int(), duplicates: z.number().int() });
export type StatementBookAnswer = z.infer<typeof statementBookAnswer>;

/** POST /api/ledger/charges: the bulk charge's id (to reverse it), its entries and their total in euros. */
export const ledgerChargeAnswer = z.strictObject({ id: z.string(), entries: z.array(restLedgerEntry), total: z.number() });
export type LedgerChargeAnswer = z.infer<typeof ledgerChargeAnswer>;

/** POST /api/ledger/charges/{id}/reverse: the reversals booked. */
export const ledgerChargeReversedAnswer = z.strictObject({ entries: z.array(restLedgerEntry) });

/* ── The season's accounts (docs/architecture.md, Ledger, "Season accounts"); integer cents, every column positive ── */

const cents = z.number().int();
const accountsFigures = {
  /** Tickets and charges, less their reversals. */
  charged: cents,
  /** Payments, less their reversals. */
  collected: cents,
  /** Credits, less their reversals. */
  credited: cents,
  /** Refunds paid out, less their reversals. */
  refunded: cents,
  /** charged − collected − credited + refunded. */
  open: cents,
};

/** An event with money booked to it in the season (by the entries' day). */
export const accountsEvent = z
  .strictObject({ event_id: z.string(), title: z.string(), date: z.string(), ...accountsFigures })
  .meta({ id: 'AccountsEvent' });

/** A kind of money not tied to an event: its entries (reversals included) and its amount. */
export const accountsOther = z
  .strictObject({ kind: z.enum(ACCOUNTS_KINDS), entries: z.number().int(), amount: cents })
  .meta({ id: 'AccountsOther' });

/** A member's balance at the season's end (every entry up to its last day): positive owed, negative credit. */
export const accountsBalance = z
  .strictObject({ user_id: z.string(), username: textOrNull, open: cents })
  .meta({ id: 'AccountsBalance' });

/** GET /api/ledger/accounts?season=YYYY (admin): the season's cash report. */
export const seasonAccountsAnswer = successAnswer({
  accounts: z.strictObject({
    /** `2025/26`. */
    season: z.string(),
    /** The first and the last day of the season (`YYYY-07-01`, `YYYY+1-06-30`). */
    from: z.string(),
    to: z.string(),
    events: z.array(accountsEvent),
    other: z.array(accountsOther),
    totals: z.strictObject(accountsFigures),
    balances: z.array(accountsBalance),
  }),
});
export type SeasonAccountsAnswer = z.infer<typeof seasonAccountsAnswer>;
