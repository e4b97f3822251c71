import type { Scope } from '../constants.js';
import type { RuleResult } from './result.js';

/** Who may edit and delete an event and its image: its creator or an admin. */
export function canManageEvent(user: { id: string; scope: Scope }, event: { created_by: string | null }): boolean {
  return user.scope === 'admin' || (event.created_by !== null && event.created_by === user.id);
}

/**
 * Bought tickets are debts and records: while any of an event's tickets is bought, only an admin may
 * delete it (and the server archives it instead); its creator is refused with 'eventHasTickets'
 * (docs/architecture.md, Data model). Who may manage the event at all is `canManageEvent`.
 */
export function mayDeleteEvent(user: { scope: Scope }, hasBoughtTickets: boolean): boolean {
  return !hasBoughtTickets || user.scope === 'admin';
}

/**
 * What members are charged is the admins' once it is charged: while an event has a ticket contingent
 * (the allocation buys at its price, also by the deadline job with no admin) or any bought ticket,
 * only an admin may change its ticket price or its stadium (whose only price category stands in for
 * a price of 0); its creator is refused with 'eventPriceLocked' (docs/product.md, Roles and
 * permissions). Other fields stay the creator's.
 */
export function checkPriceChange(user: { scope: Scope }, hasContingentOrBoughtTicket: boolean): RuleResult<true> {
  return hasContingentOrBoughtTicket && user.scope !== 'admin'
    ? { ok: false, code: 'eventPriceLocked' }
    : { ok: true, value: true };
}
