import { isUpcoming } from '../dates.js';
import { debtorOf, isDebt } from './attendance.js';
import type { RuleResult } from './result.js';

/*
 * Tickets and debts (docs/product.md, Tickets and money). A ticket is an
 * attendee row; its debtor is the member, or for a guest the member who brought them. The server's
 * domain (REST and sync push) and the device's data layer and screens decide with these functions.
 */

export type RequestKind = 'paid' | 'received';

/** The part of an attendee row (REST row or device document) the ticket rules read. */
export interface TicketRow {
  user_id: string | null;
  brought_by: string | null;
  needs_ticket: boolean;
  bought: boolean;
  paid: boolean;
  received: boolean;
  paid_requested: boolean;
  received_requested: boolean;
  price_cents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
  _deleted?: boolean;
}

/** The event a ticket belongs to, as far as the ticket rules need it. */
export interface TicketEvent {
  date: string;
  archived: boolean;
}

/** The lists of /my-tickets: pending (not bought yet), unpaid (bought, not paid), paid. */
export type TicketList = 'pending' | 'unpaid' | 'paid';

/**
 * Which list of /my-tickets a row belongs to, or null for none. Paid and unpaid come from the ticket
 * fields (an archived event's tickets included: the debt survives the event). Pending means the
 * member (or their guest) still needs a ticket for an upcoming, live event; a past event's unbought
 * need is moot, as is an answer of someone who has their own ticket.
 */
export function ticketStateOf(row: TicketRow, event: TicketEvent | undefined, today: string): TicketList | null {
  if (row._deleted) return null;
  if (row.paid) return 'paid';
  if (isDebt(row)) return 'unpaid';
  if (!row.needs_ticket || !event || event.archived || !isUpcoming(event.date, today)) return null;
  return 'pending';
}

/** An unpaid ticket of a past event is overdue (/my-tickets). */
export function isOverdue(row: TicketRow, event: TicketEvent | undefined, today: string): boolean {
  return isDebt(row) && !!event && !isUpcoming(event.date, today);
}

/** The row holds a ticket: its own, or one the club bought for it (loyalty points and statistics count these). */
export function holdsTicket(row: { has_ticket: boolean; bought: boolean }): boolean {
  return row.has_ticket || row.bought;
}

/** The price fields of a ticket as the price rules read them. */
export interface TicketPriceFields {
  price_cents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
}

/**
 * A ticket whose price is not known yet ("price open"): neither free nor priced, or marked to be
 * announced. Shown as such everywhere (never as 0,00 € next to a free ticket) and counted apart in
 * every total.
 */
export function isPriceOpen(ticket: TicketPriceFields): boolean {
  return !ticket.is_free && (ticket.price_cents === null || ticket.is_price_tbd);
}

/** A stadium's price category as the default price rule reads it. */
export interface PriceCategory {
  id: string;
  price_cents: number;
  ticket_type: string;
}

/** The price a ticket bought without one takes: the event's, or the stadium's only category. */
export type DefaultTicketPrice = { kind: 'event'; price_cents: number } | { kind: 'category'; category: PriceCategory };

/**
 * A ticket marked bought without any price (none given, not free, not to be announced) takes the
 * event's price, in the stadium's price category of that price when exactly one has it (so the day
 * list names the category of a contingent's tickets); an event without a price (0: not yet
 * available) takes its stadium's price category when there is exactly one. Otherwise null: the
 * price stays open. The server's domain applies it when a change buys the ticket; the admin's
 * attendee table preselects it when Bought is ticked; /my-tickets shows it for a requested ticket.
 */
export function defaultTicketPrice(eventPriceCents: number, categories: readonly PriceCategory[]): DefaultTicketPrice | null {
  if (eventPriceCents > 0) {
    const same = categories.filter((category) => category.price_cents === eventPriceCents);
    return same.length === 1 ? { kind: 'category', category: same[0]! } : { kind: 'event', price_cents: eventPriceCents };
  }
  if (categories.length === 1) return { kind: 'category', category: categories[0]! };
  return null;
}

/** Whether a ticket has no price of any kind yet (none given, not free, not to be announced). */
export function hasNoPriceChoice(ticket: TicketPriceFields): boolean {
  return ticket.price_cents === null && !ticket.is_free && !ticket.is_price_tbd;
}

/**
 * May this member make (or, `value` false, withdraw) a paid or received request on this ticket?
 * Only the debtor may (the member, or the member who brought the guest); withdrawing is always
 * allowed to them. A request needs a bought ticket; a paid request a ticket not yet paid, a received
 * request one not yet received. Asking again what is already asked is allowed (nothing changes).
 */
export function checkTicketRequest(row: TicketRow, actorId: string, kind: RequestKind, value: boolean = true): RuleResult<true> {
  if (debtorOf(row) !== actorId) return { ok: false, code: 'forbidden' };
  if (!value) return { ok: true, value: true };
  if (!row.bought) return { ok: false, code: 'ticketNotBought' };
  if (kind === 'paid' && row.paid) return { ok: false, code: 'ticketAlreadyPaid' };
  if (kind === 'received' && row.received) return { ok: false, code: 'ticketAlreadyReceived' };
  return { ok: true, value: true };
}

/**
 * Which request buttons a ticket shows: paid while bought and unpaid and not yet asked, received
 * while bought and not received and not yet asked; a pending request shows as "requested"; nothing
 * once the ticket is received.
 */
export function requestOptions(row: TicketRow, actorId: string) {
  const may = (kind: RequestKind) => checkTicketRequest(row, actorId, kind).ok;
  const hidden = row.received;
  return {
    canRequestPaid: !hidden && may('paid') && !row.paid_requested,
    paidRequested: !hidden && !row.paid && row.paid_requested,
    canRequestReceived: !hidden && may('received') && !row.received_requested,
    receivedRequested: !hidden && row.received_requested,
  };
}
