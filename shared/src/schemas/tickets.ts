import { z } from 'zod';
import { ATTENDANCE_STATUSES, CLUB_CASH_DESK, TRANSFER_STATUSES } from '../constants.js';
import { euros, lineText, msg } from './common.js';

/**
 * The admin's fields of an attendee row (member or guest), docs/architecture.md readings: the ticket
 * (bought, paid, received, paid_by = a member id or the club cash desk, a ticket price option of the
 * event's stadium, or free, or to be announced, or a price in euros, ticket type), the transfer
 * status, and the answers. Body of PUT /api/tickets/event/{eventId}/user/{userId}/status and PUT
 * /api/attendees/{attendeeId}. A ticket price option sets price and ticket type from the option.
 */
export const ticketStatusInput = z
  .object({
    bought: z.boolean().optional(),
    paid: z.boolean().optional(),
    received: z.boolean().optional(),
    paid_by: z.string(msg('invalidPayer')).max(64, msg('invalidPayer')).nullable().optional(),
    ticket_price_id: z.string().max(64).nullable().optional(),
    price: euros('priceInvalid').nullable().optional(),
    ticket_type: lineText(z.string().trim().max(100)).nullable().optional(),
    is_free: z.boolean().optional(),
    is_price_tbd: z.boolean().optional(),
    transfer_status: z.enum(TRANSFER_STATUSES, msg('invalidInput')).nullable().optional(),
    status: z.enum(ATTENDANCE_STATUSES, msg('invalidInput')).optional(),
    needs_ticket: z.boolean().optional(),
    has_ticket: z.boolean().optional(),
    needs_transport: z.boolean().optional(),
  })
  .strict();
export type TicketStatusInput = z.infer<typeof ticketStatusInput>;

/** The same body for PUT /api/attendees/{attendeeId}. */
export const attendeeUpdateInput = ticketStatusInput;
export type AttendeeUpdateInput = TicketStatusInput;

export const PAID_BY_CLUB_CASH_DESK = CLUB_CASH_DESK;
