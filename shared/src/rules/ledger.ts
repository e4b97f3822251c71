import { EVENT_YEAR_MAX, EVENT_YEAR_MIN } from '../dates.js';
import type { RuleResult } from './result.js';
import { isPriceOpen, type TicketPriceFields } from './tickets.js';

/*
 * The club's money in one ledger (docs/product.md, Tickets and money; docs/architecture.md, Ledger).
 * Every charge and every payment is an entry of signed cents: positive raises what the member owes
 * (a ticket, a manual charge, a refund paid out), negative lowers it (a payment, a credit). Entries
 * are never changed; a correction is a reversal, the negated amount of the entry it names. The
 * server's domain and the device's statement both decide with these functions.
 */

export const LEDGER_KINDS = ['ticket', 'charge', 'payment', 'credit', 'refund', 'reversal'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

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

/**
 * Which unpaid tickets the member's money pays (docs/product.md, Tickets and money): the money not
 * yet used is the sum of the unpaid tickets' charges minus the balance (when positive); it pays the
 * oldest tickets first (event date, then the row's creation), each only when it covers it fully. The
 * first ticket it cannot cover stops it: the rest waits there as a part payment of that ticket. What
 * is left over is credit, which pays later charges as they come.
 */
export function ticketsCoveredBy(balanceCents: number, unpaid: readonly UnpaidTicketCharge[]): string[] {
  const charges = unpaid.filter((ticket) => ticket.charge_cents > 0);
  let available = charges.reduce((sum, ticket) => sum + ticket.charge_cents, 0) - balanceCents;
  const covered: string[] = [];
  const oldestFirst = [...charges].sort(
    (a, b) => a.event_date.localeCompare(b.event_date) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
  for (const ticket of oldestFirst) {
    if (available < ticket.charge_cents) break;
    available -= ticket.charge_cents;
    covered.push(ticket.id);
  }
  return covered;
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
