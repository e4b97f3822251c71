import { beyondAfterBuying } from '@fankurve/shared/rules/allocation';
import { getContingent } from '../../api/contingents.js';

/** What the admin confirms before marking more requests bought than the contingent has free. */
export interface BeyondContingent {
  tickets: number;
  free: number;
  /** Tickets held beyond the contingent once the change is saved. */
  beyond: number;
}

/**
 * Whether marking `newlyBought` more requests of the event bought takes it beyond its contingent
 * (shared rule `beyondAfterBuying`, over the figures read now): null when it does not, or when the
 * event has none. Online only, as the admin's edit mode is.
 */
export async function beyondContingent(eventId: string, newlyBought: number): Promise<BeyondContingent | null> {
  if (newlyBought === 0) return null;
  const { contingent } = await getContingent(eventId);
  if (!contingent) return null;
  const beyond = beyondAfterBuying(contingent, newlyBought);
  return beyond > contingent.beyond ? { tickets: contingent.tickets, free: contingent.free, beyond } : null;
}
