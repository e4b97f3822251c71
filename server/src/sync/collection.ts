import type { PullScope, SyncDeclaration, SyncedDoc } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WriteContext } from '../db/store.js';
import { SYSTEM_ACTOR, type Actor } from '../domain/actor.js';
import type { NoticeContext } from '../domain/people/notices.js';
import type { PushedDocument } from './protocol.js';

/** A document as the server holds it for an actor: the client's fields plus the tombstone flag. */
export type MasterDocument<Doc extends SyncedDoc = SyncedDoc> = Doc & { _deleted: boolean };

/**
 * What one pushed row changes, worked out by the generic merge (sync/push.ts) from the row's
 * assumed master state and its new state: only the pushable fields the device really changed.
 */
export interface PushedChange<Doc extends SyncedDoc = SyncedDoc> {
  id: string;
  kind: 'create' | 'update' | 'delete';
  /** The changed pushable fields with their new values (on create: all of them). */
  fields: Partial<Doc>;
  /** The document as the device sent it (a create takes its identity fields from here). */
  sent: PushedDocument;
  /** The server's document before this push, if it has one (a tombstone included). */
  master: MasterDocument<Doc> | undefined;
}

/** What every pull of one request shares: the club's calendar day (`YYYY-MM-DD`), which decides the events a device keeps. */
export interface PullContext {
  today: string;
  /** Which documents (docs/architecture.md, Client data layer); not `all` only for a collection `splitByOwner`. */
  scope: PullScope;
}

/**
 * The server's half of one synced collection (the other half, its schema and push rules, is the
 * declaration in shared/src/docs): how its documents are read for an actor, and, where clients
 * push, the domain call that applies a change. The machinery around it is generic.
 */
export interface SyncCollection<Doc extends SyncedDoc = SyncedDoc> {
  declaration: SyncDeclaration<Doc>;
  /**
   * Documents and tombstones with seq > afterSeq that the actor may see, ascending by seq, at most
   * limit; with `keptByEvent`, only those of the events a device keeps and the actor's own
   * (docs/architecture.md, What a device keeps).
   */
  pull(db: Kysely<Database>, actor: Actor, afterSeq: number, limit: number, context: PullContext): Promise<MasterDocument<Doc>[]>;
  /**
   * Present exactly when the declaration says `keptByEvent`: every document of one event that the
   * actor may see, tombstones included, ascending by seq (the device asks when the member opens an
   * event it does not keep).
   */
  pullEvent?(db: Kysely<Database>, actor: Actor, eventId: string, scope: PullScope): Promise<MasterDocument<Doc>[]>;
  /**
   * Where many actors pull the same documents (docs/architecture.md, "The match-day rush on one
   * server"): the pull is answered from a list read once per change (sync/sharedPull.ts). For every
   * actor and scope with a variant, `pull` must answer exactly the variant's list without what `skip`
   * leaves out, merged by seq with `extra`.
   */
  shared?: {
    /** The list an actor's pull in this scope reads (e.g. one for admins, one for members); null: none. */
    variantOf(actor: Actor, scope: PullScope): string | null;
    /** The documents of one variant's list with seq > afterSeq, ascending by seq, at most limit. */
    pull(
      db: Kysely<Database>,
      variant: string,
      afterSeq: number,
      limit: number,
      context: PullContext,
    ): Promise<MasterDocument<Doc>[]>;
    /** The list's documents this actor does not get in this scope. */
    skip?(doc: MasterDocument<Doc>, actor: Actor, scope: PullScope): boolean;
    /** The scopes `extra` adds to (absent: every scope). */
    extraIn?: readonly PullScope[];
    /** What the actor sees besides the list (never a document of it), with seq > afterSeq, ascending, at most limit. */
    extra?(
      db: Kysely<Database>,
      actor: Actor,
      afterSeq: number,
      limit: number,
      context: PullContext,
    ): Promise<MasterDocument<Doc>[]>;
  };
  /**
   * Present exactly when the declaration says `splitByOwner`: the owners (`ownerOf`) of the documents
   * changed after `afterSeq`, and the highest seq read; owners null when unknown (no `afterSeq`, or
   * too many changed). A change batch tells a device whether its own part changed (sync/changeBatch.ts).
   */
  ownersSince?(db: Kysely<Database>, afterSeq: number | null): Promise<{ owners: ReadonlySet<string> | null; seq: number }>;
  /** Present exactly when the declaration has push rules. */
  push?: {
    /** The server's current document of an id as the actor sees it (a tombstone included), if any. */
    find(db: Kysely<Database>, actor: Actor, id: string): Promise<MasterDocument<Doc> | undefined>;
    /** Applies a change through the same domain functions as the REST routes; throws DomainError to refuse. */
    apply(w: WriteContext, actor: Actor, change: PushedChange<Doc>): Promise<void>;
    /** What a refusal notice names: the event and the kind of change. */
    describe(change: PushedChange<Doc>): NoticeContext;
  };
}

export function defineServerCollection<Doc extends SyncedDoc>(collection: SyncCollection<Doc>): SyncCollection {
  if ((collection.declaration.keptByEvent === true) !== (collection.pullEvent !== undefined)) {
    throw new Error(`Sync collection ${collection.declaration.name}: pullEvent goes with keptByEvent`);
  }
  if (collection.declaration.splitByOwner && !collection.push) {
    throw new Error(`Sync collection ${collection.declaration.name}: splitByOwner needs push rules`);
  }
  if ((collection.declaration.splitByOwner === true) !== (collection.ownersSince !== undefined)) {
    throw new Error(`Sync collection ${collection.declaration.name}: ownersSince goes with splitByOwner`);
  }
  return collection as unknown as SyncCollection;
}

type Pull<Doc extends SyncedDoc> = SyncCollection<Doc>['pull'];

/**
 * The shared pull of a collection whose pull reads nothing of the actor: one list for everyone, read
 * by the same pull (server/test/sync-shared.test.ts checks that every actor's answer is the list's).
 */
export function sameForEveryActor<Doc extends SyncedDoc>(pull: Pull<Doc>): NonNullable<SyncCollection<Doc>['shared']> {
  return {
    variantOf: () => 'everyone',
    pull: (db, _variant, afterSeq, limit, context) => pull(db, SYSTEM_ACTOR, afterSeq, limit, context),
  };
}

/** Compares the fields a client holds, ignoring seq (server-assigned) and RxDB's own meta fields. */
export function sameDocument(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === 'seq' || key === '_meta' || key === '_rev' || key === '_attachments') continue;
    if (!sameValue(a[key], b[key])) return false;
  }
  return true;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
