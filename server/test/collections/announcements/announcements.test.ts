import { MESSAGES, newId } from '@fankurve/shared';
import { announcementAnswer, announcementsAnswer } from '@fankurve/shared/collections/announcements/answers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from '../../helpers.js';

/** Announcements (docs/product.md, Screens and REST API): admins write them, every member reads them, also through sync. */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let otherFan: { id: string; token: string };
let eventId: string;
let commits: Commit[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('news-fan');
  otherFan = await t.member('news-reader');
  eventId = (await createEventVia(t, admin, { title: 'Auswärtsfahrt (A)' })).id;
  commits = [];
  t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
});
afterAll(() => t.close());

const rowOf = (id: string) => t.db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** What a refused call must leave as it was: every announcement row and the seq counter. */
const state = async () => ({
  rows: await t.db.selectFrom('announcements').selectAll().orderBy('id').execute(),
  counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
});
const create = (body: Record<string, unknown>, token: string | null = admin) =>
  t.call('POST', '/api/announcements', { token, body });
const list = (token: string) => t.callTyped(announcementsAnswer, 'GET', '/api/announcements', { token });
const news = { title: 'Neues Trikot', text: 'Ab Samstag im Fanshop.\nMitglieder zahlen weniger.' };
const pull = async (token: string) => {
  const res = await t.call('POST', '/api/sync/announcements/0/pull', { token, body: { checkpoint: null, limit: 1000 } });
  expect(res.status).toBe(200);
  return res.body.documents as Record<string, unknown>[];
};
const eventTypes = () => commits.flatMap((commit) => commit.events.map((event) => event.type));

describe('POST /api/announcements', () => {
  it('posts an announcement: multi-line text kept, not pinned by default, the event optional', async () => {
    commits = [];
    const answer = await t.callTyped(announcementAnswer, 'POST', '/api/announcements', {
      token: admin,
      body: { ...news, title: '  Neues Trikot  ', text: 'Zeile 1\r\nZeile 2\n\tZeile 3' },
      status: 201,
    });
    expect(answer).toEqual({
      success: true,
      message: MESSAGES.announcementSaved,
      announcement: {
        id: expect.any(String),
        title: 'Neues Trikot',
        text: 'Zeile 1\nZeile 2\n\tZeile 3',
        event_id: null,
        pinned: false,
        created_by: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(await rowOf(answer.announcement.id)).toMatchObject({ pinned: 0, deleted: 0 });
    expect(eventTypes()).toEqual(['announcement.created']);
    expect(commits[0]!.collections).toEqual(new Set(['announcements']));

    const linked = await create({ ...news, event_id: eventId, pinned: true });
    expect(linked.status).toBe(201);
    expect(linked.body.announcement).toMatchObject({ event_id: eventId, pinned: true });
  });

  it('takes a title of 120 and a text of 2000 characters', async () => {
    const res = await create({ title: 'T'.repeat(120), text: 'x'.repeat(2000) });
    expect(res.status).toBe(201);
  });

  it.each([
    ['no fields', {}, 400, MESSAGES.titleRequired],
    ['an empty title', { ...news, title: '' }, 400, MESSAGES.titleRequired],
    ['a blank title', { ...news, title: '   ' }, 400, MESSAGES.titleRequired],
    ['a title of 121 characters', { ...news, title: 'T'.repeat(121) }, 400, `${MESSAGES.invalidInput}: title`],
    ['no text', { title: 'News' }, 400, `${MESSAGES.invalidInput}: text`],
    ['a blank text', { ...news, text: ' \n ' }, 400, `${MESSAGES.invalidInput}: text`],
    ['a text of 2001 characters', { ...news, text: 'x'.repeat(2001) }, 400, `${MESSAGES.invalidInput}: text`],
    ['a tab inside the title', { ...news, title: 'Neues\tTrikot' }, 400, MESSAGES.textHasControlCharacters],
    ['a direction override in the title', { ...news, title: 'gpj.\u202Eexe' }, 400, MESSAGES.textHasControlCharacters],
    ['a bell in the text', { ...news, text: 'Achtung\u0007' }, 400, MESSAGES.textHasControlCharacters],
    ['a line separator in the text', { ...news, text: 'a\u2028b' }, 400, MESSAGES.textHasControlCharacters],
    ['pinned as text', { ...news, pinned: 'yes' }, 400, MESSAGES.invalidInput],
    ['an unknown event', { ...news, event_id: 'UNKNOWN' }, 404, MESSAGES.eventNotFound],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s and changes nothing',
    async (_label, body, status, message) => {
      const payload = body.event_id === 'UNKNOWN' ? { ...body, event_id: newId() } : body;
      const before = await state();
      const res = await create(payload);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, message });
      expect(await state()).toEqual(before);
    },
  );

  it('refuses a deleted event', async () => {
    const gone = await createEventVia(t, admin, { title: 'Abgesagt (H)' });
    expect((await t.call('DELETE', `/api/events/${gone.id}`, { token: admin })).status).toBe(200);
    const before = await state();
    const res = await create({ ...news, event_id: gone.id });
    expect(res).toMatchObject({ status: 404, body: { code: 'eventNotFound' } });
    expect(await state()).toEqual(before);
  });

  it('is for admins only: members 403, anonymous 401, nothing changed', async () => {
    const before = await state();
    expect(await create(news, fan.token)).toMatchObject({ status: 403, body: { message: MESSAGES.adminRequired } });
    expect((await create(news, null)).status).toBe(401);
    expect(await state()).toEqual(before);
  });
});

describe('GET /api/announcements', () => {
  it('lists every live announcement for every member, pinned first, then newest first', async () => {
    const older = (await create({ ...news, title: 'Older pinned', pinned: true })).body.announcement.id as string;
    const plain = (await create({ ...news, title: 'Plain' })).body.announcement.id as string;
    const newer = (await create({ ...news, title: 'Newer pinned', pinned: true })).body.announcement.id as string;
    for (const token of [fan.token, otherFan.token, admin]) {
      const { announcements } = await list(token);
      const ids = announcements.map((a) => a.id);
      expect(ids.filter((id) => [older, plain, newer].includes(id))).toEqual([newer, older, plain]);
      const firstUnpinned = announcements.findIndex((a) => !a.pinned);
      expect(announcements.slice(firstUnpinned).every((a) => !a.pinned)).toBe(true);
      for (const group of [true, false]) {
        const times = announcements.filter((a) => a.pinned === group).map((a) => a.created_at);
        expect(times).toEqual([...times].sort().reverse());
      }
    }
    expect((await t.call('GET', '/api/announcements')).status).toBe(401);
  });
});

describe('PUT and DELETE /api/announcements/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (await create({ ...news, title: 'Busabfahrt' })).body.announcement.id;
  });
  const put = (body: unknown, token: string = admin) => t.call('PUT', `/api/announcements/${id}`, { token, body });

  it('changes any field, links and unlinks the event; a new seq only when something changed', async () => {
    commits = [];
    const seq = Number((await rowOf(id)).seq);
    const changed = await t.callTyped(announcementAnswer, 'PUT', `/api/announcements/${id}`, {
      token: admin,
      body: { text: 'Abfahrt 7 Uhr\nam Stadion', pinned: true, event_id: eventId },
    });
    expect(changed).toMatchObject({
      message: MESSAGES.announcementSaved,
      announcement: { id, title: 'Busabfahrt', text: 'Abfahrt 7 Uhr\nam Stadion', pinned: true, event_id: eventId },
    });
    expect(Number((await rowOf(id)).seq)).toBeGreaterThan(seq);
    expect(commits.flatMap((c) => c.events)).toEqual([
      expect.objectContaining({ type: 'announcement.changed', announcementId: id, fields: ['text', 'event_id', 'pinned'] }),
    ]);

    const same = Number((await rowOf(id)).seq);
    expect((await put({ title: 'Busabfahrt', pinned: true })).status).toBe(200);
    expect(Number((await rowOf(id)).seq)).toBe(same);

    const unlinked = await put({ event_id: null });
    expect(unlinked.body.announcement.event_id).toBeNull();
  });

  it.each([
    ['an empty title', { title: '' }, 400, MESSAGES.titleRequired],
    ['a title of 121 characters', { title: 'T'.repeat(121) }, 400, `${MESSAGES.invalidInput}: title`],
    ['a text of 2001 characters', { text: 'x'.repeat(2001) }, 400, `${MESSAGES.invalidInput}: text`],
    ['an escape in the title', { title: 'Bus\u001B[31m' }, 400, MESSAGES.textHasControlCharacters],
    ['a NUL in the text', { text: 'Bus\u0000' }, 400, MESSAGES.textHasControlCharacters],
    ['an unknown event', { event_id: 'UNKNOWN' }, 404, MESSAGES.eventNotFound],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s and changes nothing',
    async (_label, body, status, message) => {
      const before = await state();
      const res = await put(body.event_id === 'UNKNOWN' ? { event_id: newId() } : body);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, message });
      expect(await state()).toEqual(before);
    },
  );

  it('refuses members and anonymous callers, and answers announcementNotFound for an unknown id', async () => {
    const before = await state();
    expect((await put({ title: 'Mine' }, fan.token)).status).toBe(403);
    expect((await t.call('DELETE', `/api/announcements/${id}`, { token: fan.token })).status).toBe(403);
    expect((await t.call('PUT', `/api/announcements/${id}`, { body: { title: 'Mine' } })).status).toBe(401);
    expect((await t.call('DELETE', `/api/announcements/${id}`)).status).toBe(401);
    const unknown = newId();
    expect(await t.call('PUT', `/api/announcements/${unknown}`, { token: admin, body: { title: 'X' } })).toMatchObject({
      status: 404,
      body: { code: 'announcementNotFound', message: MESSAGES.announcementNotFound },
    });
    expect(await t.call('DELETE', `/api/announcements/${unknown}`, { token: admin })).toMatchObject({
      status: 404,
      body: { code: 'announcementNotFound' },
    });
    expect(await state()).toEqual(before);
  });

  it('deletes as a tombstone with a new seq; then it is gone from the list and 404', async () => {
    commits = [];
    const before = await rowOf(id);
    const res = await t.call('DELETE', `/api/announcements/${id}`, { token: admin });
    expect(res.body).toEqual({ success: true, message: MESSAGES.announcementDeleted });
    const after = await rowOf(id);
    expect(after.deleted).toBe(1);
    expect(Number(after.seq)).toBeGreaterThan(Number(before.seq));
    expect(eventTypes()).toEqual(['announcement.deleted']);
    expect((await list(fan.token)).announcements.some((a) => a.id === id)).toBe(false);
    expect((await put({ title: 'Ghost' })).body.code).toBe('announcementNotFound');
    expect((await t.call('DELETE', `/api/announcements/${id}`, { token: admin })).status).toBe(404);
  });
});

describe('announcements and their event', () => {
  it('deleting the linked event tombstones its announcements; the others stay', async () => {
    const event = await createEventVia(t, admin, { title: 'Pokal (H)' });
    const linked = (await create({ ...news, event_id: event.id })).body.announcement.id as string;
    const free = (await create(news)).body.announcement.id as string;
    const before = await rowOf(linked);
    expect((await t.call('DELETE', `/api/events/${event.id}`, { token: admin })).status).toBe(200);
    const after = await rowOf(linked);
    expect(after.deleted).toBe(1);
    expect(Number(after.seq)).toBeGreaterThan(Number(before.seq));
    expect((await rowOf(free)).deleted).toBe(0);
    const ids = (await list(fan.token)).announcements.map((a) => a.id);
    expect(ids).toContain(free);
    expect(ids).not.toContain(linked);
  });
});

describe('the announcements sync collection', () => {
  it('gives every member the announcement, and a tombstone of nothing but id and seq after the delete', async () => {
    const created = (await create({ ...news, title: 'Sync news', pinned: true, event_id: eventId })).body.announcement;
    for (const token of [fan.token, otherFan.token]) {
      expect((await pull(token)).find((doc) => doc.id === created.id)).toEqual({
        ...created,
        seq: expect.any(Number),
        _deleted: false,
      });
    }
    expect((await t.call('DELETE', `/api/announcements/${created.id}`, { token: admin })).status).toBe(200);
    const tombstone = (await pull(fan.token)).find((doc) => doc.id === created.id);
    expect(tombstone).toEqual({ id: created.id, seq: expect.any(Number), _deleted: true });
  });
});
