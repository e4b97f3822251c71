import { z } from 'zod';
import { euros, msg } from './common.js';

/** Event input of SPEC 5; ticket_price in euros (0 = to be announced). */
export const createEventInput = z.object({
  title: z.string(msg('titleRequired')).trim().min(1, msg('titleRequired')).max(200),
  description: z.string().max(5000).nullish(),
  date: z.string(msg('dateRequired')).trim().min(1, msg('dateRequired')).max(40),
  location: z.string(msg('locationRequired')).trim().min(1, msg('locationRequired')).max(200),
  stadium_id: z.string().max(64).nullish(),
  ticket_price: euros('priceInvalid').nullish(),
  ticket_buyer: z.string().max(200).nullish(),
});
export type CreateEventInput = z.infer<typeof createEventInput>;

/** PUT /api/events/{id}: any of the event fields, each validated like on create (unknown fields are ignored). */
export const updateEventInput = createEventInput.partial();
export type UpdateEventInput = z.infer<typeof updateEventInput>;
