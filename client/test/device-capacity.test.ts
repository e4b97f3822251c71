import 'fake-indexeddb/auto';
import {
  defineSyncCollection,
  PULL_ONLY_COLLECTIONS,
  PUSHED_COLLECTIONS,
  SYNC_COLLECTIONS,
  SYNC_PULL_LIMIT,
  type SyncDeclaration,
  type SyncedDoc,
} from '@fankurve/shared';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createFankurveDatabase, type FankurveDatabase } from '../src/data/database.js';
import {
  GROUPED_DECLARATIONS,
  groupSchema,
  kindCollection,
  OWN_RX_COLLECTIONS,
  PUSHED_GROUP,
  type GroupedDoc,
} from '../src/data/pushedGroup.js';
import type { RxCollection } from 'rxdb';
import { DocStore, type PulledDoc } from '../src/data/docStore.js';
import { StorePull } from '../src/data/storePull.js';

/*
 * Room to grow (docs/architecture.md, Client data layer): RxDB holds only what the device pushes, and
 * the small pushed kinds share one RxDB collection, so the open-source RxDB's 13-collection ceiling
 * does not bound the synced kinds. The device opens every declared collection plus test collections
 * (read-only and pushed) up to 25, and stores into each.
 */

const WANTED = 25;

interface TestDoc extends SyncedDoc {
  label: string;
  event_id: string;
}

/** A pull-only collection like the app's, for the count only. */
function testDeclaration(index: number): SyncDeclaration {
  return defineSyncCollection<TestDoc>({
    name: `test_kind_${index}`,
    schema: {
      title: `test_kind_${index}`,
      version: 0,
      primaryKey: 'id',
      type: 'object',
      properties: {
        id: { type: 'string', maxLength: 40 },
        label: { type: 'string' },
        event_id: { type: 'string', maxLength: 40 },
        seq: { type: 'number' },
      },
      required: ['id', 'label', 'event_id', 'seq'],
      indexes: ['event_id'],
    } as SyncDeclaration['schema'],
    priority: 1,
    tombstone: { label: '', event_id: '' },
  }) as unknown as SyncDeclaration;
}

/** A pushed kind like the app's small ones (a vote, a seat asked for): a kind of the group. */
function pushedTestDeclaration(index: number): SyncDeclaration {
  const declaration = testDeclaration(index) as SyncDeclaration<TestDoc>;
  return {
    ...declaration,
    name: `test_pushed_${index}`,
    push: { fields: ['label'], createFields: ['event_id'], create: true, delete: true, ownerOf: () => null, refusals: [] },
  } as unknown as SyncDeclaration;
}

/** A server's answers for one collection: `count` documents by seq, then a tombstone of the first. */
function pagesOf(collection: string, count: number) {
  const docs: PulledDoc[] = Array.from({ length: count }, (_, i) => ({
    id: `${collection}-${i}`,
    seq: i + 1,
    ...({ label: `${collection} ${i}`, event_id: `e${i % 3}` } as object),
  }));
  docs.push({ id: `${collection}-0`, seq: count + 1, _deleted: true });
  return async (afterSeq: number, limit: number) => {
    const page = docs.filter((doc) => doc.seq > afterSeq).slice(0, limit);
    return { documents: page, checkpoint: page.length > 0 ? { seq: page.at(-1)!.seq } : null };
  };
}

let db: FankurveDatabase | null = null;
let store: DocStore | null = null;

afterEach(async () => {
  await db?.remove();
  await store?.remove();
  db = null;
  store = null;
});

describe('the device database', () => {
  it(`opens every declared collection plus test collections up to ${WANTED}, with at most 8 in RxDB`, async () => {
    const missing = WANTED - SYNC_COLLECTIONS.length;
    const readOnly = Array.from({ length: Math.ceil(missing / 2) }, (_, i) => testDeclaration(i));
    const pushed = Array.from({ length: Math.floor(missing / 2) }, (_, i) => pushedTestDeclaration(i));
    db = await createFankurveDatabase({
      name: 'capacity',
      devMode: true,
      multiInstance: false,
      answerStore: null,
      groupedKinds: [...GROUPED_DECLARATIONS, ...pushed],
    });
    store = await DocStore.open('capacity', [...PULL_ONLY_COLLECTIONS, ...readOnly]);

    expect(Object.keys(db.collections).sort()).toEqual([...OWN_RX_COLLECTIONS, PUSHED_GROUP].sort());
    expect(Object.keys(db.collections).length).toBeLessThanOrEqual(8);
    const kinds = OWN_RX_COLLECTIONS.length + GROUPED_DECLARATIONS.length + pushed.length;
    expect(kinds).toBe(PUSHED_COLLECTIONS.length + pushed.length);
    expect(kinds + store.collections.length).toBe(WANTED);

    // Each pushed kind of the group is written and read as a collection of its own.
    const group = db.collections[PUSHED_GROUP] as unknown as RxCollection<GroupedDoc>;
    for (const { name } of pushed) {
      const kind = kindCollection(group, name as 'rides');
      await kind.insert({ id: `${name}-a`, label: name, event_id: 'e1', seq: 0 } as never);
    }
    const first = kindCollection(group, pushed[0]!.name as 'rides');
    expect((await first.find().exec()).map((doc) => doc.id)).toEqual([`${pushed[0]!.name}-a`]);
    expect(await first.findOne(`${pushed[1]!.name}-a`).exec()).toBeNull();
    expect(await group.count().exec()).toBe(pushed.length);

    // Each store collection pulls page by page (more than one page for one of them) and takes tombstones.
    const sizes = new Map(store.collections.map((name, i) => [name, i === 0 ? SYNC_PULL_LIMIT + 5 : 4]));
    const pulls = store.collections.map((name) => new StorePull(store!, name, pagesOf(name, sizes.get(name)!), 10));
    for (const pull of pulls) pull.reSync();
    await Promise.all(pulls.map((pull) => pull.awaitInSync()));
    for (const name of store.collections) {
      const table = store.table(name as 'events');
      expect(await table.count()).toBe(sizes.get(name)! - 1);
      expect(await table.get(`${name}-0`)).toBeUndefined();
      expect(await store.checkpoint(name)).toBe(sizes.get(name)! + 1);
    }
    // A test collection's index serves queries like the app's.
    const last = readOnly.at(-1)!.name;
    expect(
      await store
        .table(last as 'transports')
        .where('event_id')
        .equals('e1')
        .count(),
    ).toBe(1);
    await Promise.all(pulls.map((pull) => pull.cancel()));
  });

  it('gives the group a new schema version with every kind added and every new version of a kind', () => {
    const today = groupSchema(GROUPED_DECLARATIONS).version;
    expect(groupSchema([...GROUPED_DECLARATIONS, pushedTestDeclaration(0)]).version).toBe(today + 1);
    const [first, ...rest] = GROUPED_DECLARATIONS;
    const newer = { ...first!, schema: { ...first!.schema, version: first!.schema.version + 1 } } as SyncDeclaration;
    expect(groupSchema([newer, ...rest]).version).toBe(today + 1);
  });

  it('shows a pulled change to a live query, and a new schema version starts the collection afresh', async () => {
    const declaration = testDeclaration(0);
    store = await DocStore.open('capacity-live', [declaration]);
    const name = declaration.name;
    const seen = store.live(() => store!.table(name as 'events').count());
    const three = firstValueFrom(seen.pipe(filter((count) => count === 3)));
    await store.store(
      name,
      [1, 2, 3].map((seq) => ({ id: `d${seq}`, seq, ...({ label: 'x', event_id: 'e' } as object) })),
      3,
    );
    await three;
    store.close();

    const next = { ...declaration, schema: { ...declaration.schema, version: 1 } } as SyncDeclaration;
    store = await DocStore.open('capacity-live', [next]);
    expect(await store.checkpoint(name)).toBe(0);
    expect(await store.table(name as 'events').count()).toBe(0);
  });
});
