import {
  contingentAllocatedAnswer,
  contingentAnswer,
  contingentSavedAnswer,
  MESSAGES,
  newId,
  newMemberAttendeeDoc,
  SYNC_SCHEMAS,
  ticketRequestAnswer,
  type ContingentAnswer,
} from '@fankurve/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Commit } from '../src/db/store.js';
import { expectRefusal, GENERIC, type BodyRoute } from './bad-input-cases.js';
import { createEventVia, createTestApp, testDatabase, type TestApp } from './helpers.js';
import { legacyUser, migrationDatabase } from './migration-steps.js';

/*
 * Ticket contingents (docs/product.md, Ticket contingents; docs/architecture.md, "Ticket
 * contingents"): requests recorded with the server's time, the allocation order (pinned, loyalty
 * points, request time, guests in their hosts' order, excluded never, a tie at the last ticket),
 * allocation at once without a deadline, at the deadline by the job (claimed once with two instances
 * on one database), by the admin's click (40 tickets, 70 requests), bad input with nothing changed,
 * and the requests migration 015 made of the rows that needed a ticket.
 */

interface User {
  id: string;
  token: string;
}

let t: TestApp;
let admin: string;
let members = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const fresh = (app: TestApp = t) => app.member(`contingent-fan-${++members}`);

/** Waits until the clock has moved on, so the next write gets a later request time (no fixed sleep). */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
}

const awayMatch = (app: TestApp = t, token = admin, fields: Record<string, unknown> = {}) =>
  createEventVia(app, token, { title: `Auswärts ${++members} (A)`, date: '2030-03-01 15:30', ticket_price: 25, ...fields });

/** The member's answer "going, needs a ticket" (a request, timed by the server). */
async function requestTicket(user: User, eventId: string, app: TestApp = t): Promise<string> {
  await nextMillisecond();
  const res = await app.call('POST', `/api/attendance/${eventId}`, {
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

async function givePoints(user: User, points: number, app: TestApp = t): Promise<void> {
  const res = await app.call('PUT', `/api/loyalty/${user.id}/adjustment`, {
    token: await app.adminToken(),
    body: { points, note: 'Vor der App' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const setContingent = (eventId: string, body: Record<string, unknown>, app: TestApp = t) =>
  app.call('PUT', `/api/events/${eventId}/contingent`, { token: admin, body });

const view = (eventId: string, token: string, app: TestApp = t) =>
  app.callTyped(contingentAnswer, 'GET', `/api/events/${eventId}/contingent`, { token });

const attendee = (id: string, app: TestApp = t) =>
  app.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The queue's attendee ids in order (excluded last). */
const queueOrder = (answer: ContingentAnswer) => answer.queue!.map((entry) => entry.attendee_id);

describe('ticket requests', () => {
  it('records the time the server first stored "needs a ticket", ends it when the need goes, and starts anew', async () => {
    const event = await awayMatch();
    const fan = await fresh();
    const before = new Date().toISOString();
    const rowId = await requestTicket(fan, event.id);
    const first = await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', rowId).executeTakeFirstOrThrow();
    expect(first).toMatchObject({ event_id: event.id, state: 'requested', pinned: 0, excluded: 0 });
    expect(first.requested_at >= before).toBe(true);

    // Changing another answer keeps the request and its time.
    await nextMillisecond();
    expect(
      (
        await t.call('POST', `/api/attendance/${event.id}`, {
          token: fan.token,
          body: { status: 'maybe', needs_transport: false },
        })
      ).status,
    ).toBe(200);
    expect(
      await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', rowId).executeTakeFirstOrThrow(),
    ).toEqual(first);

    // No longer needing one withdraws it; asking again is a new request with a new time.
    expect(
      (await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'going', needs_ticket: false } }))
        .status,
    ).toBe(200);
    expect(
      (await t.db.selectFrom('ticket_requests').select('state').where('attendee_id', '=', rowId).executeTakeFirstOrThrow()).state,
    ).toBe('withdrawn');
    await nextMillisecond();
    expect(
      (await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'going', needs_ticket: true } }))
        .status,
    ).toBe(200);
    const again = await t.db.selectFrom('ticket_requests').selectAll().where('attendee_id', '=', rowId).executeTakeFirstOrThrow();
    expect(again.state).toBe('requested');
    expect(again.requested_at > first.requested_at).toBe(true);

    // Dropping out withdraws it too.
    expect((await t.call('DELETE', `/api/attendance/${event.id}`, { token: fan.token })).status).toBe(200);
    expect(
      (await t.db.selectFrom('ticket_requests').select('state').where('attendee_id', '=', rowId).executeTakeFirstOrThrow()).state,
    ).toBe('withdrawn');
  });

  it('times an answer made offline by its arrival, not by the device', async () => {
    const event = await awayMatch();
    const fan = await fresh();
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const doc = newMemberAttendeeDoc(
      {
        id: newId(),
        event_id: event.id,
        user_id: fan.id,
        status: 'going',
        created_at: twoDaysAgo,
      },
      'Test match (A)',
    );
    const arrived = new Date().toISOString();
    const pushed = await t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/push`, {
      token: fan.token,
      body: [{ assumedMasterState: null, newDocumentState: { ...doc, updated_at: twoDaysAgo, _deleted: false } }],
    });
    expect(pushed.status).toBe(200);
    const request = await t.db
      .selectFrom('ticket_requests')
      .selectAll()
      .where('attendee_id', '=', doc.id)
      .executeTakeFirstOrThrow();
    expect(request.state).toBe('requested');
    expect(request.requested_at >= arrived).toBe(true);
  });
});

describe('the allocation order', () => {
  it('pinned first, then members by points and request time, guests in their hosts’ order, excluded never', async () => {
    const event = await awayMatch();
    const [zero, ten, fiveEarly, fiveLate, pinnedFan, excludedFan, hostOnly] = await Promise.all(
      Array.from({ length: 7 }, () => fresh()),
    );
    await givePoints(ten!, 10);
    await givePoints(fiveEarly!, 5);
    await givePoints(fiveLate!, 5);
    await givePoints(excludedFan!, 100);
    await givePoints(hostOnly!, 20);
    const saved = await setContingent(event.id, { tickets: 3, request_deadline: '2030-02-20 18:00', payment_days: 7 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const rows = {
      zero: await requestTicket(zero!, event.id),
      pinned: await requestTicket(pinnedFan!, event.id),
      fiveEarly: await requestTicket(fiveEarly!, event.id),
      guestOfFive: await bringGuest(fiveEarly!, event.id, 'Gast Fünf'),
      ten: await requestTicket(ten!, event.id),
      guestOfTen: await bringGuest(ten!, event.id, 'Gast Zehn'),
      fiveLate: await requestTicket(fiveLate!, event.id),
      excluded: await requestTicket(excludedFan!, event.id),
      guestOfHostOnly: await bringGuest(hostOnly!, event.id, 'Gast Zwanzig'),
    };
    const flag = (attendeeId: string, body: Record<string, unknown>) =>
      t.callTyped(ticketRequestAnswer, 'PUT', `/api/events/${event.id}/contingent/requests/${attendeeId}`, {
        token: admin,
        body,
      });
    expect((await flag(rows.pinned, { pinned: true })).request).toEqual({
      attendee_id: rows.pinned,
      state: 'requested',
      pinned: true,
      excluded: false,
      note: null,
    });
    await flag(rows.excluded, { excluded: true });

    const expected = [
      rows.pinned,
      rows.ten,
      rows.fiveEarly,
      rows.fiveLate,
      rows.zero,
      rows.guestOfHostOnly,
      rows.guestOfTen,
      rows.guestOfFive,
      rows.excluded,
    ];
    const gathering = await view(event.id, admin);
    expect(queueOrder(gathering)).toEqual(expected);
    expect(gathering.queue!.map((entry) => entry.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, null]);
    expect(gathering.queue!.find((entry) => entry.attendee_id === rows.guestOfTen)).toMatchObject({
      kind: 'guest',
      guest_name: 'Gast Zehn',
      host_id: ten!.id,
      points: null,
      state: 'requested',
    });
    expect(gathering.contingent).toMatchObject({
      tickets: 3,
      requested: 9,
      allocated: 0,
      waiting: 0,
      free: 3,
      allocated_at: null,
    });
    // While requests gather, a member's position is their place in the allocation order.
    expect((await view(event.id, fiveLate!.token)).mine).toMatchObject({
      attendee_id: rows.fiveLate,
      state: 'requested',
      position: 4,
    });
    expect(await attendee(rows.pinned)).toMatchObject({ bought: 0 });

    const allocated = await t.callTyped(contingentAllocatedAnswer, 'POST', `/api/events/${event.id}/contingent/allocate`, {
      token: admin,
    });
    expect(allocated.allocated).toBe(3);
    expect(allocated.contingent).toMatchObject({ requested: 9, allocated: 3, waiting: 5, free: 0 });
    for (const id of [rows.pinned, rows.ten, rows.fiveEarly])
      expect(await attendee(id)).toMatchObject({ bought: 1, price_cents: 2500, paid: 0 });
    for (const id of [rows.fiveLate, rows.zero, rows.guestOfHostOnly, rows.guestOfTen, rows.guestOfFive, rows.excluded]) {
      expect(await attendee(id)).toMatchObject({ bought: 0 });
    }
    const after = await view(event.id, admin);
    expect(queueOrder(after)).toEqual(expected);
    expect(after.queue!.map((entry) => entry.state)).toEqual([
      'allocated',
      'allocated',
      'allocated',
      'waiting',
      'waiting',
      'waiting',
      'waiting',
      'waiting',
      'waiting',
    ]);
    // Waiting, the position is the place in line (1: the next returned ticket is offered to them).
    expect((await view(event.id, fiveLate!.token)).mine).toMatchObject({ state: 'waiting', position: 1, offer: null });
    const host = (await view(event.id, fiveEarly!.token)).mine!;
    expect(host).toMatchObject({ state: 'allocated', position: null, returned: false });
    expect(Date.parse(host.pay_by!) - Date.parse(after.contingent!.allocated_at!)).toBe(7 * 86_400_000);
    expect(host.guests).toEqual([
      expect.objectContaining({ attendee_id: rows.guestOfFive, guest_name: 'Gast Fünf', state: 'waiting', position: 5 }),
    ]);
    expect((await view(event.id, excludedFan!.token)).mine).toMatchObject({ state: 'waiting', position: null });
    // The queue is the admin's; members see their own request only.
    expect((await view(event.id, zero!.token)).queue).toBeUndefined();

    // The debts follow the tickets the allocation bought.
    const debts = await t.call('GET', '/api/tickets/debts', { token: admin });
    const owed = (user: User) => debts.body.debts.find((debt: { user_id: string }) => debt.user_id === user.id)?.total_debt ?? 0;
    expect([owed(pinnedFan!), owed(ten!), owed(fiveEarly!), owed(fiveLate!), owed(zero!)]).toEqual([25, 25, 25, 0, 0]);
  });

  it('gives the last ticket of a tie in points to the earlier request, and of a full tie to the lower attendee id', async () => {
    const event = await awayMatch();
    const [early, late, third] = await Promise.all([fresh(), fresh(), fresh()]);
    for (const user of [early!, late!, third!]) await givePoints(user, 3);
    await setContingent(event.id, { tickets: 1, request_deadline: '2030-02-28 12:00' });
    const earlyRow = await requestTicket(early!, event.id);
    const lateRow = await requestTicket(late!, event.id);
    expect(queueOrder(await view(event.id, admin))).toEqual([earlyRow, lateRow]);

    // The same time to the millisecond: the attendee row's id decides.
    const thirdRow = await requestTicket(third!, event.id);
    const { requested_at } = await t.db
      .selectFrom('ticket_requests')
      .select('requested_at')
      .where('attendee_id', '=', earlyRow)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('ticket_requests').set({ requested_at }).where('attendee_id', 'in', [lateRow, thirdRow]).execute();
    const tied = [earlyRow, lateRow, thirdRow].sort();
    expect(queueOrder(await view(event.id, admin))).toEqual(tied);

    const allocated = await t.callTyped(contingentAllocatedAnswer, 'POST', `/api/events/${event.id}/contingent/allocate`, {
      token: admin,
    });
    expect(allocated.allocated).toBe(1);
    expect((await attendee(tied[0]!)).bought).toBe(1);
    for (const id of tied.slice(1)) expect((await attendee(id)).bought).toBe(0);
  });
});

describe('allocation at once, without a deadline', () => {
  it('allocates requests as they come while tickets are free; later ones wait; more tickets go to those waiting', async () => {
    const event = await awayMatch();
    const [first, second, third, fourth] = await Promise.all([fresh(), fresh(), fresh(), fresh()]);
    await givePoints(fourth!, 50);
    const saved = await t.callTyped(contingentSavedAnswer, 'PUT', `/api/events/${event.id}/contingent`, {
      token: admin,
      body: { tickets: 2 },
    });
    expect(saved).toMatchObject({
      message: MESSAGES.contingentSaved,
      contingent: { tickets: 2, request_deadline: null, payment_days: null, offer_minutes: 1440, free: 2 },
    });
    const firstRow = await requestTicket(first!, event.id);
    expect(await attendee(firstRow)).toMatchObject({ bought: 1, price_cents: 2500 });
    const secondRow = await requestTicket(second!, event.id);
    expect(await attendee(secondRow)).toMatchObject({ bought: 1 });
    const thirdRow = await requestTicket(third!, event.id);
    const fourthRow = await requestTicket(fourth!, event.id);
    expect(await attendee(thirdRow)).toMatchObject({ bought: 0 });
    expect((await view(event.id, third!.token)).mine).toMatchObject({ state: 'waiting', position: 2 });
    // The member with more points stands before in line, though asking later.
    expect((await view(event.id, fourth!.token)).mine).toMatchObject({ state: 'waiting', position: 1 });

    await setContingent(event.id, { tickets: 3 });
    expect(await attendee(fourthRow)).toMatchObject({ bought: 1 });
    expect(await attendee(thirdRow)).toMatchObject({ bought: 0 });
    expect((await view(event.id, admin)).contingent).toMatchObject({
      tickets: 3,
      requested: 4,
      allocated: 3,
      waiting: 1,
      free: 0,
    });
  });

  it('allocates the requests already there when the contingent is created', async () => {
    const event = await awayMatch();
    const [a, b] = await Promise.all([fresh(), fresh()]);
    const rowA = await requestTicket(a!, event.id);
    const rowB = await requestTicket(b!, event.id);
    expect(await attendee(rowA)).toMatchObject({ bought: 0 });
    await setContingent(event.id, { tickets: 1 });
    expect(await attendee(rowA)).toMatchObject({ bought: 1 });
    expect(await attendee(rowB)).toMatchObject({ bought: 0 });
  });
});

describe('the figures add up', () => {
  /** allocated + on offer + free = tickets + beyond (shared rule contingentBalance). */
  const addsUp = (figures: NonNullable<ContingentAnswer['contingent']>) =>
    expect(figures.allocated + figures.on_offer + figures.free).toBe(figures.tickets + figures.beyond);

  it('counts a returned ticket on offer, and an admin\'s "bought" beyond the contingent as beyond it', async () => {
    const event = await awayMatch();
    const [a, b, c, d] = await Promise.all([fresh(), fresh(), fresh(), fresh()]);
    await setContingent(event.id, { tickets: 2 });
    const rowA = await requestTicket(a!, event.id);
    await requestTicket(b!, event.id);
    await requestTicket(c!, event.id);
    const rowD = await requestTicket(d!, event.id);
    let figures = (await view(event.id, admin)).contingent!;
    expect(figures).toMatchObject({ tickets: 2, allocated: 2, on_offer: 0, free: 0, beyond: 0, waiting: 2 });
    addsUp(figures);

    // A returns: the ticket is offered to C, the first in line.
    expect((await t.call('PUT', `/api/tickets/${rowA}/return`, { token: a!.token })).status).toBe(200);
    figures = (await view(event.id, admin)).contingent!;
    expect(figures).toMatchObject({ allocated: 1, on_offer: 1, free: 0, beyond: 0 });
    addsUp(figures);

    // The admin ticks "bought" for D anyway: one ticket beyond the contingent, counted as it is.
    const bought = await t.call('PUT', `/api/attendees/${rowD}`, { token: admin, body: { bought: true } });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    figures = (await view(event.id, admin)).contingent!;
    expect(figures).toMatchObject({ tickets: 2, allocated: 2, on_offer: 1, free: 0, beyond: 1 });
    addsUp(figures);
  });
});

/** The club's wall-clock time of an instant (Europe/Berlin, the default CLUB_TIME_ZONE), to the minute. */
function clubWallClock(at: Date): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
}

describe('allocation at the deadline, by the job', () => {
  const open: TestApp[] = [];
  const databases: { drop(): Promise<void> }[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const app of open.splice(0)) {
      await app.runtime.jobs.stop();
      await app.close();
    }
    for (const database of databases.splice(0)) await database.drop();
  });

  it('gathers requests until the deadline; then one of two instances allocates, once', async () => {
    const database = await testDatabase();
    if (database) databases.push(database);
    const env = { JOB_INTERVAL_SECONDS: '0.02', ...(database ? { DATABASE_URL: database.url } : {}) };
    const a = await createTestApp(env);
    open.push(a);
    // Started after the first (migrations run once), on the same database.
    const b = await createTestApp({ ...env, DATA_DIR: a.dataDir });
    open.unshift(b);
    const commits: Commit[] = [];
    for (const app of [a, b]) app.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
    const adminToken = await a.adminToken();
    // A deadline an hour ahead (the clock moves there below), the match three hours after it.
    const deadline = new Date(Date.now() + 60 * 60_000);
    const event = await awayMatch(a, adminToken, { date: clubWallClock(new Date(deadline.getTime() + 3 * 60 * 60_000)) });
    const fans = [await fresh(a), await fresh(a), await fresh(a)];
    await givePoints(fans[2]!, 9, a);
    const saved = await a.call('PUT', `/api/events/${event.id}/contingent`, {
      token: adminToken,
      body: { tickets: 2, request_deadline: clubWallClock(deadline) },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const rows = [];
    for (const fan of fans) rows.push(await requestTicket(fan, event.id, a));
    // The job looks (it was made due by the change) and finds nothing due yet.
    await vi.waitFor(async () => {
      const job = await a.db.selectFrom('jobs').selectAll().where('name', '=', 'ticket-contingents').executeTakeFirstOrThrow();
      expect(job.due_at).toBe(new Date(Math.floor(deadline.getTime() / 60_000) * 60_000).toISOString());
    });
    for (const row of rows) expect((await attendee(row, a)).bought).toBe(0);

    vi.useFakeTimers({ toFake: ['Date'], now: deadline.getTime() + 60_000 });
    await vi.waitFor(async () => expect((await view(event.id, adminToken, a)).contingent!.allocated).toBe(2), { timeout: 5000 });
    expect((await attendee(rows[2]!, a)).bought).toBe(1);
    expect((await attendee(rows[0]!, a)).bought).toBe(1);
    expect((await attendee(rows[1]!, a)).bought).toBe(0);
    // Both instances look again: nothing is due, and the allocation happened once.
    await a.runtime.jobs.tick();
    await b.runtime.jobs.tick();
    const allocations = commits.flatMap((commit) => commit.events).filter((e) => e.type === 'contingent.allocated');
    expect(allocations).toEqual([expect.objectContaining({ eventId: event.id, allocated: 2, actorId: 'system' })]);
  });
});

describe('one click: 40 tickets, 70 requests', () => {
  it('hands the tickets out by loyalty in one call', async () => {
    const event = await awayMatch();
    await setContingent(event.id, { tickets: 40, request_deadline: '2030-02-15 20:00' });
    const fans: User[] = [];
    for (let i = 0; i < 70; i++) fans.push(await fresh());
    // Points from 0 to 34 (two members each), given in an order that has nothing to do with who asks first.
    for (const [i, fan] of fans.entries()) if (i % 35 !== 0) await givePoints(fan, (i * 13) % 35);
    const rows = new Map<string, string>();
    for (const fan of [...fans].reverse()) rows.set(fan.id, await requestTicket(fan, event.id));

    const started = performance.now();
    const answer = await t.callTyped(contingentAllocatedAnswer, 'POST', `/api/events/${event.id}/contingent/allocate`, {
      token: admin,
    });
    console.log(`Allocating 40 of 70 requests took ${Math.round(performance.now() - started)} ms`);
    expect(answer.allocated).toBe(40);
    expect(answer.contingent).toMatchObject({ tickets: 40, requested: 70, allocated: 40, waiting: 30, free: 0 });

    // The 40 with the most points, of equal points the one who asked first (the later in `fans`).
    const ranked = fans
      .map((fan, i) => ({ fan, points: i % 35 === 0 ? 0 : (i * 13) % 35, i }))
      .sort((x, y) => y.points - x.points || y.i - x.i);
    const bought = await t.db
      .selectFrom('attendees')
      .select(['user_id', 'bought', 'price_cents'])
      .where('event_id', '=', event.id)
      .where('deleted', '=', 0)
      .execute();
    const holders = new Set(bought.filter((row) => row.bought === 1).map((row) => row.user_id));
    expect(holders).toEqual(new Set(ranked.slice(0, 40).map((entry) => entry.fan.id)));
    expect(bought.filter((row) => row.bought === 1).every((row) => Number(row.price_cents) === 2500)).toBe(true);
    const queue = (await view(event.id, admin)).queue!;
    expect(queue.map((entry) => entry.user_id)).toEqual(ranked.map((entry) => entry.fan.id));
    expect(queue.slice(0, 40).every((entry) => entry.state === 'allocated')).toBe(true);
    expect(queue.slice(40).every((entry) => entry.state === 'waiting')).toBe(true);

    // A second click has nothing left to hand out.
    const again = await t.callTyped(contingentAllocatedAnswer, 'POST', `/api/events/${event.id}/contingent/allocate`, {
      token: admin,
    });
    expect(again.allocated).toBe(0);
  }, 120_000);
});

describe('bad input changes nothing', () => {
  let eventId: string;
  let fan: User;
  let fanRow: string;
  beforeAll(async () => {
    eventId = (await awayMatch(t, admin, { date: '2030-03-01 15:30' })).id;
    fan = await fresh();
    fanRow = await requestTicket(fan, eventId);
    expect(
      (await setContingent(eventId, { tickets: 5, request_deadline: '2030-02-01 12:00', payment_days: 10, offer_minutes: 60 }))
        .status,
    ).toBe(200);
  });

  const state = async () => ({
    contingents: await t.db.selectFrom('contingents').selectAll().orderBy('event_id').execute(),
    requests: await t.db.selectFrom('ticket_requests').selectAll().orderBy('attendee_id').execute(),
    offers: await t.db.selectFrom('offers').selectAll().orderBy('id').execute(),
    counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
  });

  it.each([
    ['negative tickets', { tickets: -1 }, 'contingentTicketsInvalid'],
    ['fractional tickets', { tickets: 2.5 }, 'contingentTicketsInvalid'],
    ['tickets as text', { tickets: '40' }, 'contingentTicketsInvalid'],
    ['no tickets', {}, 'contingentTicketsInvalid'],
    ['too many tickets', { tickets: 100_001 }, 'contingentTicketsInvalid'],
    ['a deadline that is no date', { tickets: 5, request_deadline: 'next Friday' }, 'contingentDeadlineInvalid'],
    ['a deadline before the season', { tickets: 5, request_deadline: '2029-06-30 23:59' }, 'contingentDeadlineOutsideSeason'],
    ['a deadline after the event', { tickets: 5, request_deadline: '2030-03-01 15:31' }, 'contingentDeadlineOutsideSeason'],
    ['a deadline in the next season', { tickets: 5, request_deadline: '2030-07-02 12:00' }, 'contingentDeadlineOutsideSeason'],
    ['no days to pay', { tickets: 5, payment_days: 0 }, 'contingentPaymentDaysInvalid'],
    ['fractional days to pay', { tickets: 5, payment_days: 1.5 }, 'contingentPaymentDaysInvalid'],
    ['a year and a day to pay', { tickets: 5, payment_days: 366 }, 'contingentPaymentDaysInvalid'],
    ['no offer window', { tickets: 5, offer_minutes: 0 }, 'contingentOfferMinutesInvalid'],
    ['an offer window beyond a week', { tickets: 5, offer_minutes: 10_081 }, 'contingentOfferMinutesInvalid'],
    ['a negative offer window', { tickets: 5, offer_minutes: -5 }, 'contingentOfferMinutesInvalid'],
  ])('PUT contingent with %s: 400', async (_name, body, code) => {
    const before = await state();
    const res = await setContingent(eventId, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ success: false, code, message: MESSAGES[code as keyof typeof MESSAGES] });
    expect(await state()).toEqual(before);
  });

  it('takes a deadline at the very start of the season and at the kick-off, and clears it with null', async () => {
    for (const deadline of ['2029-07-01 00:00', '2030-03-01 15:30']) {
      const res = await setContingent(eventId, { tickets: 5, request_deadline: deadline });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.contingent.request_deadline).toBe(`${deadline}:00`);
    }
    // A field left out keeps its value.
    expect((await setContingent(eventId, { tickets: 6 })).body.contingent).toMatchObject({
      tickets: 6,
      request_deadline: '2030-03-01 15:30:00',
      payment_days: 10,
      offer_minutes: 60,
    });
  });

  it.each([
    ['GET', (id: string) => `/api/events/${id}/contingent`, undefined],
    ['PUT', (id: string) => `/api/events/${id}/contingent`, { tickets: 5 }],
    ['POST', (id: string) => `/api/events/${id}/contingent/allocate`, undefined],
    ['PUT', (id: string) => `/api/events/${id}/contingent/requests/${fanRow}`, { pinned: true }],
  ] as const)('%s %s of an unknown event: 404', async (method, url, body) => {
    const before = await state();
    const res = await t.call(method, url('01900000-0000-7000-8000-00000000abcd'), { token: admin, body });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('eventNotFound');
    expect(await state()).toEqual(before);
  });

  it('answers an event without a contingent with none (no error), and 404 with a message to its writes', async () => {
    const other = await awayMatch();
    const member = await fresh();
    const before = await state();
    for (const token of [admin, member.token]) {
      const none = await t.call('GET', `/api/events/${other.id}/contingent`, { token });
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ success: true, contingent: null, mine: null });
    }
    expect((await t.call('GET', `/api/events/${newId()}/contingent`, { token: admin })).status).toBe(404);
    for (const [method, url, body] of [
      ['POST', `/api/events/${other.id}/contingent/allocate`, undefined],
      ['PUT', `/api/events/${other.id}/contingent/requests/${fanRow}`, { excluded: true }],
    ] as const) {
      const res = await t.call(method, url, { token: admin, body });
      expect(res.status, url).toBe(404);
      expect(res.body).toMatchObject({ code: 'contingentNotFound', message: MESSAGES.contingentNotFound });
    }
    expect(await state()).toEqual(before);
  });

  it.each([
    ['an unknown request', 'unknown', { pinned: true }, 404, 'ticketRequestNotFound'],
    ['pinned and excluded at once', 'fan', { pinned: true, excluded: true }, 400, 'invalidInput'],
    ['no flag', 'fan', {}, 400, 'invalidInput'],
    ['a flag that is no boolean', 'fan', { pinned: 'yes' }, 400, 'invalidInput'],
  ] as const)('PUT a request with %s: %i', async (_name, who, body, status, code) => {
    const before = await state();
    const attendeeId = who === 'fan' ? fanRow : '01900000-0000-7000-8000-00000000dcba';
    const res = await t.call('PUT', `/api/events/${eventId}/contingent/requests/${attendeeId}`, { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await state()).toEqual(before);
  });

  describe.each([
    { name: 'PUT contingent', url: () => `/api/events/${eventId}/contingent`, valid: () => ({ tickets: 5 }) },
    { name: 'PUT request', url: () => `/api/events/${eventId}/contingent/requests/${fanRow}`, valid: () => ({ pinned: true }) },
  ])('$name', ({ name, url, valid }) => {
    const route: BodyRoute = { name, method: 'PUT', url, token: () => admin, valid, bad: [] };
    it.each(GENERIC)('refuses %s', async (_label, send, status, message) => {
      const before = await state();
      const { raw, headers } = send(route);
      expectRefusal(await t.call('PUT', url(), { token: admin, raw, headers }), status, message);
      expect(await state()).toEqual(before);
    });
  });

  it('refuses members the admin routes before reading their input', async () => {
    const before = await state();
    for (const [method, url, body] of [
      ['PUT', `/api/events/${eventId}/contingent`, { tickets: -1 }],
      ['POST', `/api/events/${eventId}/contingent/allocate`, undefined],
      ['PUT', `/api/events/${eventId}/contingent/requests/${fanRow}`, { pinned: 'yes' }],
    ] as const) {
      const res = await t.call(method, url, { token: fan.token, body });
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe(MESSAGES.adminRequired);
    }
    expect(await state()).toEqual(before);
  });
});

describe('migration 015: the requests of the rows that need a ticket', () => {
  it('makes every live row that needs a ticket and has none a request at the row’s creation time, and no other', async () => {
    const { db, migrateTo, close } = await migrationDatabase();
    try {
      await migrateTo('014_ledger');
      const at = '2025-01-01T00:00:00.000Z';
      const user = (id: string) => legacyUser(id, at);
      await db.insertInto('users').values(['anna', 'bernd', 'carla', 'dora'].map(user)).execute();
      const ev = (id: string, fields: Record<string, unknown> = {}) => ({
        id,
        title: `Spiel ${id}`,
        date: '2025-03-01 15:30:00',
        location: 'X',
        created_at: at,
        updated_at: at,
        seq: 2,
        deleted: 0,
        archived: 0,
        ...fields,
      });
      await db
        .insertInto('events')
        .values([ev('e1'), ev('e2'), ev('gone', { deleted: 1 }), ev('kept', { archived: 1 })])
        .execute();
      const row = (id: string, fields: Record<string, unknown>) => ({
        id,
        event_id: 'e1',
        user_id: null,
        guest_name: null,
        brought_by: null,
        status: 'going',
        needs_ticket: 1,
        has_ticket: 0,
        bought: 0,
        paid: 0,
        deleted: 0,
        created_at: '2025-02-01T10:00:00.000Z',
        updated_at: '2025-02-20T10:00:00.000Z',
        seq: 3,
        ...fields,
      });
      await db
        .insertInto('attendees')
        .values([
          // Requests: a member, a member who may come (the need counts, not the answer), a guest.
          row('r-member', { user_id: 'anna', created_at: '2025-02-01T10:00:00.000Z' }),
          row('r-maybe', { user_id: 'bernd', event_id: 'e2', status: 'maybe', created_at: '2025-02-02T11:30:00.000Z' }),
          row('r-guest', { guest_name: 'Kalle', brought_by: 'anna', created_at: '2025-02-03T12:45:00.000Z' }),
          // No requests: has a ticket of their own, needs none, bought (unpaid and paid), deleted.
          row('n-has-ticket', { user_id: 'bernd', needs_ticket: 0, has_ticket: 1 }),
          row('n-no-need', { guest_name: 'Mia', brought_by: 'bernd', needs_ticket: 0 }),
          row('n-bought', { user_id: 'carla', bought: 1 }),
          row('n-paid', { guest_name: 'Ole', brought_by: 'carla', bought: 1, paid: 1 }),
          row('n-deleted', { user_id: 'dora', deleted: 1 }),
          // A deleted event's rows are tombstones; an archived event keeps only its bought rows live.
          row('n-gone-event', { user_id: 'anna', event_id: 'gone', deleted: 1 }),
          row('n-archived-bought', { user_id: 'anna', event_id: 'kept', bought: 1 }),
          row('n-archived-dropped', { user_id: 'bernd', event_id: 'kept', deleted: 1 }),
        ])
        .execute();

      const before = new Date().toISOString();
      await migrateTo('015_contingents');
      const after = new Date().toISOString();

      const requests: any[] = await db.selectFrom('ticket_requests').selectAll().orderBy('attendee_id').execute();
      expect(
        requests.map((r) => ({
          attendee_id: r.attendee_id,
          event_id: r.event_id,
          requested_at: r.requested_at,
          pinned: Number(r.pinned),
          excluded: Number(r.excluded),
          state: r.state,
          allocated_at: r.allocated_at,
        })),
      ).toEqual(
        [
          ['r-guest', 'e1', '2025-02-03T12:45:00.000Z'],
          ['r-maybe', 'e2', '2025-02-02T11:30:00.000Z'],
          ['r-member', 'e1', '2025-02-01T10:00:00.000Z'],
        ].map(([attendee_id, event_id, requested_at]) => ({
          attendee_id,
          event_id,
          requested_at,
          pinned: 0,
          excluded: 0,
          state: 'requested',
          allocated_at: null,
        })),
      );
      // Changed when the migration ran, not when the row last changed.
      for (const request of requests) {
        expect(request.updated_at >= before && request.updated_at <= after, request.updated_at).toBe(true);
      }
      // The backfill made no contingent and changed no attendee row.
      expect(await db.selectFrom('contingents').selectAll().execute()).toEqual([]);
      const rows: any[] = await db.selectFrom('attendees').select(['id', 'updated_at', 'seq']).execute();
      expect(rows).toHaveLength(11);
      for (const r of rows) expect([r.id, r.updated_at, Number(r.seq)]).toEqual([r.id, '2025-02-20T10:00:00.000Z', 3]);
    } finally {
      await close();
    }
  });
});
