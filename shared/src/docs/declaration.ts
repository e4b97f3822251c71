import type { SyncedDoc } from './common.js';

/** The part of an RxDB JSON schema the declaration relies on. */
export interface SyncSchema {
  title: string;
  version: number;
  primaryKey: 'id';
  properties: Record<string, unknown>;
  required: readonly string[];
}

type Field<Doc> = keyof Doc & string;

/** What clients may push to a collection (docs/architecture.md, adding a synced collection). */
export interface PushRules<Doc, Action extends string = string> {
  /**
   * Fields a client may change on a document it owns. Each push is merged field by field against
   * the document the client last had from the server: only fields the client changed count.
   */
  fields: readonly Field<Doc>[];
  /** Fields a client sets when it creates a document and never changes afterwards (its identity). */
  createFields: readonly Field<Doc>[];
  /** Whether clients create documents, and whether they delete them (`_deleted`). */
  create: boolean;
  delete: boolean;
  /**
   * The user who owns the pushable fields of a document. The client uses it to offer only its own
   * documents for editing; the server's domain checks permissions again on every push.
   */
  ownerOf(doc: Doc): string | null;
  /**
   * What a refused push can have tried, as the refusal notice names it (`action`). The device says
   * it in words with the text `refusals.actions.<action in camelCase>` (`guest.add` → `guestAdd`).
   */
  refusals: readonly Action[];
}

/** One synced collection, declared once for both sides. */
export interface SyncDeclaration<Doc extends SyncedDoc = SyncedDoc, Action extends string = string> {
  name: string;
  schema: SyncSchema;
  /** Pull order on a device: lower first (events first, so the list renders before attendee rows arrive). */
  priority: number;
  /** Absent: pull only (edits go through REST). */
  push?: PushRules<Doc, Action>;
  /**
   * The rows belong to one event (`event_id`): deleting the event makes them tombstones. The
   * server's table has the collection's name and the columns `event_id`, `deleted`, `seq`, `updated_at`.
   */
  partOfEvent?: boolean;
  /**
   * The column naming the member the rows belong to: deleting the member's account makes them
   * tombstones (as `partOfEvent` does for an event's), e.g. the rides a member offered.
   */
  partOfUser?: Field<Doc>;
  /**
   * Rows of events the device does not keep (isKeptOnDevice) are pulled only when the device asks
   * for their event; a member's own rows are always pulled (docs/architecture.md, What a device keeps).
   */
  keptByEvent?: boolean;
  /**
   * A device keeps the documents it may push (its own) in RxDB and the rest, which it only reads
   * (other members' rows), in its document store: two pulls of the collection, scope `own` and
   * `others` (docs/architecture.md, Client data layer). Needs push rules.
   */
  splitByOwner?: boolean;
  /**
   * Tombstones travel as only `id`, `seq` and `_deleted` (and `event_id` in a collection kept by
   * event); the device fills in these schema-valid blanks, so nothing of a deleted document (a
   * title, a guest's name) stays on the wire.
   */
  tombstone: Omit<Doc, 'id' | 'seq'>;
}

/**
 * Which documents of a collection a pull answers: all the actor may see (`all`), or one of two parts
 * that together make `all`, only for a collection `splitByOwner` or `keptByEvent`: `others`, the
 * documents of the kept events, everyone's and the same for every member (one shared list answers
 * it), and `own`, the actor's own beside them (of a collection split by owner: those the actor may
 * push, of every event; of comments: the actor's own and those naming them, of older events).
 */
export type PullScope = 'all' | 'own' | 'others';
export const PULL_SCOPES: readonly PullScope[] = ['all', 'own', 'others'];

/** `Action`: the refusal actions of `push.refusals`, named as type too so that the union of all is derived. */
export function defineSyncCollection<Doc extends SyncedDoc, Action extends string = never>(
  declaration: SyncDeclaration<Doc, Action> & { push: PushRules<Doc, Action> },
): SyncDeclaration<Doc, Action> & { push: PushRules<Doc, Action> };
export function defineSyncCollection<Doc extends SyncedDoc>(
  declaration: SyncDeclaration<Doc> & { push?: undefined },
): SyncDeclaration<Doc> & { push?: undefined };
/** Whether a collection is pushed shows in its type too, so the device's two stores are typed apart. */
export function defineSyncCollection<Doc extends SyncedDoc, Action extends string = never>(
  declaration: SyncDeclaration<Doc, Action>,
): SyncDeclaration<Doc, Action> {
  return declaration;
}

/** The refusal actions a declaration names. */
export type RefusalActionOf<Declaration> = Declaration extends { push: { refusals: readonly (infer Action)[] } } ? Action : never;

/** The fields a push may touch on a document the client creates: its identity and its pushable fields. */
export function creatableFields<Doc>(rules: PushRules<Doc>): readonly Field<Doc>[] {
  return [...rules.createFields, ...rules.fields];
}
