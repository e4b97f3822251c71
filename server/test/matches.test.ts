import { freeTextProblem, MESSAGES } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { write } from '../src/db/store.js';
import type { DomainEvent } from '../src/domain/domainEvents.js';
import { AUTO_IMPORT_LAST_DAY, AUTO_IMPORT_SETTING, DailyMatchImport } from '../src/matches/dailyImport.js';
import { mapMatch } from '../src/matches/mapping.js';
import { seasonStartYear, seasonWindow } from '../src/matches/season.js';
import { FeedError, feedMatchSchema, MAX_FEED_REDIRECTS, OpenLigaDb, type FeedMatch } from '../src/matches/openLigaDb.js';
import { recorded, RECORDED_TEAM_ID, startFixtureServer, type FixtureServer } from './fixture-server.js';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * The fixture import (docs/architecture.md, "Fixture import") against a real local HTTP server that
 * answers recorded OpenLigaDB answers (fixture-server.ts). The clock stands in the recorded season:
 * 15 October 2025.
 */

const TODAY = new Date('2025-10-15T10:00:00Z');
const SEASON = () => recorded<FeedMatch[]>('matches-team-80-2025');
const MATCHES_PATH = `/getmatchesbyteamid/${RECORDED_TEAM_ID}/`;

interface RestEvent {
  id: string;
  title: string;
  date: string;
  location: string;
  stadium_id: string | null;
  stadium_name: string | null;
  ticket_price: number;
  is_updated: boolean;
  created_by: string | null;
}

/** A copy of the recorded season with one match changed. */
function withMatch(matches: FeedMatch[], id: number, change: (match: FeedMatch) => FeedMatch): FeedMatch[] {
  expect(matches.some((m) => m.matchID === id)).toBe(true);
  return matches.map((match) => (match.matchID === id ? change(structuredClone(match)) : match));
}

const anyDb = (t: TestApp) => t.runtime.deps.store.db as unknown as Kysely<any>;

/** Everything an import may write: a failed one must leave all of it as it was. */
async function databaseState(t: TestApp) {
  const db = anyDb(t);
  return {
    counters: await db.selectFrom('counters').selectAll().execute(),
    events: await db.selectFrom('events').selectAll().orderBy('id').execute(),
    stadiums: await db.selectFrom('stadiums').selectAll().orderBy('id').execute(),
    imports: await db.selectFrom('match_imports').selectAll().orderBy('match_id').execute(),
    settings: await db.selectFrom('settings').selectAll().orderBy('key').execute(),
  };
}

async function setTeam(t: TestApp, teamId: string): Promise<void> {
  await write(t.runtime.deps.store, (w) =>
    w.db
      .insertInto('settings')
      .values({ key: 'team_id', value: teamId })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: teamId }))
      .execute(),
  );
}

describe('fixture import from OpenLigaDB (POST /api/events/sync-matches)', () => {
  let t: TestApp;
  let feed: FixtureServer;
  let admin: string;
  let member: { id: string; token: string };
  const recordedEvents: DomainEvent[] = [];
  /** The season as the fixture server answers it now (each test changes it further). */
  let current = SEASON();

  const sync = (token: string | null = admin) => t.call('POST', '/api/events/sync-matches', { token });
  const events = async (): Promise<RestEvent[]> => (await t.call('GET', '/api/events', { token: admin })).body.events;
  const eventTitled = async (title: string) => {
    const found = (await events()).filter((event) => event.title === title);
    expect(found, title).toHaveLength(1);
    return found[0]!;
  };
  const serve = (matches: unknown) => feed.answer(MATCHES_PATH, { json: matches });

  beforeAll(async () => {
    vi.setSystemTime(TODAY);
    feed = await startFixtureServer();
    t = await createTestApp({ FOOTBALL_DATA_URL: feed.url, CLUB_TIME_ZONE: 'Europe/Berlin' });
    admin = await t.adminToken();
    member = await t.member('import-fan');
    await setTeam(t, String(RECORDED_TEAM_ID));
    t.runtime.deps.store.commits.subscribe((commit) => void recordedEvents.push(...commit.events));
  });
  afterAll(async () => {
    await t.close();
    await feed.close();
    vi.useRealTimers();
  });

  it('first import: one event per match of the season, titled, dated in the club time zone, with place and stadium', async () => {
    // A stadium the admin entered already, spelled another way: it is found by name, not created again.
    const own = await t.call('POST', '/api/stadiums', {
      token: admin,
      body: { team_name: 'Union', stadium_name: 'stadion an der alten  FÖRSTEREI', city: 'Berlin' },
    });
    expect(own.status).toBe(201);
    serve(current);
    recordedEvents.length = 0;
    const res = await sync();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: MESSAGES.matchesSynced,
      season: '2025/26',
      teamId: 80,
      created: 6,
      updated: 0,
      skipped: 0,
      errors: [],
      vanished: [],
    });
    // One request for the whole season (1 July 2025 to 30 June 2026 around 15 October): every competition.
    expect(feed.requests).toEqual(['/getmatchesbyteamid/80/16/37']);

    const list = await events();
    const shape = (e: RestEvent) => [e.title, e.date, e.location, e.stadium_name];
    expect(list.map(shape)).toEqual([
      ['FC Gütersloh (A)', '2025-08-16 15:30:00', 'Gütersloh', 'Heidewaldstadion'],
      ['VfB Stuttgart (H)', '2025-08-23 15:30:00', 'Berlin', 'stadion an der alten  FÖRSTEREI'],
      ['Borussia Dortmund (A)', '2025-08-30 18:30:00', 'Dortmund', 'Signal Iduna Park'],
      // No location in the feed: the home team's name is the place, no stadium.
      ['1. FSV Mainz 05 (H)', '2025-10-25 15:30:00', '1. FC Union Berlin', null],
      // 14:30 UTC is 15:30 in Berlin after the clocks went back.
      ['FC Bayern München (A)', '2025-11-01 15:30:00', 'München', 'Allianz Arena'],
      // Kick-off not fixed yet: the day at 00:00.
      ['Borussia Dortmund (H)', '2026-04-25 00:00:00', 'Berlin', 'stadion an der alten  FÖRSTEREI'],
    ]);
    for (const event of list) {
      expect(event).toMatchObject({ ticket_price: 0, is_updated: false, created_by: null });
    }
    expect(list.find((e) => e.title === 'VfB Stuttgart (H)')!.stadium_id).toBe(own.body.stadium.id);
    const stadiums = (await t.call('GET', '/api/stadiums', { token: admin })).body.stadiums;
    expect(
      stadiums.map((s: { team_name: string; stadium_name: string; city: string }) => [s.team_name, s.stadium_name, s.city]),
    ).toEqual([
      ['Borussia Dortmund', 'Signal Iduna Park', 'Dortmund'],
      ['FC Bayern München', 'Allianz Arena', 'München'],
      ['FC Gütersloh', 'Heidewaldstadion', 'Gütersloh'],
      ['Union', 'stadion an der alten  FÖRSTEREI', 'Berlin'],
    ]);
    // Keyed by the match id; written as the system (the push says "6 new matches", to the admin too).
    const keys = await anyDb(t).selectFrom('events').select('external_match_id').orderBy('external_match_id').execute();
    expect(keys.map((row) => row.external_match_id)).toEqual(['77712', '77721', '77795', '77804', '77991', '77999']);
    expect(recordedEvents.filter((e) => e.type === 'event.created')).toHaveLength(6);
    expect(recordedEvents.every((e) => e.actorId === 'system')).toBe(true);
  });

  it('a re-import of an unchanged season creates nothing twice and writes nothing', async () => {
    const before = await databaseState(t);
    recordedEvents.length = 0;
    const res = await sync();
    expect(res.body).toMatchObject({ created: 0, updated: 0, skipped: 6, errors: [], vanished: [] });
    expect(await databaseState(t)).toEqual(before);
    expect(recordedEvents).toEqual([]);
  });

  it('a moved kick-off updates the event and marks it UPDATED, with the domain event of an admin edit', async () => {
    const bayern = await eventTitled('FC Bayern München (A)');
    expect(
      (await t.call('POST', `/api/attendance/${bayern.id}`, { token: member.token, body: { status: 'going' } })).status,
    ).toBe(200);
    current = withMatch(current, 77804, (m) => ({
      ...m,
      matchDateTime: '2025-11-02T17:30:00',
      matchDateTimeUTC: '2025-11-02T16:30:00Z',
      lastUpdateDateTime: '2025-10-14T16:02:11.5',
    }));
    serve(current);
    recordedEvents.length = 0;
    const res = await sync();
    expect(res.body).toMatchObject({ created: 0, updated: 1, skipped: 5, errors: [] });
    const moved = await eventTitled('FC Bayern München (A)');
    expect(moved).toMatchObject({ id: bayern.id, date: '2025-11-02 17:30:00', is_updated: true, location: 'München' });
    // The same event an admin's edit records: it raises the 'match changed' push for the members attending.
    expect(recordedEvents).toEqual([
      { type: 'event.changed', eventId: bayern.id, fields: ['date'], markedUpdated: true, actorId: 'system' },
    ]);
  });

  it('a placeholder kick-off is updated when the feed fixes the time', async () => {
    const before = await eventTitled('Borussia Dortmund (H)');
    current = withMatch(current, 77999, (m) => ({
      ...m,
      matchDateTime: '2026-04-25T15:30:00',
      matchDateTimeUTC: '2026-04-25T13:30:00Z',
      lastUpdateDateTime: '2025-10-15T08:00:41.11',
    }));
    serve(current);
    const res = await sync();
    expect(res.body).toMatchObject({ created: 0, updated: 1, skipped: 5 });
    // Nobody answered yet, so (as for an admin's edit) no UPDATED badge.
    expect(await eventTitled('Borussia Dortmund (H)')).toMatchObject({
      id: before.id,
      date: '2026-04-25 15:30:00',
      is_updated: false,
    });
  });

  it("keeps an admin's own edit of an imported event while the feed does not change that field", async () => {
    const mainz = await eventTitled('1. FSV Mainz 05 (H)');
    expect((await t.call('PUT', `/api/events/${mainz.id}`, { token: admin, body: { location: 'Köpenick' } })).status).toBe(200);
    const res = await sync();
    expect(res.body).toMatchObject({ created: 0, updated: 0, skipped: 6 });
    expect((await eventTitled('1. FSV Mainz 05 (H)')).location).toBe('Köpenick');
  });

  it('a new cup match becomes an event; its stadium is found by name', async () => {
    const stadiumsBefore = (await t.call('GET', '/api/stadiums', { token: admin })).body.stadiums.length;
    current = [...current, recorded<FeedMatch>('match-dfb-2025-round-2')];
    serve(current);
    const res = await sync();
    expect(res.body).toMatchObject({ created: 1, updated: 0, skipped: 6, errors: [], vanished: [] });
    const cup = await eventTitled('Hertha BSC (H)');
    expect(cup).toMatchObject({
      date: '2025-10-28 20:45:00',
      location: 'Berlin',
      stadium_name: 'stadion an der alten  FÖRSTEREI',
    });
    expect((await t.call('GET', '/api/stadiums', { token: admin })).body.stadiums).toHaveLength(stadiumsBefore);
  });

  it('a match that disappeared from the feed is reported, not deleted', async () => {
    current = current.filter((m) => m.matchID !== 77795);
    serve(current);
    const mainz = await eventTitled('1. FSV Mainz 05 (H)');
    const res = await sync();
    expect(res.body).toMatchObject({ created: 0, updated: 0, skipped: 6, errors: [] });
    expect(res.body.vanished).toEqual([
      { matchId: 77795, eventId: mainz.id, title: '1. FSV Mainz 05 (H)', date: '2025-10-25 15:30:00' },
    ]);
    expect((await events()).some((e) => e.id === mainz.id)).toBe(true);
  });

  it('an imported event an admin deleted stays deleted', async () => {
    const stuttgart = await eventTitled('VfB Stuttgart (H)');
    expect((await t.call('DELETE', `/api/events/${stuttgart.id}`, { token: admin })).status).toBe(200);
    serve(current);
    const res = await sync();
    expect(res.body).toMatchObject({ created: 0, updated: 0, skipped: 6 });
    expect((await events()).some((e) => e.title === 'VfB Stuttgart (H)')).toBe(false);
  });

  it('reports a match of another shape and imports the rest', async () => {
    const broken = { ...recorded<FeedMatch>('match-dfb-2025-round-2'), matchID: 78103, team2: { teamId: 54, teamName: null } };
    const fresh = {
      ...recorded<FeedMatch>('match-dfb-2025-round-2'),
      matchID: 78104,
      team2: { teamId: 65, teamName: '1. FC Köln', shortName: 'Köln', teamIconUrl: null, teamGroupName: null },
    };
    serve([...current, broken, fresh]);
    const res = await sync();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1, updated: 0, skipped: 6 });
    expect(res.body.errors).toEqual([
      {
        code: 'matchDataInvalid',
        message: expect.stringMatching(/^A match of the feed cannot be imported: match 78103, team2\.teamName/),
        matchId: 78103,
      },
    ]);
    expect((await events()).some((e) => e.title === '1. FC Köln (H)')).toBe(true);
  });

  it('cleans and cuts what a hostile feed says, like typed free text', async () => {
    const template = () => recorded<FeedMatch>('match-dfb-2025-round-2');
    const opponent = (teamName: string) => ({ teamId: 99, teamName, shortName: null, teamIconUrl: null, teamGroupName: null });
    const formula = {
      ...template(),
      matchID: 78110,
      team2: opponent('=HYPERLINK("http://evil.example","Tickets")\u0007\u001B[31m\u202E'),
      location: { locationID: 1, locationCity: '\u0000\u0000\u0000', locationStadium: null },
    };
    const long = {
      ...template(),
      matchID: 78111,
      team2: opponent(`\u2066${'Ü'.repeat(5000)}`),
      location: { locationID: 2, locationCity: 'Köpenick\u0000', locationStadium: `Arena\u202E\r\n${'S'.repeat(5000)}` },
    };
    serve([...current, formula, long]);
    const res = await sync();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0, errors: [] });

    const db = anyDb(t);
    const stored = await db
      .selectFrom('events')
      .select(['title', 'location', 'stadium_id'])
      .where('external_match_id', 'in', ['78110', '78111'])
      .orderBy('external_match_id')
      .execute();
    // A formula-looking title is legal text (the CSV export guards against it); its controls are gone.
    expect(stored[0]).toEqual({
      title: '=HYPERLINK("http://evil.example","Tickets")[31m (H)',
      location: '1. FC Union Berlin',
      stadium_id: null,
    });
    // A name of 5,000 characters is cut so that the title, "(H)" included, has the typed limit of 200.
    expect(stored[1]!.title).toBe(`${'Ü'.repeat(196)} (H)`);
    expect(stored[1]!.location).toBe('Köpenick');
    const stadium = await db.selectFrom('stadiums').selectAll().where('id', '=', stored[1]!.stadium_id).executeTakeFirstOrThrow();
    expect(stadium).toMatchObject({
      team_name: '1. FC Union Berlin',
      stadium_name: `Arena ${'S'.repeat(194)}`,
      city: 'Köpenick',
    });

    // Nothing the import wrote has a control or direction character, and nothing is longer than typed text may be.
    const texts = [
      ...(await db.selectFrom('events').select(['title', 'location']).execute()).flatMap((row) => [row.title, row.location]),
      ...(await db.selectFrom('stadiums').select(['team_name', 'stadium_name', 'city']).execute()).flatMap((row) => [
        row.team_name,
        row.stadium_name,
        row.city,
      ]),
      ...(await db.selectFrom('match_imports').select(['title', 'location', 'stadium_name']).execute()).flatMap((row) => [
        row.title,
        row.location,
        row.stadium_name ?? '',
      ]),
    ];
    for (const text of texts) {
      expect(freeTextProblem(text), JSON.stringify(text)).toBeNull();
      expect(text.length).toBeLessThanOrEqual(200);
    }
    // A second import of the same feed changes nothing: the cleaned texts are what was imported.
    const again = await sync();
    expect(again.body).toMatchObject({ created: 0, updated: 0, errors: [] });
    current = [...current, formula, long];
  });

  describe('service failures write nothing', () => {
    const failures: [string, () => void, string, RegExp][] = [
      [
        'the service is down (503)',
        () => feed.answer(MATCHES_PATH, { status: 503, text: 'Service Unavailable' }),
        'matchServiceError',
        /HTTP 503/,
      ],
      [
        'the service answers HTML',
        () => feed.answer(MATCHES_PATH, { text: '<html><body>Wartung</body></html>', contentType: 'text/html' }),
        'matchServiceBadAnswer',
        /not JSON/,
      ],
      [
        'the service answers cut-off JSON',
        () => feed.answer(MATCHES_PATH, { text: '[{"matchID": 77991, "team1": {', contentType: 'application/json' }),
        'matchServiceBadAnswer',
        /not JSON/,
      ],
      [
        'the service answers an object',
        () => feed.answer(MATCHES_PATH, { json: { Message: 'An error has occurred.' } }),
        'matchServiceBadAnswer',
        /expected a list/,
      ],
      ['the connection drops', () => feed.answer(MATCHES_PATH, { drop: true }), 'matchServiceUnreachable', /.+/],
      [
        'the service knows no such team (empty list)',
        () => feed.answer(MATCHES_PATH, { json: [] }),
        'matchTeamUnknown',
        /team 80/,
      ],
      [
        'the service knows no such team (404)',
        () => feed.answer(MATCHES_PATH, { status: 404, text: '' }),
        'matchTeamUnknown',
        /HTTP 404/,
      ],
      [
        'the feed has no match of the team',
        () => serve(SEASON().map((m) => ({ ...m, team1: { ...m.team1, teamId: 1 }, team2: { ...m.team2, teamId: 2 } }))),
        'matchTeamUnknown',
        /team 80/,
      ],
    ];

    it.for(failures)('%s', async ([, arrange, code, detail]) => {
      arrange();
      const before = await databaseState(t);
      const res = await sync();
      expect(res.status, JSON.stringify(res.body)).toBe(502);
      expect(res.body).toMatchObject({ success: false, code, created: 0, updated: 0, skipped: 0 });
      expect(res.body.message.startsWith(`${MESSAGES[code as keyof typeof MESSAGES]}: `)).toBe(true);
      expect(res.body.message).toMatch(detail);
      expect(res.body.errors).toEqual([{ code, message: res.body.message, matchId: null }]);
      expect(await databaseState(t)).toEqual(before);
    });

    it('the service cannot be reached', async () => {
      const config = t.runtime.deps.config;
      const url = config.footballDataUrl;
      config.footballDataUrl = 'http://127.0.0.1:9';
      try {
        const before = await databaseState(t);
        const res = await sync();
        expect(res.status).toBe(502);
        expect(res.body).toMatchObject({ success: false, code: 'matchServiceUnreachable', created: 0, updated: 0, skipped: 0 });
        expect(await databaseState(t)).toEqual(before);
      } finally {
        config.footballDataUrl = url;
      }
    });

    it('a redirect to another host is not followed', async () => {
      const elsewhere = await startFixtureServer();
      try {
        elsewhere.answer(MATCHES_PATH, { json: SEASON() });
        const port = new URL(elsewhere.url).port;
        for (const target of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
          feed.answer(MATCHES_PATH, (pathname) => ({ redirect: `${target}${pathname}` }));
          const before = await databaseState(t);
          const res = await sync();
          expect(res.status, JSON.stringify(res.body)).toBe(502);
          expect(res.body).toMatchObject({ success: false, code: 'matchServiceRedirected', created: 0, updated: 0, skipped: 0 });
          expect(res.body.message).toBe(`${MESSAGES.matchServiceRedirected}: HTTP 302 to ${target}`);
          expect(await databaseState(t)).toEqual(before);
        }
        expect(elsewhere.requests).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    });
  });

  describe('permissions and input', () => {
    it('answers 401 to anonymous and 403 to a member, without asking the service', async () => {
      const asked = feed.requests.length;
      const anonymous = await sync(null);
      expect(anonymous.status).toBe(401);
      const asMember = await sync(member.token);
      expect(asMember.status).toBe(403);
      expect(asMember.body).toEqual({ success: false, message: MESSAGES.adminRequired, code: 'adminRequired' });
      expect(feed.requests.length).toBe(asked);
    });

    it.for(['abc', '0', '-3', '12.5'])('answers 409 when the configured team is no team number (%s)', async (value) => {
      await setTeam(t, value);
      try {
        const asked = feed.requests.length;
        const res = await sync();
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ success: false, code: 'matchTeamNotConfigured' });
        expect(feed.requests.length).toBe(asked);
      } finally {
        await setTeam(t, String(RECORDED_TEAM_ID));
      }
    });
  });
});

describe('team finder (GET /api/config/teams/{league}/{season})', () => {
  let t: TestApp;
  let feed: FixtureServer;
  let admin: string;
  let member: string;
  beforeAll(async () => {
    feed = await startFixtureServer();
    t = await createTestApp({ FOOTBALL_DATA_URL: feed.url });
    admin = await t.adminToken();
    member = (await t.member('finder-fan')).token;
    feed.answer('/getavailableteams/bl1/2025', { json: recorded('teams-bl1-2025') });
  });
  afterAll(async () => {
    await t.close();
    await feed.close();
  });

  it('lists the teams of a league and season by name', async () => {
    const res = await t.call('GET', '/api/config/teams/bl1/2025', { token: admin });
    expect(res.status).toBe(200);
    expect(feed.requests.at(-1)).toBe('/getavailableteams/bl1/2025');
    const names = res.body.teams.map((team: { teamName: string }) => team.teamName);
    expect(names).toHaveLength(18);
    expect(names.slice(0, 5)).toEqual([
      '1. FC Heidenheim 1846',
      '1. FC Köln',
      '1. FC Union Berlin',
      '1. FSV Mainz 05',
      'Bayer 04 Leverkusen',
    ]);
    expect(res.body.teams).toContainEqual({
      teamId: 80,
      teamName: '1. FC Union Berlin',
      shortName: 'Union Berlin',
      teamIconUrl: 'https://upload.wikimedia.org/wikipedia/commons/4/44/1._FC_Union_Berlin_Logo.svg',
    });
  });

  it('answers an empty list for a league the service does not know', async () => {
    const res = await t.call('GET', '/api/config/teams/nixliga/2025', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, teams: [] });
  });

  it('answers 502 when the service fails', async () => {
    feed.answer('/getavailableteams/bl2/', { status: 500, text: 'error' });
    const down = await t.call('GET', '/api/config/teams/bl2/2025', { token: admin });
    expect(down.status).toBe(502);
    expect(down.body).toEqual({ success: false, code: 'matchServiceError', message: `${MESSAGES.matchServiceError}: HTTP 500` });
    feed.answer('/getavailableteams/bl3/', { json: [{ teamId: 'x' }] });
    const garbage = await t.call('GET', '/api/config/teams/bl3/2025', { token: admin });
    expect(garbage.status).toBe(502);
    expect(garbage.body.code).toBe('matchServiceBadAnswer');
  });

  it.for([
    ['bl%201', 'matchLeagueInvalid'],
    ['-bl1', 'matchLeagueInvalid'],
    ['bl1%3Bdrop', 'matchLeagueInvalid'],
    ['x'.repeat(41), 'matchLeagueInvalid'],
  ] as const)('answers 400 to the league %s', async ([league, code]) => {
    const asked = feed.requests.length;
    const res = await t.call('GET', `/api/config/teams/${league}/2025`, { token: admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code, message: MESSAGES[code] });
    expect(feed.requests.length).toBe(asked);
  });

  it.for(['abcd', '1999', '2101', '20255', '25'])('answers 400 to the season %s', async (season) => {
    const res = await t.call('GET', `/api/config/teams/bl1/${season}`, { token: admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'matchSeasonInvalid', message: MESSAGES.matchSeasonInvalid });
  });

  it('answers 401 to anonymous and 403 to a member, also with bad input', async () => {
    expect((await t.call('GET', '/api/config/teams/bl1/2025')).status).toBe(401);
    for (const url of ['/api/config/teams/bl1/2025', '/api/config/teams/bl%201/abcd']) {
      const res = await t.call('GET', url, { token: member });
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe(MESSAGES.adminRequired);
    }
  });
});

describe('the wire module (matches/openLigaDb.ts) on recorded answers', () => {
  let feed: FixtureServer;
  beforeAll(async () => {
    feed = await startFixtureServer();
  });
  afterAll(() => feed.close());

  it('reads every recorded match and team', () => {
    for (const match of [...SEASON(), recorded('match-dfb-2025-round-2')]) {
      expect(feedMatchSchema.safeParse(match).success, JSON.stringify(match).slice(0, 80)).toBe(true);
    }
  });

  it('takes the shapes the service has for a location: null, missing, empty parts', () => {
    const [base] = SEASON();
    for (const location of [null, undefined, { locationID: 1091, locationCity: '', locationStadium: null }]) {
      const parsed = feedMatchSchema.safeParse({ ...base, location });
      expect(parsed.success).toBe(true);
    }
    expect(feedMatchSchema.safeParse({ ...base, leagueSeason: '2025' }).data?.leagueSeason).toBe(2025);
    expect(feedMatchSchema.safeParse({ ...base, matchID: '77991' }).success).toBe(false);
  });

  it('ends a call that gets no answer (timeout) as unreachable', async () => {
    feed.answer('/getmatchesbyteamid/', { hang: true });
    const client = new OpenLigaDb({ baseUrl: feed.url, timeoutMs: 300 });
    const error = await client.matchesOfTeam(80, 1, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedError);
    expect(error).toMatchObject({ code: 'matchServiceUnreachable', detail: 'no answer within 300 ms' });
  });

  it('follows a redirect within the service (a moved path), a few hops at most', async () => {
    const [good] = SEASON();
    feed.answer('/v2/getmatchesbyteamid/', { json: [good] });
    feed.answer('/v1/getmatchesbyteamid/', (pathname) => ({ status: 308, redirect: pathname.replace('/v1/', '/v2/') }));
    const moved = await new OpenLigaDb({ baseUrl: `${feed.url}/v1` }).matchesOfTeam(80, 2, 3);
    expect(moved.matches.map((m) => m.matchID)).toEqual([77991]);
    expect(feed.requests.slice(-2)).toEqual(['/v1/getmatchesbyteamid/80/2/3', '/v2/getmatchesbyteamid/80/2/3']);

    feed.answer('/loop/', (pathname) => ({ redirect: `${feed.url}${pathname}` }));
    const asked = feed.requests.length;
    const error = await new OpenLigaDb({ baseUrl: `${feed.url}/loop` }).matchesOfTeam(80, 2, 3).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'matchServiceError', detail: `more than ${MAX_FEED_REDIRECTS} redirects` });
    expect(feed.requests.length - asked).toBe(MAX_FEED_REDIRECTS + 1);
  });

  it('cleans the texts of the feed: control and direction characters removed', () => {
    const [base] = SEASON();
    const parsed = feedMatchSchema.parse({
      ...base,
      team2: { ...base!.team2, teamName: '\u202EVfB\u0000 Stutt\tgart\u2069' },
      location: { locationID: 1, locationCity: '\u0000', locationStadium: 'Neckar\r\nstadion' },
    });
    expect(parsed.team2.teamName).toBe('VfB Stutt gart');
    expect(parsed.location).toMatchObject({ locationCity: '', locationStadium: 'Neckar stadion' });
    expect(feedMatchSchema.safeParse({ ...base, team2: { ...base!.team2, teamName: '\u0000\u202E' } }).success).toBe(false);
  });

  it('keeps a base path of FOOTBALL_DATA_URL and reports matches of another shape apart', async () => {
    const [good] = SEASON();
    feed.answer('/proxy/openligadb/getmatchesbyteamid/80/', { json: [good, { matchID: 5, team1: {} }, 'nonsense'] });
    const client = new OpenLigaDb({ baseUrl: `${feed.url}/proxy/openligadb/` });
    const answer = await client.matchesOfTeam(80, 2, 3);
    expect(feed.requests.at(-1)).toBe('/proxy/openligadb/getmatchesbyteamid/80/2/3');
    expect(answer.matches.map((m) => m.matchID)).toEqual([77991]);
    expect(answer.invalid).toEqual([
      { matchId: 5, issue: expect.stringMatching(/^matchDateTime|^leagueSeason|^team1/) },
      { matchId: null, issue: expect.any(String) },
    ]);
  });
});

describe('mapping a match (matches/mapping.ts, season.ts)', () => {
  const [cup, home] = SEASON();

  it('dates the kick-off in the club time zone, on the quarter hour', () => {
    expect(mapMatch(home!, 80, 'Europe/Berlin')).toMatchObject({
      ok: true,
      value: { date: '2025-08-23 15:30:00', timeFixed: true },
    });
    expect(mapMatch(home!, 80, 'Europe/London')).toMatchObject({ ok: true, value: { date: '2025-08-23 14:30:00' } });
    const odd = { ...home!, matchDateTimeUTC: '2025-08-23T13:38:00Z' };
    expect(mapMatch(odd, 80, 'Europe/Berlin')).toMatchObject({ ok: true, value: { date: '2025-08-23 15:45:00' } });
  });

  it('names the opponent with (H) or (A) and skips matches of other teams', () => {
    expect(mapMatch(home!, 80, 'Europe/Berlin')).toMatchObject({ value: { title: 'VfB Stuttgart (H)' } });
    expect(mapMatch(cup!, 80, 'Europe/Berlin')).toMatchObject({ value: { title: 'FC Gütersloh (A)' } });
    expect(mapMatch(home!, 999, 'Europe/Berlin')).toEqual({ ok: false, notOurs: true });
  });

  it('falls back to the stadium, then to the home team, for the place', () => {
    const stadiumOnly = { ...home!, location: { locationID: 1, locationCity: ' ', locationStadium: 'Arena' } };
    expect(mapMatch(stadiumOnly, 80, 'Europe/Berlin')).toMatchObject({
      value: { location: 'Arena', stadiumName: 'Arena', city: null },
    });
    const none = { ...cup!, location: null };
    expect(mapMatch(none, 80, 'Europe/Berlin')).toMatchObject({ value: { location: 'FC Gütersloh', stadiumName: null } });
  });

  it('refuses a kick-off it cannot read', () => {
    const bad = { ...home!, matchDateTime: '2025-08-23T15:30:00', matchDateTimeUTC: 'soon' };
    expect(mapMatch(bad, 80, 'Europe/Berlin')).toMatchObject({ ok: false, issue: 'matchDateTimeUTC soon' });
    const far = { ...home!, matchDateTime: '2199-08-23T15:30:00', matchDateTimeUTC: '2199-08-23T13:30:00Z' };
    expect(mapMatch(far, 80, 'Europe/Berlin')).toMatchObject({ ok: false });
  });

  it('finds the season and the weeks around today that cover it', () => {
    expect(seasonStartYear('2025-10-15')).toBe(2025);
    expect(seasonStartYear('2026-06-30')).toBe(2025);
    expect(seasonStartYear('2026-07-01')).toBe(2026);
    expect(seasonWindow('2025-10-15', 2025)).toEqual({ weeksPast: 16, weeksFuture: 37 });
    expect(seasonWindow('2025-07-01', 2025)).toEqual({ weeksPast: 0, weeksFuture: 52 });
  });
});

describe('daily import (matches/dailyImport.ts)', () => {
  let t: TestApp;
  let feed: FixtureServer;
  beforeAll(async () => {
    feed = await startFixtureServer();
    t = await createTestApp({ FOOTBALL_DATA_URL: feed.url });
    // These tests run the check by hand; the app's own job runner stays out of their way.
    await t.runtime.jobs.stop();
    await setTeam(t, String(RECORDED_TEAM_ID));
    feed.answer(MATCHES_PATH, { json: SEASON() });
  });
  afterAll(async () => {
    await t.close();
    await feed.close();
  });

  const setSetting = (key: string, value: string) =>
    write(t.runtime.deps.store, (w) =>
      w.db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute(),
    );

  it('is off by default and runs once a club day from 05:00 as the system when switched on', async () => {
    let now = new Date('2025-10-15T10:00:00Z');
    const daily = new DailyMatchImport(t.runtime.deps.store, t.runtime.deps.config, () => now);
    const seen: DomainEvent[] = [];
    t.runtime.deps.store.commits.subscribe((commit) => void seen.push(...commit.events));

    expect(await daily.runIfDue()).toEqual({ state: 'off' });
    await setSetting(AUTO_IMPORT_SETTING, 'yes');
    expect(await daily.runIfDue()).toEqual({ state: 'off' });
    expect(feed.requests).toEqual([]);

    await setSetting(AUTO_IMPORT_SETTING, '1');
    now = new Date('2025-10-15T02:30:00Z'); // 04:30 in Berlin
    expect(await daily.runIfDue()).toEqual({ state: 'notDue' });
    now = new Date('2025-10-15T03:00:00Z'); // 05:00 in Berlin
    const ran = await daily.runIfDue();
    expect(ran).toMatchObject({ state: 'ran', result: { created: 6, updated: 0, skipped: 0 } });
    expect(feed.requests).toEqual(['/getmatchesbyteamid/80/16/37']);
    const created = seen.filter((e) => e.type === 'event.created');
    expect(created).toHaveLength(6);
    expect(created.every((e) => e.actorId === 'system')).toBe(true);
    const lastDay = await t.runtime.deps.store.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', AUTO_IMPORT_LAST_DAY)
      .executeTakeFirst();
    expect(lastDay?.value).toBe('2025-10-15');

    now = new Date('2025-10-15T20:00:00Z');
    expect(await daily.runIfDue()).toEqual({ state: 'notDue' });
    now = new Date('2025-10-16T04:00:00Z');
    expect(await daily.runIfDue()).toMatchObject({ state: 'ran', result: { created: 0, skipped: 6 } });
    expect(feed.requests).toHaveLength(2);
  });

  it('tries again after a failure and stops cleanly', async () => {
    await setSetting(AUTO_IMPORT_LAST_DAY, '2000-01-01');
    feed.answer(MATCHES_PATH, { status: 502, text: 'Bad Gateway' });
    const daily = new DailyMatchImport(t.runtime.deps.store, t.runtime.deps.config, () => new Date('2025-10-17T09:00:00Z'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const failed = await daily.runIfDue();
      expect(failed.state).toBe('failed');
      expect((failed as { error: unknown }).error).toBeInstanceOf(FeedError);
      expect(warn).toHaveBeenCalledOnce();
    } finally {
      warn.mockRestore();
    }
    feed.answer(MATCHES_PATH, { json: SEASON() });
    expect(await daily.runIfDue()).toMatchObject({ state: 'ran' });
    daily.stop();
    expect(await daily.runIfDue()).toEqual({ state: 'notDue' });

    // Started with the app (deps.ts) and stopped with its commit bus: a started one stops on close.
    const started = DailyMatchImport.start(t.runtime.deps.store, t.runtime.deps.config, t.runtime.jobs);
    t.runtime.deps.store.commits.close();
    expect(await started.runIfDue()).toEqual({ state: 'notDue' });
  });
});
