import {
  DEVICE_STORE_COLLECTIONS,
  SYNC_DECLARATIONS,
  type SyncCollectionName,
  type SyncDeclaration,
  type SyncDocOf,
} from '@fankurve/shared';
import { Dexie, liveQuery, type Table } from 'dexie';
import { from, type Observable } from 'rxjs';

/*
 * The device's document store (docs/architecture.md, Client data layer): what the device only reads
 * (events, members, transports, news, the ledger, polls, and the other members' attendee rows) in
 * plain Dexie tables, one per collection, filled by the checkpointed pull (storePull.ts) and read by
 * the screens through `liveQuery`. It has no collection ceiling and none of RxDB's per-document
 * cost; RxDB keeps what the device writes. A collection kept by event (thousands of rows, read by
 * event) is stored as one record per event holding its rows: a first sync writes a few hundred
 * records instead of thousands.
 */

/**
 * A pulled document as the server sends it: a tombstone is `{ id, seq, _deleted: true }`, in a
 * collection kept by event with its `event_id`.
 */
export type PulledDoc = { id: string; seq: number; _deleted?: boolean };

/** The record of one event's rows in a collection kept by event. */
interface EventRows {
  event_id: string;
  rows: Record<string, PulledDoc>;
}

const eventOf = (doc: PulledDoc): string | undefined => {
  const eventId = (doc as { event_id?: unknown }).event_id;
  return typeof eventId === 'string' ? eventId : undefined;
};

/** Where a collection's pull stands: its schema version (another one starts afresh) and the last seq stored. */
interface PullCheckpoint {
  collection: string;
  version: number;
  seq: number;
}

const CHECKPOINTS = '_checkpoints';

/** A collection whose rows the store keeps by event. */
const keptByEvent = (declaration: SyncDeclaration) => declaration.keptByEvent === true;

/**
 * The Dexie spec of a collection's table: the id, then the schema's indexes (a compound one as
 * `[a+b]`); the event's id for a collection kept by event.
 */
function tableSpec(declaration: SyncDeclaration): string {
  if (keptByEvent(declaration)) return 'event_id';
  const indexes = ((declaration.schema as { indexes?: readonly (string | readonly string[])[] }).indexes ?? []).map(
    (index) => (typeof index === 'string' ? index : `[${index.join('+')}]`),
  );
  return ['id', ...indexes].join(',');
}

/** FNV-1a: a short, stable name for a layout of tables. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export class DocStore {
  private constructor(
    private readonly dexie: Dexie,
    private readonly declarations: ReadonlyMap<string, SyncDeclaration>,
  ) {}

  /**
   * Opens the store for `collections` beside the RxDB database `name`. Its tables' layout is part of
   * its name, so a new collection or index opens a new store (pulled afresh) and the old one is
   * deleted; a collection's new schema version empties just its table (`checkpoint`).
   */
  static async open(
    name: string,
    collections: readonly (SyncCollectionName | SyncDeclaration)[] = DEVICE_STORE_COLLECTIONS,
  ): Promise<DocStore> {
    const declarations = new Map(
      collections.map((collection) => {
        const declaration = typeof collection === 'string' ? (SYNC_DECLARATIONS[collection] as SyncDeclaration) : collection;
        return [declaration.name, declaration] as const;
      }),
    );
    const stores: Record<string, string> = { [CHECKPOINTS]: 'collection' };
    for (const declaration of declarations.values()) stores[declaration.name] = tableSpec(declaration);
    const prefix = `${name}-docs-`;
    // Only what the server holds is kept here, pulled again from its checkpoint should a commit be
    // lost in a crash: relaxed transactions commit without waiting for the disk.
    const dexie = new Dexie(prefix + fingerprint(JSON.stringify(stores)), { chromeTransactionDurability: 'relaxed' });
    dexie.version(1).stores(stores);
    await dexie.open();
    void DocStore.deleteOthers(prefix, dexie.name);
    return new DocStore(dexie, declarations);
  }

  /** Deletes every store of the database `name` (sign-out). */
  static async deleteAll(name: string): Promise<void> {
    const names = await Dexie.getDatabaseNames();
    await Promise.all(names.filter((other) => other.startsWith(`${name}-docs-`)).map((other) => Dexie.delete(other)));
  }

  private static async deleteOthers(prefix: string, current: string): Promise<void> {
    const names = await Dexie.getDatabaseNames().catch(() => [] as string[]);
    await Promise.all(names.filter((other) => other.startsWith(prefix) && other !== current).map((other) => Dexie.delete(other)));
  }

  has(collection: string): boolean {
    return this.declarations.has(collection);
  }

  /** The collections this store holds. */
  get collections(): string[] {
    return [...this.declarations.keys()];
  }

  /** The table of a collection stored document by document (not one kept by event: `rowsOfEvents`). */
  table<Name extends SyncCollectionName>(collection: Name): Table<SyncDocOf<Name>, string> {
    if (this.byEvent(collection)) throw new Error(`${collection} is stored by event: read it with rowsOfEvents`);
    return this.dexie.table(collection);
  }

  /** The rows of these events (none: of every event) of a collection kept by event. */
  async rowsOfEvents<Name extends SyncCollectionName>(collection: Name, eventIds?: readonly string[]): Promise<SyncDocOf<Name>[]> {
    const table = this.eventTable(collection);
    const records = eventIds ? await table.bulkGet([...eventIds]) : await table.toArray();
    return records.flatMap((record) => (record ? (Object.values(record.rows) as unknown as SyncDocOf<Name>[]) : []));
  }

  private byEvent(collection: string): boolean {
    const declaration = this.declarations.get(collection);
    return declaration !== undefined && keptByEvent(declaration);
  }

  private eventTable(collection: string): Table<EventRows, string> {
    if (!this.byEvent(collection)) throw new Error(`${collection} is not stored by event`);
    return this.dexie.table(collection);
  }

  /** A query that runs again whenever what it read changes, in this tab or another (Dexie's `liveQuery`). */
  live<T>(query: () => Promise<T>): Observable<T> {
    return from(liveQuery(query));
  }

  /** Every document of a collection on the device, live. */
  all<Name extends SyncCollectionName>(collection: Name): Observable<SyncDocOf<Name>[]> {
    return this.live(() => this.table(collection).toArray());
  }

  /** The documents of these ids that are on the device, by id, live. */
  byIds<Name extends SyncCollectionName>(collection: Name, ids: readonly string[]): Observable<Map<string, SyncDocOf<Name>>> {
    return this.live(async () => {
      const docs = await this.table(collection).bulkGet([...ids]);
      return new Map(docs.flatMap((doc) => (doc ? [[doc.id, doc] as const] : [])));
    });
  }

  /**
   * The seq the collection's pull goes on from (0: from the start). A stored checkpoint of another
   * schema version empties the table first: its documents have another shape.
   */
  async checkpoint(collection: string): Promise<number> {
    const version = this.versionOf(collection);
    return this.dexie.transaction('rw', [CHECKPOINTS, collection], async () => {
      const stored = (await this.dexie.table(CHECKPOINTS).get(collection)) as PullCheckpoint | undefined;
      if (!stored) return 0;
      if (stored.version === version) return stored.seq;
      await this.dexie.table(collection).clear();
      await this.dexie.table(CHECKPOINTS).delete(collection);
      return 0;
    });
  }

  /** Stores a page of a pull and the seq it reached, in one transaction: tombstones delete, the rest are put. */
  async store(collection: string, documents: readonly PulledDoc[], seq: number): Promise<void> {
    const version = this.versionOf(collection);
    await this.dexie.transaction('rw', [CHECKPOINTS, collection], async () => {
      await this.apply(collection, documents);
      await this.dexie.table(CHECKPOINTS).put({ collection, version, seq } satisfies PullCheckpoint);
    });
  }

  /** Writes documents in a transaction of the caller's: tombstones delete, the rest are put; a document's latest state wins. */
  private async apply(collection: string, documents: readonly PulledDoc[]): Promise<void> {
    const latest = [...new Map(documents.map((doc) => [doc.id, doc])).values()];
    if (this.byEvent(collection)) return this.applyByEvent(collection, latest);
    const gone = latest.filter((doc) => doc._deleted).map((doc) => doc.id);
    const live = latest.filter((doc) => !doc._deleted).map(({ _deleted, ...doc }) => doc);
    const table = this.dexie.table(collection);
    if (gone.length > 0) await table.bulkDelete(gone);
    if (live.length > 0) await table.bulkPut(live);
  }

  /** `apply` for a collection kept by event: each event's record is read, changed and written once. */
  private async applyByEvent(collection: string, latest: readonly PulledDoc[]): Promise<void> {
    const table = this.eventTable(collection);
    const byEvent = new Map<string, PulledDoc[]>();
    const add = (eventId: string, doc: PulledDoc) => {
      const docs = byEvent.get(eventId);
      if (docs) docs.push(doc);
      else byEvent.set(eventId, [doc]);
    };
    const unplaced: PulledDoc[] = [];
    for (const doc of latest) {
      const eventId = eventOf(doc);
      if (eventId === undefined) unplaced.push(doc);
      else add(eventId, doc);
    }
    // A tombstone without its event (the server sends it with one): looked for in every event's rows.
    if (unplaced.length > 0)
      for (const record of await table.toArray())
        for (const doc of unplaced) if (record.rows[doc.id]) add(record.event_id, doc);
    const eventIds = [...byEvent.keys()];
    const records = await table.bulkGet(eventIds);
    const changed: EventRows[] = [];
    const emptied: string[] = [];
    eventIds.forEach((eventId, i) => {
      const rows = { ...records[i]?.rows };
      for (const doc of byEvent.get(eventId)!) {
        if (doc._deleted) delete rows[doc.id];
        else {
          const { _deleted, ...row } = doc;
          rows[doc.id] = row;
        }
      }
      if (Object.keys(rows).length > 0) changed.push({ event_id: eventId, rows });
      else if (records[i]) emptied.push(eventId);
    });
    if (emptied.length > 0) await table.bulkDelete(emptied);
    if (changed.length > 0) await table.bulkPut(changed);
  }

  private versionOf(collection: string): number {
    const declaration = this.declarations.get(collection);
    if (!declaration) throw new Error(`the document store holds no collection ${collection}`);
    return declaration.schema.version;
  }

  /**
   * Stores documents outside the checkpointed pull (an event's rows fetched on demand): tombstones
   * delete, the rest are put; the pull's seq stays.
   */
  async storeLoose(collection: string, documents: readonly PulledDoc[]): Promise<void> {
    await this.dexie.transaction('rw', collection, () => this.apply(collection, documents));
  }

  close(): void {
    this.dexie.close();
  }

  async remove(): Promise<void> {
    await this.dexie.delete();
  }
}
