import type { ChangedCollection, Commit, Store } from '../db/store.js';
import { compressBytes, type ContentCoding } from './compress.js';

/** One built answer: the JSON bytes as of one value of the write counter, and its compressed variants. */
export interface ListSnapshot {
  counter: number;
  /** Size of the uncompressed JSON. */
  size: number;
  /** The strong validator of the representation in this coding, e.g. `"events-42"`, `"events-42-br"`. */
  etag(coding: ContentCoding): string;
  /** Whether an If-None-Match header names this data (in any coding; weak comparison, lists, `*`). */
  matches(ifNoneMatch: string | null | undefined): boolean;
  /** The body in the coding; each compressed variant is made once, on first demand. */
  body(coding: ContentCoding): Promise<Uint8Array>;
}

const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

function snapshot(prefix: string, counter: number, json: Buffer): ListSnapshot {
  const variants = new Map<'br' | 'gzip', Promise<Buffer>>();
  const base = `${prefix}-${counter}`;
  const opaque = (coding: ContentCoding) => (coding === 'identity' ? base : `${base}-${coding}`);
  const ours = new Set([opaque('identity'), opaque('br'), opaque('gzip')]);
  return {
    counter,
    size: json.byteLength,
    etag: (coding) => `"${opaque(coding)}"`,
    matches(ifNoneMatch) {
      if (!ifNoneMatch) return false;
      if (ifNoneMatch.trim() === '*') return true;
      for (const match of ifNoneMatch.matchAll(ENTITY_TAG)) if (ours.has(match[1]!)) return true;
      return false;
    },
    body(coding) {
      if (coding === 'identity') return Promise.resolve(json);
      let variant = variants.get(coding);
      if (!variant) {
        variant = compressBytes(json, coding);
        variants.set(coding, variant);
        // A failed compression is tried again by the next request rather than remembered.
        variant.catch(() => variants.delete(coding));
      }
      return variant;
    },
  };
}

/** The current value of the one write counter every replicated write increments (pg answers int8 as a string). */
export async function readWriteCounter(store: Store): Promise<number> {
  const row = await store.db.selectFrom('counters').select('value').where('name', '=', 'seq').executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * A list answer rebuilt only after a committed write that can change it: the commit bus tells the
 * cache through `onCommit`, which deps.ts subscribes (docs/architecture.md, "Domain events"), so a
 * hit costs no query at all on SQLite. Each build reads the write counter first, so a snapshot's data is
 * never older than its counter and the ETag stays valid across restarts. A commit during a build
 * leaves the cache stale, so the next request builds again. Concurrent misses share one build.
 *
 * This holds only while every write that changes what `build` returns goes through `write()` and
 * takes a seq in one of the watched collections (stadium changes bump the events they show on).
 */
export class CounterKeyedCache {
  private generation = 0;
  private latest: { generation: number; counter: number | null; snapshot: ListSnapshot } | null = null;
  private building: { generation: number; counter: number | null; promise: Promise<ListSnapshot> } | null = null;
  /**
   * On PostgreSQL other instances may write (docs/architecture.md, "Several instances"): their
   * signal invalidates the cache within milliseconds, and each request also reads the write counter,
   * so a request that comes before the signal still gets the changed list.
   */
  private readonly checksCounter: boolean;

  constructor(
    private readonly store: Store,
    private readonly prefix: string,
    private readonly build: () => Promise<unknown>,
    private readonly watched: readonly ChangedCollection[],
  ) {
    this.checksCounter = store.dialect === 'postgres';
  }

  /** The commit-bus subscriber (local and remote commits): a commit that touched a watched collection makes the cached answer stale. */
  readonly onCommit = (commit: Commit): void => {
    if (commit.missed || this.watched.some((collection) => commit.collections.has(collection))) this.generation++;
  };

  async current(): Promise<ListSnapshot> {
    const generation = this.generation;
    const counter = this.checksCounter ? await readWriteCounter(this.store) : null;
    const fits = (entry: { generation: number; counter: number | null }) =>
      entry.generation === generation && entry.counter === counter;
    if (this.latest && fits(this.latest)) return this.latest.snapshot;
    if (this.building && fits(this.building)) return this.building.promise;
    const promise = (async () => {
      const built = snapshot(
        this.prefix,
        counter ?? (await readWriteCounter(this.store)),
        Buffer.from(JSON.stringify(await this.build())),
      );
      if (!this.latest || this.latest.generation <= generation) this.latest = { generation, counter, snapshot: built };
      return built;
    })();
    const building = { generation, counter, promise };
    this.building = building;
    const settle = () => {
      if (this.building === building) this.building = null;
    };
    promise.then(settle, settle);
    return promise;
  }
}

/** The cache behind GET /api/events (one per runtime, made in deps.ts): events, their counts and their creators' names. */
export function createEventsListCache(store: Store, build: () => Promise<unknown>): CounterKeyedCache {
  return new CounterKeyedCache(store, 'events', build, ['events', 'attendees', 'members']);
}
