import { SYNC_DECLARATIONS, type SyncCollectionName, type SyncDeclaration, type SyncDocOf } from '@fankurve/shared';
import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBMigrationPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { browserStorage, droppedAnswersKey, mirroredAnswerStore, PushRebaser, type AnswerStore } from './rebase.js';
import {
  GROUPED_COLLECTIONS,
  GROUPED_DECLARATIONS,
  groupPushFields,
  groupSchema,
  OWN_RX_COLLECTIONS,
  PUSHED_GROUP,
  type GroupedDoc,
  type OwnRxCollectionName,
} from './pushedGroup.js';
import { yieldToMain } from './yieldToMain.js';

/**
 * The collections the device pushes (shared/src/docs), typed by their documents: the large ones
 * read by event in RxDB collections of their own, the rest as kinds of one group (pushedGroup.ts);
 * what it only reads is in the document store (docStore.ts).
 */
export type FankurveCollections = { [Name in OwnRxCollectionName]: RxCollection<SyncDocOf<Name>> } & {
  [PUSHED_GROUP]: RxCollection<GroupedDoc>;
};

export type FankurveDatabase = RxDatabase<FankurveCollections>;

export { DEVICE_DATABASE_NAME } from './deviceDocs.js';

let pluginsAdded = false;
let devModeAdded = false;

/**
 * A newer schema version of a collection drops the device's copy, which the replication then pulls
 * afresh under a new replication identifier (data/replication.ts): the server is the source of truth.
 */
function dropOnEveryVersion(version: number): Record<number, () => null> {
  return Object.fromEntries(Array.from({ length: version }, (_, index) => [index + 1, () => null]));
}

/**
 * The device's database: RxDB on IndexedDB (Dexie), the pushed collections (one each, or kinds of the group), schemas
 * shared with the server's document mappers. Dev-mode (with schema validation) in development and
 * tests, where errors then carry full messages instead of bare codes.
 */
export async function createFankurveDatabase(options: {
  name: string;
  devMode: boolean;
  multiInstance?: boolean;
  /**
   * A subset of the collections (those the device only reads are left out). The open-source RxDB
   * allows 13 collections per process, so Node tests that run several devices in one process give
   * each only what the test needs; the app takes every pushed collection.
   */
  collections?: readonly SyncCollectionName[];
  /**
   * Where the push rebaser keeps the answers RxDB dropped (data/rebase.ts); localStorage where there
   * is one, mirrored for the service worker's background sync.
   */
  answerStore?: AnswerStore | null;
  /** The kinds of the group (tests add their own); the app's grouped pushed kinds by default. */
  groupedKinds?: readonly SyncDeclaration[];
}): Promise<FankurveDatabase> {
  if (!pluginsAdded) {
    addRxPlugin(RxDBLeaderElectionPlugin);
    addRxPlugin(RxDBMigrationPlugin);
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
  const wanted = (name: SyncCollectionName) => options.collections?.includes(name) ?? true;
  const answerStore = options.answerStore === undefined ? mirroredAnswerStore(browserStorage()) : options.answerStore;
  const rebaser = (name: string, fields: readonly string[], version: number) =>
    new PushRebaser(fields, answerStore && { store: answerStore, key: droppedAnswersKey(options.name, name, version) });
  // One collection per task (in the declared order): all at once would be one long task before the
  // screen can answer (docs/architecture.md, Client data layer).
  for (const name of OWN_RX_COLLECTIONS.filter(wanted)) {
    const { schema, push } = SYNC_DECLARATIONS[name];
    await db.addCollections({
      [name]: {
        schema: schema as unknown as RxJsonSchema<unknown>,
        migrationStrategies: dropOnEveryVersion(schema.version),
        // Pushable collections keep RxDB's record of the server's state true (data/rebase.ts).
        conflictHandler: rebaser(name, push.fields, schema.version),
      },
    });
    await yieldToMain();
  }
  const grouped = options.groupedKinds ?? GROUPED_DECLARATIONS;
  if (options.groupedKinds !== undefined || GROUPED_COLLECTIONS.some(wanted)) {
    const schema = groupSchema(grouped);
    await db.addCollections({
      [PUSHED_GROUP]: {
        schema: schema as RxJsonSchema<unknown>,
        migrationStrategies: dropOnEveryVersion(schema.version),
        conflictHandler: rebaser(PUSHED_GROUP, groupPushFields(grouped), schema.version),
      },
    });
  }
  return db;
}

