import 'fake-indexeddb/auto';
import { PULL_ONLY_COLLECTIONS } from '@fankurve/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { DocStore, type PulledDoc } from '../src/data/docStore.js';
import { StorePull } from '../src/data/storePull.js';

/*
 * The tails a change batch carries (docs/architecture.md, "The match-day rush on one server"): a
 * device whose checkpoint reaches a tail's start stores it without a request; one behind it (a gap)
 * pulls, and a tail that came during a pull waits for that pull.
 */

type Doc = PulledDoc & { title: string; _deleted: boolean };

/** A server's events: pulls answer them by seq and count the requests. */
function server() {
  const docs: Doc[] = [];
  let requests = 0;
  let hold: Promise<void> | null = null;
  return {
    docs,
    get requests() {
      return requests;
    },
    /** Makes the next pulls wait until the returned release is called. */
    holdPulls(): () => void {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
    write(id: string, title: string): Doc {
      const doc = { id, seq: (docs.at(-1)?.seq ?? 0) + 1, title, _deleted: false };
      docs.push(doc);
      return doc;
    },
    page: async (afterSeq: number, limit: number) => {
      requests += 1;
      const answer = newest(docs.filter((doc) => doc.seq > afterSeq)).slice(0, limit);
      if (hold) await hold;
      return { documents: answer, checkpoint: answer.length > 0 ? { seq: answer.at(-1)!.seq } : null };
    },
  };
}

/** Each document's newest version, by seq. */
function newest(docs: Doc[]): Doc[] {
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

let store: DocStore | null = null;

afterEach(async () => {
  await store?.remove();
  store = null;
});

const titles = async (docs: DocStore) =>
  Object.fromEntries((await docs.table('events').toArray()).map((doc) => [doc.id, (doc as unknown as Doc).title]));

describe('a store pull offered the tail of a change batch', () => {
  it('stores a tail that starts at or before its checkpoint without a request, and skips what it holds', async () => {
    store = await DocStore.open('tails-stored', PULL_ONLY_COLLECTIONS);
    const remote = server();
    remote.write('a', 'A');
    remote.write('b', 'B');
    const pull = new StorePull(store, 'events', remote.page, 10);
    pull.reSync();
    await pull.awaitInSync();
    expect(remote.requests).toBe(1);

    // The tail starts before the checkpoint (2): what the device holds is skipped, the rest stored.
    const changed = remote.write('a', 'A2');
    const added = remote.write('c', 'C');
    pull.offer({ from: 1, to: added.seq, documents: [remote.docs[1]!, changed, added] });
    await pull.awaitInSync();
    expect(remote.requests).toBe(1);
    expect(await titles(store)).toEqual({ a: 'A2', b: 'B', c: 'C' });
    expect(await store.checkpoint('events')).toBe(added.seq);

    // A tombstone in a tail removes the document.
    const gone = { id: 'b', seq: added.seq + 1, _deleted: true };
    pull.offer({ from: added.seq, to: gone.seq, documents: [gone] });
    await pull.awaitInSync();
    expect(remote.requests).toBe(1);
    expect(await titles(store)).toEqual({ a: 'A2', c: 'C' });
    await pull.cancel();
  });

  it('pulls when a tail starts after its checkpoint, and lets a tail that came during a pull wait for it', async () => {
    store = await DocStore.open('tails-gap', PULL_ONLY_COLLECTIONS);
    const remote = server();
    remote.write('a', 'A');
    const pull = new StorePull(store, 'events', remote.page, 10);
    pull.reSync();
    await pull.awaitInSync();

    // A change the device never heard of (seq 2), then a tail from 2 on: a gap, so a pull.
    remote.write('b', 'B');
    const c = remote.write('c', 'C');
    pull.offer({ from: 2, to: c.seq, documents: [c] });
    await pull.awaitInSync();
    expect(remote.requests).toBe(2);
    expect(await titles(store)).toEqual({ a: 'A', b: 'B', c: 'C' });

    // A pull under way (the stream reconnected) and a tail told meanwhile: the tail waits, then finds
    // the checkpoint at its start and costs no request.
    const release = remote.holdPulls();
    pull.reSync();
    const d = remote.write('d', 'D');
    pull.offer({ from: c.seq, to: d.seq, documents: [d] });
    release();
    await pull.awaitInSync();
    expect(remote.requests).toBe(3);
    expect(await titles(store)).toEqual({ a: 'A', b: 'B', c: 'C', d: 'D' });
    expect(await store.checkpoint('events')).toBe(d.seq);
    await pull.cancel();
  });
});
