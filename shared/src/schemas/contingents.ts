import { z } from 'zod';
import { CONTINGENT_TICKETS_MAX, OFFER_MINUTES_MAX, PAYMENT_DAYS_MAX } from '../constants.js';
import { LOYALTY_NOTE_MAX_LENGTH } from '../rules/loyalty.js';
import { lineText, msg } from './common.js';

/*
 * Inputs of the ticket contingent routes (docs/product.md, Ticket contingents; Input rules). Counts
 * are whole numbers: a negative or fractional one is refused, never rounded. Whether the request
 * deadline lies in the event's season and not after it is `checkRequestDeadline`
 * (rules/allocation.ts), which needs the event.
 */

const wholeNumber = (code: Parameters<typeof msg>[0], min: number, max: number) =>
  z.number(msg(code)).int(msg(code)).min(min, msg(code)).max(max, msg(code));

/**
 * PUT /api/events/{id}/contingent: the tickets the club got, and optionally the request deadline
 * (the club's wall-clock time, `YYYY-MM-DD HH:MM`; null: none, requests are allocated at once), the
 * days to pay after allocation (null: none) and the offers' acceptance window in minutes. A field
 * left out keeps its value (a new contingent: none, none, 1440).
 */
export const contingentInput = z.object({
  tickets: wholeNumber('contingentTicketsInvalid', 0, CONTINGENT_TICKETS_MAX),
  request_deadline: z.string(msg('contingentDeadlineInvalid')).max(40, msg('contingentDeadlineInvalid')).nullable().optional(),
  payment_days: wholeNumber('contingentPaymentDaysInvalid', 1, PAYMENT_DAYS_MAX).nullable().optional(),
  offer_minutes: wholeNumber('contingentOfferMinutesInvalid', 1, OFFER_MINUTES_MAX).optional(),
});
export type ContingentInput = z.infer<typeof contingentInput>;

/**
 * PUT /api/events/{id}/contingent/requests/{attendeeId}: pin a request to the front, or exclude it
 * (admin), with an optional note the member concerned reads (one line, at most
 * LOYALTY_NOTE_MAX_LENGTH; empty: none). Changing the flags without a note drops the old one; a note
 * alone replaces the note of a pinned or excluded request (rules/allocationReasons.ts checks it again).
 */
export const ticketRequestFlagsInput = z
  .object({
    pinned: z.boolean(msg('invalidInput')).optional(),
    excluded: z.boolean(msg('invalidInput')).optional(),
    note: lineText(z.string(msg('invalidInput')).trim().max(LOYALTY_NOTE_MAX_LENGTH, msg('loyaltyNoteTooLong'))).optional(),
  })
  .refine((input) => input.pinned !== undefined || input.excluded !== undefined || input.note !== undefined, msg('invalidInput'));
export type TicketRequestFlagsInput = z.infer<typeof ticketRequestFlagsInput>;

/**
 * PUT /api/tickets/{attendeeId}/return, optional body: whether the member (or their guest) still
 * goes, and still needs the bus seat. `going: false` lets the row go once someone takes the ticket
 * (and frees the seat now); `needs_transport: false` frees the seat now. Without a body nothing else changes.
 */
export const ticketReturnInput = z.object({
  going: z.boolean(msg('invalidInput')).optional(),
  needs_transport: z.boolean(msg('invalidInput')).optional(),
});
export type TicketReturnInput = z.infer<typeof ticketReturnInput>;
