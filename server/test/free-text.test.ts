import { MESSAGES, newGuestAttendeeDoc, newId, SYNC_SCHEMAS, type SyncCollectionName } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Control and direction characters in free text (rules/freeText.ts, docs/architecture.md "Rules
 * once"): every text field of every REST route and every sync push refuses them with
 * 'textHasControlCharacters' and changes nothing; a refused push leaves a notice.
 */

/** The characters sent, one kind each: a NUL, a C0 control (bell), a bidi override and a bidi isolate. */
const CHARACTERS: [string, string][] = [
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['RLO U+202E', '\u202E'],
  ['LRI U+2066', '\u2066'],
];

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let eventId: string;
let stadiumId: string;
let transportId: string;
let guestId: string;
let commentId: string;
let fanAttendeeId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('text-fan');
  eventId = (await createEventVia(t, fan.token, { title: 'Free text (H)' })).id;
  const stadium = await t.call('POST', '/api/stadiums', {
    token: admin,
    body: { team_name: 'Union', stadium_name: 'Alte Försterei', city: 'Berlin' },
  });
  stadiumId = stadium.body.stadium.id;
  const transport = await t.call('POST', '/api/transports', {
    token: admin,
    body: { name: 'Bus', departure_location: 'Bahnhof', event_id: eventId, is_free: true },
  });
  transportId = transport.body.transport.id;
  const attend = await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } });
  expect(attend.status).toBe(200);
  const guest = await t.call('POST', '/api/guests', { token: fan.token, body: { guest_name: 'Gustav', event_id: eventId } });
  guestId = guest.body.guest.id;
  const comment = await t.call('POST', `/api/comments/event/${eventId}`, { token: fan.token, body: { comment: 'Hallo' } });
  commentId = comment.body.comment.id;
  const rows = (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees as {
    id: string;
    user_id: string | null;
  }[];
  fanAttendeeId = rows.find((row) => row.user_id === fan.id)!.id;
  expect([stadiumId, transportId, guestId, commentId, fanAttendeeId].every(Boolean)).toBe(true);
});
afterAll(() => t.close());

/** Every row of every table a free text lives in, and the write counter. */
async function snapshot() {
  const db = t.runtime.deps.store.db;
  return Promise.all([
    db.selectFrom('events').selectAll().orderBy('id').execute(),
    db.selectFrom('stadiums').selectAll().orderBy('id').execute(),
    db.selectFrom('stadium_ticket_prices').selectAll().orderBy('id').execute(),
    db.selectFrom('transports').selectAll().orderBy('id').execute(),
    db.selectFrom('attendees').selectAll().orderBy('id').execute(),
    db.selectFrom('comments').selectAll().orderBy('id').execute(),
    db.selectFrom('settings').selectAll().orderBy('key').execute(),
    db.selectFrom('counters').selectAll().execute(),
  ]);
}

interface TextRoute {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  token: () => string;
  /** A body the route takes; each free-text field is then sent with a bad character in it. */
  valid: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  fields: string[];
}

const ROUTES: TextRoute[] = [
  {
    name: 'POST /api/events',
    method: 'POST',
    url: () => '/api/events',
    token: () => fan.token,
    valid: () => ({ title: 'Neu (H)', date: '2030-04-01 15:30', location: 'Berlin', description: 'Text', ticket_buyer: 'Max' }),
    fields: ['title', 'location', 'description', 'ticket_buyer'],
  },
  {
    name: 'PUT /api/events/{eventId}',
    method: 'PUT',
    url: () => `/api/events/${eventId}`,
    token: () => fan.token,
    valid: () => ({ title: 'Geändert (H)' }),
    fields: ['title', 'location', 'description', 'ticket_buyer'],
  },
  {
    name: 'POST /api/stadiums',
    method: 'POST',
    url: () => '/api/stadiums',
    token: () => admin,
    valid: () => ({ team_name: 'Hertha', stadium_name: 'Olympiastadion', city: 'Berlin', address: 'Olympischer Platz 3' }),
    fields: ['team_name', 'stadium_name', 'city', 'address'],
  },
  {
    name: 'PUT /api/stadiums/{id}',
    method: 'PUT',
    url: () => `/api/stadiums/${stadiumId}`,
    token: () => admin,
    valid: () => ({ city: 'Berlin-Köpenick' }),
    fields: ['team_name', 'stadium_name', 'city', 'address'],
  },
  {
    name: 'POST /api/ticket-prices',
    method: 'POST',
    url: () => '/api/ticket-prices',
    token: () => admin,
    valid: () => ({ stadium_id: stadiumId, price: 18.5, ticket_type: 'Stehplatz' }),
    fields: ['ticket_type'],
  },
  {
    name: 'POST /api/transports',
    method: 'POST',
    url: () => '/api/transports',
    token: () => admin,
    valid: () => ({ name: 'Zug', departure_location: 'Ostkreuz', event_id: eventId, is_free: true }),
    fields: ['name', 'departure_location'],
  },
  {
    name: 'PUT /api/transports/{id}',
    method: 'PUT',
    url: () => `/api/transports/${transportId}`,
    token: () => admin,
    valid: () => ({ name: 'Bus 2' }),
    fields: ['name', 'departure_location'],
  },
  {
    name: 'PUT /api/tickets/event/{eventId}/user/{userId}/status',
    method: 'PUT',
    url: () => `/api/tickets/event/${eventId}/user/${fan.id}/status`,
    token: () => admin,
    valid: () => ({ ticket_type: 'Sitzplatz' }),
    fields: ['ticket_type'],
  },
  {
    name: 'PUT /api/attendees/{attendeeId}',
    method: 'PUT',
    url: () => `/api/attendees/${fanAttendeeId}`,
    token: () => admin,
    valid: () => ({ ticket_type: 'Sitzplatz' }),
    fields: ['ticket_type'],
  },
  {
    name: 'POST /api/guests',
    method: 'POST',
    url: () => '/api/guests',
    token: () => fan.token,
    valid: () => ({ guest_name: 'Greta', event_id: eventId }),
    fields: ['guest_name'],
  },
  {
    name: 'PUT /api/guests/{id}',
    method: 'PUT',
    url: () => `/api/guests/${guestId}`,
    token: () => fan.token,
    valid: () => ({ guest_name: 'Gustav G.' }),
    fields: ['guest_name'],
  },
  {
    name: 'POST /api/comments/event/{eventId}',
    method: 'POST',
    url: () => `/api/comments/event/${eventId}`,
    token: () => fan.token,
    valid: () => ({ comment: 'Auf geht’s' }),
    fields: ['comment'],
  },
  {
    name: 'PUT /api/comments/{id}',
    method: 'PUT',
    url: () => `/api/comments/${commentId}`,
    token: () => fan.token,
    valid: () => ({ comment: 'Hallo zusammen' }),
    fields: ['comment'],
  },
  {
    name: 'PUT /api/config',
    method: 'PUT',
    url: () => '/api/config',
    token: () => admin,
    valid: async () => {
      const { config } = (await t.call('GET', '/api/config')).body;
      return {
        team_id: config.team_id,
        team_name: config.team_name,
        site_title: config.site_title,
        theme_color: config.theme_color,
      };
    },
    fields: ['team_name', 'site_title'],
  },
];

const CASES = ROUTES.flatMap((route) =>
  route.fields.flatMap((field) =>
    CHARACTERS.map(([label, char]) => [`${route.name} ${field} with ${label}`, route, field, char] as const),
  ),
);

describe('REST: every free-text field refuses control and direction characters', () => {
  it.for(CASES)('%s', async ([, route, field, char]) => {
    const valid = await route.valid();
    const text = typeof valid[field] === 'string' ? (valid[field] as string) : 'Text';
    const before = await snapshot();
    const res = await t.call(route.method, route.url(), {
      token: route.token(),
      body: { ...valid, [field]: `${text.slice(0, 2)}${char}${text.slice(2)}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toEqual({
      success: false,
      code: 'textHasControlCharacters',
      message: MESSAGES.textHasControlCharacters,
    });
    expect(await snapshot()).toEqual(before);
  });

  it.for(ROUTES)('$name takes the same body without the character', async (route) => {
    const res = await t.call(route.method, route.url(), { token: route.token(), body: await route.valid() });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });

  it('keeps line breaks and tabs of a description and a comment, with \\r\\n stored as \\n', async () => {
    const event = await t.call('PUT', `/api/events/${eventId}`, {
      token: fan.token,
      body: { description: 'Treffpunkt:\r\n\tTor 3' },
    });
    expect(event.body.event.description).toBe('Treffpunkt:\n\tTor 3');
    const comment = await t.call('PUT', `/api/comments/${commentId}`, { token: fan.token, body: { comment: 'Eins\r\nZwei' } });
    expect(comment.body.comment.comment).toBe('Eins\nZwei');
  });

  it('refuses a line break in a single-line text', async () => {
    const res = await t.call('PUT', `/api/events/${eventId}`, { token: fan.token, body: { title: 'Zwei\nZeilen (H)' } });
    expect(res.body.code).toBe('textHasControlCharacters');
  });
});

describe('sync push: guest names and comments refuse them with a notice', () => {
  const versionOf = (collection: SyncCollectionName) => SYNC_SCHEMAS[collection].version;
  const push = (collection: SyncCollectionName, rows: unknown) =>
    t.call('POST', `/api/sync/${collection}/${versionOf(collection)}/push`, { token: fan.token, body: rows });
  const pullOne = async (collection: SyncCollectionName, id: string) => {
    const res = await t.call('POST', `/api/sync/${collection}/${versionOf(collection)}/pull`, {
      token: fan.token,
      body: { checkpoint: null, limit: 1000 },
    });
    return (res.body.documents as { id: string }[]).find((doc) => doc.id === id) as Record<string, unknown>;
  };
  // A repeat of an unread notice folds into it (docs/architecture.md, Sync: Refusals): each test
  // starts with the earlier ones read, so its refusal must leave a notice of its own.
  const markRefusalsRead = () =>
    t.runtime.deps.store.db.updateTable('notices').set({ is_read: 1 }).where('user_id', '=', fan.id).execute();
  const unreadRefusals = async () =>
    (
      await t.runtime.deps.store.db
        .selectFrom('notices')
        .select(['code', 'action'])
        .where('user_id', '=', fan.id)
        .where('code', '=', 'textHasControlCharacters')
        .where('is_read', '=', 0)
        .execute()
    ).map((row) => row.action);

  it.for(CHARACTERS)('a new guest named with %s is not added', async ([, char]) => {
    await markRefusalsRead();
    const guest = {
      ...newGuestAttendeeDoc(
        {
          id: newId(),
          event_id: eventId,
          guest_name: `Gr${char}eta`,
          brought_by: fan.id,
          created_at: new Date().toISOString(),
        },
        'Test match (A)',
      ),
      _deleted: false,
    };
    const res = await push('attendees', [{ assumedMasterState: null, newDocumentState: guest }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: guest.id, _deleted: true })]);
    expect(await t.runtime.deps.store.db.selectFrom('attendees').select('id').where('id', '=', guest.id).execute()).toEqual([]);
    expect(await unreadRefusals()).toEqual(['guest.add']);
  });

  it.for(CHARACTERS)('a guest renamed with %s keeps the name', async ([, char]) => {
    await markRefusalsRead();
    const master = await pullOne('attendees', guestId);
    const res = await push('attendees', [
      { assumedMasterState: master, newDocumentState: { ...master, guest_name: `Gus${char}tav` } },
    ]);
    expect(res.body).toEqual([expect.objectContaining({ id: guestId, guest_name: master.guest_name })]);
    expect(await pullOne('attendees', guestId)).toEqual(master);
    expect(await unreadRefusals()).toEqual(['guest.change']);
  });

  it.for(CHARACTERS)('a new comment with %s is not written', async ([, char]) => {
    await markRefusalsRead();
    const now = new Date().toISOString();
    const doc = {
      id: newId(),
      event_id: eventId,
      user_id: fan.id,
      comment: `Offline ${char} geschrieben`,
      requires_answer: false,
      is_resolved: false,
      created_at: now,
      updated_at: now,
      seq: 0,
      _deleted: false,
    };
    const res = await push('comments', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(res.body).toEqual([expect.objectContaining({ id: doc.id, _deleted: true })]);
    expect(await t.runtime.deps.store.db.selectFrom('comments').select('id').where('id', '=', doc.id).execute()).toEqual([]);
    expect(await unreadRefusals()).toEqual(['comment.add']);
  });

  it.for(CHARACTERS)('a comment edited with %s keeps its text', async ([, char]) => {
    await markRefusalsRead();
    const master = await pullOne('comments', commentId);
    const res = await push('comments', [{ assumedMasterState: master, newDocumentState: { ...master, comment: `Neu${char}` } }]);
    expect(res.body).toEqual([expect.objectContaining({ id: commentId, comment: master.comment })]);
    expect(await pullOne('comments', commentId)).toEqual(master);
    expect(await unreadRefusals()).toEqual(['comment.change']);
  });
});
