import { SYNC_SCHEMAS, type SyncChangeEvent } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, listen, openStream, type TestApp } from './helpers.js';

/*
 * Change batches (docs/architecture.md, "The match-day rush on one server"): a change event carries
 * the new documents of the shared lists a device keeps in its document store, exactly what a pull of
 * the list after the tail's start answers, one variant per kind of member, and tells each member
 * whether their own part of a collection split by owner changed.
 */

type Doc = { id: string; seq: number; [field: string]: unknown };
type Stream = Awaited<ReturnType<typeof openStream>>;

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let eventId: string;
const people: Record<'admin' | 'mia' | 'otto', { id: string; token: string }> = {} as never;

const pullPath = (name: 'attendees' | 'events' | 'members') => `/api/sync/${name}/${SYNC_SCHEMAS[name].version}/pull`;

async function pull(name: 'attendees' | 'events' | 'members', token: string, afterSeq: number, scope?: 'own' | 'others') {
  const res = await t.call('POST', pullPath(name), {
    token,
    body: { checkpoint: afterSeq === 0 ? null : { seq: afterSeq }, limit: 1000, ...(scope ? { scope } : {}) },
  });
  expect(res.status).toBe(200);
  return res.body as { documents: Doc[]; checkpoint: { seq: number } | null };
}

/**
 * The data of the stream's first change event after `from` characters of its text that names
 * `collection` (a batch of the writes before, still gathering when the stream opened, may come first).
 */
async function nextChange(stream: Stream, from: number, collection: string): Promise<{ change: SyncChangeEvent; at: number }> {
  let at = from;
  for (;;) {
    const text = await stream.read(new RegExp(`^[\\s\\S]{${at}}[\\s\\S]*?event: change\\ndata: .*\\n\\n`), 5000);
    const rest = text.slice(at);
    const match = /event: change\ndata: (.*)\n\n/.exec(rest);
    if (!match) throw new Error(`no change event naming ${collection} after ${from} characters: ${text.slice(from)}`);
    at += match.index + match[0].length;
    const change = JSON.parse(match[1]!) as SyncChangeEvent;
    if (change.collections.includes(collection)) return { change, at };
  }
}

/** The members' tail of the first change after `from` that carries document `id` at `seq`. */
async function tailCarrying(stream: Stream, from: number, id: string, seq: number) {
  for (let at = from; ;) {
    const next = await nextChange(stream, at, 'members');
    const tail = next.change.lists?.members;
    if (tail?.documents.some((doc) => doc.id === id && doc.seq === seq)) return tail;
    at = next.at;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t);
  people.admin = { id: 'admin', token: await t.adminToken() };
  people.mia = await t.member('batch-mia');
  people.otto = await t.member('batch-otto');
  eventId = (await createEventVia(t, people.admin.token, { title: 'Away at Union (A)', date: '2031-05-01 15:30' })).id;
});

afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('change batches', () => {
  it('carry the new documents of the kept lists and tell each member whether their own rows changed', async () => {
    // The devices have pulled everything so far.
    const othersBefore = await pull('attendees', people.otto.token, 0, 'others');
    const eventsBefore = await pull('events', people.otto.token, 0);
    const mia = await openStream(server.url, people.mia.token);
    const otto = await openStream(server.url, people.otto.token);
    await mia.read(/event: ready/);
    await otto.read(/event: ready/);
    const readyAt = (await otto.read(/event: ready\ndata: \{\}\n\n/)).length;
    const miaReadyAt = (await mia.read(/event: ready\ndata: \{\}\n\n/)).length;

    const answer = await t.call('POST', `/api/attendance/${eventId}`, { token: people.mia.token, body: { status: 'going' } });
    expect(answer.status).toBe(200);

    const { change } = await nextChange(otto, readyAt, 'attendees');
    expect(change.collections).toEqual(expect.arrayContaining(['attendees', 'events']));
    const others = change.lists!['attendees/others']!;
    expect(others.from).toBeLessThanOrEqual(othersBefore.checkpoint?.seq ?? 0);
    // Exactly what a pull of the list after the tail's start answers.
    expect(others.documents).toEqual((await pull('attendees', people.otto.token, others.from, 'others')).documents);
    expect(others.documents).toEqual([expect.objectContaining({ event_id: eventId, user_id: people.mia.id, status: 'going' })]);
    expect(others.to).toBe(others.documents.at(-1)!.seq);
    const events = change.lists!.events!;
    expect(events.from).toBeLessThanOrEqual(eventsBefore.checkpoint?.seq ?? 0);
    expect(events.documents).toEqual((await pull('events', people.otto.token, events.from)).documents);
    expect(events.documents).toEqual([expect.objectContaining({ id: eventId, going_count: 1 })]);
    // Otto's own rows did not change; Mia's did, so her device pulls them.
    expect(change.unchanged).toEqual(['attendees/own']);
    const miaChange = (await nextChange(mia, miaReadyAt, 'attendees')).change;
    expect(miaChange.unchanged).toBeUndefined();
    expect(miaChange.lists).toEqual(change.lists);
    mia.close();
    otto.close();
  });

  it('carry each kind of member the list of its kind: e-mail addresses only to admins', async () => {
    // Both kinds of device have pulled the list (a list nobody has read is not carried).
    await pull('members', people.admin.token, 0);
    await pull('members', people.otto.token, 0);
    const admin = await openStream(server.url, people.admin.token);
    const otto = await openStream(server.url, people.otto.token);
    const adminReadyAt = (await admin.read(/event: ready\ndata: \{\}\n\n/)).length;
    const ottoReadyAt = (await otto.read(/event: ready\ndata: \{\}\n\n/)).length;

    const newcomer = await t.member('batch-newcomer');
    // Registering and approving may fall into two batches: the one carrying the approved newcomer counts.
    // This pull reads the list while the batch gathers: the batch's tail still starts before the newcomer.
    const approvedSeq = (await pull('members', people.admin.token, 0)).documents.find((doc) => doc.id === newcomer.id)!.seq;

    const forAdmin = await tailCarrying(admin, adminReadyAt, newcomer.id, approvedSeq);
    const forOtto = await tailCarrying(otto, ottoReadyAt, newcomer.id, approvedSeq);
    expect(forAdmin.documents).toEqual([expect.objectContaining({ id: newcomer.id, email: expect.any(String) })]);
    expect(forOtto.documents).toEqual([expect.not.objectContaining({ email: expect.anything() })]);
    expect(forAdmin.documents).toEqual((await pull('members', people.admin.token, forAdmin.from)).documents);
    expect(forOtto.documents).toEqual((await pull('members', people.otto.token, forOtto.from)).documents);
    admin.close();
    otto.close();
  });
});
