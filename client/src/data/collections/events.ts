import type { EventDoc } from '@fankurve/shared';
import { map } from 'rxjs';
import type { DocStore } from '../docStore.js';
import { useStoreQuery } from '../query.js';

/*
 * An archived event (deleted by an admin while tickets on it were bought) stays on the device for its
 * tickets, which stay live; every screen that shows events treats it as deleted.
 */

/** All events that are not archived, by date: the events list's (and the seasons' and stadiums') query. */
export const listedEvents = (docs: DocStore) =>
  docs.live(async () => (await docs.table('events').orderBy('date').toArray()).filter((event) => !event.archived));

export function useEvents(): EventDoc[] | undefined {
  return useStoreQuery((docs) => listedEvents(docs), []);
}

/**
 * Opens the document store's events table as soon as the device's data is opened, before the screen
 * asks for it; the number of events on the device (none: a first sign-in, with nothing to paint).
 */
export function prefetchEvents(docs: DocStore): Promise<number> {
  return docs.table('events').count();
}

/** One event for its detail page; null when it is missing or archived (the page's not-found state). */
export const shownEvent = (docs: DocStore, eventId: string) =>
  docs.live(() => docs.table('events').get(eventId)).pipe(map((event) => (event && !event.archived ? event : null)));

export function useEvent(eventId: string): EventDoc | null | undefined {
  return useStoreQuery((docs) => shownEvent(docs, eventId), [eventId]);
}
