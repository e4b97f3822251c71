import { SYNC_PULL_LIMIT, type SyncListTail } from '@fankurve/shared';
import { BehaviorSubject, filter, firstValueFrom, Subject, type Observable } from 'rxjs';
import type { DocStore, PulledDoc } from './docStore.js';
import { yieldToMain } from './yieldToMain.js';

/*
 * The pull of a collection the device only reads, into the document store (docs/architecture.md,
 * Client data layer): the same checkpointed pull as RxDB's replication, page by page, told to run
 * again by the change stream, by a reconnect and by the browser's `online` event.
 */

/** What the replication follows of each collection's sync: RxDB's replication state, or a store pull. */
export interface CollectionSync {
  readonly active$: Observable<boolean>;
  readonly error$: Observable<{ code?: string; message: string }>;
  readonly canceled$: Observable<boolean>;
  /** Resolves once the collection has been pulled completely once. */
  awaitInitialReplication(): Promise<void>;
  /** Resolves once nothing of the collection is under way or waiting (after the first complete pull). */
  awaitInSync(): Promise<unknown>;
  cancel(): Promise<unknown>;
  /** How long a failed request waits before the next try (ms). */
  retryTime?: number;
}

export type PullPage = (afterSeq: number, limit: number) => Promise<{ documents: PulledDoc[]; checkpoint: { seq: number } | null }>;

export class StorePull implements CollectionSync {
  readonly active$ = new BehaviorSubject(false);
  readonly error$ = new Subject<Error>();
  readonly canceled$ = new BehaviorSubject(false);
  private again = false;
  /** Tails of the shared list carried by the change stream, in the order told. */
  private readonly tails: SyncListTail[] = [];
  private running: Promise<void> | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly pulledOnce: Promise<void>;
  private markPulled!: () => void;

  constructor(
    private readonly store: DocStore,
    private readonly collection: string,
    private readonly page: PullPage,
    public retryTime?: number,
    /** The documents of a page the store keeps (none left out when absent); tombstones always apply. */
    private readonly keeps?: (doc: PulledDoc) => boolean,
  ) {
    this.pulledOnce = new Promise((resolve) => {
      this.markPulled = resolve;
    });
  }

  /** Pulls now, or once more after the pull under way (what changed meanwhile is not missed). */
  reSync(): void {
    if (this.canceled$.value) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.again = true;
    this.running ??= this.run();
  }

  /**
   * The new documents of the collection's shared list, carried by a change batch (docs/architecture.md,
   * "The match-day rush on one server"): stored without a request when the device's checkpoint
   * reaches the tail's start, else pulled.
   */
  offer(tail: SyncListTail): void {
    if (this.canceled$.value) return;
    this.tails.push(tail);
    this.running ??= this.run();
  }

  private async run(): Promise<void> {
    this.active$.next(true);
    try {
      while ((this.again || this.tails.length > 0) && !this.canceled$.value) {
        try {
          if (this.again) {
            this.again = false;
            await this.pullAll();
            this.markPulled();
          } else if (!(await this.storeTail(this.tails.shift()!))) {
            // A pull sent after the tail came answers at least what the tail carried.
            this.again = true;
          }
        } catch (error) {
          if (this.canceled$.value) break;
          this.error$.next(error instanceof Error ? error : new Error(String(error)));
          this.retry = setTimeout(() => this.reSync(), this.retryTime ?? 5000);
          break;
        }
      }
    } finally {
      this.running = null;
      this.active$.next(false);
    }
  }

  /** Stores a tail whose start the device's checkpoint reaches; false when it does not (a gap: pull). */
  private async storeTail(tail: SyncListTail): Promise<boolean> {
    const seq = await this.store.checkpoint(this.collection);
    if (seq < tail.from) return false;
    if (tail.to > seq) await this.store.store(this.collection, this.kept(tail.documents.filter((doc) => doc.seq > seq)), tail.to);
    return true;
  }

  /** The documents of a page or tail the store keeps; tombstones always apply. */
  private kept(documents: PulledDoc[]): PulledDoc[] {
    const keeps = this.keeps;
    return keeps ? documents.filter((doc) => doc._deleted === true || keeps(doc)) : documents;
  }

  /**
   * Page after page until a page is not full; each page and its seq are stored together. The next
   * page is asked for while this one is stored: storing waits for IndexedDB, the request for the
   * network, and a first sync of thousands of rows need not wait for both in turn.
   */
  private async pullAll(): Promise<void> {
    let seq = await this.store.checkpoint(this.collection);
    let next = this.page(seq, SYNC_PULL_LIMIT);
    for (;;) {
      const answer = await next;
      if (this.canceled$.value) return;
      seq = answer.checkpoint?.seq ?? seq;
      const full = answer.documents.length >= SYNC_PULL_LIMIT;
      if (full) {
        next = this.page(seq, SYNC_PULL_LIMIT);
        // Should storing fail first, the retry asks again; this answer is not waited for.
        next.catch(() => undefined);
      }
      await this.store.store(this.collection, this.kept(answer.documents), seq);
      if (!full) return;
      await yieldToMain();
    }
  }

  awaitInitialReplication(): Promise<void> {
    return this.pulledOnce;
  }

  async awaitInSync(): Promise<true> {
    await this.pulledOnce;
    await firstValueFrom(
      this.active$.pipe(filter((active) => !active && this.retry === undefined && !this.again && this.tails.length === 0)),
    );
    return true;
  }

  async cancel(): Promise<void> {
    this.canceled$.next(true);
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.running;
  }
}
