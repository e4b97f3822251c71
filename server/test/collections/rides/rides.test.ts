import { MESSAGES, newId, SYNC_SCHEMAS } from '@fankurve/shared';
import { rideAnswer, ridesAnswer } from '@fankurve/shared/collections/rides/answers';
import type { RideDoc } from '@fankurve/shared/collections/rides/collection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from '../../helpers.js';

/** Rides members offer to an event (docs/product.md, Rides): REST and sync, one set of rules. */

type Wire = RideDoc & { _deleted: boolean };

let t: TestApp;
let admin: string;
let driver: { id: string; token: string };
let other: { id: string; token: string };
let eventId: string;
let commits: Commit[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  driver = await t.member('ride-driver');
  other = await t.member('ride-passenger');
  eventId = (await createEventVia(t, admin, { title: 'Hertha – Union (A)', date: '2030-04-02 18:30' })).id;
  commits = [];
  t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
});
afterAll(() => t.close());

const ride = { seats: 3, departure_location: '  Ostkreuz, Ausgang Sonntagstraße ', departure_datetime: '2030-04-02 15:10' };
const offer = (body: Record<string, unknown>, token: string | null = driver.token, event = eventId) =>
  t.call('POST', `/api/events/${event}/rides`, { token, body });
const offered = async (body: Record<string, unknown> = ride, token = driver.token) => {
  const res = await offer(body, token);
  expect(res.status).toBe(201);
  return res.body.ride as { id: string; [key: string]: unknown };
};
/** What a refused call must leave as it was: every ride and the seq counters. */
const state = async () => ({
  rows: await t.db.selectFrom('rides').selectAll().orderBy('id').execute(),
  counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
});
const eventTypes = () => commits.flatMap((commit) => commit.events.map((event) => event.type));
const base = `/api/sync/rides/${SYNC_SCHEMAS.rides.version}`;
const pull = async (token: string) => {
  const res = await t.call('POST', `${base}/pull`, { token, body: { checkpoint: null, limit: 1000 } });
  expect(res.status).toBe(200);
  return res.body.documents as Wire[];
};
const push = async (token: string, rows: { assumedMasterState: unknown; newDocumentState: unknown }[]) => {
  const res = await t.call('POST', `${base}/push`, { token, body: rows });
  expect(res.status).toBe(200);
  return res.body as Wire[];
};
/** A ride as a device makes it, offline: a fresh id, seq 0. */
const deviceRide = (driverId: string, fields: Partial<RideDoc> = {}): RideDoc => ({
  id: newId(),
  event_id: eventId,
  driver_id: driverId,
  seats: 2,
  departure_location: 'Karlshorst',
  departure_datetime: '2030-04-02 16:00:00',
  drives_back: true,
  note: null,
  cost_share_cents: 500,
  seats_taken: 0,
  created_at: '2030-03-01T10:00:00.000Z',
  updated_at: '2030-03-01T10:00:00.000Z',
  seq: 0,
  ...fields,
});
const noticesOf = (userId: string) => t.db.selectFrom('notices').selectAll().where('user_id', '=', userId).execute();

describe('POST /api/events/{id}/rides', () => {
  it('offers a ride as its driver: the place trimmed, to the minute, not driving back by default', async () => {
    commits = [];
    const answer = await t.callTyped(rideAnswer, 'POST', `/api/events/${eventId}/rides`, {
      token: driver.token,
      body: { ...ride, note: ' Platz für Fahnen\r\nRaucherfrei ', cost_share_cents: 750 },
      status: 201,
    });
    expect(answer).toEqual({
      success: true,
      message: MESSAGES.rideSaved,
      ride: {
        id: expect.any(String),
        event_id: eventId,
        driver_id: driver.id,
        driver_username: 'ride-driver',
        seats: 3,
        departure_location: 'Ostkreuz, Ausgang Sonntagstraße',
        departure_datetime: '2030-04-02 15:10:00',
        drives_back: false,
        note: 'Platz für Fahnen\nRaucherfrei',
        cost_share_cents: 750,
        seats_taken: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(eventTypes()).toEqual(['ride.offered']);
  });

  it.each([
    ['no seats', { seats: 0 }, 'rideSeatsInvalid'],
    ['too many seats', { seats: 9 }, 'rideSeatsInvalid'],
    ['half a seat', { seats: 1.5 }, 'rideSeatsInvalid'],
    ['seats as text', { seats: '2' }, 'rideSeatsInvalid'],
    ['a blank place', { departure_location: '   ' }, 'rideLocationRequired'],
    ['a place with a control character', { departure_location: 'Ost\u0007kreuz' }, 'textHasControlCharacters'],
    ['a place too long', { departure_location: 'x'.repeat(121) }, 'invalidInput'],
    ['no date', { departure_datetime: 'morgen früh' }, 'departureInvalid'],
    ['a date out of range', { departure_datetime: '9999-01-01 10:00' }, 'dateOutOfRange'],
    ['a departure after the kick-off', { departure_datetime: '2030-04-02 18:31' }, 'rideDepartsAfterEvent'],
    ['a note too long', { note: 'x'.repeat(501) }, 'invalidInput'],
    ['a negative cost share', { cost_share_cents: -1 }, 'rideCostShareInvalid'],
    ['a cost share over 100 €', { cost_share_cents: 10_001 }, 'rideCostShareInvalid'],
    ['a cost share in part cents', { cost_share_cents: 1.5 }, 'rideCostShareInvalid'],
  ] as const)('refuses %s with 400 and its message, changing nothing', async (_, fields, code) => {
    const before = await state();
    const res = await offer({ ...ride, ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES[code] });
    expect(await state()).toEqual(before);
  });

  it('refuses an unknown, deleted or archived event with 404, and anonymous callers with 401', async () => {
    const gone = (await createEventVia(t, admin, { title: 'Abgesagt (A)' })).id;
    expect((await t.call('DELETE', `/api/events/${gone}`, { token: admin })).status).toBe(200);
    const before = await state();
    for (const event of ['no-such-event', gone]) {
      expect(await offer(ride, driver.token, event)).toMatchObject({ status: 404, body: { message: MESSAGES.eventNotFound } });
    }
    expect((await offer(ride, null)).status).toBe(401);
    expect(await state()).toEqual(before);
  });

  it('refuses a ride to an event that is over, and a change of one, with 409, changing nothing', async () => {
    const later = (await createEventVia(t, admin, { title: 'Vorbei (H)', date: '2030-04-02 18:30' })).id;
    const res = await offer(ride, driver.token, later);
    expect(res.status).toBe(201);
    // The event's day moves into the past: the ride can neither be offered nor changed any more.
    await t.db.updateTable('events').set({ date: '2020-01-01 15:30:00' }).where('id', '=', later).execute();
    const before = await state();
    const past = { ...ride, departure_datetime: '2020-01-01 12:00' };
    expect(await offer(past, driver.token, later)).toMatchObject({ status: 409, body: { message: MESSAGES.eventIsPast } });
    const change = await t.call('PUT', `/api/rides/${res.body.ride.id}`, { token: driver.token, body: { seats: 2 } });
    expect(change).toMatchObject({ status: 409, body: { message: MESSAGES.eventIsPast } });
    expect(await state()).toEqual(before);
  });
});

describe('GET /api/events/{id}/rides', () => {
  it("lists the event's live rides for every member, soonest departure first", async () => {
    const event = (await createEventVia(t, admin, { title: 'Leipzig – Union (A)', date: '2030-05-01 15:30' })).id;
    const late = (await offer({ ...ride, departure_datetime: '2030-05-01 11:00' }, other.token, event)).body.ride.id;
    const early = (await offer({ ...ride, departure_datetime: '2030-05-01 08:00' }, driver.token, event)).body.ride.id;
    const cancelled = (await offer({ ...ride, departure_datetime: '2030-05-01 07:00' }, driver.token, event)).body.ride.id;
    expect((await t.call('DELETE', `/api/rides/${cancelled}`, { token: driver.token })).status).toBe(200);
    for (const token of [driver.token, other.token, admin]) {
      const { rides } = await t.callTyped(ridesAnswer, 'GET', `/api/events/${event}/rides`, { token });
      expect(rides.map((r) => [r.id, r.driver_username])).toEqual([
        [early, 'ride-driver'],
        [late, 'ride-passenger'],
      ]);
    }
    expect((await t.call('GET', `/api/events/${event}/rides`)).status).toBe(401);
    expect((await t.call('GET', '/api/events/no-such-event/rides', { token: other.token })).status).toBe(404);
  });
});

describe('PUT /api/rides/{id}', () => {
  it('lets the driver change any field; the same values again take no seq and record nothing', async () => {
    const { id } = await offered();
    const res = await t.call('PUT', `/api/rides/${id}`, {
      token: driver.token,
      body: { seats: 4, drives_back: true, cost_share_cents: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.ride).toMatchObject({
      seats: 4,
      drives_back: true,
      cost_share_cents: null,
      departure_location: 'Ostkreuz, Ausgang Sonntagstraße',
    });
    commits = [];
    const before = await state();
    expect((await t.call('PUT', `/api/rides/${id}`, { token: driver.token, body: { seats: 4 } })).status).toBe(200);
    expect(await state()).toEqual(before);
    expect(eventTypes()).toEqual([]);
  });

  it('refuses another member and an admin with 403, bad input with 400, an unknown ride with 404', async () => {
    const { id } = await offered();
    const before = await state();
    for (const token of [other.token, admin]) {
      expect((await t.call('PUT', `/api/rides/${id}`, { token, body: { seats: 1 } })).status).toBe(403);
    }
    expect(await t.call('PUT', `/api/rides/${id}`, { token: driver.token, body: { seats: 12 } })).toMatchObject({
      status: 400,
      body: { message: MESSAGES.rideSeatsInvalid },
    });
    expect(await t.call('PUT', '/api/rides/no-such-ride', { token: driver.token, body: { seats: 1 } })).toMatchObject({
      status: 404,
      body: { message: MESSAGES.rideNotFound },
    });
    expect(await state()).toEqual(before);
  });
});

describe('DELETE /api/rides/{id}', () => {
  it('lets the driver cancel and an admin remove; another member gets 403; the devices get a tombstone', async () => {
    const mine = await offered();
    const removed = await offered();
    const before = await state();
    expect((await t.call('DELETE', `/api/rides/${mine.id}`, { token: other.token })).status).toBe(403);
    expect(await state()).toEqual(before);
    commits = [];
    expect(await t.call('DELETE', `/api/rides/${mine.id}`, { token: driver.token })).toMatchObject({
      status: 200,
      body: { success: true, message: MESSAGES.rideCancelled },
    });
    expect((await t.call('DELETE', `/api/rides/${removed.id}`, { token: admin })).status).toBe(200);
    expect(commits.flatMap((c) => c.events)).toMatchObject([
      { type: 'ride.cancelled', rideId: mine.id, by: 'driver' },
      { type: 'ride.cancelled', rideId: removed.id, by: 'admin' },
    ]);
    const docs = await pull(other.token);
    for (const id of [mine.id, removed.id]) expect(docs.find((doc) => doc.id === id)).toMatchObject({ _deleted: true });
    expect((await t.call('DELETE', `/api/rides/${mine.id}`, { token: driver.token })).status).toBe(404);
  });
});

describe('the rides sync collection', () => {
  it('gives every member every ride, and takes a ride a device offered offline', async () => {
    const phone = deviceRide(other.id);
    const [answer] = await push(other.token, [{ assumedMasterState: null, newDocumentState: phone }]);
    expect(answer).toMatchObject({
      id: phone.id,
      driver_id: other.id,
      seats: 2,
      drives_back: true,
      cost_share_cents: 500,
      _deleted: false,
    });
    expect(answer!.seq).toBeGreaterThan(0);
    for (const token of [driver.token, admin]) expect((await pull(token)).find((doc) => doc.id === phone.id)).toEqual(answer);

    const [changed] = await push(other.token, [
      { assumedMasterState: answer, newDocumentState: { ...answer, seats: 1, note: 'Nur Hinfahrt' } },
    ]);
    expect(changed).toMatchObject({ seats: 1, note: 'Nur Hinfahrt' });
    // Cancelled as the device asked: nothing to answer.
    expect(await push(other.token, [{ assumedMasterState: changed, newDocumentState: { ...changed, _deleted: true } }])).toEqual(
      [],
    );
    expect((await pull(driver.token)).find((doc) => doc.id === phone.id)).toMatchObject({ _deleted: true });
  });

  it('refuses with a notice an offer in another member’s name, one breaking the rules, and a change to a ride an admin removed', async () => {
    const notices = (await noticesOf(driver.id)).length;
    const foreign = deviceRide(other.id);
    const tooMany = deviceRide(driver.id, { seats: 20 });
    const answers = await push(driver.token, [
      { assumedMasterState: null, newDocumentState: foreign },
      { assumedMasterState: null, newDocumentState: tooMany },
    ]);
    // A refused create comes back as a deletion: the device drops it.
    expect(answers.map((doc) => [doc.id, doc._deleted])).toEqual([
      [foreign.id, true],
      [tooMany.id, true],
    ]);
    expect(await t.db.selectFrom('rides').select('id').where('id', 'in', [foreign.id, tooMany.id]).execute()).toEqual([]);

    const [mine] = await push(driver.token, [{ assumedMasterState: null, newDocumentState: deviceRide(driver.id) }]);
    expect((await t.call('DELETE', `/api/rides/${mine!.id}`, { token: admin })).status).toBe(200);
    const [back] = await push(driver.token, [{ assumedMasterState: mine, newDocumentState: { ...mine, seats: 3 } }]);
    expect(back).toMatchObject({ id: mine!.id, _deleted: true });
    const added = (await noticesOf(driver.id)).slice(notices);
    expect(added.map((n) => [n.action, n.event_id])).toEqual([
      ['ride.offer', eventId],
      ['ride.offer', eventId],
      ['ride.change', eventId],
    ]);
  });

  it("ends a ride with its event and with its driver's account", async () => {
    const event = (await createEventVia(t, admin, { title: 'Bochum – Union (A)', date: '2030-06-01 15:30' })).id;
    const leaving = await t.member('ride-leaver');
    const withEvent = (await offer({ ...ride, departure_datetime: '2030-06-01 09:00' }, driver.token, event)).body.ride.id;
    const withDriver = (await offer(ride, leaving.token)).body.ride.id;
    expect((await t.call('DELETE', `/api/events/${event}`, { token: admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/auth/users/${leaving.id}`, { token: admin })).status).toBe(200);
    const docs = await pull(other.token);
    for (const id of [withEvent, withDriver]) expect(docs.find((doc) => doc.id === id)).toMatchObject({ _deleted: true });
    expect(await t.db.selectFrom('rides').select('deleted').where('id', 'in', [withEvent, withDriver]).execute()).toEqual([
      { deleted: 1 },
      { deleted: 1 },
    ]);
  });
});
