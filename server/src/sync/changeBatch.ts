import type { PullScope } from '@fankurve/shared';
import type { Commit, Store } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import type { SyncCollection } from './collection.js';
import { pullContext } from './pull.js';
import { sharedScopeOf, type SharedList, type SharedPulls } from './sharedPull.js';

/*
 * The change batches of one server (docs/architecture.md, "The match-day rush on one server"). Every
 * change a stream tells used to make each device pull the changed collections: at 2,000 devices that
 * is thousands of requests a second for the same few rows. So one timer gathers the commits for all
 * streams, and a batch carries what is the same for many devices itself: the new tail of each shared
 * list a device keeps in its document store (read once per batch, serialised once per list), and of a
 * collection split by owner, whose own rows changed. A device then pulls only what the batch does not
 * carry.
 */

/** How long changes gather before the streams tell them, with few streams open. */
const CHANGE_BATCH_MS = 100;
/** The longest gathering, with many streams open: a change still reaches every device within a second. */
const CHANGE_BATCH_MAX_MS = 500;
/** Streams told between two turns of the event loop. */
const TELL_SLICE = 200;
/** A list's tail longer than this is not carried: the devices pull it in pages. */
const TAIL_MAX = 1000;

/**
 * Every told change makes a device apply or pull something: with thousands of devices, a longer
 * gathering turns a burst of answers into fewer, larger batches. 100 ms up to 400 streams, then
 * growing to 500 ms at 2,000.
 */
export const changeBatchMs = (streams: number): number =>
  Math.min(CHANGE_BATCH_MAX_MS, Math.max(CHANGE_BATCH_MS, Math.round(streams / 4)));

/** A stream of the batcher: its actor decides which lists it gets; `tell` writes the batch's text. */
export interface BatchListener {
  actor: Actor;
  tell(text: Uint8Array): void;
}

/**
 * The scope of the collection's shared list a device keeps in its document store: the `others` part
 * of a collection split by owner, or a collection no device pushes (docs/architecture.md, Client data
 * layer). A pushed collection lives in RxDB, which pulls on its own.
 */
function carriedScope(collection: SyncCollection): PullScope | null {
  const scope = sharedScopeOf(collection);
  if (scope === null) return null;
  const { splitByOwner, push } = collection.declaration;
  return splitByOwner || !push ? scope : null;
}

const stateOf = (name: string, scope: PullScope) => (scope === 'all' ? name : `${name}/${scope}`);

/** A batch gathering commits. */
interface Pending {
  collections: Set<string>;
  missed: boolean;
}

/** What one batch tells: the changed collections, the carried tails by list, and the owners whose rows changed. */
interface Batch {
  collections: string[];
  /** By `collection\nvariant`: the tail's JSON text as a member of the `lists` object, or null (not carried). */
  tails: Map<string, string | null>;
  /** Of each collection split by owner in the batch: the owners of its changed documents; null: unknown. */
  owners: Map<string, ReadonlySet<string> | null>;
}

export class ChangeBatcher {
  private readonly listeners = new Set<BatchListener>();
  private pending: Pending | null = null;
  /** The batch being read and told: the next one waits for it, so batches go out in order. */
  private telling: Promise<void> = Promise.resolve();
  /** Per list: the seq (and the list's epoch) the last batch told up to. */
  private readonly told = new Map<string, { seq: number; epoch: number }>();
  /** Every carried list a stream has opened with, by `collection\nvariant`. */
  private readonly lists = new Map<string, { collection: SyncCollection; variant: string }>();
  /** Per collection split by owner: the seq up to which its owners were read. */
  private readonly ownersRead = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly sharedPulls: SharedPulls,
    private readonly collections: ReadonlyMap<string, SyncCollection>,
  ) {}

  private closed = false;
  private ownersStart: Promise<void> | null = null;

  private async readOwnersStart(): Promise<void> {
    for (const collection of this.collections.values()) {
      if (!collection.ownersSince || this.ownersRead.has(collection.declaration.name)) continue;
      const { seq } = await collection.ownersSince(this.store.db, null).catch(() => ({ seq: null }));
      if (seq !== null && !this.ownersRead.has(collection.declaration.name))
        this.ownersRead.set(collection.declaration.name, seq);
    }
  }

  /** The server stops: a batch still gathering is dropped (its streams end with `reconnect`). */
  close(): void {
    this.closed = true;
  }

  listen(listener: BatchListener): () => void {
    // Where the owners' reading starts: from the first stream on, a batch knows whose rows changed.
    this.ownersStart ??= this.readOwnersStart();
    for (const collection of this.collections.values()) {
      const scope = carriedScope(collection);
      const variant = scope === null ? null : collection.shared!.variantOf(listener.actor, scope);
      if (variant !== null) this.lists.set(`${collection.declaration.name}\n${variant}`, { collection, variant });
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A subscriber of every commit, here and on other instances. */
  readonly onCommit = (commit: Commit): void => {
    if (commit.collections.size === 0 && !commit.missed) return;
    if (!this.pending) {
      const pending: Pending = { collections: new Set<string>(), missed: false };
      this.pending = pending;
      this.rememberListsBefore();
      setTimeout(() => {
        if (this.pending === pending) this.pending = null;
        // A batch that fails is logged; the batches after it still go out.
        this.telling = this.telling
          .then(() => this.tellBatch(pending))
          .catch((error: unknown) => console.error('A change batch could not be told:', error));
      }, changeBatchMs(this.listeners.size));
    }
    for (const collection of commit.collections) this.pending.collections.add(collection);
    if (commit.missed) this.pending.missed = true;
  };

  /**
   * Where each list no batch has told yet stands as a batch begins: a pull that reads the list while
   * the batch gathers would otherwise move its start past the batch's documents.
   */
  private rememberListsBefore(): void {
    for (const [key, { collection, variant }] of this.lists) {
      if (this.told.has(key)) continue;
      const before = this.sharedPulls.peek(collection, variant);
      if (before) this.told.set(key, { seq: before.seq, epoch: before.epoch });
    }
  }

  private async tellBatch(pending: Pending): Promise<void> {
    const batch: Batch = { collections: [...pending.collections], tails: new Map(), owners: new Map() };
    if (batch.collections.length === 0 || this.listeners.size === 0 || this.closed) return;
    await this.ownersStart;
    // After missed commits, nothing is carried: every device pulls what is named.
    if (!pending.missed)
      await this.read(batch).catch((error: unknown) => console.error('A change batch could not be read:', error));
    // Encoded once per kind of text, not once per stream.
    const texts = new Map<string, Uint8Array>();
    let told = 0;
    for (const listener of [...this.listeners]) {
      const { key, parts } = this.partsFor(batch, listener.actor);
      let text = texts.get(key);
      if (text === undefined) {
        text = Buffer.from(`event: change\ndata: {"collections":${JSON.stringify(batch.collections)}${parts}}\n\n`);
        texts.set(key, text);
      }
      listener.tell(text);
      // Thousands of streams are told in slices, so requests (an answer's write) are served between them.
      if (++told % TELL_SLICE === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.closed) return;
      }
    }
  }

  /** Reads the carried lists' tails (one per variant a stream gets) and the owners of changed rows. */
  private async read(batch: Batch): Promise<void> {
    for (const name of batch.collections) {
      const collection = this.collections.get(name);
      if (!collection) continue;
      const scope = carriedScope(collection);
      if (scope !== null) {
        const variants = new Set<string>();
        for (const listener of this.listeners) {
          const variant = collection.shared!.variantOf(listener.actor, scope);
          if (variant !== null) variants.add(variant);
        }
        for (const variant of variants) batch.tails.set(`${name}\n${variant}`, await this.tail(collection, variant, scope));
      }
      if (collection.ownersSince) batch.owners.set(name, await this.owners(collection));
    }
  }

  private async tail(collection: SyncCollection, variant: string, scope: PullScope): Promise<string | null> {
    const name = collection.declaration.name;
    const key = `${name}\n${variant}`;
    // A list first read during the batch starts where it stands: its devices pull what it lacks.
    const before = this.sharedPulls.peek(collection, variant);
    const told = this.told.get(key) ?? (before ? { seq: before.seq, epoch: before.epoch } : undefined);
    const list: SharedList = await this.sharedPulls.current(collection, variant, pullContext(this.store, collection, scope));
    this.told.set(key, { seq: list.seq, epoch: list.epoch });
    if (!told || told.epoch !== list.epoch) return null;
    const documents = list.tail(told.seq);
    if (documents.length > TAIL_MAX) return null;
    return `${JSON.stringify(stateOf(name, scope))}:{"from":${told.seq},"to":${list.seq},"documents":[${documents.join(',')}]}`;
  }

  private async owners(collection: SyncCollection): Promise<ReadonlySet<string> | null> {
    const name = collection.declaration.name;
    const { owners, seq } = await collection.ownersSince!(this.store.db, this.ownersRead.get(name) ?? null);
    this.ownersRead.set(name, seq);
    return owners;
  }

  /** The listener's part of the batch's text: the tails of its variants, and its own states with nothing new. */
  private partsFor(batch: Batch, actor: Actor): { key: string; parts: string } {
    const tails: string[] = [];
    const keys: string[] = [];
    const unchanged: string[] = [];
    for (const name of batch.collections) {
      const collection = this.collections.get(name);
      if (!collection) continue;
      const scope = carriedScope(collection);
      const variant = scope === null ? null : collection.shared!.variantOf(actor, scope);
      const tail = variant === null ? undefined : batch.tails.get(`${name}\n${variant}`);
      if (tail) {
        tails.push(tail);
        keys.push(variant!);
      }
      const owners = batch.owners.get(name);
      if (owners && !owners.has(actor.id)) unchanged.push(stateOf(name, 'own'));
    }
    return {
      key: `${keys.join('\t')}|${unchanged.join('\t')}`,
      // Each part only where it says something: a change event of names alone is as it always was.
      parts:
        (tails.length > 0 ? `,"lists":{${tails.join(',')}}` : '') +
        (unchanged.length > 0 ? `,"unchanged":${JSON.stringify(unchanged)}` : ''),
    };
  }
}
