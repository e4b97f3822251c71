import { contingentAnswer, MESSAGES, seasonOf, ticketRequestAnswer, todayIn, type ContingentAnswer } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Allocations anyone can follow (docs/product.md, Ticket contingents; docs/architecture.md, "Ticket
 * contingents", Explanation): GET /api/events/{id}/contingent gives a member their own request's and
 * their guests' place, the points behind it (away matches per counted season plus the admin's
 * adjustment), the request time and, after the allocation, the sentence's parts (place, requests,
 * tickets, waiting list place); a pin or exclusion with the admin's note to that member only; the
 * admin's queue with each place's reason. Nobody reads another member's points or notes.
 */

interface User {
  id: string;
  token: string;
}

let t: TestApp;
let admin: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const fresh = () => t.member(`explained-${++counter}`);

/** The current season's first year by the server's clock (the route counts points up to today, club time). */
const seasonStart = () => Number(seasonOf(todayIn('Europe/Berlin')).slice(0, 4));
const label = (start: number) => `${start}/${String((start + 1) % 100).padStart(2, '0')}`;

async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
}

/** An away match the members went to with their own ticket, answered while upcoming, then moved to `date`. */
async function pastAwayMatch(date: string, goers: User[]): Promise<void> {
  const id = (await createEventVia(t, admin, { title: `Damals ${++counter} (A)`, date: '2030-03-01 15:30' })).id;
  for (const goer of goers) {
    const res = await t.call('POST', `/api/attendance/${id}`, {
      token: goer.token,
      body: { status: 'going', has_ticket: true, needs_ticket: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await t.db
    .updateTable('events')
    .set({ date: `${date} 15:30:00` })
    .where('id', '=', id)
    .execute();
}

async function adjust(user: User, points: number, note = 'Vor der App'): Promise<void> {
  const res = await t.call('PUT', `/api/loyalty/${user.id}/adjustment`, { token: admin, body: { points, note } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** An upcoming away match with a contingent of `tickets` whose requests gather until a deadline. */
async function contingentMatch(tickets: number): Promise<string> {
  const id = (await createEventVia(t, admin, { title: `Auswärts ${++counter} (A)`, date: '2030-03-01 15:30', ticket_price: 25 }))
    .id;
  const res = await t.call('PUT', `/api/events/${id}/contingent`, {
    token: admin,
    body: { tickets, request_deadline: '2030-02-20 12:00' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}

async function requestTicket(user: User, eventId: string): Promise<string> {
  await nextMillisecond();
  const res = await t.call('POST', `/api/attendance/${eventId}`, {
    token: user.token,
    body: { status: 'going', needs_ticket: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.attendance.id;
}

async function bringGuest(host: User, eventId: string, name: string): Promise<string> {
  await nextMillisecond();
  const res = await t.call('POST', '/api/guests', {
    token: host.token,
    body: { event_id: eventId, guest_name: name, needs_ticket: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.guest.id;
}

const view = (eventId: string, token: string) =>
  t.callTyped(contingentAnswer, 'GET', `/api/events/${eventId}/contingent`, { token });

const flag = (eventId: string, attendeeId: string, body: Record<string, unknown>) =>
  t.call('PUT', `/api/events/${eventId}/contingent/requests/${attendeeId}`, { token: admin, body });

const requestedAt = async (attendeeId: string) =>
  (
    await t.db
      .selectFrom('ticket_requests')
      .select('requested_at')
      .where('attendee_id', '=', attendeeId)
      .executeTakeFirstOrThrow()
  ).requested_at;

/** Nothing of the others' in a member's answer: no queue, no id of theirs, none of their notes. */
function expectNothingOf(answer: ContingentAnswer, others: { ids: string[]; notes: string[] }): void {
  expect(answer.queue).toBeUndefined();
  const text = JSON.stringify(answer);
  for (const id of others.ids) expect(text).not.toContain(id);
  for (const note of others.notes) expect(text).not.toContain(note);
}

/** The breakdown of points made of adjustments only (no away match counted). */
const adjustedOnly = (points: number) => ({
  points,
  adjustment: points,
  seasons: [
    { season: label(seasonStart()), away_matches: 0 },
    { season: label(seasonStart() - 1), away_matches: 0 },
  ],
});

describe("a member's explanation while requests gather", () => {
  it('shows their place, their points per counted season plus the adjustment, and their request time', async () => {
    const s = seasonStart();
    const anna = await fresh();
    const bert = await fresh();
    // Away matches of the season before (always past and counted) and, unless today is its first day, of this one.
    await pastAwayMatch(`${s - 1}-08-10`, [anna, bert]);
    await pastAwayMatch(`${s - 1}-09-10`, [anna]);
    const thisSeason = todayIn('Europe/Berlin') > `${s}-07-01` ? 1 : 0;
    if (thisSeason) await pastAwayMatch(`${s}-07-01`, [anna]);
    await adjust(anna, 3, 'Fahrten 2019 bis 2023');

    const eventId = await contingentMatch(1);
    const bertRow = await requestTicket(bert, eventId);
    const annaRow = await requestTicket(anna, eventId);

    const annas = await view(eventId, anna.token);
    expect(annas.mine!.position).toBe(1);
    expect(annas.mine!.explanation).toEqual({
      requested_at: await requestedAt(annaRow),
      reason: 'points',
      note: null,
      loyalty: {
        points: 2 + thisSeason + 3,
        adjustment: 3,
        seasons: [
          { season: label(s), away_matches: thisSeason },
          { season: label(s - 1), away_matches: 2 },
        ],
      },
      place: { place: 1, requests: 2, tickets: 1, outcome: 'gathering', waiting_place: null },
    });
    // The adjustment's own note stays with the admins (written for them, not for the member).
    expectNothingOf(annas, { ids: [bert.id, bertRow], notes: ['Fahrten 2019 bis 2023'] });

    const berts = await view(eventId, bert.token);
    expect(berts.mine!.explanation).toEqual({
      requested_at: await requestedAt(bertRow),
      reason: 'points',
      note: null,
      loyalty: {
        points: 1,
        adjustment: 0,
        seasons: [
          { season: label(s), away_matches: 0 },
          { season: label(s - 1), away_matches: 1 },
        ],
      },
      place: { place: 2, requests: 2, tickets: 1, outcome: 'gathering', waiting_place: null },
    });
    expectNothingOf(berts, { ids: [anna.id, annaRow], notes: ['Fahrten 2019 bis 2023'] });

    // A member without a request has no explanation, and reads only the figures.
    const other = await fresh();
    const theirs = await view(eventId, other.token);
    expect(theirs.mine).toMatchObject({ attendee_id: null, state: 'none', explanation: null, guests: [] });
    expect(theirs.contingent).toMatchObject({ requested: 2, tickets: 1 });
    expectNothingOf(theirs, { ids: [anna.id, annaRow, bert.id, bertRow], notes: [] });
  });
});

describe('after the allocation', () => {
  it("gives each member the sentence's parts: place, requests, tickets and the waiting list place; a guest ranks by their host", async () => {
    const [first, second, third, fourth] = [await fresh(), await fresh(), await fresh(), await fresh()];
    for (const [user, points] of [
      [first, 40],
      [second, 30],
      [third, 20],
      [fourth, 10],
    ] as const)
      await adjust(user, points);
    const eventId = await contingentMatch(2);
    const rows = {
      fourth: await requestTicket(fourth, eventId),
      third: await requestTicket(third, eventId),
      second: await requestTicket(second, eventId),
      first: await requestTicket(first, eventId),
      guest: await bringGuest(first, eventId, 'Gast Erika'),
    };
    const allocated = await t.call('POST', `/api/events/${eventId}/contingent/allocate`, { token: admin });
    expect(allocated.body.allocated).toBe(2);

    const place = async (user: User) => (await view(eventId, user.token)).mine!;
    expect((await place(first)).explanation!.place).toEqual({
      place: 1,
      requests: 5,
      tickets: 2,
      outcome: 'ticket',
      waiting_place: null,
    });
    expect((await place(second)).explanation!.place).toMatchObject({ place: 2, outcome: 'ticket' });
    const thirds = await place(third);
    expect(thirds.position).toBe(1);
    expect(thirds.explanation!.place).toEqual({ place: 3, requests: 5, tickets: 2, outcome: 'waiting', waiting_place: 1 });
    expect((await place(fourth)).explanation!.place).toEqual({
      place: 4,
      requests: 5,
      tickets: 2,
      outcome: 'waiting',
      waiting_place: 2,
    });
    // The guest: after every member, ranked by their host's points (the host's own breakdown).
    const firsts = await view(eventId, first.token);
    expect(firsts.mine!.guests).toHaveLength(1);
    expect(firsts.mine!.guests[0]!.explanation).toEqual({
      requested_at: await requestedAt(rows.guest),
      reason: 'guest',
      note: null,
      loyalty: adjustedOnly(40),
      place: { place: 5, requests: 5, tickets: 2, outcome: 'waiting', waiting_place: 3 },
    });
    expectNothingOf(firsts, { ids: [second.id, third.id, fourth.id, rows.second, rows.third, rows.fourth], notes: [] });

    // A returned ticket is offered to the first in line: the line is holders, offered, then waiting.
    const returned = await t.call('PUT', `/api/tickets/${rows.second}/return`, { token: second.token });
    expect(returned.body.offered).toBe(true);
    expect((await place(third)).explanation!.place).toEqual({
      place: 2,
      requests: 4,
      tickets: 2,
      outcome: 'offered',
      waiting_place: null,
    });
    expect((await place(fourth)).explanation!.place).toEqual({
      place: 3,
      requests: 4,
      tickets: 2,
      outcome: 'waiting',
      waiting_place: 1,
    });
    // The one who returned it left the line: no place, no explanation.
    expect((await place(second)).explanation).toBeNull();
  });
});

describe('pinned and excluded requests', () => {
  it("show the admin's note to the member concerned only; the admin's queue carries it with the reasons", async () => {
    const pinnedFan = await fresh();
    const excludedFan = await fresh();
    const otherFan = await fresh();
    await adjust(excludedFan, 50);
    await adjust(otherFan, 10);
    const eventId = await contingentMatch(1);
    const rows = {
      pinned: await requestTicket(pinnedFan, eventId),
      excluded: await requestTicket(excludedFan, eventId),
      other: await requestTicket(otherFan, eventId),
    };
    const pinNote = 'Vorstandsbeschluss: Ordner';
    const excludeNote = 'Zwei Tickets nicht bezahlt';
    const pinned = await t.callTyped(ticketRequestAnswer, 'PUT', `/api/events/${eventId}/contingent/requests/${rows.pinned}`, {
      token: admin,
      body: { pinned: true, note: `  ${pinNote} ` },
    });
    expect(pinned.request).toEqual({
      attendee_id: rows.pinned,
      state: 'requested',
      pinned: true,
      excluded: false,
      note: pinNote,
    });
    expect((await flag(eventId, rows.excluded, { excluded: true, note: excludeNote })).status).toBe(200);

    const pinnedView = await view(eventId, pinnedFan.token);
    expect(pinnedView.mine!.explanation).toMatchObject({
      reason: 'pinned',
      note: pinNote,
      loyalty: adjustedOnly(0),
      place: { place: 1, requests: 3, tickets: 1, outcome: 'gathering', waiting_place: null },
    });
    expectNothingOf(pinnedView, { ids: [excludedFan.id, otherFan.id, rows.excluded, rows.other], notes: [excludeNote] });

    const excludedView = await view(eventId, excludedFan.token);
    expect(excludedView.mine!.position).toBeNull();
    expect(excludedView.mine!.explanation).toEqual({
      requested_at: await requestedAt(rows.excluded),
      reason: 'excluded',
      note: excludeNote,
      loyalty: adjustedOnly(50),
      place: null,
    });
    expectNothingOf(excludedView, { ids: [pinnedFan.id, otherFan.id, rows.pinned, rows.other], notes: [pinNote] });

    const otherView = await view(eventId, otherFan.token);
    expect(otherView.mine!.explanation).toMatchObject({ reason: 'points', note: null, place: { place: 2, requests: 3 } });
    expectNothingOf(otherView, {
      ids: [pinnedFan.id, excludedFan.id, rows.pinned, rows.excluded],
      notes: [pinNote, excludeNote],
    });

    // The admin's queue: each place's reason, the points' breakdown, the notes.
    const queue = (await view(eventId, admin)).queue!;
    expect(queue.map((entry) => [entry.attendee_id, entry.rank, entry.reason, entry.note])).toEqual([
      [rows.pinned, 1, { kind: 'pinned', points: null, tie: false }, pinNote],
      [rows.other, 2, { kind: 'points', points: 10, tie: false }, null],
      [rows.excluded, null, { kind: 'excluded', points: null, tie: false }, excludeNote],
    ]);
    expect(queue.map((entry) => entry.loyalty)).toEqual([adjustedOnly(0), adjustedOnly(10), adjustedOnly(50)]);

    // After the allocation the pinned member holds the ticket, with the note still shown to them.
    await t.call('POST', `/api/events/${eventId}/contingent/allocate`, { token: admin });
    expect((await view(eventId, pinnedFan.token)).mine!.explanation).toMatchObject({
      reason: 'pinned',
      note: pinNote,
      place: { place: 1, requests: 3, tickets: 1, outcome: 'ticket', waiting_place: null },
    });
    expect((await view(eventId, otherFan.token)).mine!.explanation!.place).toEqual({
      place: 2,
      requests: 3,
      tickets: 1,
      outcome: 'waiting',
      waiting_place: 1,
    });

    // A note alone replaces the note of a flagged request; an empty one is none.
    expect((await flag(eventId, rows.excluded, { note: 'Nachzahlung offen' })).body.request.note).toBe('Nachzahlung offen');
    expect((await flag(eventId, rows.excluded, { note: '' })).body.request.note).toBeNull();
    // Changing the flag without a note drops the note.
    expect((await flag(eventId, rows.excluded, { note: excludeNote })).status).toBe(200);
    expect((await flag(eventId, rows.excluded, { excluded: false })).body.request).toMatchObject({ excluded: false, note: null });
    expect((await view(eventId, excludedFan.token)).mine!.explanation).toMatchObject({ reason: 'points', note: null });
  });

  it.each([
    ['a note on a request neither pinned nor excluded', { note: 'Warum auch immer' }, 400, 'invalidInput'],
    ['a note too long', { pinned: true, note: 'x'.repeat(201) }, 400, 'loyaltyNoteTooLong'],
    ['a note with a control character', { pinned: true, note: 'Vorstand\u0007' }, 400, 'textHasControlCharacters'],
    ['a note that is no text', { pinned: true, note: 5 }, 400, 'invalidInput'],
  ] as const)('refuses %s, changing nothing', async (_name, body, status, code) => {
    const fan = await fresh();
    const eventId = await contingentMatch(1);
    const row = await requestTicket(fan, eventId);
    const before = await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', row).executeTakeFirstOrThrow();
    const res = await flag(eventId, row, body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', row).executeTakeFirstOrThrow()).toEqual(
      before,
    );
  });
});

describe("the admin's queue", () => {
  it('gives each place its reason: points with their breakdown, ties broken by request time, guests by their hosts', async () => {
    const [high, early, late] = [await fresh(), await fresh(), await fresh()];
    await adjust(high, 8);
    await adjust(early, 5);
    await adjust(late, 5);
    const eventId = await contingentMatch(3);
    const rows = {
      early: await requestTicket(early, eventId),
      late: await requestTicket(late, eventId),
      high: await requestTicket(high, eventId),
      earlyGuest: await bringGuest(early, eventId, 'Gast Früh'),
      lateGuest: await bringGuest(late, eventId, 'Gast Spät'),
      highGuest: await bringGuest(high, eventId, 'Gast Hoch'),
    };
    const queue = (await view(eventId, admin)).queue!;
    expect(queue.map((entry) => [entry.attendee_id, entry.rank, entry.reason])).toEqual([
      [rows.high, 1, { kind: 'points', points: 8, tie: false }],
      [rows.early, 2, { kind: 'points', points: 5, tie: true }],
      [rows.late, 3, { kind: 'points', points: 5, tie: true }],
      [rows.highGuest, 4, { kind: 'guest', points: 8, tie: false }],
      [rows.earlyGuest, 5, { kind: 'guest', points: 5, tie: true }],
      [rows.lateGuest, 6, { kind: 'guest', points: 5, tie: true }],
    ]);
    expect(queue.map((entry) => entry.loyalty)).toEqual([adjustedOnly(8), adjustedOnly(5), adjustedOnly(5), null, null, null]);
    expect(queue.every((entry) => entry.note === null)).toBe(true);
  });
});

describe('who may read it', () => {
  it('refuses anonymous readers and members changing a note', async () => {
    const fan = await fresh();
    const eventId = await contingentMatch(1);
    const row = await requestTicket(fan, eventId);
    expect((await t.call('GET', `/api/events/${eventId}/contingent`)).status).toBe(401);
    const res = await t.call('PUT', `/api/events/${eventId}/contingent/requests/${row}`, {
      token: fan.token,
      body: { pinned: true, note: 'Ich selbst' },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MESSAGES.adminRequired);
  });
});
