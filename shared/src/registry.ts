import { attendeesSync } from './docs/attendees.js';
import { commentsSync } from './docs/comments.js';
import type { RefusalActionOf, SyncDeclaration } from './docs/declaration.js';
import { eventsSync } from './docs/events.js';
import { ledgerSync } from './docs/ledger.js';
import { membersSync } from './docs/members.js';
import { mentionsSync } from './docs/mentions.js';
import { noticesSync } from './docs/notices.js';
import { offersSync } from './docs/offers.js';
import { pollsSync } from './docs/polls.js';
import { pollVotesSync } from './docs/pollVotes.js';
import { transportsSync } from './docs/transports.js';
import * as collectionExports from './collections/index.js';
import { isCollectionDefinition, type CollectionDefinition } from './collections/define.js';
import { CORE_MESSAGES } from './messages.js';

/** The collections in folders of their own (collections/index.ts), as their definitions. */
type FolderCollection = Extract<(typeof collectionExports)[keyof typeof collectionExports], CollectionDefinition>;
const FOLDER_COLLECTIONS: readonly FolderCollection[] = Object.values(collectionExports).filter(
  isCollectionDefinition,
) as FolderCollection[];
type FolderDeclarations = { [C in FolderCollection as C['name']]: C['declaration'] };

/**
 * The synced collections: those declared in docs/, one line each, and every folder collection of
 * collections/index.ts (docs/architecture.md, Adding a synced collection). The schema version is part of the sync path, so an outdated client gets 426 and reloads.
 */
export const SYNC_DECLARATIONS = {
  events: eventsSync,
  attendees: attendeesSync,
  members: membersSync,
  notices: noticesSync,
  transports: transportsSync,
  comments: commentsSync,
  mentions: mentionsSync,
  ledger: ledgerSync,
  offers: offersSync,
  polls: pollsSync,
  poll_votes: pollVotesSync,
  ...(Object.fromEntries(
    FOLDER_COLLECTIONS.map((collection) => [collection.name, collection.declaration]),
  ) as FolderDeclarations),
} as const;

export type SyncCollectionName = keyof typeof SYNC_DECLARATIONS;
export const SYNC_COLLECTIONS = Object.keys(SYNC_DECLARATIONS) as SyncCollectionName[];

/** The document type of each collection. */
export type SyncDocOf<Name extends SyncCollectionName> =
  (typeof SYNC_DECLARATIONS)[Name] extends SyncDeclaration<infer Doc> ? Doc : never;

export const SYNC_SCHEMAS = Object.fromEntries(SYNC_COLLECTIONS.map((name) => [name, SYNC_DECLARATIONS[name].schema])) as {
  [Name in SyncCollectionName]: (typeof SYNC_DECLARATIONS)[Name]['schema'];
};

/** What a refused push can have tried, over all collections (the notice's `action`). */
export type NoticeAction = RefusalActionOf<(typeof SYNC_DECLARATIONS)[SyncCollectionName]>;
export const NOTICE_ACTIONS: readonly NoticeAction[] = SYNC_COLLECTIONS.flatMap(
  (name) => (SYNC_DECLARATIONS[name] as SyncDeclaration<SyncDocOf<typeof name>, NoticeAction>).push?.refusals ?? [],
);

/** The collections a device changes and pushes: RxDB keeps them on the device (docs/architecture.md, Client data layer). */
export type PushedCollectionName = {
  [Name in SyncCollectionName]: (typeof SYNC_DECLARATIONS)[Name] extends { push: object } ? Name : never;
}[SyncCollectionName];
export const PUSHED_COLLECTIONS = SYNC_COLLECTIONS.filter(
  (name): name is PushedCollectionName => SYNC_DECLARATIONS[name].push !== undefined,
);

/** The collections a device only reads: plain tables of the device's document store. */
export type PullOnlyCollectionName = Exclude<SyncCollectionName, PushedCollectionName>;
export const PULL_ONLY_COLLECTIONS = SYNC_COLLECTIONS.filter(
  (name): name is PullOnlyCollectionName => SYNC_DECLARATIONS[name].push === undefined,
);

/** The pushed collections whose other members' documents a device keeps apart, in its document store. */
export const SPLIT_BY_OWNER_COLLECTIONS = PUSHED_COLLECTIONS.filter((name) => SYNC_DECLARATIONS[name].splitByOwner === true);

/** The tables of a device's document store: what it only reads, and the others' part of the split collections. */
export const DEVICE_STORE_COLLECTIONS: readonly SyncCollectionName[] = [...PULL_ONLY_COLLECTIONS, ...SPLIT_BY_OWNER_COLLECTIONS];

/** The collections whose rows belong to an event and die with it (`partOfEvent`). */
export const EVENT_PART_COLLECTIONS: readonly SyncCollectionName[] = SYNC_COLLECTIONS.filter(
  (name) => SYNC_DECLARATIONS[name].partOfEvent === true,
);

/** The collections whose rows die with the member's account (`partOfUser`), with the column that names the member. */
export const USER_PART_COLLECTIONS: readonly { name: SyncCollectionName; column: string }[] = SYNC_COLLECTIONS.flatMap((name) => {
  const column = (SYNC_DECLARATIONS[name] as SyncDeclaration<SyncDocOf<typeof name>>).partOfUser;
  return column === undefined ? [] : [{ name, column }];
});

/** The collections whose rows of events a device does not keep are pulled on demand (docs/architecture.md, What a device keeps). */
export const KEPT_BY_EVENT_COLLECTIONS: readonly SyncCollectionName[] = SYNC_COLLECTIONS.filter(
  (name) => SYNC_DECLARATIONS[name].keptByEvent === true,
);

/**
 * Every message the server sends, by code: the common ones (messages.ts) and each folder
 * collection's own. docs/product.md, Error texts lists them in both languages.
 */
type FolderMessages = { [C in FolderCollection as keyof C['messages']]: string };
export const MESSAGES = Object.assign(
  {},
  CORE_MESSAGES,
  ...FOLDER_COLLECTIONS.map((collection) => collection.messages),
) as typeof CORE_MESSAGES & FolderMessages;
export type MessageCode = Extract<keyof typeof MESSAGES, string>;
