import type { Store } from '../db/store.js';
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
 * A list answer cached by the write counter: every request reads the counter row (one cheap query,
 * right across processes), and the list is built and serialised again only when it has changed.
 * The counter is read before the list, so a snapshot's data is never older than its counter; a
 * write in between makes the counter move on and the next request rebuild. Concurrent misses share
 * one build.
 *
 * This holds only while every write that changes what `build` returns goes through `write()` and
 * takes a seq (events, attendees, members; stadium changes bump the events they show on).
 */
export class CounterKeyedCache {
  private latest: { generation: number; snapshot: ListSnapshot } | null = null;
  private building: { counter: number; promise: Promise<ListSnapshot> } | null = null;
  private generations = 0;

  constructor(
    private readonly store: Store,
    private readonly prefix: string,
    private readonly build: () => Promise<unknown>,
  ) {}

  async current(): Promise<ListSnapshot> {
    const counter = await readWriteCounter(this.store);
    if (this.latest?.snapshot.counter === counter) return this.latest.snapshot;
    if (this.building?.counter === counter) return this.building.promise;

    const generation = ++this.generations;
    const promise = this.build().then((payload) => {
      const built = snapshot(this.prefix, counter, Buffer.from(JSON.stringify(payload)));
      // A slower build started earlier must not replace a newer one.
      if (!this.latest || this.latest.generation < generation) this.latest = { generation, snapshot: built };
      return built;
    });
    const building = { counter, promise };
    this.building = building;
    const settle = () => {
      if (this.building === building) this.building = null;
    };
    promise.then(settle, settle);
    return promise;
  }
}

/** The cache behind GET /api/events (one per app instance). */
export function createEventsListCache(store: Store, build: () => Promise<unknown>): CounterKeyedCache {
  return new CounterKeyedCache(store, 'events', build);
}
