import type { SyncCollection } from './collection.js';
import { announcementsCollection } from './collections/announcements.js';
import { attendeesCollection } from './collections/attendees.js';
import { commentsCollection } from './collections/comments.js';
import { eventsCollection } from './collections/events.js';
import { ledgerCollection } from './collections/ledger.js';
import { membersCollection } from './collections/members.js';
import { mentionsCollection } from './collections/mentions.js';
import { noticesCollection } from './collections/notices.js';
import { offersCollection } from './collections/offers.js';
import { pollsCollection } from './collections/polls.js';
import { pollVotesCollection } from './collections/pollVotes.js';
import { transportsCollection } from './collections/transports.js';

/** The server's synced collections, one line each (docs/architecture.md, adding a synced collection). */
const COLLECTIONS: SyncCollection[] = [
  eventsCollection,
  attendeesCollection,
  membersCollection,
  noticesCollection,
  transportsCollection,
  commentsCollection,
  mentionsCollection,
  announcementsCollection,
  offersCollection,
  pollsCollection,
  pollVotesCollection,
  ledgerCollection,
];

export const SYNC_COLLECTIONS: ReadonlyMap<string, SyncCollection> = new Map(
  COLLECTIONS.map((collection) => [collection.declaration.name, collection]),
);
