import { z } from 'zod';
import { CLUB_CASH_DESK } from '../constants.js';
import { msg } from './common.js';

/** The admin's ticket fields of an attendee row (ARCHITECTURE.md readings); price in euros. */
export const ticketStatusInput = z
  .object({
    bought: z.boolean().optional(),
    paid: z.boolean().optional(),
    received: z.boolean().optional(),
    paid_by: z.string().max(64).nullable().optional(),
    ticket_price_id: z.string().max(64).nullable().optional(),
    price: z.number(msg('priceInvalid')).min(0, msg('priceInvalid')).max(100000, msg('priceInvalid')).nullable().optional(),
  })
  .strict();
export type TicketStatusInput = z.infer<typeof ticketStatusInput>;

export const PAID_BY_CLUB_CASH_DESK = CLUB_CASH_DESK;
