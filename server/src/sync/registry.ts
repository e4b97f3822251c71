import { SYNC_COLLECTIONS as SYNC_COLLECTION_NAMES } from '@fankurve/shared';
import type { SyncCollection } from './collection.js';
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

/** The server's synced collections kept here, one line each; the folder collections come from the wiring. */
const COLLECTIONS: SyncCollection[] = [
  eventsCollection,
  attendeesCollection,
  membersCollection,
  noticesCollection,
  transportsCollection,
  commentsCollection,
  mentionsCollection,
  offersCollection,
  pollsCollection,
  pollVotesCollection,
  ledgerCollection,
];

/**
 * Every synced collection by name: these and the folder collections' (docs/architecture.md, Adding a
 * synced collection); exactly one for each shared declaration.
 */
export function syncCollectionsWith(folderCollections: readonly SyncCollection[]): ReadonlyMap<string, SyncCollection> {
  const all = new Map([...COLLECTIONS, ...folderCollections].map((collection) => [collection.declaration.name, collection]));
  const declared = new Set<string>(SYNC_COLLECTION_NAMES);
  const missing = [...declared].filter((name) => !all.has(name));
  const unknown = [...all.keys()].filter((name) => !declared.has(name));
  if (missing.length > 0 || unknown.length > 0 || all.size !== COLLECTIONS.length + folderCollections.length)
    throw new Error(`Server collections do not match the declarations: missing ${missing}, unknown ${unknown}`);
  return all;
}
