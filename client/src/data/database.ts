import {
  SYNC_SCHEMAS,
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
  await db.addCollections({
    events: { schema: SYNC_SCHEMAS.events as unknown as RxJsonSchema<EventDoc> },
    attendees: { schema: SYNC_SCHEMAS.attendees as unknown as RxJsonSchema<AttendeeDoc> },
    members: { schema: SYNC_SCHEMAS.members as unknown as RxJsonSchema<MemberDoc> },
    notices: { schema: SYNC_SCHEMAS.notices as unknown as RxJsonSchema<NoticeDoc> },
    transports: { schema: SYNC_SCHEMAS.transports as unknown as RxJsonSchema<TransportDoc> },
  });
  return db;
}
