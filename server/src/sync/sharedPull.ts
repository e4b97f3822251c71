import type { PullScope } from '@fankurve/shared';
import type { Commit, Store } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import { COMPRESS_MIN_BYTES, compressBytes } from '../http/compress.js';
import { readWriteCounter } from '../http/eventsListCache.js';
import type { MasterDocument, PullContext, SyncCollection } from './collection.js';
import type { Checkpoint } from './protocol.js';
import { pullContext, toWire } from './pull.js';

/*
 * Shared pulls (docs/architecture.md, "The match-day rush on one server"): most of what a device pulls
 * is the same for every member — the events, the members, the rows of the kept events. A collection
 * that says so (`shared` of its server collection) has its documents read once per change into a list
 * kept in memory, each document serialized once; every pull is then answered from the list, without
 * a query, and a page that is the same for everyone (no rows left out, none added) is kept as bytes.
 * A committed write to the collection (here or on another instance) makes the list read what changed
 * since, by seq, before the next pull is answered.
 */

/** Documents read per query while a list catches up. */
const REFRESH_BATCH = 1000;
/** Pages kept as bytes per list (a device's first pull, page by page, and the pulls at the head). */
const PAGES_PER_LIST = 64;

interface Entry {
  seq: number;
  /** The document itself, kept only where `skip` reads it (the JSON is what goes out). */
  doc?: MasterDocument;
  /** The document as it goes on the wire. */
  json: string;
  /** A newer version of the document came after this one. */
  replaced: boolean;
}

/**
 * A pull's answer, `{ documents, checkpoint }`, as JSON bytes: outside the JavaScript heap, and one
 * buffer for every response of a page kept (a slow reader's socket holds a reference, not a copy).
 * A kept page is also compressed once per coding the devices ask for, instead of once per response:
 * 2,000 phones opening the app ask for the same ~4 MB, which brotli would otherwise compress 2,000 times.
 */
export class PullAnswer {
  private readonly variants = new Map<'br' | 'gzip', Promise<Buffer>>();

  constructor(
    readonly json: Buffer,
    /** Kept for everyone who pulls this page. */
    readonly kept: boolean,
    /** Its documents, and the checkpoint the next page starts from. */
    readonly count: number,
    readonly next: Checkpoint,
  ) {}

  /** The kept page in the coding, compressed once; null for an answer of one actor or too small to gain. */
  encoded(coding: 'br' | 'gzip'): Promise<Buffer> | null {
    if (!this.kept || this.json.byteLength < COMPRESS_MIN_BYTES) return null;
    let variant = this.variants.get(coding);
    if (!variant) {
      variant = compressBytes(this.json, coding);
      // A failed compression is tried again by the next request rather than remembered.
      variant.catch(() => this.variants.delete(coding));
      this.variants.set(coding, variant);
    }
    return variant;
  }
}

export class SharedList {
  private entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  /** The highest seq read so far. */
  private highSeq = 0;
  private today: string | null = null;
  /** The bus generation and (PostgreSQL) the write counter the list is current for. */
  private current: { generation: number; counter: number | null } | null = null;
  private refreshing: Promise<void> | null = null;
  readonly pages = new Map<string, PullAnswer>();
  /** Counts the times the list was read afresh (a new club day): a seq of one epoch means nothing in another. */
  epoch = 0;

  constructor(
    private readonly collection: SyncCollection,
    private readonly variant: string,
  ) {}

  /** Brings the list up to date with `generation` (and `counter`); concurrent callers share one refresh. */
  async ensure(store: Store, generation: number, counter: number | null, context: PullContext): Promise<void> {
    for (;;) {
      const current = this.current;
      if (current && current.generation >= generation && current.counter === counter && this.today === context.today) return;
      if (this.refreshing) {
        await this.refreshing;
        continue;
      }
      const refresh = this.refresh(store, generation, counter, context);
      this.refreshing = refresh;
      try {
        await refresh;
      } finally {
        this.refreshing = null;
      }
    }
  }

  private async refresh(store: Store, generation: number, counter: number | null, context: PullContext): Promise<void> {
    // A new club day changes which events are kept: read the list afresh.
    if (this.today !== context.today) {
      this.entries = [];
      this.byId.clear();
      this.highSeq = 0;
      this.today = context.today;
      this.epoch += 1;
    }
    const shared = this.collection.shared!;
    let replaced = 0;
    for (;;) {
      const docs = await shared.pull(store.db, this.variant, this.highSeq, REFRESH_BATCH, context);
      for (const doc of docs) {
        const previous = this.byId.get(doc.id);
        if (previous) {
          previous.replaced = true;
          replaced += 1;
        }
        const entry: Entry = {
          seq: doc.seq,
          ...(shared.skip ? { doc } : {}),
          json: JSON.stringify(toWire(doc, this.collection)),
          replaced: false,
        };
        this.entries.push(entry);
        this.byId.set(doc.id, entry);
        this.highSeq = doc.seq;
      }
      if (docs.length < REFRESH_BATCH) break;
    }
    if (replaced > 0) this.entries = this.entries.filter((entry) => !entry.replaced);
    this.pages.clear();
    this.current = { generation, counter };
  }

  /** The highest seq read so far. */
  get seq(): number {
    return this.highSeq;
  }

  /** The list's documents after `afterSeq` as they go on the wire (JSON), ascending by seq. */
  tail(afterSeq: number): string[] {
    return this.entries.slice(this.firstAfter(afterSeq)).map((entry) => entry.json);
  }

  /**
   * The actor's page after `afterSeq`: the list's documents the actor gets (`skip` leaves some out)
   * merged by seq with `extra`, the actor's own documents besides the list, at most `limit`.
   */
  page(actor: Actor, scope: PullScope, checkpoint: Checkpoint, limit: number, extra: MasterDocument[] | null): PullAnswer {
    const afterSeq = checkpoint?.seq ?? 0;
    const skip = this.collection.shared!.skip;
    const shareable = !skip && (extra === null || extra.length === 0);
    const skips = (doc: MasterDocument) => skip?.(doc, actor, scope) === true;
    const key = `${afterSeq}:${limit}`;
    if (shareable) {
      const kept = this.pages.get(key);
      if (kept !== undefined) return kept;
    }
    const parts: string[] = [];
    let last: number | null = null;
    let index = this.firstAfter(afterSeq);
    let extraIndex = 0;
    const extras = extra ?? [];
    while (parts.length < limit) {
      const entry = this.entries[index];
      const more = extras[extraIndex];
      if (!entry && !more) break;
      if (more && (!entry || more.seq < entry.seq)) {
        parts.push(JSON.stringify(toWire(more, this.collection)));
        last = more.seq;
        extraIndex += 1;
        continue;
      }
      index += 1;
      if (skips(entry!.doc!)) continue;
      parts.push(entry!.json);
      last = entry!.seq;
    }
    const next = last === null ? checkpoint : { seq: last };
    const body = new PullAnswer(
      Buffer.from(`{"documents":[${parts.join(',')}],"checkpoint":${JSON.stringify(next)}}`),
      shareable,
      parts.length,
      next,
    );
    if (shareable) {
      if (this.pages.size >= PAGES_PER_LIST) this.pages.delete(this.pages.keys().next().value!);
      this.pages.set(key, body);
    }
    return body;
  }

  /** The index of the first entry with a seq above `afterSeq` (binary search). */
  private firstAfter(afterSeq: number): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle]!.seq <= afterSeq) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The scope in which a device pulls the collection's shared list as it is, the same bytes for every
 * member of a variant: the `others` part of a collection pulled in parts, else the whole pull; null
 * when such pulls differ by actor (no list, documents left out, or documents added).
 */
export function sharedScopeOf(collection: SyncCollection): PullScope | null {
  const { declaration, shared } = collection;
  if (!shared || shared.skip) return null;
  const scope: PullScope = declaration.splitByOwner || declaration.keptByEvent ? 'others' : 'all';
  if (shared.extra && (shared.extraIn?.includes(scope) ?? true)) return null;
  return scope;
}

/**
 * Reads of the write counter, one at a time: a pull that comes while one is under way takes the next
 * read, which starts after it came, so the list it reads is never older than the pull; thousands of
 * pulls a second then cost a few reads instead of one each.
 */
class CounterReads {
  private current: Promise<number> | null = null;
  private next: Promise<number> | null = null;

  constructor(private readonly store: Store) {}

  read(): Promise<number> {
    if (!this.current) return this.start();
    this.next ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<number> {
    const read = readWriteCounter(this.store).finally(() => {
      if (this.current === read) this.current = null;
    });
    this.current = read;
    return read;
  }
}

/**
 * The shared lists of one server: one per collection and variant, made when first pulled. Its
 * `onCommit` (a subscriber of every local and remote commit, before the change streams) marks the
 * lists of the changed collections stale.
 */
export class SharedPulls {
  private readonly lists = new Map<string, SharedList>();
  private readonly generations = new Map<string, number>();
  private everything = 0;
  /** On PostgreSQL another instance may have written before its signal arrives: each pull reads the write counter. */
  private readonly counter: CounterReads | null;

  constructor(private readonly store: Store) {
    this.counter = store.dialect === 'postgres' ? new CounterReads(store) : null;
  }

  readonly onCommit = (commit: Commit): void => {
    if (commit.missed) this.everything += 1;
    for (const collection of commit.collections) this.generations.set(collection, (this.generations.get(collection) ?? 0) + 1);
  };

  /**
   * The answer from the collection's shared list, or null when this pull has none (the collection
   * shares nothing, or not for this actor and scope).
   */
  async pull(
    actor: Actor,
    collection: SyncCollection,
    checkpoint: Checkpoint,
    limit: number,
    context: PullContext,
  ): Promise<PullAnswer | null> {
    const shared = collection.shared;
    const variant = shared?.variantOf(actor, context.scope) ?? null;
    if (!shared || variant === null) return null;
    const extra = shared.extra ? await shared.extra(this.store.db, actor, checkpoint?.seq ?? 0, limit, context) : null;
    const list = await this.current(collection, variant, context);
    return list.page(actor, context.scope, checkpoint, limit, extra);
  }

  /**
   * Reads the lists devices open the app with and keeps their pages, compressed as browsers ask,
   * before the first device asks: a server started on match day (a restart, an update) has every
   * phone reconnect at once, and the first ones would otherwise wait while the lists are read.
   */
  async warm(collections: Iterable<SyncCollection>, limit: number): Promise<void> {
    const actors: Actor[] = [
      { id: '', username: '', scope: 'user' },
      { id: '', username: '', scope: 'admin' },
    ];
    for (const collection of collections) {
      const scope = sharedScopeOf(collection);
      if (scope === null) continue;
      const variants = new Set(actors.map((actor) => collection.shared!.variantOf(actor, scope)));
      for (const variant of variants) {
        if (variant === null) continue;
        const list = await this.current(collection, variant, pullContext(this.store, collection, scope));
        let checkpoint: Checkpoint = null;
        for (;;) {
          const page = list.page(actors[0]!, scope, checkpoint, limit, null);
          await page.encoded('br');
          if (page.count < limit) break;
          checkpoint = page.next;
        }
      }
    }
  }

  /** The collection's list of `variant` as it is, if made: not brought up to date. */
  peek(collection: SyncCollection, variant: string): SharedList | undefined {
    return this.lists.get(`${collection.declaration.name}\n${variant}`);
  }

  /** The collection's list of `variant`, brought up to date with every commit seen so far. */
  async current(collection: SyncCollection, variant: string, context: PullContext): Promise<SharedList> {
    const name = collection.declaration.name;
    const key = `${name}\n${variant}`;
    let list = this.lists.get(key);
    if (!list) {
      list = new SharedList(collection, variant);
      this.lists.set(key, list);
    }
    const generation = this.everything + (this.generations.get(name) ?? 0);
    const counter = this.counter ? await this.counter.read() : null;
    await list.ensure(this.store, generation, counter, context);
    return list;
  }
}
