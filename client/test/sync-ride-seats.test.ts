import type { NoticeDoc } from '@fankurve/shared';
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rides$, writes } from '../src/collections/rides/data.js';
import { LocalRuleError } from '../src/data/device.js';
import { kindOf } from '../src/data/pushedGroup.js';
import { createEventVia, createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/*
 * Seats in rides on members' devices (docs/product.md, Rides; docs/architecture.md, Seats in rides):
 * a passenger asks offline and the ask lands after reconnecting; the driver's device shows it with
 * the passenger's name and accepts it; the passenger's device shows the answer. An ask for a seat
 * that another member took meanwhile is refused when it arrives: undone on the device, with a notice.
 */
describe('sync: seats in rides', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let counter = 0;
  let open: TestClient[] = [];
  const TODAY = '2030-01-01';

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
  });

  // The open-source RxDB allows 13 collections per process: each test's devices go when it ends.
  afterEach(async () => {
    for (const device of open) await device.close();
    open = [];
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const device = async (token: string) => {
    const client = await TestClient.connect(server.url, token, ['events', 'members', 'rides', 'ride_seats', 'notices']);
    open.push(client);
    return client;
  };
  const on = (client: TestClient) => ({ db: client.db, docs: client.docs, outbox: client.outbox });
  const shown = async (client: TestClient, eventId: string, user: { id: string; username: string }) =>
    firstValueFrom(rides$(client.db, client.docs, eventId, user));
  const serverSeat = (id: string) => t.db.selectFrom('ride_seats').selectAll().where('id', '=', id).executeTakeFirst();

  /** An event with a ride of `seats` seats; its driver and a passenger, each with a device that has both. */
  async function setUp(seats: number) {
    const n = ++counter;
    const event = (await createEventVia(t, admin, { title: `Bochum – Union ${n} (A)`, date: '2030-03-01 15:30' })).id as string;
    const driver = { ...(await t.member(`seat-driver-${n}`)), username: `seat-driver-${n}` };
    const passenger = { ...(await t.member(`seat-passenger-${n}`)), username: `seat-passenger-${n}` };
    const offered = await t.call('POST', `/api/events/${event}/rides`, {
      token: driver.token,
      body: { seats, departure_location: 'Hauptbahnhof', departure_datetime: '2030-03-01 10:00' },
    });
    expect(offered.status).toBe(201);
    const rideId = offered.body.ride.id as string;
    const car = await device(driver.token);
    const phone = await device(passenger.token);
    for (const client of [car, phone])
      await eventually(async () => {
        expect(await kindOf(client.db, 'rides').findOne(rideId).exec()).not.toBeNull();
        expect(await client.stored('events', event)).toBeTruthy();
        expect((await client.storedAll('members')).map((member) => member.id)).toEqual(
          expect.arrayContaining([driver.id, passenger.id]),
        );
      });
    return { eventId: event, rideId, driver, passenger, car, phone };
  }

  it('an ask made offline lands after reconnecting; the driver accepts it on the device; both see it', async () => {
    const { eventId, rideId, driver, passenger, car, phone } = await setUp(3);

    await phone.goOffline();
    const failed = phone.nextPushFailure('ride_seats');
    const id = await writes.askSeat(on(phone), passenger.id, rideId, { seats: 2, note: ' Mit Rucksack ' }, TODAY);
    await failed;
    // On the device the ask holds its seats at once and waits; the server has not heard of it.
    const mine = (await shown(phone, eventId, passenger)).find((ride) => ride.id === rideId)!;
    expect(mine).toMatchObject({ seats: 3, seats_taken: 0, taken: 2 });
    expect(mine.asks).toEqual([
      expect.objectContaining({
        id,
        passenger_id: passenger.id,
        own: true,
        seats: 2,
        note: 'Mit Rucksack',
        state: 'asked',
        seq: 0,
      }),
    ]);
    expect(phone.outbox.size).toBeGreaterThan(0);
    expect(await serverSeat(id)).toBeUndefined();
    // A second ask of the same ride is refused on the device too.
    await expect(writes.askSeat(on(phone), passenger.id, rideId, { seats: 1, note: null }, TODAY)).rejects.toEqual(
      new LocalRuleError('rideSeatAlreadyAsked'),
    );

    phone.goOnline();
    await eventually(async () => expect(await serverSeat(id)).toMatchObject({ state: 'asked', seats: 2, deleted: 0 }));
    await phone.inSync();
    expect(phone.outbox.size).toBe(0);

    // The driver's device shows the ask with the passenger's name and the seats taken, and accepts it.
    await eventually(async () => {
      const ride = (await shown(car, eventId, driver)).find((r) => r.id === rideId)!;
      expect(ride).toMatchObject({ own: true, seats_taken: 2, taken: 2 });
      expect(ride.asks).toEqual([
        expect.objectContaining({ id, passenger_name: passenger.username, own: false, state: 'asked' }),
      ]);
    });
    await writes.answerSeat(on(car), driver.id, id, 'accepted');
    await eventually(async () => expect(await serverSeat(id)).toMatchObject({ state: 'accepted' }));
    await eventually(async () => {
      const ride = (await shown(phone, eventId, passenger)).find((r) => r.id === rideId)!;
      expect(ride.asks).toEqual([expect.objectContaining({ id, state: 'accepted' })]);
      expect(ride).toMatchObject({ seats_taken: 2, taken: 2 });
    });

    // Only the driver answers, only the passenger cancels.
    await expect(writes.answerSeat(on(phone), passenger.id, id, 'declined')).rejects.toEqual(new LocalRuleError('forbidden'));
    await expect(writes.cancelSeat(on(car), driver.id, id)).rejects.toEqual(new LocalRuleError('forbidden'));
    await writes.cancelSeat(on(phone), passenger.id, id);
    await eventually(async () => expect(await serverSeat(id)).toMatchObject({ deleted: 1 }));
    await eventually(async () => {
      const ride = (await shown(car, eventId, driver)).find((r) => r.id === rideId)!;
      expect(ride).toMatchObject({ seats_taken: 0, asks: [] });
    });
  });

  it('refuses on the device what the rules refuse', async () => {
    const { rideId, driver, passenger, car, phone } = await setUp(2);
    const refused = (promise: Promise<unknown>, code: string) => expect(promise).rejects.toEqual(new LocalRuleError(code));
    await refused(writes.askSeat(on(car), driver.id, rideId, { seats: 1, note: null }, TODAY), 'rideOwnSeat');
    await refused(writes.askSeat(on(phone), passenger.id, rideId, { seats: 0, note: null }, TODAY), 'rideSeatsAskedInvalid');
    await refused(writes.askSeat(on(phone), passenger.id, rideId, { seats: 3, note: null }, TODAY), 'rideSeatsAskedInvalid');
    await refused(writes.askSeat(on(phone), passenger.id, rideId, { seats: 1, note: 'a\nb' }, TODAY), 'textHasControlCharacters');
    await refused(writes.askSeat(on(phone), passenger.id, rideId, { seats: 1, note: null }, '2030-03-02'), 'eventIsPast');
    expect(phone.outbox.size).toBe(0);
  });

  it('an offline ask for a seat another member took meanwhile is refused when it arrives: undone on the device, with a notice', async () => {
    const { eventId, rideId, passenger, phone } = await setUp(1);
    const rival = await t.member(`seat-rival-${counter}`);

    await phone.goOffline();
    const failed = phone.nextPushFailure('ride_seats');
    const id = await writes.askSeat(on(phone), passenger.id, rideId, { seats: 1, note: null }, TODAY);
    await failed;
    expect((await shown(phone, eventId, passenger)).find((r) => r.id === rideId)).toMatchObject({ taken: 1 });
    // Another member's ask reaches the server first and takes the last seat.
    expect((await t.call('POST', `/api/rides/${rideId}/seats`, { token: rival.token, body: { seats: 1 } })).status).toBe(201);

    phone.goOnline();
    await eventually(async () => {
      const notices = (await kindOf(phone.db, 'notices').find().exec()).map((doc) => doc.toJSON() as NoticeDoc);
      expect(notices).toEqual([
        expect.objectContaining({ action: 'rideSeat.ask', code: 'rideFull', event_id: eventId, is_read: false }),
      ]);
    });
    await eventually(async () => {
      const ride = (await shown(phone, eventId, passenger)).find((r) => r.id === rideId)!;
      expect(ride).toMatchObject({ seats_taken: 1, taken: 1, asks: [] });
    });
    expect(await serverSeat(id)).toBeUndefined();
  });
});
