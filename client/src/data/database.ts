import {
  SYNC_COLLECTIONS,
  SYNC_SCHEMAS,
  type SyncCollectionName,
  type AttendeeDoc,
  type EventDoc,
  type MemberDoc,
  type NoticeDoc,
  type TransportDoc,
} from '@fankurve/shared';
import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';

export interface FankurveCollections {
  events: RxCollection<EventDoc>;
  attendees: RxCollection<AttendeeDoc>;
  members: RxCollection<MemberDoc>;
  notices: RxCollection<NoticeDoc>;
  transports: RxCollection<TransportDoc>;
}

export type FankurveDatabase = RxDatabase<FankurveCollections>;

let pluginsAdded = false;
let devModeAdded = false;

/**
 * The device's database: RxDB on IndexedDB (Dexie), one collection per replicated server
 * collection, schemas shared with the server's document mappers. Dev-mode (with schema validation)
 * in development and tests, where errors then carry full messages instead of bare codes.
 */
export async function createFankurveDatabase(options: {
  name: string;
  devMode: boolean;
  multiInstance?: boolean;
  /**
   * A subset of the collections. The open-source RxDB allows 13 collections per process, so Node tests
   * that run several devices in one process give each only what the test needs; the app takes all.
   */
  collections?: readonly SyncCollectionName[];
}): Promise<FankurveDatabase> {
  if (!pluginsAdded) {
    addRxPlugin(RxDBLeaderElectionPlugin);
    pluginsAdded = true;
  }
  let storage = getRxStorageDexie();
  // The DEV check lets the production build drop dev-mode and the validator entirely.
  if (import.meta.env.DEV && options.devMode) {
    const [{ RxDBDevModePlugin, disableWarnings }, { wrappedValidateAjvStorage }] = await Promise.all([
      import('rxdb/plugins/dev-mode'),
      import('rxdb/plugins/validate-ajv'),
    ]);
    if (!devModeAdded) {
      disableWarnings();
      addRxPlugin(RxDBDevModePlugin);
      devModeAdded = true;
    }
    storage = wrappedValidateAjvStorage({ storage }) as typeof storage;
  }
  const db = await createRxDatabase<FankurveCollections>({
    name: options.name,
    storage,
    multiInstance: options.multiInstance ?? true,
    eventReduce: true,
    closeDuplicates: true,
  });
  const schemas = {
    events: SYNC_SCHEMAS.events as unknown as RxJsonSchema<EventDoc>,
    attendees: SYNC_SCHEMAS.attendees as unknown as RxJsonSchema<AttendeeDoc>,
    members: SYNC_SCHEMAS.members as unknown as RxJsonSchema<MemberDoc>,
    notices: SYNC_SCHEMAS.notices as unknown as RxJsonSchema<NoticeDoc>,
    transports: SYNC_SCHEMAS.transports as unknown as RxJsonSchema<TransportDoc>,
  };
  const wanted = options.collections ?? SYNC_COLLECTIONS;
  await db.addCollections(Object.fromEntries(wanted.map((name) => [name, { schema: schemas[name] }])));
  return db;
}
