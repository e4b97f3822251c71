import { MESSAGES, newId, SYNC_SCHEMAS } from '@fankurve/shared';
import { rideSeatAnswer, ridesAnswer } from '@fankurve/shared/collections/rides/answers';
import type { RideSeatDoc } from '@fankurve/shared/collections/rides/collection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../../src/db/store.js';
import { createEventVia, createTestApp, type TestApp } from '../../helpers.js';

/**
 * Seats in members' rides (docs/product.md, Rides; docs/architecture.md, Seats in rides): REST and
 * sync, one set of rules; who sees which ask; the last seat asked by two at once.
 */

type Wire = RideSeatDoc & { _deleted: boolean };
interface Member {
  id: string;
  token: string;
}

let t: TestApp;
let admin: string;
let driver: Member;
let anna: Member;
let ben: Member;
let carl: Member;
let outsider: Member;
let eventId: string;
let commits: Commit[];

const EVENT_DATE = '2030-04-02 18:30';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  driver = await t.member('seat-driver');
  anna = await t.member('seat-anna');
  ben = await t.member('seat-ben');
  carl = await t.member('seat-carl');
  outsider = await t.member('seat-outsider');
  eventId = (await createEventVia(t, admin, { title: 'Hertha – Union (A)', date: EVENT_DATE })).id;
  commits = [];
  t.runtime.deps.store.commits.subscribe((commit) => void commits.push(commit));
});
afterAll(() => t.close());

/** A ride the driver offers to the event (or another), with `seats` seats. */
async function rideWith(seats: number, event = eventId, by: Member = driver): Promise<string> {
  const res = await t.call('POST', `/api/events/${event}/rides`, {
    token: by.token,
    body: { seats, departure_location: 'Ostkreuz', departure_datetime: '2030-04-02 15:00' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.ride.id as string;
}
const ask = (rideId: string, body: Record<string, unknown>, token: string | null) =>
  t.call('POST', `/api/rides/${rideId}/seats`, { token, body });
async function asked(rideId: string, who: Member, seats = 1, note?: string): Promise<string> {
  const res = await ask(rideId, { seats, ...(note === undefined ? {} : { note }) }, who.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.seat.id as string;
}
const answer = (rideId: string, seatId: string, state: unknown, token: string | null) =>
  t.call('PUT', `/api/rides/${rideId}/seats/${seatId}`, { token, body: { state } });
const cancel = (rideId: string, seatId: string, token: string | null) =>
  t.call('DELETE', `/api/rides/${rideId}/seats/${seatId}`, { token });

/** A ride as GET /api/events/{id}/rides answers it (seats and seats taken). */
async function rideOf(rideId: string, event = eventId) {
  const { rides } = await t.callTyped(ridesAnswer, 'GET', `/api/events/${event}/rides`, { token: outsider.token });
  return rides.find((ride) => ride.id === rideId);
}
/** What a refused call must leave as it was: every ask, every ride and the seq counters. */
const state = async () => ({
  seats: await t.db.selectFrom('ride_seats').selectAll().orderBy('id').execute(),
  rides: await t.db.selectFrom('rides').selectAll().orderBy('id').execute(),
  counters: await t.db.selectFrom('counters').selectAll().orderBy('name').execute(),
});
const eventTypes = () => commits.flatMap((commit) => commit.events.map((event) => event.type));
const base = `/api/sync/ride_seats/${SYNC_SCHEMAS.ride_seats.version}`;
async function pull(token: string, after = 0): Promise<Wire[]> {
  const res = await t.call('POST', `${base}/pull`, { token, body: { checkpoint: after ? { seq: after } : null, limit: 1000 } });
  expect(res.status).toBe(200);
  return res.body.documents as Wire[];
}
const live = (docs: Wire[]) => docs.filter((doc) => !doc._deleted);
async function push(token: string, rows: { assumedMasterState: unknown; newDocumentState: unknown }[]): Promise<Wire[]> {
  const res = await t.call('POST', `${base}/push`, { token, body: rows });
  expect(res.status).toBe(200);
  return res.body as Wire[];
}
/** An ask as a device makes it, offline: a fresh id, seq 0. */
const deviceAsk = (rideId: string, passengerId: string, fields: Partial<RideSeatDoc> = {}): RideSeatDoc => ({
  id: newId(),
  ride_id: rideId,
  event_id: eventId,
  passenger_id: passengerId,
  seats: 1,
  note: null,
  state: 'asked',
  created_at: '2030-03-01T10:00:00.000Z',
  updated_at: '2030-03-01T10:00:00.000Z',
  seq: 0,
  ...fields,
});
const noticesOf = (userId: string) =>
  t.db.selectFrom('notices').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

describe('POST /api/rides/{id}/seats', () => {
  it('asks for seats with a note; the ask holds them at once and the ride shows them taken', async () => {
    const ride = await rideWith(3);
    commits = [];
    const res = await t.callTyped(rideSeatAnswer, 'POST', `/api/rides/${ride}/seats`, {
      token: anna.token,
      body: { seats: 2, note: '  Mit Fahne  ' },
      status: 201,
    });
    expect(res).toEqual({
      success: true,
      message: MESSAGES.rideSeatAsked,
      seat: {
        id: expect.any(String),
        ride_id: ride,
        event_id: eventId,
        passenger_id: anna.id,
        seats: 2,
        note: 'Mit Fahne',
        state: 'asked',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(eventTypes()).toEqual(['rideSeat.asked']);
    expect(await rideOf(ride)).toMatchObject({ seats: 3, seats_taken: 2 });
    // One seat is left: two more do not fit, one does.
    expect(await ask(ride, { seats: 2 }, ben.token)).toMatchObject({ status: 409, body: { message: MESSAGES.rideFull } });
    await asked(ride, ben, 1);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 3 });
  });

  it.each([
    ['no seats', { seats: 0 }, 400, 'rideSeatsAskedInvalid'],
    ['nine seats', { seats: 9 }, 400, 'rideSeatsAskedInvalid'],
    ['more seats than the car has', { seats: 3 }, 400, 'rideSeatsAskedInvalid'],
    ['half a seat', { seats: 1.5 }, 400, 'rideSeatsAskedInvalid'],
    ['seats as text', { seats: '1' }, 400, 'rideSeatsAskedInvalid'],
    ['no seats given', {}, 400, 'rideSeatsAskedInvalid'],
    ['a note with a control character', { seats: 1, note: 'Hallo\u0007' }, 400, 'textHasControlCharacters'],
    ['a note with a line break', { seats: 1, note: 'Zwei\nZeilen' }, 400, 'textHasControlCharacters'],
    ['a note with a direction override', { seats: 1, note: 'gpj.\u202Eexe' }, 400, 'textHasControlCharacters'],
    ['a note too long', { seats: 1, note: 'x'.repeat(121) }, 400, 'invalidInput'],
  ] as const)('refuses %s with its message, changing nothing', async (_, body, status, code) => {
    const ride = await rideWith(2);
    const before = await state();
    const res = await ask(ride, body, carl.token);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES[code] });
    expect(await state()).toEqual(before);
  });

  it('refuses the driver, a second ask, a past or gone event, an unknown ride and anonymous callers, changing nothing', async () => {
    const ride = await rideWith(3);
    await asked(ride, carl, 1);
    // A ride to an event that is over by now (its day moved into the past after the ride was offered).
    const past = (await createEventVia(t, admin, { title: 'Vorbei (H)', date: EVENT_DATE })).id;
    const pastRide = { body: { ride: { id: await rideWith(2, past) } } };
    await t.db.updateTable('events').set({ date: '2020-01-01 15:30:00' }).where('id', '=', past).execute();
    const gone = (await createEventVia(t, admin, { title: 'Abgesagt (A)', date: EVENT_DATE })).id;
    const goneRide = await rideWith(2, gone);
    expect((await t.call('DELETE', `/api/events/${gone}`, { token: admin })).status).toBe(200);
    const before = await state();
    expect(await ask(ride, { seats: 1 }, driver.token)).toMatchObject({ status: 400, body: { message: MESSAGES.rideOwnSeat } });
    expect(await ask(ride, { seats: 1 }, carl.token)).toMatchObject({
      status: 409,
      body: { message: MESSAGES.rideSeatAlreadyAsked },
    });
    expect(await ask(pastRide.body.ride.id, { seats: 1 }, carl.token)).toMatchObject({
      status: 409,
      body: { message: MESSAGES.eventIsPast },
    });
    expect(await ask(goneRide, { seats: 1 }, carl.token)).toMatchObject({
      status: 404,
      body: { message: MESSAGES.rideNotFound },
    });
    expect(await ask('no-such-ride', { seats: 1 }, carl.token)).toMatchObject({
      status: 404,
      body: { message: MESSAGES.rideNotFound },
    });
    expect((await ask(ride, { seats: 1 }, null)).status).toBe(401);
    expect(await state()).toEqual(before);
  });

  it('gives the last seat to exactly one of two members asking at once', async () => {
    const ride = await rideWith(1);
    const answers = await Promise.all([ask(ride, { seats: 1 }, anna.token), ask(ride, { seats: 1 }, ben.token)]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(answers.find((res) => res.status === 409)!.body.message).toBe(MESSAGES.rideFull);
    const rows = await t.db.selectFrom('ride_seats').select('passenger_id').where('ride_id', '=', ride).execute();
    expect(rows).toHaveLength(1);
    expect(await rideOf(ride)).toMatchObject({ seats: 1, seats_taken: 1 });
  });
});

describe('PUT /api/rides/{id}/seats/{seatId}', () => {
  it('lets the driver accept and decline; a declined ask frees its seats and stays declined', async () => {
    const ride = await rideWith(2);
    const seat = await asked(ride, anna, 2);
    commits = [];
    const accepted = await t.callTyped(rideSeatAnswer, 'PUT', `/api/rides/${ride}/seats/${seat}`, {
      token: driver.token,
      body: { state: 'accepted' },
      status: 200,
    });
    expect(accepted).toMatchObject({ message: MESSAGES.rideSeatAnswered, seat: { id: seat, state: 'accepted', seats: 2 } });
    // The same answer again changes nothing.
    const before = await state();
    expect((await answer(ride, seat, 'accepted', driver.token)).status).toBe(200);
    expect(await state()).toEqual(before);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 2 });
    // The driver may decline an accepted ask too: the seats are free again.
    expect((await answer(ride, seat, 'declined', driver.token)).body.seat.state).toBe('declined');
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 0 });
    expect(eventTypes()).toEqual(['rideSeat.answered', 'rideSeat.answered']);
    const declined = await state();
    expect(await answer(ride, seat, 'accepted', driver.token)).toMatchObject({
      status: 409,
      body: { message: MESSAGES.rideSeatDeclined },
    });
    // One live ask per member and ride: a declined one still counts until the member cancels it.
    expect((await ask(ride, { seats: 1 }, anna.token)).status).toBe(409);
    expect(await state()).toEqual(declined);
  });

  it('refuses the passenger and other members with 403, bad answers with 400, a seat of another ride with 404; lets an admin answer', async () => {
    const ride = await rideWith(2);
    const other = await rideWith(2);
    const seat = await asked(ride, anna, 1);
    const before = await state();
    for (const token of [anna.token, ben.token]) expect((await answer(ride, seat, 'accepted', token)).status).toBe(403);
    expect((await answer(ride, seat, 'accepted', null)).status).toBe(401);
    for (const bad of ['asked', 'maybe', null, 1])
      expect(await answer(ride, seat, bad, driver.token)).toMatchObject({
        status: 400,
        body: { message: MESSAGES.invalidInput },
      });
    expect(await answer(other, seat, 'accepted', driver.token)).toMatchObject({
      status: 404,
      body: { message: MESSAGES.rideSeatNotFound },
    });
    expect(await state()).toEqual(before);
    expect((await answer(ride, seat, 'declined', admin)).status).toBe(200);
  });
});

describe('DELETE /api/rides/{id}/seats/{seatId}', () => {
  it('lets the passenger cancel and an admin remove; the driver and other members get 403', async () => {
    const ride = await rideWith(3);
    const annas = await asked(ride, anna, 2);
    const bens = await asked(ride, ben, 1);
    const before = await state();
    for (const token of [driver.token, carl.token]) expect((await cancel(ride, annas, token)).status).toBe(403);
    expect((await cancel(ride, annas, null)).status).toBe(401);
    expect(await state()).toEqual(before);
    commits = [];
    expect(await cancel(ride, annas, anna.token)).toMatchObject({ status: 200, body: { message: MESSAGES.rideSeatCancelled } });
    expect((await cancel(ride, bens, admin)).status).toBe(200);
    expect(commits.flatMap((c) => c.events)).toMatchObject([
      { type: 'rideSeat.cancelled', seatId: annas, by: 'passenger' },
      { type: 'rideSeat.cancelled', seatId: bens, by: 'admin' },
    ]);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 0 });
    expect((await cancel(ride, annas, anna.token)).status).toBe(404);
    // Cancelled, the member may ask again.
    await asked(ride, anna, 3);
  });
});

describe('the ride and its asks', () => {
  it('refuses lowering the seats below those held, changing nothing; down to them is fine', async () => {
    const ride = await rideWith(4);
    await asked(ride, anna, 2);
    await asked(ride, ben, 1);
    const before = await state();
    expect(await t.call('PUT', `/api/rides/${ride}`, { token: driver.token, body: { seats: 2 } })).toMatchObject({
      status: 409,
      body: { message: MESSAGES.rideSeatsBelowTaken },
    });
    expect(await state()).toEqual(before);
    expect((await t.call('PUT', `/api/rides/${ride}`, { token: driver.token, body: { seats: 3 } })).status).toBe(200);
    expect(await rideOf(ride)).toMatchObject({ seats: 3, seats_taken: 3 });
  });

  it('ends the asks with their ride and names the passengers it held seats for', async () => {
    const ride = await rideWith(3);
    const annas = await asked(ride, anna, 1);
    const bens = await asked(ride, ben, 1);
    expect((await answer(ride, bens, 'declined', driver.token)).status).toBe(200);
    commits = [];
    expect((await t.call('DELETE', `/api/rides/${ride}`, { token: driver.token })).status).toBe(200);
    expect(commits.flatMap((c) => c.events)).toMatchObject([{ type: 'ride.cancelled', passengerIds: [anna.id] }]);
    expect((await pull(anna.token)).find((doc) => doc.id === annas)).toEqual({
      id: annas,
      seq: expect.any(Number),
      _deleted: true,
    });
    expect(await t.db.selectFrom('ride_seats').select('deleted').where('ride_id', '=', ride).execute()).toEqual([
      { deleted: 1 },
      { deleted: 1 },
    ]);
  });

  it("frees the seats of a deleted account's asks and ends the asks of a deleted driver's ride", async () => {
    const leaving = await t.member('seat-leaver');
    const leavingDriver = await t.member('seat-leaving-driver');
    const ride = await rideWith(3);
    await asked(ride, leaving, 2);
    const otherRide = await rideWith(2, eventId, leavingDriver);
    const annas = await asked(otherRide, anna, 1);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 2 });
    for (const gone of [leaving, leavingDriver])
      expect((await t.call('DELETE', `/api/auth/users/${gone.id}`, { token: admin })).status).toBe(200);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 0 });
    expect((await pull(anna.token)).find((doc) => doc.id === annas)).toMatchObject({ _deleted: true });
  });
});

describe('who sees which ask', () => {
  it('shows the driver every ask, a passenger their own, and accepted passengers each other; nobody else any', async () => {
    const ride = await rideWith(4);
    const annas = await asked(ride, anna, 1, 'Bis Ostkreuz');
    const bens = await asked(ride, ben, 1);
    const carls = await asked(ride, carl, 1);
    for (const seat of [annas, bens]) expect((await answer(ride, seat, 'accepted', driver.token)).status).toBe(200);
    const ofRide = async (token: string, after = 0) =>
      live(await pull(token, after))
        .filter((doc) => doc.ride_id === ride)
        .map((doc) => doc.id)
        .sort();

    expect(await ofRide(driver.token)).toEqual([annas, bens, carls].sort());
    expect(await ofRide(anna.token)).toEqual([annas, bens].sort());
    expect(await ofRide(ben.token)).toEqual([annas, bens].sort());
    // Still asked: only their own.
    expect(await ofRide(carl.token)).toEqual([carls]);
    expect(await ofRide(outsider.token)).toEqual([]);
    expect(await ofRide(admin)).toEqual([]);
    // No passenger's name or id reaches those who may not see them, not even in a tombstone.
    const carlsPull = await pull(carl.token);
    expect(carlsPull.filter((doc) => doc.id !== carls && JSON.stringify(doc).includes(anna.id))).toEqual([]);
    expect(JSON.stringify(await pull(outsider.token))).not.toContain(anna.id);

    // Accepting carl shows him the others (their seqs are new), and them to him.
    const annaAt = Math.max(...(await pull(anna.token)).map((doc) => doc.seq));
    const carlAt = Math.max(...carlsPull.map((doc) => doc.seq));
    expect((await answer(ride, carls, 'accepted', driver.token)).status).toBe(200);
    expect(await ofRide(carl.token, carlAt)).toEqual([annas, bens, carls].sort());
    expect(await ofRide(anna.token, annaAt)).toEqual([annas, bens, carls].sort());

    // Declining ben: his device drops the others, theirs drop him.
    const benAt = Math.max(...(await pull(ben.token)).map((doc) => doc.seq));
    const annaNow = Math.max(...(await pull(anna.token)).map((doc) => doc.seq));
    expect((await answer(ride, bens, 'declined', driver.token)).status).toBe(200);
    const bensPull = (await pull(ben.token, benAt)).filter((doc) => [annas, bens, carls].includes(doc.id));
    expect(bensPull.filter((doc) => !doc._deleted).map((doc) => [doc.id, doc.state])).toEqual([[bens, 'declined']]);
    expect(
      bensPull
        .filter((doc) => doc._deleted)
        .map((doc) => doc.id)
        .sort(),
    ).toEqual([annas, carls].sort());
    const annasPull = await pull(anna.token, annaNow);
    expect(annasPull.find((doc) => doc.id === bens)).toEqual({ id: bens, seq: expect.any(Number), _deleted: true });
  });
});

describe('the ride_seats sync collection', () => {
  it('takes an ask a device made offline, the driver’s answer and the passenger’s cancel', async () => {
    const ride = await rideWith(2);
    const phone = deviceAsk(ride, anna.id, { seats: 2, note: ' Gepäck ', state: 'accepted' });
    const [created] = await push(anna.token, [{ assumedMasterState: null, newDocumentState: phone }]);
    // The server decides: a new ask is asked, whatever the device said.
    expect(created).toMatchObject({
      id: phone.id,
      passenger_id: anna.id,
      seats: 2,
      note: 'Gepäck',
      state: 'asked',
      _deleted: false,
    });
    expect(created!.seq).toBeGreaterThan(0);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 2 });

    const driversCopy = (await pull(driver.token)).find((doc) => doc.id === phone.id)!;
    expect(driversCopy).toEqual(created);
    const [accepted] = await push(driver.token, [
      { assumedMasterState: driversCopy, newDocumentState: { ...driversCopy, state: 'accepted' } },
    ]);
    expect(accepted).toMatchObject({ id: phone.id, state: 'accepted' });
    expect(accepted!.seq).toBeGreaterThan(driversCopy.seq);

    const annasCopy = (await pull(anna.token)).find((doc) => doc.id === phone.id)!;
    expect(annasCopy.state).toBe('accepted');
    expect(
      await push(anna.token, [{ assumedMasterState: annasCopy, newDocumentState: { ...annasCopy, _deleted: true } }]),
    ).toEqual([]);
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 0 });
  });

  it('refuses with a notice an ask in another’s name, a passenger answering, a driver deleting, and a full ride', async () => {
    const ride = await rideWith(1);
    const before = (await noticesOf(ben.id)).length;
    const foreign = deviceAsk(ride, anna.id);
    const tooMany = deviceAsk(ride, ben.id, { seats: 3 });
    const answers = await push(ben.token, [
      { assumedMasterState: null, newDocumentState: foreign },
      { assumedMasterState: null, newDocumentState: tooMany },
    ]);
    expect(answers.map((doc) => [doc.id, doc._deleted])).toEqual([
      [foreign.id, true],
      [tooMany.id, true],
    ]);
    const [own] = await push(ben.token, [{ assumedMasterState: null, newDocumentState: deviceAsk(ride, ben.id) }]);
    expect(own).toMatchObject({ state: 'asked', _deleted: false });
    // The passenger cannot answer their own ask; the driver cannot delete it (they decline).
    const [self] = await push(ben.token, [{ assumedMasterState: own, newDocumentState: { ...own, state: 'accepted' } }]);
    expect(self).toMatchObject({ id: own!.id, state: 'asked' });
    const driversCopy = (await pull(driver.token)).find((doc) => doc.id === own!.id)!;
    const [kept] = await push(driver.token, [
      { assumedMasterState: driversCopy, newDocumentState: { ...driversCopy, _deleted: true } },
    ]);
    expect(kept).toMatchObject({ id: own!.id, _deleted: false, state: 'asked' });
    // The ride is full now: anna's offline ask is refused when it arrives.
    const late = deviceAsk(ride, anna.id);
    const [refused] = await push(anna.token, [{ assumedMasterState: null, newDocumentState: late }]);
    expect(refused).toMatchObject({ id: late.id, _deleted: true });
    const annas = await noticesOf(anna.id);
    expect(annas.at(-1)).toMatchObject({ code: 'rideFull', action: 'rideSeat.ask', event_id: eventId });
    const bens = (await noticesOf(ben.id)).slice(before);
    expect(bens.map((n) => [n.code, n.action])).toEqual([
      ['forbidden', 'rideSeat.ask'],
      ['rideSeatsAskedInvalid', 'rideSeat.ask'],
      ['forbidden', 'rideSeat.answer'],
    ]);
    expect((await noticesOf(driver.id)).map((n) => [n.code, n.action])).toContainEqual(['forbidden', 'rideSeat.cancel']);
  });

  it('gives the last seat to exactly one of two devices pushing at once; the other gets a notice', async () => {
    const ride = await rideWith(1);
    const annas = deviceAsk(ride, anna.id);
    const bens = deviceAsk(ride, ben.id);
    const [a, b] = await Promise.all([
      push(anna.token, [{ assumedMasterState: null, newDocumentState: annas }]),
      push(ben.token, [{ assumedMasterState: null, newDocumentState: bens }]),
    ]);
    const outcomes = [a![0]!, b![0]!].map((doc) => doc._deleted).sort();
    expect(outcomes).toEqual([false, true]);
    const rows = await t.db.selectFrom('ride_seats').select('passenger_id').where('ride_id', '=', ride).execute();
    expect(rows).toHaveLength(1);
    const loser = rows[0]!.passenger_id === anna.id ? ben : anna;
    expect((await noticesOf(loser.id)).at(-1)).toMatchObject({ code: 'rideFull', action: 'rideSeat.ask' });
    expect(await rideOf(ride)).toMatchObject({ seats_taken: 1 });
  });
});
