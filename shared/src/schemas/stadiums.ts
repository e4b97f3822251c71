import { z } from 'zod';
import { euros, lineText, msg } from './common.js';

/** The longest team name, stadium name and city. */
export const STADIUM_TEXT_MAX_LENGTH = 200;

/** Texts are one-line free text (rules/freeText.ts). */
const required = (code: 'teamNameRequired' | 'stadiumNameRequired' | 'cityRequired') =>
  lineText(z.string(msg(code)).trim().min(1, msg(code)).max(STADIUM_TEXT_MAX_LENGTH));
const capacity = z
  .number(msg('capacityInvalid'))
  .int(msg('capacityInvalid'))
  .min(0, msg('capacityInvalid'))
  .max(1_000_000, msg('capacityInvalid'))
  .nullish();

/**
 * A stadium (docs/product.md, Input rules): team name, stadium name and city required; capacities default 0; address and
 * ticket price (euros) optional, null clears them.
 */
export const stadiumInput = z.object({
  team_name: required('teamNameRequired'),
  stadium_name: required('stadiumNameRequired'),
  city: required('cityRequired'),
  capacity,
  guest_block_capacity: capacity,
  address: lineText(z.string().trim().max(500)).nullish(),
  ticket_price: euros('priceInvalid').nullish(),
});
export type StadiumInput = z.infer<typeof stadiumInput>;

/** PUT /api/stadiums/{id}: the stadium object or any of its fields (unknown fields are ignored). */
export const updateStadiumInput = stadiumInput.partial();
export type UpdateStadiumInput = z.infer<typeof updateStadiumInput>;

/** A ticket price option of a stadium: price (euros) and type required ('Please fill in all fields'). */
export const ticketPriceInput = z.object({
  stadium_id: z.string(msg('fillAllFields')).min(1, msg('fillAllFields')).max(64, msg('stadiumNotFound')),
  price: euros('priceInvalid', 'fillAllFields'),
  ticket_type: lineText(z.string(msg('fillAllFields')).trim().min(1, msg('fillAllFields')).max(100)),
});
export type TicketPriceInput = z.infer<typeof ticketPriceInput>;
