import type { Scope } from '../constants.js';

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
