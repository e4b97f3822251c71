import { z } from 'zod';
import { restAttendee } from './attendance.js';
import { successAnswer, textOrNull } from './common.js';

/* Answers of the ticket routes (server/src/http/tickets.ts); money in euros (docs/architecture.md, "Data model"). */

/** A ticket with its event and debtor, and the list it belongs to (`rules/tickets.ts` `ticketStateOf`). */
export const restTicket = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    event_title: z.string(),
    event_date: z.string(),
    event_location: z.string(),
    event_archived: z.boolean(),
    user_id: textOrNull,
    guest_name: textOrNull,
    /** The member who owes it: the attendee, or for a guest the member who brought them. */
    debtor_id: textOrNull,
    username: textOrNull,
    price: z.number().nullable(),
    is_free: z.boolean(),
    is_price_tbd: z.boolean(),
    /** Not known yet: shown as "price open", never as 0,00 €. */
    price_open: z.boolean(),
    bought: z.boolean(),
    paid: z.boolean(),
    received: z.boolean(),
    paid_requested: z.boolean(),
    received_requested: z.boolean(),
    paid_requested_at: textOrNull,
    received_requested_at: textOrNull,
    state: z.enum(['pending', 'unpaid', 'paid']).nullable(),
    overdue: z.boolean(),
    /**
     * Euros still open on it (`rules/ledger.ts` `owedFiguresOf`: its charge minus the part of the
     * member's money that goes to it); 0 once paid or free; null while not bought or its price is open.
     */
    open_amount: z.number().nullable(),
  })
  .meta({ id: 'Ticket' });
export type RestTicket = z.infer<typeof restTicket>;

/**
 * GET /api/tickets/my: own and guests' tickets; what the member owes (`unpaidTotal`: the ledger's
 * balance when positive) and the unpaid tickets with an open price; the signed `balance` and `credit`.
 */
export const myTicketsAnswer = successAnswer({
  tickets: z.array(restTicket),
  unpaidTotal: z.number(),
  unpaidOpenPriceCount: z.number().int(),
  /** The ledger's balance: positive owed, negative credit. */
  balance: z.number(),
  /** The credit (the negated balance when negative, else 0). */
  credit: z.number(),
});
export type MyTicketsAnswer = z.infer<typeof myTicketsAnswer>;

/** What one member owes (`rules/ledger.ts` `owedFiguresOf`). */
export const memberDebt = z
  .strictObject({
    user_id: z.string(),
    username: textOrNull,
    email: textOrNull,
    /** What the member owes: the ledger's balance when positive, else 0; tickets whose price is open are counted in open_price_count. */
    total_debt: z.number(),
    unpaid_count: z.number().int(),
    open_price_count: z.number().int(),
    /** The signed ledger balance (credit negative), as the debts CSV writes it. */
    balance: z.number(),
  })
  .meta({ id: 'MemberDebt' });
export type MemberDebt = z.infer<typeof memberDebt>;

/** An unpaid ticket of the admin's debt list, with the debtor's email. */
export const unpaidTicket = restTicket.extend({ email: textOrNull }).meta({ id: 'UnpaidTicket' });
export type UnpaidTicket = z.infer<typeof unpaidTicket>;

/** GET /api/tickets/debts (admin). */
export const debtsAnswer = successAnswer({
  debts: z.array(memberDebt),
  unpaidTickets: z.array(unpaidTicket),
  /** What all members owe together (the sum of the positive balances) … */
  total: z.number(),
  /** … and how many unpaid tickets have their price open. */
  open_price_count: z.number().int(),
  /** The members' credit together (not subtracted from the total). */
  credit_total: z.number(),
});
export type DebtsAnswer = z.infer<typeof debtsAnswer>;

/** PUT /api/tickets/event/{eventId}/user/{userId}/status (admin): the row afterwards. */
export const ticketStatusAnswer = successAnswer({ attendance: restAttendee });
export type TicketStatusAnswer = z.infer<typeof ticketStatusAnswer>;
