import type { TransportDoc } from '@fankurve/shared';
import { plainDocs, useQuery } from '../query.js';

export function useTransports(eventId: string): TransportDoc[] | undefined {
  return useQuery(
    (db) => db.transports.find({ selector: { event_id: eventId }, sort: [{ created_at: 'asc' }] }).$.pipe(plainDocs<TransportDoc>()),
    [eventId],
  );
}
