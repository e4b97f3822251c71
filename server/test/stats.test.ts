import { MESSAGES, statsAnswer, todayIn } from '@fankurve/shared';
import { seasonYearOf } from '@fankurve/shared/rules/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '../src/domain/events/events.js';
import { seasonStats } from '../src/domain/attendance/stats.js';
import { createEventVia, createTestApp, register, type TestApp } from './helpers.js';

/*
 * GET /api/stats (docs/product.md, Statistics): a fixture season 2024/25 answered through the API
 * (each event created ahead, answered, then moved into the past), with events of the seasons around
 * it, a deleted and an archived event, a removed answer, a guest, a pending and a deleted account.
 */

let t: TestApp;
let admin: string;
let adminId: string;
type Member = { id: string; token: string; username: string };
const m: Record<string, Member> = {};
const ids: Record<string, string> = {};

interface Answer {
  status?: 'going' | 'maybe';
  has_ticket?: boolean;
  /** Bought (and paid) for them by an admin at 20 €. */
  bought?: boolean;
}

/** An event the members answered while it was upcoming (through the API), then moved to `date` (`YYYY-MM-DD`). */
async function event(title: string, date: string, answers: Record<string, Answer>): Promise<string> {
  const id = (await createEventVia(t, admin, { title, date: '2030-03-01 15:30' })).id;
  for (const [name, answer] of Object.entries(answers)) {
    const member = m[name]!;
    const res = await t.call('POST', `/api/attendance/${id}`, {
      token: member.token,
      body: { status: answer.status ?? 'going', has_ticket: answer.has_ticket ?? false, needs_ticket: !answer.has_ticket },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (answer.bought) {
      const bought = await t.call('PUT', `/api/tickets/event/${id}/user/${member.id}/status`, {
        token: admin,
        body: { bought: true, paid: true, price: 20 },
      });
      expect(bought.status).toBe(200);
    }
  }
  await moveTo(id, date);
  return id;
}

const moveTo = (id: string, date: string) =>
  t.db
    .updateTable('events')
    .set({ date: `${date} 15:30:00` })
    .where('id', '=', id)
    .execute();

const stats = (season: string, token = m.anna!.token) =>
  t.callTyped(statsAnswer, 'GET', `/api/stats?season=${season}`, { token });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
  for (const name of ['anna', 'bert', 'carl', 'dora', 'emil']) {
    m[name] = { ...(await t.member(`stat-${name}`)), username: `stat-${name}` };
  }

  // Season 2024/25, from its first day to its last.
  ids.opener = await event('Saisonauftakt (H)', '2024-07-01', { dora: {} });
  ids.bochum = await event('Bochum – Union (A)', '2024-09-14', {
    anna: { has_ticket: true },
    bert: { bought: true },
    carl: { status: 'maybe', has_ticket: true },
    dora: {},
  });
  // A guest of anna's, added while the match was ahead: counted for the event, not for anna.
  await moveTo(ids.bochum, '2030-03-01');
  const guest = await t.call('POST', '/api/guests', {
    token: m.anna!.token,
    body: { event_id: ids.bochum, guest_name: 'Onkel Horst', status: 'going', has_ticket: true, needs_ticket: false },
  });
  expect(guest.status).toBe(201);
  await moveTo(ids.bochum, '2024-09-14');
  ids.hertha = await event('Union – Hertha (H)', '2024-10-05', { anna: {}, bert: {}, carl: {}, emil: {} });
  ids.party = await event('Weihnachtsfeier', '2024-12-20', { anna: {}, dora: { status: 'maybe' } });
  // bert answered and then dropped out: his removed row counts nowhere.
  ids.koeln = await event('Köln – Union (A)', '2025-03-01', { anna: { has_ticket: true }, carl: { has_ticket: true }, bert: {} });
  await moveTo(ids.koeln, '2030-03-01');
  expect((await t.call('DELETE', `/api/attendance/${ids.koeln}`, { token: m.bert!.token })).status).toBe(200);
  await moveTo(ids.koeln, '2025-03-01');
  ids.last = await event('Saisonfinale (H)', '2025-06-30', { carl: { status: 'maybe' } });

  // Deleted (no bought ticket) and archived (deleted with a bought one): in no figure.
  ids.deleted = await event('Mainz – Union (A)', '2025-02-01', { anna: { has_ticket: true } });
  ids.archived = await event('Freiburg – Union (A)', '2025-04-01', { bert: { bought: true } });
  for (const id of [ids.deleted, ids.archived]) {
    expect((await t.call('DELETE', `/api/events/${id}`, { token: admin })).status).toBe(200);
  }
  expect(
    (await t.db.selectFrom('events').select('archived').where('id', '=', ids.archived).executeTakeFirstOrThrow()).archived,
  ).toBe(1);

  // The seasons around it.
  ids.before = await event('Season 23/24 (A)', '2024-06-30', { anna: { has_ticket: true }, dora: { has_ticket: true } });
  ids.after = await event('Season 25/26 (A)', '2025-07-01', { anna: { has_ticket: true }, dora: { has_ticket: true } });

  // emil's account is deleted; paula's registration waits.
  expect((await t.call('DELETE', `/api/auth/users/${m.emil!.id}`, { token: admin })).status).toBe(200);
  expect((await register(t, 'stat-paula', { password: 'paula-pass' })).status).toBe(201);
});
afterAll(() => t.close());

describe('GET /api/stats?season=2024', () => {
  it('answers every active member with home, away and other past events and tickets, in order', async () => {
    const answer = await stats('2024');
    expect(answer.members).toEqual([
      { user_id: m.anna!.id, username: 'stat-anna', home: 1, away: 2, other: 1, tickets: 2, travelled: 0 },
      // Tied at one away and one home match: by name.
      { user_id: m.bert!.id, username: 'stat-bert', home: 1, away: 1, other: 0, tickets: 1, travelled: 0 },
      // A maybe with a ticket is a ticket, not a match he went to; the last day's maybe neither.
      { user_id: m.carl!.id, username: 'stat-carl', home: 1, away: 1, other: 0, tickets: 2, travelled: 0 },
      // The season's first day counts; the party's maybe not; the neighbour seasons' tickets not.
      { user_id: m.dora!.id, username: 'stat-dora', home: 1, away: 1, other: 0, tickets: 0, travelled: 0 },
      { user_id: adminId, username: 'admin', home: 0, away: 0, other: 0, tickets: 0, travelled: 0 },
    ]);
    // Exactly these fields (the answer schema is strict too).
    expect(Object.keys(answer).sort()).toEqual(['events', 'members', 'success']);
  });

  it('answers every live event of the season by date with its going and maybe rows (guests included)', async () => {
    const answer = await stats('2024');
    expect(answer.events).toEqual([
      { event_id: ids.opener, title: 'Saisonauftakt (H)', date: '2024-07-01 15:30:00', going: 1, maybe: 0 },
      { event_id: ids.bochum, title: 'Bochum – Union (A)', date: '2024-09-14 15:30:00', going: 4, maybe: 1 },
      // emil's row went with his deleted account, as from the event's own count.
      { event_id: ids.hertha, title: 'Union – Hertha (H)', date: '2024-10-05 15:30:00', going: 3, maybe: 0 },
      { event_id: ids.party, title: 'Weihnachtsfeier', date: '2024-12-20 15:30:00', going: 1, maybe: 1 },
      { event_id: ids.koeln, title: 'Köln – Union (A)', date: '2025-03-01 15:30:00', going: 2, maybe: 0 },
      { event_id: ids.last, title: 'Saisonfinale (H)', date: '2025-06-30 15:30:00', going: 0, maybe: 1 },
    ]);
    // The same counts as the event documents' going_count and maybe_count.
    const listed = new Map((await listEvents(t.db)).map((e) => [e.id, e]));
    for (const row of answer.events) {
      expect([row.going, row.maybe]).toEqual([listed.get(row.event_id)!.going_count, listed.get(row.event_id)!.maybe_count]);
    }
  });

  it('has only the season asked for: the seasons around it have their own events', async () => {
    expect((await stats('2023')).events.map((e) => e.event_id)).toEqual([ids.before]);
    const next = await stats('2025');
    expect(next.events.map((e) => e.event_id)).toContain(ids.after);
    expect(next.events.map((e) => e.event_id)).not.toContain(ids.last);
    expect(next.members.find((row) => row.user_id === m.dora!.id)).toMatchObject({ away: 1, tickets: 1 });
    const empty = await stats('2000');
    expect(empty.events).toEqual([]);
    expect(empty.members.every((row) => row.home + row.away + row.other + row.tickets === 0)).toBe(true);
  });

  it("counts the past events a member was ticked on board of a club bus (docs/product.md, Bus: 'mitgefahren')", async () => {
    const bus = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: ids.bochum, name: 'Bus', departure_location: 'Köpenick', is_free: true },
    });
    expect(bus.status).toBe(201);
    const row = await t.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', ids.bochum!)
      .where('user_id', '=', m.dora!.id)
      .executeTakeFirstOrThrow();
    expect(
      (await t.call('PUT', `/api/attendees/${row.id}`, { token: admin, body: { transfer_status: 'reserved' } })).status,
    ).toBe(200);
    const ticked = await t.call('PUT', `/api/transports/${bus.body.transport.id}/boarding/${row.id}`, {
      token: admin,
      body: { on_board: true },
    });
    expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
    const answer = await stats('2024');
    expect(answer.members.find((member) => member.user_id === m.dora!.id)!.travelled).toBe(1);
    expect(answer.members.filter((member) => member.travelled > 0)).toHaveLength(1);
    // Taken back: nobody travelled.
    await t.call('PUT', `/api/transports/${bus.body.transport.id}/boarding/${row.id}`, {
      token: admin,
      body: { on_board: false },
    });
    expect((await stats('2024')).members.every((member) => member.travelled === 0)).toBe(true);
  });

  it('counts only the past: an event of today or later is not over yet, its tickets count already', async () => {
    const on = (today: string) => seasonStats(t.db, { id: adminId, username: 'admin', scope: 'admin' }, '2024', today);
    const annaOn = async (today: string) => (await on(today)).members.find((row) => row.user_id === m.anna!.id);
    expect(await annaOn('2024-09-14')).toMatchObject({ away: 0, home: 0, other: 0, tickets: 2 });
    expect(await annaOn('2024-09-15')).toMatchObject({ away: 1, home: 0, other: 0, tickets: 2 });
    expect(await annaOn('2025-03-02')).toMatchObject({ away: 2, home: 1, other: 1, tickets: 2 });
    // The events and their counts do not depend on the day.
    expect((await on('2024-07-01')).events).toEqual((await on('2026-01-01')).events);
  });
});

describe('the season asked for', () => {
  it('is the current season of the club when none is given', async () => {
    const year = seasonYearOf(todayIn('Europe/Berlin'));
    const id = (await createEventVia(t, admin, { title: 'Heute im Verein', date: `${year + 1}-06-30 18:00` })).id;
    const answer = await t.callTyped(statsAnswer, 'GET', '/api/stats', { token: m.bert!.token });
    expect(answer.events.map((e) => e.event_id)).toContain(id);
    expect(answer).toEqual(await stats(String(year), m.bert!.token));
  });

  it.each(['24', '02024', '2024/25', 'abcd', '1999', '2101', '', ' 2024', '2024.0'])(
    'refuses %j with 400, nothing else',
    async (season) => {
      const res = await t.call('GET', `/api/stats?season=${encodeURIComponent(season)}`, { token: m.anna!.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code: 'statsSeasonInvalid', message: MESSAGES.statsSeasonInvalid });
    },
  );

  it('refuses a season given twice', async () => {
    const res = await t.call('GET', '/api/stats?season=2024&season=2025', { token: m.anna!.token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('statsSeasonInvalid');
  });

  it('takes the first and last years', async () => {
    expect((await stats('2000')).events).toEqual([]);
    expect((await stats('2100')).events).toEqual([]);
  });

  it('is documented as the query parameter `season`', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).body;
    const parameters = doc.paths['/api/stats'].get.parameters as { name: string; in: string; required?: boolean }[];
    expect(parameters).toContainEqual(expect.objectContaining({ name: 'season', in: 'query' }));
    expect(parameters.find((p) => p.name === 'season')?.required).not.toBe(true);
  });

  it('the domain checks the season itself too', async () => {
    await expect(
      seasonStats(t.db, { id: adminId, username: 'admin', scope: 'admin' }, '1999', '2025-01-01'),
    ).rejects.toMatchObject({
      code: 'statsSeasonInvalid',
      status: 400,
    });
  });
});

describe('who reads it', () => {
  it('anonymous callers get 401, also with a bad season', async () => {
    for (const url of ['/api/stats', '/api/stats?season=2024', '/api/stats?season=x']) {
      const res = await t.call('GET', url);
      expect(res.status, url).toBe(401);
      expect(res.body.code).toBe('notSignedIn');
    }
  });

  it('a member, another member and an admin read the same figures of everyone', async () => {
    const mine = await stats('2024', m.anna!.token);
    expect(await stats('2024', m.dora!.token)).toEqual(mine);
    expect(await stats('2024', admin)).toEqual(mine);
  });

  it('a pending account cannot sign in to read it and is not listed; a deleted account neither', async () => {
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'stat-paula', password: 'paula-pass' } });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('accountPending');
    // emil's old token is dead with his account.
    expect((await t.call('GET', '/api/stats', { token: m.emil!.token })).status).toBe(401);
    const names = (await stats('2024')).members.map((row) => row.username);
    expect(names).not.toContain('stat-paula');
    expect(names).not.toContain('stat-emil');
  });
});
