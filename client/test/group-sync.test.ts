import { SYNC_DECLARATIONS } from '@fankurve/shared';
import { describe, expect, it } from 'vitest';
import { GroupSync } from '../src/data/groupSync.js';
import { GROUPED_COLLECTIONS } from '../src/data/pushedGroup.js';

/*
 * The group of small pushed kinds against each kind's own endpoints (docs/architecture.md, Client
 * data layer): which kinds a pull asks, from which seq, and how a push is split. The sync tests run
 * the same against the real server; these pin the bookkeeping.
 */

type Call = { path: string; body: unknown };

/** A server that answers each kind's pull with `pages[kind]` (then nothing) and echoes pushes. */
function fakeServer(pages: Partial<Record<string, { id: string; seq: number; _deleted?: boolean }[][]>>) {
  const calls: Call[] = [];
  const post = async (path: string, body: unknown) => {
    calls.push({ path, body });
    const [, , , kind, , action] = path.split('/');
    if (action === 'push')
      return (body as { newDocumentState: { id: string } }[]).map((row) => ({ ...row.newDocumentState, seq: 99 }));
    const page = pages[kind!]?.shift() ?? [];
    return { documents: page, checkpoint: page.length > 0 ? { seq: page.at(-1)!.seq } : null };
  };
  return { post, calls };
}

const kindOfPath = (call: Call) => call.path.split('/')[3];

describe('the group of pushed kinds', () => {
  it('asks every kind at first, then only what the stream named, each from its own seq', async () => {
    const [notices, rides] = ['notices', 'rides'] as const;
    const server = fakeServer({ [notices]: [[{ id: 'n1', seq: 4 }]], [rides]: [[], [{ id: 'r1', seq: 7 }]] });
    const sync = new GroupSync(server.post);

    const first = await sync.pull(undefined, 10);
    expect(server.calls.map(kindOfPath)).toEqual([...GROUPED_COLLECTIONS]);
    expect(first.documents).toEqual([{ id: 'n1', seq: 4, kind: notices }]);
    expect(first.checkpoint.seqs).toEqual({ [notices]: 4 });

    server.calls.length = 0;
    sync.changed(rides);
    const second = await sync.pull(first.checkpoint, 10);
    expect(server.calls).toEqual([
      { path: `/api/sync/rides/${SYNC_DECLARATIONS.rides.schema.version}/pull`, body: { checkpoint: null, limit: 10 } },
    ]);
    expect(second.checkpoint.seqs).toEqual({ [notices]: 4, [rides]: 7 });

    server.calls.length = 0;
    sync.changedAll();
    await sync.pull(second.checkpoint, 10);
    const noticePull = server.calls.find((call) => kindOfPath(call) === notices)!;
    expect(noticePull.body).toEqual({ checkpoint: { seq: 4 }, limit: 10 });
    expect(server.calls).toHaveLength(GROUPED_COLLECTIONS.length);
  });

  it('asks a kind again after a full page, and a kind again after a failed pull', async () => {
    const full = [1, 2].map((seq) => ({ id: `m${seq}`, seq }));
    const server = fakeServer({ mentions: [full, [{ id: 'm3', seq: 3 }]] });
    const sync = new GroupSync(server.post);
    const first = await sync.pull(undefined, 2);
    server.calls.length = 0;
    const second = await sync.pull(first.checkpoint, 2);
    expect(server.calls.map(kindOfPath)).toEqual(['mentions']);
    expect(second.documents.map((doc) => doc.id)).toEqual(['m3']);

    // A pull that fails leaves every kind it asked for wanted by the next one.
    let online = true;
    const retried: Call[] = [];
    const flaky = new GroupSync(async (path, body) => {
      if (!online) throw new TypeError('offline');
      retried.push({ path, body });
      return { documents: [], checkpoint: null };
    });
    await flaky.pull(undefined, 2);
    online = false;
    flaky.changed('offers');
    await expect(flaky.pull(undefined, 2)).rejects.toThrow('offline');
    online = true;
    retried.length = 0;
    await flaky.pull(undefined, 2);
    expect(retried.map(kindOfPath)).toEqual(['offers']);
  });

  it("sends each kind's rows to its own push without the group's kind, and fills a tombstone's blanks", async () => {
    const server = fakeServer({});
    const sync = new GroupSync(async (path, body) => {
      await server.post(path, body);
      return path.includes('/notices/') ? [{ id: 'n1', seq: 5, _deleted: true }] : [];
    });
    const answers = await sync.push([
      { assumedMasterState: null, newDocumentState: { id: 'n1', kind: 'notices', is_read: true } },
      { assumedMasterState: { id: 'r1', kind: 'rides', seats: 2 }, newDocumentState: { id: 'r1', kind: 'rides', seats: 3 } },
    ]);
    expect(server.calls.map(kindOfPath)).toEqual(['notices', 'rides']);
    expect(server.calls[1]!.body).toEqual([
      { assumedMasterState: { id: 'r1', seats: 2 }, newDocumentState: { id: 'r1', seats: 3 } },
    ]);
    expect(answers).toEqual([{ ...SYNC_DECLARATIONS.notices.tombstone, id: 'n1', seq: 5, _deleted: true, kind: 'notices' }]);
  });
});
