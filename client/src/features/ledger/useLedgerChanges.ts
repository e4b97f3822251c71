import { useEffect } from 'react';

/**
 * Calls `reload` whenever the server's change stream says the ledger or attendee rows (tickets)
 * changed: the admin's money screens read REST answers, and these keep them in step with bookings
 * made elsewhere. The device's data layer is imported lazily: these screens must not pull it into
 * the first chunk.
 */
export function useLedgerChanges(reload: () => void): void {
  useEffect(() => {
    let stopped = false;
    let stop: (() => void) | null = null;
    void import('../../data/index.js').then((data) => {
      if (!stopped)
        stop = data.onServerChange((collections) => {
          if (collections.includes('ledger') || collections.includes('attendees')) reload();
        });
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [reload]);
}
