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
export interface PushRules<Doc> {
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
}

/** One synced collection, declared once for both sides. */
export interface SyncDeclaration<Doc extends SyncedDoc = SyncedDoc> {
  name: string;
  schema: SyncSchema;
  /** Pull order on a device: lower first (events first, so the list renders before attendee rows arrive). */
  priority: number;
  /** Absent: pull only (edits go through REST). */
  push?: PushRules<Doc>;
  /**
   * Tombstones travel as only `id`, `seq` and `_deleted`; the device fills in these schema-valid
   * blanks, so nothing of a deleted document (a title, a guest's name) stays on the wire.
   */
  tombstone: Omit<Doc, 'id' | 'seq'>;
}

export function defineSyncCollection<Doc extends SyncedDoc>(declaration: SyncDeclaration<Doc>): SyncDeclaration<Doc> {
  return declaration;
}

/** The fields a push may touch on a document the client creates: its identity and its pushable fields. */
export function creatableFields<Doc>(rules: PushRules<Doc>): readonly Field<Doc>[] {
  return [...rules.createFields, ...rules.fields];
}
