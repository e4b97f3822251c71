import { EVENT_YEAR_MAX, EVENT_YEAR_MIN } from '../dates.js';
import type { LedgerKind } from '../docs/ledger.js';
import { csvAmount, toCsv } from './csv.js';
import type { RuleResult } from './result.js';
import { isPriceOpen, type TicketPriceFields } from './tickets.js';

/*
 * The club's money in one ledger (docs/product.md, Tickets and money; docs/architecture.md, Ledger).
 * Every charge and every payment is an entry of signed cents: positive raises what the member owes
 * (a ticket, a manual charge, a refund paid out), negative lowers it (a payment, a credit). Entries
 * are never changed; a correction is a reversal, the negated amount of the entry it names. The
 * server's domain and the device's statement both decide with these functions.
 */

/** What an admin books by hand (POST /api/ledger/entries); tickets and reversals are written by the app. */
export const MANUAL_LEDGER_KINDS = ['payment', 'charge', 'credit', 'refund'] as const;
export type ManualLedgerKind = (typeof MANUAL_LEDGER_KINDS)[number];

/** The longest note of a booked entry (docs/product.md, Limits and constants). */
export const LEDGER_NOTE_MAX_LENGTH = 200;

/** The sign an entry of this kind carries: +1 raises the debt, −1 lowers it (a reversal carries the negated amount). */
export function ledgerSign(kind: Exclude<LedgerKind, 'reversal'>): 1 | -1 {
  return kind === 'payment' || kind === 'credit' ? -1 : 1;
}

/** The signed amount of a new entry of `kind` for a positive number of cents. */
export function signedCents(kind: Exclude<LedgerKind, 'reversal'>, cents: number): number {
  return ledgerSign(kind) * Math.abs(cents);
}

/** The part of an entry (server row or device document) the rules read. */
export interface LedgerEntryLike {
  id: string;
  kind: LedgerKind;
  amount_cents: number;
  date: string;
  created_at: string;
  reverses_id: string | null;
  attendee_id: string | null;
}

/** What the member owes (positive) or has in credit (negative): the sum of every entry. */
export function balanceOf(entries: Iterable<Pick<LedgerEntryLike, 'amount_cents'>>): number {
  let sum = 0;
  for (const entry of entries) sum += entry.amount_cents;
  return sum;
}

/** The order of a statement: the entry's day, then when it was written, then its id. */
export function compareLedgerEntries(
  a: Pick<LedgerEntryLike, 'date' | 'created_at' | 'id'>,
  b: Pick<LedgerEntryLike, 'date' | 'created_at' | 'id'>,
): number {
  return a.date.localeCompare(b.date) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}

/** The ids of the entries a reversal names. */
export function reversedIds(entries: Iterable<Pick<LedgerEntryLike, 'reverses_id'>>): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) if (entry.reverses_id !== null) ids.add(entry.reverses_id);
  return ids;
}

export type StatementLine<Entry> = Entry & { balance_after: number; reversed: boolean };

/** The member's statement: every entry in order (`compareLedgerEntries`) with the balance after it and whether a reversal names it. */
export function statementOf<Entry extends LedgerEntryLike>(entries: readonly Entry[]): StatementLine<Entry>[] {
  const reversed = reversedIds(entries);
  let balance = 0;
  return [...entries].sort(compareLedgerEntries).map((entry) => {
    balance += entry.amount_cents;
    return { ...entry, balance_after: balance, reversed: reversed.has(entry.id) };
  });
}

/**
 * Entries that follow a ticket's flags: its charge and the payment written when an admin marked it
 * paid. They are corrected in the attendee table (bought, price, paid), never reversed by hand.
 */
export function followsTicket(entry: Pick<LedgerEntryLike, 'kind' | 'attendee_id'>): boolean {
  return entry.kind === 'ticket' || (entry.kind === 'payment' && entry.attendee_id !== null);
}

/**
 * May an admin reverse this entry? Not a reversal, not one a reversal already names, not one that
 * follows a ticket (409 with the code).
 */
export function checkReversal(
  entry: Pick<LedgerEntryLike, 'id' | 'kind' | 'attendee_id'>,
  entries: Iterable<Pick<LedgerEntryLike, 'reverses_id'>>,
): RuleResult<true> {
  if (entry.kind === 'reversal') return { ok: false, code: 'ledgerReversalOfReversal' };
  if (followsTicket(entry)) return { ok: false, code: 'ledgerEntryFollowsTicket' };
  if (reversedIds(entries).has(entry.id)) return { ok: false, code: 'ledgerEntryReversed' };
  return { ok: true, value: true };
}

/** Entries an admin may still reverse: manual, not a reversal, not reversed yet. */
export function isReversible(entry: Pick<LedgerEntryLike, 'kind' | 'attendee_id'>, reversed: boolean): boolean {
  return !reversed && entry.kind !== 'reversal' && !followsTicket(entry);
}

/**
 * What a bought ticket charges the member: its price when known and above 0, else nothing (free, or
 * a price still open: no charge until the price is known).
 */
export function ticketChargeCents(ticket: TicketPriceFields & { bought: boolean; deleted?: boolean }): number {
  if (ticket.deleted || !ticket.bought || isPriceOpen(ticket)) return 0;
  return ticket.price_cents !== null && ticket.price_cents > 0 ? ticket.price_cents : 0;
}

/** An unpaid bought ticket as the payment allocation reads it. */
export interface UnpaidTicketCharge {
  id: string;
  /** Its live charge in the ledger (cents, > 0). */
  charge_cents: number;
  /** The event's date (`YYYY-MM-DD HH:MM:SS`) and the row's creation time: the oldest is paid first. */
  event_date: string;
  created_at: string;
}

/** What is paid and what is still open on one unpaid ticket (cents). */
export interface TicketDebt {
  id: string;
  charge_cents: number;
  /** The part of the member's money not yet used that goes to this ticket (0 up to its charge). */
  paid_cents: number;
  /** What is still open on it: its charge minus the part paid. */
  open_cents: number;
}

const oldestFirst = <T extends Pick<UnpaidTicketCharge, 'event_date' | 'created_at' | 'id'>>(tickets: readonly T[]): T[] =>
  [...tickets].sort(
    (a, b) => a.event_date.localeCompare(b.event_date) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );

/**
 * The payment allocation, ticket by ticket (docs/product.md, Tickets and money; docs/architecture.md,
 * Ledger): the money not yet used is the sum of the unpaid tickets' charges minus the balance (when
 * positive); it pays the oldest tickets first (event date, then the row's creation), each only when it
 * covers it fully. The first ticket it cannot cover takes the rest as a part payment and stops it:
 * later tickets have nothing paid. What is left over after all of them is credit. Every screen and
 * the server read a ticket's open amount here, so accepting a paid report books exactly what is
 * still open on that ticket and the confirmation says the same amount.
 */
export function ticketDebtsOf(balanceCents: number, unpaid: readonly UnpaidTicketCharge[]): TicketDebt[] {
  const charges = unpaid.filter((ticket) => ticket.charge_cents > 0);
  let available = Math.max(0, charges.reduce((sum, ticket) => sum + ticket.charge_cents, 0) - balanceCents);
  return oldestFirst(charges).map((ticket) => {
    const paid = available >= ticket.charge_cents ? ticket.charge_cents : available;
    available = paid === ticket.charge_cents ? available - paid : 0;
    return { id: ticket.id, charge_cents: ticket.charge_cents, paid_cents: paid, open_cents: ticket.charge_cents - paid };
  });
}

/**
 * Which unpaid tickets the member's money pays in full (`ticketDebtsOf`): settling marks them paid.
 */
export function ticketsCoveredBy(balanceCents: number, unpaid: readonly UnpaidTicketCharge[]): string[] {
  return ticketDebtsOf(balanceCents, unpaid)
    .filter((ticket) => ticket.open_cents === 0)
    .map((ticket) => ticket.id);
}

/**
 * What a payment of `paymentCents` would pay (`ticketDebtsOf` before and after it): the tickets it
 * pays in full that were not before, oldest first, and the part of it left over as credit.
 */
export function whatPaymentPays(
  balanceCents: number,
  unpaid: readonly UnpaidTicketCharge[],
  paymentCents: number,
): { ticketIds: string[]; creditCents: number } {
  const before = new Set(ticketsCoveredBy(balanceCents, unpaid));
  const ticketIds = ticketsCoveredBy(balanceCents - paymentCents, unpaid).filter((id) => !before.has(id));
  return { ticketIds, creditCents: Math.max(0, paymentCents - Math.max(0, balanceCents)) };
}

/** What is still open on one ticket (its whole charge when it is no unpaid ticket with a charge of the list). */
export function ticketOpenCents(balanceCents: number, unpaid: readonly UnpaidTicketCharge[], ticketId: string): number {
  return ticketDebtsOf(balanceCents, unpaid).find((ticket) => ticket.id === ticketId)?.open_cents ?? 0;
}

/** An unpaid bought ticket with its price fields, as `owedFiguresOf` reads it (server row or device document). */
export interface UnpaidTicketOf extends TicketPriceFields {
  id: string;
  event_date: string;
  created_at: string;
}

/** Everything a screen or answer shows of what one member owes, from their ledger balance. */
export interface OwedFigures {
  /** The ledger's balance: positive owed, negative credit. */
  balanceCents: number;
  /** What the member owes: the balance when positive, else 0 (the total, the GiroCode, "Offene Schulden"). */
  owedCents: number;
  /** Credit: the negated balance when negative, else 0. */
  creditCents: number;
  /** Unpaid bought tickets (a ticket's price still open included) … */
  unpaidCount: number;
  /** … of which this many have their price open (no charge, not in the balance). */
  openPriceCount: number;
  /** Each unpaid ticket with a charge: the part paid and what is open. */
  tickets: TicketDebt[];
}

/**
 * The one rule behind every figure of what a member owes (docs/architecture.md, Ledger, "One
 * figure"): /my-tickets, /debts (list, total, statement, CSV), the user table, the GiroCode and the
 * payment request all take the ledger's balance and the member's unpaid bought tickets (bought, not
 * paid: settling keeps the paid flag in step with the money) and read them here.
 */
export function owedFiguresOf(balanceCents: number, unpaid: readonly UnpaidTicketOf[]): OwedFigures {
  return {
    balanceCents,
    owedCents: Math.max(0, balanceCents),
    creditCents: Math.max(0, -balanceCents),
    unpaidCount: unpaid.length,
    openPriceCount: unpaid.filter(isPriceOpen).length,
    tickets: ticketDebtsOf(
      balanceCents,
      unpaid.map((ticket) => ({
        id: ticket.id,
        charge_cents: ticketChargeCents({ ...ticket, bought: true }),
        event_date: ticket.event_date,
        created_at: ticket.created_at,
      })),
    ),
  };
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A booking day `YYYY-MM-DD`: a real calendar day of the years the app knows (2000–2100), else `ledgerDateInvalid`. */
export function checkLedgerDate(text: string): RuleResult<string> {
  const match = DAY_PATTERN.exec(text);
  if (!match) return { ok: false, code: 'ledgerDateInvalid' };
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < EVENT_YEAR_MIN || year > EVENT_YEAR_MAX || month < 1 || month > 12 || day < 1) {
    return { ok: false, code: 'ledgerDateInvalid' };
  }
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return { ok: false, code: 'ledgerDateInvalid' };
  return { ok: true, value: text };
}

/** The text of a ticket's entries: the event's title, and for a guest their name. The device words the kind. */
export function ticketEntryDescription(eventTitle: string, guestName: string | null): string {
  return guestName ? `${eventTitle} · ${guestName}` : eventTitle;
}

/** One member's line of the debts CSV, as GET /api/tickets/debts answers it (euros). */
export interface DebtsCsvMember {
  username: string | null;
  email: string | null;
  /** The signed ledger balance: what the member owes, credit as a negative amount. */
  balance: number;
  unpaid_count: number;
  open_price_count: number;
}

/**
 * The debts CSV of /debts ("Schulden als CSV"): one line per member of the debt list with their
 * ledger balance as the amount (credit negative, `owedFiguresOf`), unpaid tickets and those with an
 * open price, through the one CSV writer. `header` is the five column names in the admin's language.
 */
export function debtsCsv(header: readonly [string, string, string, string, string], debts: readonly DebtsCsvMember[]): string {
  return toCsv(
    header,
    debts.map((debt) => [
      debt.username,
      debt.email,
      csvAmount(Math.round(debt.balance * 100)),
      debt.unpaid_count,
      debt.open_price_count,
    ]),
  );
}
