import {
  keptOnDeviceSince,
  newId,
  newMemberAttendeeDoc,
  SYNC_SCHEMAS,
  syncEventAnswer,
  todayIn,
  type SyncCollectionName,
} from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../src/db/store.js';
import type { Actor } from '../src/domain/actor.js';
import { setOwnAttendance } from '../src/domain/attendance/attendance.js';
import { writeComment, writeMention } from './comment-fixtures.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * What a device keeps (docs/architecture.md, What a device keeps): the attendee and comment pulls
 * carry the rows of upcoming events and of the season of today, plus the actor's own of any season;
 * the rest of an event comes from GET /api/sync/{collection}/{version}/events/{eventId}. The event
 * document carries its going and maybe counts, and writing attendee rows gives their events a new seq.
 */

interface Person {
  id: string;
  token: string;
  name: string;
}
type Doc = { id: string; seq: number; _deleted: boolean; [field: string]: unknown };

let t: TestApp;
let admin: Person;
let mia: Person;
let otto: Person;
/** The events by season: two years ago, the first day of the season of today, a month ahead. */
const events = { old: '', current: '', upcoming: '' };
/** Per event: the attendee row ids of each person and guest, and the comment ids. */
const rows: Record<string, Record<string, string>> = {};
const comments: Record<string, Record<string, string>> = {};

const version = (collection: string) => SYNC_SCHEMAS[collection as SyncCollectionName]?.version ?? 0;
const today = () => todayIn(t.runtime.deps.config.clubTimeZone);
const actorOf = (person: Person): Actor => ({ id: person.id, username: person.name, scope: 'user' });

/** Every document of a collection the person's device pulls from scratch, page by page (`limit` a page). */
async function pullAll(collection: string, token: string, limit = 1000, scope?: 'own' | 'others'): Promise<Doc[]> {
  const documents: Doc[] = [];
  let checkpoint: { seq: number } | null = null;
  for (;;) {
    const res = await t.call('POST', `/api/sync/${collection}/${version(collection)}/pull`, {
      token,
      body: { checkpoint, limit, ...(scope ? { scope } : {}) },
    });
    expect(res.status).toBe(200);
    documents.push(...(res.body.documents as Doc[]));
    if (res.body.documents.length < limit) return documents;
    checkpoint = res.body.checkpoint;
  }
}

const eventPath = (collection: string, eventId: string, v = version(collection)) =>
  `/api/sync/${collection}/${v}/events/${eventId}`;
const eventDoc = async (token: string, eventId: string) => (await pullAll('events', token)).find((doc) => doc.id === eventId)!;
const ids = (docs: Doc[]) => docs.map((doc) => doc.id).sort();

async function attend(person: Person, eventId: string, status: 'going' | 'maybe', guest: string): Promise<void> {
  const own = await t.call('POST', `/api/attendance/${eventId}`, { token: person.token, body: { status } });
  expect(own.status).toBe(200);
  const added = await t.call('POST', '/api/guests', { token: person.token, body: { event_id: eventId, guest_name: guest } });
  expect(added.status).toBe(201);
  rows[eventId]![person.name] = own.body.attendance.id;
  rows[eventId]![guest] = added.body.guest.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const adminToken = await t.adminToken();
  const adminRow = await t.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  admin = { id: adminRow.id, token: adminToken, name: 'admin' };
  mia = { ...(await t.member('mia')), name: 'mia' };
  otto = { ...(await t.member('otto')), name: 'otto' };
  const year = Number(today().slice(0, 4));
  const ahead = new Date(`${today()}T12:00:00Z`);
  ahead.setUTCDate(ahead.getUTCDate() + 30);
  const dates = {
    old: `${year - 2}-03-10 15:30`,
    current: `${keptOnDeviceSince(today())} 15:30`,
    upcoming: `${ahead.toISOString().slice(0, 10)} 18:30`,
  };
  for (const season of ['old', 'current', 'upcoming'] as const) {
    // Answered while upcoming; the old one is then moved back two years (its season has passed).
    const id = (await createEventVia(t, admin.token, { title: `${season} (H)`, date: '2030-03-01 15:30' })).id;
    events[season] = id;
    rows[id] = {};
    await attend(mia, id, 'going', `Gustav ${season}`);
    await attend(otto, id, 'maybe', `Olga ${season}`);
    await attend(admin, id, 'going', `Anton ${season}`);
    comments[id] = {
      mia: await writeComment(t, mia, 'mia', id, { text: 'Bin dabei' }),
      otto: await writeComment(t, otto, 'otto', id, { text: 'Vielleicht' }),
    };
    const mention = await writeMention(t, otto, 'otto', mia, 'mia', id);
    const mentionRow = await t.db.selectFrom('mentions').select('comment_id').where('id', '=', mention).executeTakeFirstOrThrow();
    comments[id]!.ottoNamingMia = mentionRow.comment_id;
    const moved = await t.call('PUT', `/api/events/${id}`, { token: admin.token, body: { date: dates[season] } });
    expect(moved.status).toBe(200);
  }
});
afterAll(() => t.close());

describe('the attendee and comment pulls', () => {
  it('answer 401 to anonymous callers', async () => {
    for (const collection of ['attendees', 'comments']) {
      const res = await t.call('POST', `/api/sync/${collection}/${version(collection)}/pull`, {
        body: { checkpoint: null, limit: 10 },
      });
      expect(res.status).toBe(401);
    }
  });

  it("carry every row of the kept events, and of an old season only the member's own and their guests'", async () => {
    const keptRows = [events.current, events.upcoming].flatMap((id) => Object.values(rows[id]!));
    const old = rows[events.old]!;
    const expected = {
      mia: [old.mia!, old['Gustav old']!],
      otto: [old.otto!, old['Olga old']!],
      admin: [old.admin!, old['Anton old']!],
    };
    for (const person of [mia, otto, admin]) {
      const pulled = await pullAll('attendees', person.token);
      expect(ids(pulled), person.name).toEqual([...keptRows, ...expected[person.name as keyof typeof expected]].sort());
    }
  });

  it("carry every comment of the kept events, and of an old season the member's own and those naming them", async () => {
    const kept = [events.current, events.upcoming].flatMap((id) => Object.values(comments[id]!));
    const old = comments[events.old]!;
    expect(ids(await pullAll('comments', mia.token))).toEqual([...kept, old.mia!, old.ottoNamingMia!].sort());
    expect(ids(await pullAll('comments', otto.token))).toEqual([...kept, old.otto!, old.ottoNamingMia!].sort());
    expect(ids(await pullAll('comments', admin.token))).toEqual([...kept].sort());
  });

  it('page by seq as before: small pages give the same documents in ascending seq', async () => {
    for (const collection of ['attendees', 'comments']) {
      const whole = await pullAll(collection, mia.token);
      const paged = await pullAll(collection, mia.token, 2);
      expect(paged.map((doc) => doc.id)).toEqual(whole.map((doc) => doc.id));
      const seqs = paged.map((doc) => doc.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });
});

describe('the attendee pull split by owner (docs/architecture.md, Client data layer)', () => {
  it("'own' carries the rows the member pushes (their own and their guests', of any season), 'others' every row of the kept events", async () => {
    const kept = [events.current, events.upcoming];
    for (const person of [mia, otto, admin]) {
      const guest = { mia: 'Gustav', otto: 'Olga', admin: 'Anton' }[person.name as 'mia' | 'otto' | 'admin'];
      const mine = (id: string) => [
        rows[id]![person.name]!,
        rows[id]![`${guest} ${id === events.old ? 'old' : id === events.current ? 'current' : 'upcoming'}`]!,
      ];
      const own = await pullAll('attendees', person.token, 1000, 'own');
      expect(ids(own), person.name).toEqual([events.old, ...kept].flatMap(mine).sort());
      // The same for everyone (one shared list): the device's store drops its own rows, which RxDB holds.
      const others = await pullAll('attendees', person.token, 2, 'others');
      expect(ids(others), person.name).toEqual(kept.flatMap((id) => Object.values(rows[id]!)).sort());
      // Together exactly what the unsplit pull carries.
      expect([...new Set([...ids(own), ...ids(others)])].sort()).toEqual(ids(await pullAll('attendees', person.token)));
    }
  });

  it("takes the scope for an event's rows too, and refuses a scope on a collection neither split nor kept by event, or an unknown one", async () => {
    const own = await t.call('GET', `${eventPath('attendees', events.old)}?scope=own`, { token: mia.token });
    expect(ids(own.body.documents as Doc[])).toEqual([rows[events.old]!.mia!, rows[events.old]!['Gustav old']!].sort());
    const others = await t.call('GET', `${eventPath('attendees', events.old)}?scope=others`, { token: mia.token });
    expect(ids(others.body.documents as Doc[])).toEqual(
      Object.values(rows[events.old]!)
        .filter((id) => !ids(own.body.documents as Doc[]).includes(id))
        .sort(),
    );
    for (const [collection, body] of [
      ['events', { checkpoint: null, scope: 'others' }],
      ['members', { checkpoint: null, scope: 'own' }],
      ['attendees', { checkpoint: null, scope: 'mine' }],
    ] as const) {
      const res = await t.call('POST', `/api/sync/${collection}/${version(collection)}/pull`, { token: mia.token, body });
      expect(res, collection).toMatchObject({ status: 400, body: { code: 'invalidInput' } });
    }
    const unknownScope = await t.call('GET', `${eventPath('attendees', events.old)}?scope=mine`, { token: mia.token });
    expect(unknownScope).toMatchObject({ status: 400, body: { code: 'invalidInput' } });
    const pull = `/api/sync/attendees/${version('attendees')}/pull`;
    expect((await t.call('POST', pull, { body: { scope: 'own' } })).status).toBe(401);
  });
});

describe('the comment pull in two parts (docs/architecture.md, What a device keeps)', () => {
  it("'others' carries every comment of the kept events, the same for everyone; 'own' the member's own and those naming them of an old season", async () => {
    const kept = [events.current, events.upcoming].flatMap((id) => Object.values(comments[id]!));
    const old = comments[events.old]!;
    const expectedOwn = { mia: [old.mia!, old.ottoNamingMia!], otto: [old.otto!, old.ottoNamingMia!], admin: [] as string[] };
    for (const person of [mia, otto, admin]) {
      const others = await pullAll('comments', person.token, 2, 'others');
      expect(ids(others), person.name).toEqual([...kept].sort());
      const own = await pullAll('comments', person.token, 1, 'own');
      expect(ids(own), person.name).toEqual(expectedOwn[person.name as keyof typeof expectedOwn].sort());
      // Together exactly what the whole pull carries.
      expect([...ids(own), ...ids(others)].sort()).toEqual(ids(await pullAll('comments', person.token)));
    }
  });
});

describe('GET /api/sync/{collection}/{version}/events/{eventId}', () => {
  it('answers 401 to anonymous callers and garbage tokens', async () => {
    for (const token of [null, 'not-a-token']) {
      expect((await t.call('GET', eventPath('attendees', events.old), { token })).status).toBe(401);
    }
  });

  it('answers 404 to an unknown collection and one the device keeps whole, 426 to an old version', async () => {
    for (const collection of ['secrets', 'events', 'members', 'mentions']) {
      const res = await t.call('GET', eventPath(collection, events.old), { token: mia.token });
      expect(res, collection).toMatchObject({ status: 404, body: { code: 'unknownCollection' } });
    }
    const outdated = await t.call('GET', eventPath('attendees', events.old, 7), { token: mia.token });
    expect(outdated).toMatchObject({ status: 426, body: { code: 'outdatedClient' } });
  });

  it('answers 400 to a malformed id and 404 eventNotFound to an unknown event', async () => {
    for (const collection of ['attendees', 'comments']) {
      const bad = await t.call('GET', eventPath(collection, 'not-an-id'), { token: mia.token });
      expect(bad).toMatchObject({ status: 400, body: { code: 'invalidInput' } });
      const unknown = await t.call('GET', eventPath(collection, newId()), { token: mia.token });
      expect(unknown).toMatchObject({ status: 404, body: { code: 'eventNotFound' } });
    }
  });

  it("answers every row and comment of an old event, everyone's, in seq order", async () => {
    for (const person of [mia, otto, admin]) {
      const attendees = await t.callTyped(syncEventAnswer, 'GET', eventPath('attendees', events.old), { token: person.token });
      expect(ids(attendees.documents as Doc[])).toEqual(Object.values(rows[events.old]!).sort());
      const seqs = attendees.documents.map((doc) => doc.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      const said = await t.callTyped(syncEventAnswer, 'GET', eventPath('comments', events.old), { token: person.token });
      expect(ids(said.documents as Doc[])).toEqual(Object.values(comments[events.old]!).sort());
    }
  });

  it("answers a deleted event's rows and comments as tombstones of only id, seq, event and _deleted", async () => {
    const gone = (await createEventVia(t, admin.token, { title: 'Abgesagt (A)', date: '2030-05-01 15:30' })).id;
    rows[gone] = {};
    await attend(mia, gone, 'going', 'Gerd');
    const comment = await writeComment(t, otto, 'otto', gone, { text: 'Schade' });
    expect((await t.call('DELETE', `/api/events/${gone}`, { token: admin.token })).status).toBe(200);
    const attendees = await t.callTyped(syncEventAnswer, 'GET', eventPath('attendees', gone), { token: otto.token });
    expect(ids(attendees.documents as Doc[])).toEqual(Object.values(rows[gone]!).sort());
    const said = await t.callTyped(syncEventAnswer, 'GET', eventPath('comments', gone), { token: otto.token });
    expect(said.documents.map((doc) => doc.id)).toEqual([comment]);
    for (const doc of [...attendees.documents, ...said.documents]) {
      expect(Object.keys(doc).sort()).toEqual(['_deleted', 'event_id', 'id', 'seq']);
      expect(doc).toMatchObject({ _deleted: true, event_id: gone });
    }
  });
});

describe('the counts on the event document', () => {
  it('carry the live going and maybe rows, guests included, as the REST list does', async () => {
    const list = (await t.call('GET', '/api/events', { token: mia.token })).body.events as {
      id: string;
      going_count: number;
      maybe_count: number;
    }[];
    for (const id of Object.values(events)) {
      // mia, admin and their guests go; otto and his guest may (guests take the default, going).
      const doc = await eventDoc(mia.token, id);
      const rest = list.find((event) => event.id === id)!;
      expect(doc).toMatchObject({ going_count: rest.going_count, maybe_count: rest.maybe_count });
      expect({ going: doc.going_count, maybe: doc.maybe_count }).toEqual({ going: 5, maybe: 1 });
    }
  });

  it('change with an attendance push, which gives the event a new seq', async () => {
    const before = await eventDoc(mia.token, events.upcoming);
    const row = (await pullAll('attendees', mia.token)).find((doc) => doc.id === rows[events.upcoming]!.mia)!;
    const pushed = await t.call('POST', `/api/sync/attendees/${version('attendees')}/push`, {
      token: mia.token,
      body: [{ assumedMasterState: row, newDocumentState: { ...row, status: 'maybe' } }],
    });
    expect(pushed.status).toBe(200);
    const after = await eventDoc(mia.token, events.upcoming);
    expect(after.seq).toBeGreaterThan(before.seq);
    expect(after).toMatchObject({ going_count: 4, maybe_count: 2 });
    // A device that had the event before pulls it again after its checkpoint.
    const since = await t.call('POST', `/api/sync/events/${version('events')}/pull`, {
      token: otto.token,
      body: { checkpoint: { seq: before.seq }, limit: 100 },
    });
    expect((since.body.documents as Doc[]).map((doc) => doc.id)).toContain(events.upcoming);
  });

  it('gives each event of one transaction its own new seq', async () => {
    const first = (await createEventVia(t, admin.token, { title: 'Eins (H)', date: '2030-06-01 15:30' })).id;
    const second = (await createEventVia(t, admin.token, { title: 'Zwei (A)', date: '2030-06-08 15:30' })).id;
    const doc = (eventId: string) => ({
      ...newMemberAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          user_id: otto.id,
          status: 'going',
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    });
    const before = [await eventDoc(otto.token, first), await eventDoc(otto.token, second)];
    const pushed = await t.call('POST', `/api/sync/attendees/${version('attendees')}/push`, {
      token: otto.token,
      body: [first, second].map((eventId) => ({ assumedMasterState: null, newDocumentState: doc(eventId) })),
    });
    expect(pushed.status).toBe(200);
    const [one, two] = [await eventDoc(otto.token, first), await eventDoc(otto.token, second)];
    expect(one).toMatchObject({ going_count: 1, maybe_count: 0 });
    expect(two).toMatchObject({ going_count: 1, maybe_count: 0 });
    expect(one.seq).toBeGreaterThan(Math.max(before[0]!.seq, before[1]!.seq));
    expect(two.seq).toBeGreaterThan(Math.max(before[0]!.seq, before[1]!.seq));
    expect(one.seq).not.toBe(two.seq);
  });

  it('stay as they are, seq included, after a transaction that writes no attendee row', async () => {
    const before = await eventDoc(mia.token, events.current);
    await writeComment(t, otto, 'otto', events.current, { text: 'Noch ein Wort' });
    const said = await t.call('POST', `/api/comments/event/${events.current}`, {
      token: mia.token,
      body: { comment: 'Und ich' },
    });
    expect(said.status).toBe(201);
    expect((await eventDoc(mia.token, events.current)).seq).toBe(before.seq);
  });

  it('stay as they are after a savepoint with attendee rows rolls back, and move when one commits', async () => {
    const eventId = events.upcoming;
    const before = await eventDoc(otto.token, eventId);
    await write(t.runtime.deps.store, async (w) => {
      await w.nextSeq('notices'); // the transaction's first seq lies before the savepoint
      await w
        .attempt(async () => {
          await setOwnAttendance(w, actorOf(otto), eventId, { status: 'going' });
          throw new Error('refused');
        })
        .catch(() => undefined);
    });
    expect(await eventDoc(otto.token, eventId)).toMatchObject({ seq: before.seq, going_count: 4, maybe_count: 2 });
    await write(t.runtime.deps.store, (w) => w.attempt(() => setOwnAttendance(w, actorOf(otto), eventId, { status: 'going' })));
    const after = await eventDoc(otto.token, eventId);
    expect(after.seq).toBeGreaterThan(before.seq);
    expect(after).toMatchObject({ going_count: 5, maybe_count: 1 });
  });
});

describe('an old event moved into the kept range', () => {
  it("reaches a device whose pulls have passed its rows: everyone's rows and comments take new seqs", async () => {
    const eventId = events.old;
    const rowsBefore = await pullAll('attendees', mia.token);
    const checkpoint = Math.max(...rowsBefore.map((doc) => doc.seq));
    const moved = await t.call('PUT', `/api/events/${eventId}`, { token: admin.token, body: { date: '2030-03-01 15:30' } });
    expect(moved.status).toBe(200);
    const after = await t.call('POST', `/api/sync/attendees/${version('attendees')}/pull`, {
      token: mia.token,
      body: { checkpoint: { seq: checkpoint }, limit: 1000 },
    });
    expect(ids((after.body.documents as Doc[]).filter((doc) => doc.seq > checkpoint))).toEqual(
      expect.arrayContaining([rows[eventId]!.otto!, rows[eventId]!['Olga old']!]),
    );
    const newComments = await t.call('POST', `/api/sync/comments/${version('comments')}/pull`, {
      token: mia.token,
      body: { checkpoint: { seq: checkpoint }, limit: 1000 },
    });
    expect(ids(newComments.body.documents as Doc[])).toEqual(expect.arrayContaining([comments[eventId]!.otto!]));
  });
});
