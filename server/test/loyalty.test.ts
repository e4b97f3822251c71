import {
  loyaltyAdjustmentAnswer,
  loyaltyAdjustmentsAnswer,
  loyaltyRankingAnswer,
  MESSAGES,
  myLoyaltyAnswer,
  newId,
  seasonOf,
  todayIn,
} from '@fankurve/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loyaltyPointsOf, loyaltySeasons } from '../src/domain/tickets/loyalty.js';
import { expectRefusal, GENERIC, type BodyRoute } from './bad-input-cases.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Loyalty points (docs/product.md, Loyalty): away matches counted per member from real attendee rows
 * (answered through the API, then the match moved into the past), the seasons window of the
 * `loyalty_seasons` setting, admins' adjustments, the ranking's order, and who may do what.
 */

let t: TestApp;
let admin: string;
let adminId: string;
type Member = { id: string; token: string; name: string };
const members: Record<string, Member> = {};

/** The current season's first year by the server's clock (the HTTP routes count up to today, club time). */
const nowSeasonStart = () => Number(seasonOf(todayIn('Europe/Berlin')).slice(0, 4));

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
  for (const name of ['anna', 'bert', 'carl', 'dora', 'emil']) {
    members[name] = { ...(await t.member(`loyal-${name}`)), name: `loyal-${name}` };
  }
});
afterAll(() => t.close());

/** A clean slate per test: no events, no adjustments, the setting unset. */
beforeEach(async () => {
  await t.db.deleteFrom('loyalty_adjustments').execute();
  await t.db.deleteFrom('settings').where('key', '=', 'loyalty_seasons').execute();
  await t.db.updateTable('events').set({ deleted: 1 }).execute();
});

const setSeasons = async (value: string) => {
  await t.db
    .insertInto('settings')
    .values({ key: 'loyalty_seasons', value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
};

interface Answer {
  status?: 'going' | 'maybe';
  has_ticket?: boolean;
  /** Bought (and paid) for them by an admin at 20 €. */
  bought?: boolean;
}

/**
 * A match the members answered while it was upcoming (through the API), then moved to `date` as
 * if time had passed. Returns the event id.
 */
async function match(title: string, date: string, answers: Record<string, Answer>): Promise<string> {
  const id = (await createEventVia(t, admin, { title, date: '2030-03-01 15:30' })).id;
  for (const [name, answer] of Object.entries(answers)) {
    const m = members[name]!;
    const res = await t.call('POST', `/api/attendance/${id}`, {
      token: m.token,
      body: { status: answer.status ?? 'going', has_ticket: answer.has_ticket ?? false, needs_ticket: !answer.has_ticket },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (answer.bought) {
      const bought = await t.call('PUT', `/api/tickets/event/${id}/user/${m.id}/status`, {
        token: admin,
        body: { bought: true, paid: true, price: 20 },
      });
      expect(bought.status).toBe(200);
    }
  }
  await t.db
    .updateTable('events')
    .set({ date: `${date} 15:30:00` })
    .where('id', '=', id)
    .execute();
  return id;
}

const pointsOn = async (today: string) =>
  Object.fromEntries(
    [...(await loyaltyPointsOf(t.db, today))].map(([id, points]) => [
      Object.values(members).find((m) => m.id === id)?.name ?? id,
      points,
    ]),
  );

describe('counting away matches', () => {
  it('counts past away matches where the member was going with a ticket (own or bought), nothing else', async () => {
    await match('Bochum – Union (A)', '2025-09-13', {
      anna: { has_ticket: true },
      bert: { bought: true },
      carl: { status: 'maybe', has_ticket: true },
      dora: {},
    });
    // A home match and an event that is no match count for nobody.
    await match('Union – Hertha (H)', '2025-09-20', { anna: { has_ticket: true }, bert: { has_ticket: true } });
    await match('Weihnachtsfeier', '2025-12-20', { anna: { has_ticket: true } });
    // Still to come (on the day itself too): not yet.
    await match('Köln – Union (A)', '2026-02-07', { anna: { has_ticket: true }, emil: { has_ticket: true } });

    const points = await pointsOn('2026-02-07');
    expect(points).toMatchObject({ 'loyal-anna': 1, 'loyal-bert': 1, 'loyal-carl': 0, 'loyal-dora': 0, 'loyal-emil': 0 });
    // The admin is a member too, with nothing counted.
    expect((await loyaltyPointsOf(t.db, '2026-02-07')).get(adminId)).toBe(0);
    expect(await pointsOn('2026-02-08')).toMatchObject({ 'loyal-anna': 2, 'loyal-emil': 1 });
  });

  it("a guest's ticket counts for nobody, not for the member who brought them", async () => {
    const id = await match('Mainz – Union (A)', '2025-10-04', { anna: { status: 'maybe' } });
    // The guest was added while the match was upcoming; move it back to the future for that.
    await t.db.updateTable('events').set({ date: '2030-03-01 15:30:00' }).where('id', '=', id).execute();
    const guest = await t.call('POST', '/api/guests', {
      token: members.anna!.token,
      body: { event_id: id, guest_name: 'Onkel Horst', status: 'going', has_ticket: true, needs_ticket: false },
    });
    expect(guest.status).toBe(201);
    await t.db.updateTable('events').set({ date: '2025-10-04 15:30:00' }).where('id', '=', id).execute();
    expect((await pointsOn('2026-01-01'))['loyal-anna']).toBe(0);
  });

  it('a deleted attendance, a deleted or an archived match counts not', async () => {
    const left = await match('Leipzig – Union (A)', '2025-10-18', { anna: { has_ticket: true } });
    await t.db.updateTable('attendees').set({ deleted: 1 }).where('event_id', '=', left).execute();
    const deleted = await match('Augsburg – Union (A)', '2025-10-25', { anna: { has_ticket: true } });
    await t.db.updateTable('events').set({ deleted: 1 }).where('id', '=', deleted).execute();
    const archived = await match('Freiburg – Union (A)', '2025-11-01', { anna: { has_ticket: true } });
    await t.db.updateTable('events').set({ archived: 1 }).where('id', '=', archived).execute();
    await match('Wolfsburg – Union (A)', '2025-11-08', { anna: { has_ticket: true } });
    expect((await pointsOn('2026-01-01'))['loyal-anna']).toBe(1);
  });

  it('counts the last loyalty_seasons seasons (July to June), 2 by default', async () => {
    await match('Season 23/24 (A)', '2024-06-30', { anna: { has_ticket: true } });
    await match('Season 24/25 first day (A)', '2024-07-01', { anna: { has_ticket: true } });
    await match('Season 24/25 (A)', '2025-03-01', { anna: { has_ticket: true } });
    await match('Season 25/26 (A)', '2025-08-16', { anna: { has_ticket: true } });
    expect(await loyaltySeasons(t.db)).toBe(2);
    // Today in 2025/26: this season and 2024/25 count; 2023/24 not.
    expect((await pointsOn('2025-09-01'))['loyal-anna']).toBe(3);
    // On the first day of 2026/27, 2024/25 drops out.
    expect((await pointsOn('2026-07-01'))['loyal-anna']).toBe(1);
    expect((await pointsOn('2026-06-30'))['loyal-anna']).toBe(3);

    await setSeasons('1');
    expect(await loyaltySeasons(t.db)).toBe(1);
    expect((await pointsOn('2025-09-01'))['loyal-anna']).toBe(1);
    expect((await pointsOn('2025-06-30'))['loyal-anna']).toBe(2);
    await setSeasons('3');
    expect((await pointsOn('2025-09-01'))['loyal-anna']).toBe(4);
  });

  it('an unreadable setting falls back to the default', async () => {
    await setSeasons('zwei');
    expect(await loyaltySeasons(t.db)).toBe(2);
    await setSeasons('0');
    expect(await loyaltySeasons(t.db)).toBe(2);
    await setSeasons('11');
    expect(await loyaltySeasons(t.db)).toBe(2);
    await setSeasons('10');
    expect(await loyaltySeasons(t.db)).toBe(10);
  });

  it('pending and deleted accounts are not ranked', async () => {
    const reg = await t.call('POST', '/api/auth/register', {
      body: { username: 'loyal-pending', email: 'loyal-pending@example.org', password: 'member-pass' },
    });
    expect(reg.status).toBe(201);
    const gone = await t.member('loyal-gone');
    expect((await t.call('DELETE', `/api/auth/users/${gone.id}`, { token: admin })).status).toBe(200);
    const points = await loyaltyPointsOf(t.db, '2026-01-01');
    expect(points.has(reg.body.user.id)).toBe(false);
    expect(points.has(gone.id)).toBe(false);
    const ranking = await t.callTyped(loyaltyRankingAnswer, 'GET', '/api/loyalty', { token: admin });
    expect(ranking.ranking.map((r) => r.user_id)).not.toContain(gone.id);
    expect(ranking.ranking.map((r) => r.user_id)).not.toContain(reg.body.user.id);
  });
});

describe('GET /api/loyalty and /api/loyalty/my', () => {
  it('ranks every active member: points first, then away matches, then name; exactly the named fields', async () => {
    const s = nowSeasonStart();
    // The season before the current one: always past and always counted with two seasons.
    await match('A1 (A)', `${s - 1}-08-10`, { anna: { has_ticket: true }, bert: { has_ticket: true }, carl: { bought: true } });
    await match('A2 (A)', `${s - 1}-09-10`, { anna: { has_ticket: true }, bert: { has_ticket: true } });
    await match('A3 (A)', `${s - 1}-10-10`, { anna: { has_ticket: true } });
    // bert 2 matches + 1 adjusted = 3 = anna's 3 matches: anna first (more away matches).
    // dora 0 matches + 2 = 2 = carl's 1 + 1: carl first. emil and the admin 0: by name.
    for (const [name, points] of [
      ['bert', 1],
      ['dora', 2],
      ['carl', 1],
    ] as const) {
      const res = await t.call('PUT', `/api/loyalty/${members[name]!.id}/adjustment`, {
        token: admin,
        body: { points, note: 'Vor der App' },
      });
      expect(res.status).toBe(200);
    }
    const answer = await t.callTyped(loyaltyRankingAnswer, 'GET', '/api/loyalty', { token: members.emil!.token });
    const names = answer.ranking.map((r) => r.username);
    expect(names).toEqual(['loyal-anna', 'loyal-bert', 'loyal-carl', 'loyal-dora', 'admin', 'loyal-emil']);
    expect(answer.ranking[0]).toEqual({ user_id: members.anna!.id, username: 'loyal-anna', points: 3, away_matches: 3 });
    expect(answer.ranking[1]).toEqual({ user_id: members.bert!.id, username: 'loyal-bert', points: 3, away_matches: 2 });
    expect(answer.ranking[2]).toMatchObject({ points: 2, away_matches: 1 });
    expect(answer.ranking[3]).toMatchObject({ points: 2, away_matches: 0 });
  });

  it("answers the member's points, place and away matches per season, newest first", async () => {
    const s = nowSeasonStart();
    await match('B1 (A)', `${s - 1}-08-10`, { anna: { has_ticket: true }, bert: { has_ticket: true } });
    await match('B2 (A)', `${s - 2}-08-10`, { anna: { has_ticket: true } });
    await match('B3 (A)', `${s - 2}-09-10`, { anna: { has_ticket: true } });
    await match('B4 (A)', `${s - 4}-09-10`, { anna: { has_ticket: true } });
    const label = (start: number) => `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
    const anna = await t.callTyped(myLoyaltyAnswer, 'GET', '/api/loyalty/my', { token: members.anna!.token });
    expect(anna).toEqual({
      success: true,
      points: 1,
      place: 1,
      seasons: [
        { season: label(s), away_matches: 0, counted: true },
        { season: label(s - 1), away_matches: 1, counted: true },
        { season: label(s - 2), away_matches: 2, counted: false },
        { season: label(s - 3), away_matches: 0, counted: false },
        { season: label(s - 4), away_matches: 1, counted: false },
      ],
    });
    // Equal points and equal away matches share a place; the next place counts both.
    const bert = await t.callTyped(myLoyaltyAnswer, 'GET', '/api/loyalty/my', { token: members.bert!.token });
    expect(bert).toMatchObject({ points: 1, place: 1 });
    const carl = await t.callTyped(myLoyaltyAnswer, 'GET', '/api/loyalty/my', { token: members.carl!.token });
    expect(carl).toMatchObject({ points: 0, place: 3 });

    await setSeasons('3');
    const wider = await t.callTyped(myLoyaltyAnswer, 'GET', '/api/loyalty/my', { token: members.anna!.token });
    expect(wider.points).toBe(3);
    expect(wider.seasons.map((x) => x.counted)).toEqual([true, true, true, false, false]);
    // A window wider than the chart's five seasons: the chart shows all counted ones.
    await setSeasons('7');
    const widest = await t.callTyped(myLoyaltyAnswer, 'GET', '/api/loyalty/my', { token: members.anna!.token });
    expect(widest.seasons).toHaveLength(7);
    expect(widest.points).toBe(4);
  });
});

describe('PUT /api/loyalty/{userId}/adjustment', () => {
  const put = (userId: string, body: unknown, token: string | null = admin) =>
    t.call('PUT', `/api/loyalty/${userId}/adjustment`, { token, body });
  const state = async () => ({
    adjustments: await t.db.selectFrom('loyalty_adjustments').selectAll().orderBy('user_id').execute(),
    counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
  });

  it('sets, replaces and takes away points; answers the new ranking row; lists the adjustments for admins', async () => {
    const s = nowSeasonStart();
    await match('C1 (A)', `${s - 1}-08-10`, { dora: { has_ticket: true } });
    const first = await t.callTyped(loyaltyAdjustmentAnswer, 'PUT', `/api/loyalty/${members.dora!.id}/adjustment`, {
      token: admin,
      body: { points: 12, note: '  Auswärtsfahrten 2019–2023  ' },
    });
    expect(first).toEqual({
      success: true,
      message: MESSAGES.loyaltyAdjustmentSaved,
      row: { user_id: members.dora!.id, username: 'loyal-dora', points: 13, away_matches: 1 },
    });
    const stored = await t.db
      .selectFrom('loyalty_adjustments')
      .selectAll()
      .where('user_id', '=', members.dora!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ points: 12, note: 'Auswärtsfahrten 2019–2023', updated_by: adminId });

    // Replaced, not added; negative takes points away; the note may be left out.
    const second = await put(members.dora!.id, { points: -3 });
    expect(second.status).toBe(200);
    expect(second.body.row).toMatchObject({ points: -2, away_matches: 1 });
    const listed = await t.callTyped(loyaltyAdjustmentsAnswer, 'GET', '/api/loyalty/adjustments', { token: admin });
    expect(listed.adjustments).toEqual([{ user_id: members.dora!.id, points: -3, note: '', updated_at: expect.any(String) }]);
    // A negative total ranks below the members with nothing.
    const ranking = await t.callTyped(loyaltyRankingAnswer, 'GET', '/api/loyalty', { token: admin });
    expect(ranking.ranking.at(-1)?.user_id).toBe(members.dora!.id);
    // The bounds are allowed.
    expect((await put(members.dora!.id, { points: 1000, note: 'x'.repeat(200) })).status).toBe(200);
    expect((await put(members.dora!.id, { points: -1000 })).status).toBe(200);
  });

  it.each([
    ['fractional points', { points: 1.5 }, 400, 'loyaltyPointsInvalid'],
    ['points above 1000', { points: 1001 }, 400, 'loyaltyPointsInvalid'],
    ['points below -1000', { points: -1001 }, 400, 'loyaltyPointsInvalid'],
    ['points as text', { points: '5' }, 400, 'loyaltyPointsInvalid'],
    ['no points', { note: 'nur Notiz' }, 400, 'loyaltyPointsInvalid'],
    ['a note of 201 characters', { points: 1, note: 'x'.repeat(201) }, 400, 'loyaltyNoteTooLong'],
    ['a line break in the note', { points: 1, note: 'a\nb' }, 400, 'textHasControlCharacters'],
    ['a direction override in the note', { points: 1, note: 'gpj.\u202Eexe' }, 400, 'textHasControlCharacters'],
    ['a note that is no text', { points: 1, note: 7 }, 400, 'invalidInput'],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s and changes nothing',
    async (_label, body, status, code) => {
      await put(members.emil!.id, { points: 4, note: 'Alt' });
      const before = await state();
      const res = await put(members.emil!.id, body);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, code });
      expect(await state()).toEqual(before);
    },
  );

  const route: BodyRoute = {
    name: 'PUT /api/loyalty/{userId}/adjustment',
    method: 'PUT',
    url: () => `/api/loyalty/${members.emil!.id}/adjustment`,
    token: () => admin,
    valid: () => ({ points: 2, note: 'Vor der App' }),
    bad: [],
  };
  it.each(GENERIC)('refuses %s like every route, nothing changed', async (_label, send, status, message) => {
    const before = await state();
    const { raw, headers } = send(route);
    const res = await t.call(route.method, route.url(), { token: route.token(), raw, headers });
    expectRefusal(res, status, message);
    expect(await state()).toEqual(before);
  });

  it('refuses a user id longer than 64 characters', async () => {
    const before = await state();
    expectRefusal(await put('x'.repeat(65), { points: 1 }), 400, null);
    expect(await state()).toEqual(before);
  });

  it('refuses an unknown, a deleted and a pending user with nothing changed', async () => {
    const gone = await t.member('loyal-deleted');
    expect((await t.call('DELETE', `/api/auth/users/${gone.id}`, { token: admin })).status).toBe(200);
    const pending = await t.call('POST', '/api/auth/register', {
      body: { username: 'loyal-waiting', email: 'loyal-waiting@example.org', password: 'member-pass' },
    });
    const before = await state();
    expect(await put(newId(), { points: 1 })).toMatchObject({ status: 404, body: { code: 'userNotFound' } });
    expect(await put(gone.id, { points: 1 })).toMatchObject({ status: 404, body: { code: 'userNotFound' } });
    expect(await put(pending.body.user.id, { points: 1 })).toMatchObject({ status: 404, body: { code: 'userNotFound' } });
    expect(await state()).toEqual(before);
  });

  it('is for admins only: a member (also about themselves) 403, anonymous 401, nothing changed', async () => {
    const before = await state();
    expect(await put(members.anna!.id, { points: 50 }, members.anna!.token)).toMatchObject({
      status: 403,
      body: { message: MESSAGES.adminRequired },
    });
    expect((await put(members.anna!.id, { points: 50 }, members.bert!.token)).status).toBe(403);
    expect((await put(members.anna!.id, { points: 50 }, null)).status).toBe(401);
    expect((await t.call('GET', '/api/loyalty/adjustments', { token: members.anna!.token })).status).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('the ranking and the own figures need a signed-in user', async () => {
    expect((await t.call('GET', '/api/loyalty')).status).toBe(401);
    expect((await t.call('GET', '/api/loyalty/my')).status).toBe(401);
  });
});
