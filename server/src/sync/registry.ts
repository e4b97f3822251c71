import type { SyncCollection } from './collection.js';
import { attendeesCollection } from './collections/attendees.js';
import { eventsCollection } from './collections/events.js';
import { membersCollection } from './collections/members.js';
import { noticesCollection } from './collections/notices.js';
import { transportsCollection } from './collections/transports.js';

/** The replicated collections by name; their versions match the RxDB schemas in shared/src/docs. */
export const SYNC_COLLECTIONS: ReadonlyMap<string, SyncCollection> = new Map(
  [eventsCollection, attendeesCollection, membersCollection, noticesCollection, transportsCollection].map((collection) => [
    collection.name,
    collection,
  ]),
);
