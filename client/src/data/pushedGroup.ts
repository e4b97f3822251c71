import {
  PUSHED_COLLECTIONS,
  SYNC_DECLARATIONS,
  type PushedCollectionName,
  type SyncDeclaration,
  type SyncDocOf,
} from '@fankurve/shared';
import type { MangoQuery, MangoQuerySelector, RxCollection, RxDocument, RxJsonSchema, RxQuery } from 'rxdb';

/*
 * The pushed kinds that share one RxDB collection (docs/architecture.md, Client data layer). The
 * open-source RxDB opens at most 13 collections in a page, so only the kinds with thousands of
 * documents read by event (kept by event, or split by owner) keep a collection of their own; every
 * other pushed kind is a document of the group `pushed`, told apart by its `kind`, with its own
 * fields at the top level so the push rebaser (rebase.ts) and RxDB's queries see them as usual.
 */

export const PUSHED_GROUP = 'pushed';

/** The pushed kinds that keep an RxDB collection of their own, as the type sees them. */
export type OwnRxCollectionName = 'attendees' | 'comments';
export type GroupedCollectionName = Exclude<PushedCollectionName, OwnRxCollectionName>;

/** A kind keeps a collection of its own when its documents are many and read by event. */
function hasOwnRxCollection(declaration: SyncDeclaration): boolean {
  return declaration.keptByEvent === true || declaration.splitByOwner === true;
}

const OWN_RX_NAMES: readonly OwnRxCollectionName[] = ['attendees', 'comments'];

export const OWN_RX_COLLECTIONS = PUSHED_COLLECTIONS.filter((name): name is OwnRxCollectionName =>
  hasOwnRxCollection(SYNC_DECLARATIONS[name] as unknown as SyncDeclaration),
);
export const GROUPED_COLLECTIONS = PUSHED_COLLECTIONS.filter(
  (name): name is GroupedCollectionName => !hasOwnRxCollection(SYNC_DECLARATIONS[name] as unknown as SyncDeclaration),
);

// The type and the declarations must agree, else a kind would be looked for in the wrong place.
if (OWN_RX_COLLECTIONS.join() !== OWN_RX_NAMES.join()) {
  throw new Error(`OwnRxCollectionName must name exactly ${OWN_RX_COLLECTIONS.join(', ')}`);
}

/** A grouped document as RxDB holds it: the kind's document and its kind. */
export type GroupedDoc = Record<string, unknown> & { id: string; kind: string; seq: number };

type JsonSchemaProperty = Record<string, unknown>;

/**
 * The group's schema version: it grows by one with every kind added and every kind's new version,
 * so either drops the device's copy of the group, which is then pulled afresh (its kinds are small).
 */
export function groupVersion(declarations: readonly SyncDeclaration[]): number {
  return declarations.reduce((sum, declaration) => sum + declaration.schema.version + 1, 0);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The group's RxDB schema: every kind's fields (a field two kinds declare apart takes either), none
 * required but the identity, the kind and seq, one index by kind: a kind's documents are few, so a
 * query reads all of its kind.
 */
export function groupSchema(declarations: readonly SyncDeclaration[]): RxJsonSchema<GroupedDoc> {
  const variants = new Map<string, JsonSchemaProperty[]>();
  for (const { schema } of declarations) {
    for (const [field, definition] of Object.entries(schema.properties)) {
      const known = variants.get(field) ?? [];
      if (!known.some((variant) => sameJson(variant, definition))) known.push(definition as JsonSchemaProperty);
      variants.set(field, known);
    }
  }
  const properties: Record<string, JsonSchemaProperty> = Object.fromEntries(
    [...variants].map(([field, known]) => [field, known.length === 1 ? known[0]! : { anyOf: known }]),
  );
  // The primary key must be one plain string: the longest of the kinds' ids.
  const idLengths = (variants.get('id') ?? []).map((variant) => Number(variant.maxLength ?? 0));
  properties.id = { type: 'string', maxLength: Math.max(...idLengths) };
  properties.kind = { type: 'string', maxLength: 40 };
  return {
    title: PUSHED_GROUP,
    version: groupVersion(declarations),
    primaryKey: 'id',
    type: 'object',
    properties,
    required: ['id', 'kind', 'seq'],
    indexes: ['kind'],
  } as unknown as RxJsonSchema<GroupedDoc>;
}

/** The fields any kind of the group may push: the rebaser compares these (a kind lacks the others). */
export function groupPushFields(declarations: readonly SyncDeclaration[]): string[] {
  return [...new Set(declarations.flatMap((declaration) => (declaration.push?.fields ?? []) as string[]))];
}

/** The declarations of the app's grouped kinds. */
export const GROUPED_DECLARATIONS: readonly SyncDeclaration[] = GROUPED_COLLECTIONS.map(
  (name) => SYNC_DECLARATIONS[name] as unknown as SyncDeclaration,
);

/** A document of a kind as the group stores it. */
export function toGrouped(kind: string, doc: object): GroupedDoc {
  return { ...(doc as GroupedDoc), kind };
}

/** A document of a kind as the server knows it (the group's `kind` left out). */
export function fromGrouped<Doc extends object>(doc: Doc): Omit<Doc, 'kind'> {
  const { kind: _kind, ...rest } = doc as Doc & { kind?: string };
  return rest;
}

/** The part of an RxDB collection a kind's module uses, for one kind of the group. */
export interface KindCollection<Doc> {
  find(query?: MangoQuery<Doc>): RxQuery<Doc, RxDocument<Doc>[]>;
  findOne(id: string): RxQuery<Doc, RxDocument<Doc> | null>;
  findByIds(ids: readonly string[]): Promise<RxDocument<Doc>[]>;
  count(query?: MangoQuery<Doc>): RxQuery<Doc, number>;
  insert(doc: Doc): Promise<RxDocument<Doc>>;
}

/** One kind of the group, queried and written as if it were a collection of its own. */
export function kindCollection<Name extends GroupedCollectionName>(
  group: RxCollection<GroupedDoc>,
  kind: Name,
): KindCollection<SyncDocOf<Name>> {
  type Doc = SyncDocOf<Name>;
  const withKind = (query: MangoQuery<Doc> = {}) =>
    ({ ...query, selector: { ...(query.selector as object), kind } }) as MangoQuery<GroupedDoc>;
  return {
    find: (query) => group.find(withKind(query)) as unknown as RxQuery<Doc, RxDocument<Doc>[]>,
    findOne: (id) =>
      group.findOne({ selector: { id, kind } as MangoQuerySelector<GroupedDoc> }) as unknown as RxQuery<Doc, RxDocument<Doc> | null>,
    async findByIds(ids) {
      const found = await group.findByIds([...ids]).exec();
      return [...found.values()].filter((doc) => doc.kind === kind) as unknown as RxDocument<Doc>[];
    },
    count: (query) => group.count(withKind(query)) as unknown as RxQuery<Doc, number>,
    insert: async (doc) => (await group.insert(toGrouped(kind, doc))) as unknown as RxDocument<Doc>,
  };
}

/** The device's database as this module needs it (database.ts creates it with the group). */
type DeviceDatabase = { collections: object };

/** A pushed kind of the group, queried and written like a collection of its own. */
export function kindOf<Name extends GroupedCollectionName>(db: DeviceDatabase, name: Name): KindCollection<SyncDocOf<Name>> {
  const group = (db.collections as unknown as Partial<Record<string, RxCollection<GroupedDoc>>>)[PUSHED_GROUP];
  if (!group) throw new Error(`${name} is not open on this device`);
  return kindCollection(group, name);
}

