import { beyondAfterBuying } from '@fankurve/shared/rules/allocation';
import { getContingent } from '../../api/contingents.js';

/** What the admin confirms before marking more requests bought than the contingent has free. */
export interface BeyondContingent {
  tickets: number;
  free: number;
  /** Tickets held beyond the contingent once the change is saved. */
  beyond: number;
}

/** A row of the attendee table as saved: its document before, and whether the change marks it bought. */
export interface BoughtChange {
  before: { bought: boolean; needs_ticket: boolean };
  bought: boolean | undefined;
}

/**
 * Whether the changes take the event beyond its contingent (shared rule `beyondAfterBuying`, over
 * the figures read now): only a row that asked for a ticket and is newly marked bought takes one of
 * the contingent's. Null when they do not, or when the event has none. Online only, as the admin's
 * edit mode is.
 */
export async function beyondContingent(eventId: string, changes: readonly BoughtChange[]): Promise<BeyondContingent | null> {
  const newlyBought = changes.filter(({ before, bought }) => bought === true && !before.bought && before.needs_ticket).length;
  if (newlyBought === 0) return null;
  const { contingent } = await getContingent(eventId);
  if (!contingent) return null;
  const beyond = beyondAfterBuying(contingent, newlyBought);
  return beyond > contingent.beyond ? { tickets: contingent.tickets, free: contingent.free, beyond } : null;
}
