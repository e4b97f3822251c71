import type { EventDoc } from '@fankurve/shared';
import { map } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import { plainDoc, plainDocs, useQuery } from '../query.js';

/*
 * An archived event (deleted by an admin while tickets on it were bought) stays on the device for its
 * tickets, which stay live; every screen that shows events treats it as deleted.
 */

/** All events that are not archived, by date: the events list's (and the seasons' and stadiums') query. */
export const listedEvents = (db: FankurveDatabase) => db.events.find({ selector: { archived: { $ne: true } }, sort: [{ date: 'asc' }] });

export function useEvents(): EventDoc[] | undefined {
  return useQuery((db) => listedEvents(db).$.pipe(plainDocs<EventDoc>()), []);
}

/**
 * Runs the events list's query as soon as the database is open, before the screen asks for it:
 * RxDB keeps the result with the query, so the list renders from it on its first subscription.
 */
export async function prefetchEvents(db: FankurveDatabase): Promise<void> {
  await listedEvents(db).exec();
}

/** One event for its detail page; null when it is missing or archived (the page's not-found state). */
export const shownEvent = (db: FankurveDatabase, eventId: string) =>
  db.events.findOne(eventId).$.pipe(
    plainDoc<EventDoc>(),
    map((event) => (event?.archived ? null : event)),
  );

export function useEvent(eventId: string): EventDoc | null | undefined {
  return useQuery((db) => shownEvent(db, eventId), [eventId]);
}
