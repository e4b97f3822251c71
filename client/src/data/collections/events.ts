import type { EventDoc } from '@fankurve/shared';
import type { FankurveDatabase } from '../database.js';
import { plainDoc, plainDocs, useQuery } from '../query.js';

/** All events by date: the events list's query. */
const allEvents = (db: FankurveDatabase) => db.events.find({ sort: [{ date: 'asc' }] });

export function useEvents(): EventDoc[] | undefined {
  return useQuery((db) => allEvents(db).$.pipe(plainDocs<EventDoc>()), []);
}

/**
 * Runs the events list's query as soon as the database is open, before the screen asks for it:
 * RxDB keeps the result with the query, so the list renders from it on its first subscription.
 */
export async function prefetchEvents(db: FankurveDatabase): Promise<void> {
  await allEvents(db).exec();
}

export function useEvent(eventId: string): EventDoc | null | undefined {
  return useQuery((db) => db.events.findOne(eventId).$.pipe(plainDoc<EventDoc>()), [eventId]);
}
