import type { TransportDoc } from '@fankurve/shared';
import { useQuery } from '../query.js';

export function useTransports(eventId: string): TransportDoc[] | undefined {
  return useQuery(
    (_db, docs) =>
      docs.live(() => docs.table('transports').where('event_id').equals(eventId).sortBy('created_at')),
    [eventId],
  );
}
