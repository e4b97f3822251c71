import { keptOnDeviceSince, SYNC_SCHEMAS, todayIn, type PullScope, type SyncCollectionName } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_MODULES } from '../src/collections/index.js';
import type { Actor } from '../src/domain/actor.js';
import { pullBatch } from '../src/sync/pull.js';
import { SharedPulls, sharedScopeOf } from '../src/sync/sharedPull.js';
import { syncCollectionsWith } from '../src/sync/registry.js';
import { writeComment, writeMention } from './comment-fixtures.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Shared pulls (docs/architecture.md, "The match-day rush on one server"): a collection that answers
 * its pulls from a list shared by many actors answers exactly what its pull reads from the database
 * for that actor, page by page, for every scope, also after writes that add, change and delete
 * documents of the list and documents beside it.
 */

interface Person {
  id: string;
  token: string;
  name: string;
  scope: 'admin' | 'user';
}
type Doc = { id: string; seq: number; [field: string]: unknown };

let t: TestApp;
let admin: Person;
let mia: Person;
let otto: Person;
const events = { old: '', current: '', upcoming: '' };
const collections = syncCollectionsWith(COLLECTION_MODULES.map((module) => module.sync));
const shared = [...collections.values()].filter((collection) => collection.shared);
const today = () => todayIn(t.runtime.deps.config.clubTimeZone);
const actorOf = (person: Person): Actor => ({ id: person.id, username: person.name, scope: person.scope });
const scopesOf = (name: string): PullScope[] => {
  const { splitByOwner, keptByEvent } = collections.get(name)!.declaration;
  return splitByOwner || keptByEvent ? ['all', 'own', 'others'] : ['all'];
};

/** Every page of a pull through the route (the shared list where there is one), `limit` a page. */
async function pulledPages(name: string, person: Person, scope: PullScope, limit: number): Promise<Doc[][]> {
  const pages: Doc[][] = [];
  let checkpoint: { seq: number } | null = null;
  for (;;) {
    const version = SYNC_SCHEMAS[name as SyncCollectionName].version;
    const res = await t.call('POST', `/api/sync/${name}/${version}/pull`, {
      token: person.token,
      body: { checkpoint, limit, ...(scope === 'all' ? {} : { scope }) },
    });
    expect(res.status).toBe(200);
    pages.push(res.body.documents as Doc[]);
    if (res.body.documents.length < limit) return pages;
    expect(res.body.checkpoint).toEqual({ seq: res.body.documents.at(-1).seq });
    checkpoint = res.body.checkpoint;
  }
}

/** The same pages read from the database for the actor (the pull without a shared list). */
async function queriedPages(name: string, person: Person, scope: PullScope, limit: number): Promise<Doc[][]> {
  const pages: Doc[][] = [];
  let checkpoint: { seq: number } | null = null;
  for (;;) {
    const answer = await pullBatch(t.runtime.deps.store, actorOf(person), collections.get(name)!, checkpoint, limit, scope);
    pages.push(answer.documents as Doc[]);
    if (answer.documents.length < limit) return pages;
    checkpoint = answer.checkpoint;
  }
}

async function expectSameAnswers(): Promise<void> {
  for (const collection of shared) {
    const name = collection.declaration.name;
    for (const person of [admin, mia, otto])
      for (const scope of scopesOf(name))
        for (const limit of [1, 3, 1000]) {
          const pulled = await pulledPages(name, person, scope, limit);
          expect(pulled, `${name} ${scope} for ${person.name}, pages of ${limit}`).toEqual(
            await queriedPages(name, person, scope, limit),
          );
        }
  }
}

async function attend(person: Person, eventId: string, guest: string): Promise<void> {
  const own = await t.call('POST', `/api/attendance/${eventId}`, { token: person.token, body: { status: 'going' } });
  expect(own.status).toBe(200);
  await addGuest(person, eventId, guest);
}

async function addGuest(person: Person, eventId: string, guest: string): Promise<string> {
  const added = await t.call('POST', '/api/guests', { token: person.token, body: { event_id: eventId, guest_name: guest } });
  expect(added.status).toBe(201);
  return added.body.guest.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const adminRow = await t.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  admin = { id: adminRow.id, token: await t.adminToken(), name: 'admin', scope: 'admin' };
  mia = { ...(await t.member('mia')), name: 'mia', scope: 'user' };
  otto = { ...(await t.member('otto')), name: 'otto', scope: 'user' };
  const year = Number(today().slice(0, 4));
  const ahead = new Date(`${today()}T12:00:00Z`);
  ahead.setUTCDate(ahead.getUTCDate() + 30);
  const dates = {
    old: `${year - 2}-03-10 15:30`,
    current: `${keptOnDeviceSince(today())} 15:30`,
    upcoming: `${ahead.toISOString().slice(0, 10)} 18:30`,
  };
  for (const season of ['old', 'current', 'upcoming'] as const) {
    const id = (await createEventVia(t, admin.token, { title: `${season} (H)`, date: '2030-03-01 15:30' })).id;
    events[season] = id;
    for (const person of [mia, otto, admin]) await attend(person, id, `Gast ${person.name} ${season}`);
    await writeComment(t, mia, 'mia', id, { text: 'Bin dabei' });
    await writeMention(t, otto, 'otto', mia, 'mia', id);
    const moved = await t.call('PUT', `/api/events/${id}`, { token: admin.token, body: { date: dates[season] } });
    expect(moved.status).toBe(200);
  }
  const news = await t.call('POST', '/api/announcements', { token: admin.token, body: { title: 'Treffpunkt', text: '10 Uhr' } });
  expect(news.status).toBe(201);
});
afterAll(() => t.close());

describe('shared pulls', () => {
  it('are declared by the collections most of a device pulls', () => {
    expect(shared.map((collection) => collection.declaration.name).sort()).toEqual(
      ['announcements', 'attendees', 'boardings', 'comments', 'events', 'members', 'rides', 'transports'].sort(),
    );
  });

  it("answer every actor, scope and page size exactly what the actor's query reads", async () => {
    await expectSameAnswers();
  });

  it('stay exact after writes change, add and delete documents of the lists and beside them', async () => {
    // Warm every list, then write: a changed answer, a new guest, a deleted one, a comment on the old event, a new member.
    await expectSameAnswers();
    const changed = await t.call('POST', `/api/attendance/${events.upcoming}`, { token: otto.token, body: { status: 'maybe' } });
    expect(changed.status).toBe(200);
    const guest = await addGuest(otto, events.upcoming, 'Neuer Gast');
    expect((await t.call('DELETE', `/api/guests/${guest}`, { token: otto.token })).status).toBe(200);
    await addGuest(mia, events.upcoming, 'Noch ein Gast');
    await writeComment(t, otto, 'otto', events.old, { text: 'Damals' });
    await t.member('neu');
    await expectSameAnswers();
  });

  it('are read and kept page by page, compressed, before the first device asks when the server warms up', async () => {
    const sharedPulls = new SharedPulls(t.runtime.deps.store);
    await sharedPulls.warm(collections.values(), 2);
    const warmed = shared.filter((collection) => sharedScopeOf(collection) !== null);
    expect(warmed.map((collection) => collection.declaration.name).sort()).toEqual(
      ['announcements', 'attendees', 'boardings', 'comments', 'events', 'members', 'rides', 'transports'].sort(),
    );
    for (const collection of warmed) {
      const scope = sharedScopeOf(collection)!;
      for (const person of [admin, mia]) {
        const variant = collection.shared!.variantOf(actorOf(person), scope)!;
        const list = sharedPulls.peek(collection, variant);
        const name = `${collection.declaration.name} ${variant}`;
        expect(list, name).toBeDefined();
        // Every page of 2 of the list and the empty one after it, as a device's first pull asks for them.
        const documents = (await queriedPages(collection.declaration.name, person, scope, 1000)).flat().length;
        expect(list!.pages.size, name).toBe(Math.floor(documents / 2) + 1);
      }
    }
  });
});
