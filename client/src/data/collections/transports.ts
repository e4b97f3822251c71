import type { TransportDoc } from '@fankurve/shared';
import { useStoreQuery } from '../query.js';

export function useTransports(eventId: string): TransportDoc[] | undefined {
  return useStoreQuery(
    (docs) =>
      docs.live(() => docs.table('transports').where('event_id').equals(eventId).sortBy('created_at')),
    [eventId],
  );
}
