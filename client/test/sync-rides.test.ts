import type { NoticeDoc } from '@fankurve/shared';
import type { RideDoc } from '@fankurve/shared/collections/rides/collection';
import { newId } from '@fankurve/shared/ids';
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rides$, writes, type RideInput } from '../src/collections/rides/data.js';
import { LocalRuleError } from '../src/data/device.js';
import { createEventVia, createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';
import { kindOf } from '../src/data/pushedGroup.js';

/*
 * Rides on members' devices (docs/product.md, Rides; docs/architecture.md, Adding a synced
 * collection): the driver offers a ride offline and it lands when the device is back online; another
 * member's device shows it with the driver's name; the driver changes and cancels it on the device.
 * The device refuses what `checkRide` refuses, an archived or unknown event and another member's
 * ride, with the server's codes; a change to a ride an admin removed meanwhile comes back refused
 * with a notice and the ride goes from the device.
 */
describe('sync: rides', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let counter = 0;
  let open: TestClient[] = [];

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

  const EVENT_DATE = '2030-03-01 15:30:00';
  const device = async (token: string) => {
    const client = await TestClient.connect(server.url, token, ['events', 'members', 'rides', 'notices']);
    open.push(client);
    return client;
  };
  const on = (client: TestClient) => ({ db: client.db, docs: client.docs, outbox: client.outbox });
  const shown = (client: TestClient, eventId: string, user: { id: string; username: string }) =>
    firstValueFrom(rides$(client.db, client.docs, eventId, user));
  const serverRide = (id: string) => t.db.selectFrom('rides').selectAll().where('id', '=', id).executeTakeFirst();
  const valid: RideInput = {
    seats: 3,
    departure_location: 'Hauptbahnhof',
    departure_datetime: '2030-03-01T09:40',
    drives_back: true,
    note: null,
    cost_share_cents: null,
  };

  /** An event, its driver and another member, each with a device that has the event and the members. */
  async function setUp() {
    const n = ++counter;
    const event = await createEventVia(t, admin, { title: `Bochum – Union ${n} (A)`, date: '2030-03-01 15:30' });
    const driver = await t.member(`ride-driver-${n}`);
    const other = await t.member(`ride-other-${n}`);
    const phone = await device(driver.token);
    const laptop = await device(other.token);
    for (const client of [phone, laptop])
      await eventually(async () => {
        expect(await client.stored('events', event.id)).toMatchObject({ date: EVENT_DATE });
        expect((await client.storedAll('members')).map((member) => member.id)).toEqual(
          expect.arrayContaining([driver.id, other.id]),
        );
      });
    return {
      eventId: event.id as string,
      driver: { ...driver, username: `ride-driver-${n}` },
      other: { ...other, username: `ride-other-${n}` },
      phone,
      laptop,
    };
  }

  it('a ride offered offline lands after reconnecting; another member sees it with its driver; the driver changes and cancels it', async () => {
    const { eventId, driver, other, phone, laptop } = await setUp();

    await phone.goOffline();
    const failed = phone.nextPushFailure('rides');
    const id = await writes.offerRide(on(phone), driver.id, eventId, {
      seats: 3,
      departure_location: '  Hauptbahnhof, Gleis 4 ',
      departure_datetime: '2030-03-01T09:40',
      drives_back: true,
      note: 'Treffpunkt\r\nam Parkplatz',
      cost_share_cents: 1250,
    });
    await failed;
    // On the device the ride is made (normalised by the shared rule) and waits; the server has not heard of it.
    expect(await shown(phone, eventId, driver)).toEqual([
      expect.objectContaining({
        id,
        event_id: eventId,
        driver_id: driver.id,
        driver_name: driver.username,
        own: true,
        seats: 3,
        departure_location: 'Hauptbahnhof, Gleis 4',
        departure_datetime: '2030-03-01 09:40:00',
        drives_back: true,
        note: 'Treffpunkt\nam Parkplatz',
        cost_share_cents: 1250,
      }),
    ]);
    expect(phone.outbox.size).toBeGreaterThan(0);
    expect(await serverRide(id)).toBeUndefined();

    phone.goOnline();
    await eventually(async () =>
      expect(await serverRide(id)).toMatchObject({
        driver_id: driver.id,
        event_id: eventId,
        seats: 3,
        departure_location: 'Hauptbahnhof, Gleis 4',
        departure_datetime: '2030-03-01 09:40:00',
        cost_share_cents: 1250,
        deleted: 0,
      }),
    );
    await phone.inSync();
    expect(phone.outbox.size).toBe(0);
    // Every member's device gets every ride: the other member sees it, with the driver's name, not as theirs.
    await eventually(async () =>
      expect(await shown(laptop, eventId, other)).toEqual([
        expect.objectContaining({ id, driver_name: driver.username, own: false, seats: 3, cost_share_cents: 1250 }),
      ]),
    );

    // A second ride leaves earlier: soonest departure first.
    const early = await writes.offerRide(on(phone), driver.id, eventId, { ...valid, departure_datetime: '2030-03-01 07:05' });
    await eventually(async () => expect((await shown(laptop, eventId, other)).map((ride) => ride.id)).toEqual([early, id]));

    // The driver changes some fields; the others stay.
    await writes.changeRide(on(phone), driver.id, id, { seats: 2, note: null, drives_back: false });
    await eventually(async () =>
      expect(await serverRide(id)).toMatchObject({ seats: 2, note: null, drives_back: 0, cost_share_cents: 1250 }),
    );
    await eventually(async () =>
      expect((await shown(laptop, eventId, other)).find((ride) => ride.id === id)).toMatchObject({
        seats: 2,
        note: null,
        drives_back: false,
        departure_location: 'Hauptbahnhof, Gleis 4',
      }),
    );
    // The same values again write nothing.
    await phone.inSync();
    const doc = (await kindOf(phone.db, 'rides').findOne(id).exec())!.toJSON() as RideDoc;
    await writes.changeRide(on(phone), driver.id, id, { seats: 2, departure_location: 'Hauptbahnhof, Gleis 4' });
    expect(phone.outbox.size).toBe(0);
    expect((await kindOf(phone.db, 'rides').findOne(id).exec())!.toJSON()).toEqual(doc);

    // Cancelled offline: gone on the device at once, for everyone once it lands.
    await phone.goOffline();
    const cancelFailed = phone.nextPushFailure('rides');
    await writes.cancelRide(on(phone), driver.id, id);
    await cancelFailed;
    expect((await shown(phone, eventId, driver)).map((ride) => ride.id)).toEqual([early]);
    expect(await serverRide(id)).toMatchObject({ deleted: 0 });
    phone.goOnline();
    await eventually(async () => expect(await serverRide(id)).toMatchObject({ deleted: 1 }));
    await eventually(async () => expect((await shown(laptop, eventId, other)).map((ride) => ride.id)).toEqual([early]));
  });

  it('names the driver’s own ride by the session while the device does not know them among the members yet', async () => {
    const { eventId, driver, phone } = await setUp();
    // A member who joined since the device last pulled the members is not among them: taken out here.
    await phone.docs.table('members').delete(driver.id);
    const id = await writes.offerRide(on(phone), driver.id, eventId, valid);
    expect(await shown(phone, eventId, driver)).toEqual([
      expect.objectContaining({ id, driver_name: driver.username, own: true }),
    ]);
  });

  it('refuses on the device what the rules refuse, an archived or unknown event and another member’s ride', async () => {
    const { eventId, driver, other, phone, laptop } = await setUp();
    const refused = (promise: Promise<unknown>, code: string) => expect(promise).rejects.toEqual(new LocalRuleError(code));
    const offer = (input: Partial<Record<keyof RideInput, unknown>>, event = eventId) =>
      writes.offerRide(on(phone), driver.id, event, { ...valid, ...input } as RideInput);

    await refused(offer({ seats: 0 }), 'rideSeatsInvalid');
    await refused(offer({ seats: 9 }), 'rideSeatsInvalid');
    await refused(offer({ seats: 2.5 }), 'rideSeatsInvalid');
    await refused(offer({ departure_location: '   ' }), 'rideLocationRequired');
    await refused(offer({ departure_location: 'x'.repeat(121) }), 'invalidInput');
    await refused(offer({ departure_location: 'Bahnhof\nGleis 4' }), 'textHasControlCharacters');
    await refused(offer({ departure_datetime: '' }), 'departureInvalid');
    await refused(offer({ departure_datetime: 'morgen früh' }), 'departureInvalid');
    // Not after the event starts (15:30); at the kick-off itself is still allowed.
    await refused(offer({ departure_datetime: '2030-03-01 15:31' }), 'rideDepartsAfterEvent');
    await refused(offer({ departure_datetime: '2030-03-02 08:00' }), 'rideDepartsAfterEvent');
    await refused(offer({ cost_share_cents: -1 }), 'rideCostShareInvalid');
    await refused(offer({ cost_share_cents: 10_001 }), 'rideCostShareInvalid');
    await refused(offer({ cost_share_cents: 12.5 }), 'rideCostShareInvalid');
    await refused(offer({ note: 'x'.repeat(501) }), 'invalidInput');
    await refused(offer({}, newId()), 'eventNotFound');
    // An archived event (deleted by an admin while tickets on it were bought) stays on the device, but takes no rides.
    const archived = { ...(await phone.stored('events', eventId))!, id: newId(), archived: true };
    await phone.docs.table('events').put(archived);
    await refused(offer({}, archived.id), 'eventNotFound');
    expect(await shown(phone, eventId, driver)).toEqual([]);
    expect(phone.outbox.size).toBe(0);

    const id = await offer({ departure_datetime: '2030-03-01 15:30', cost_share_cents: 10_000, note: '   ' });
    expect(await kindOf(phone.db, 'rides').findOne(id).exec()).toMatchObject({ note: null, cost_share_cents: 10_000 });
    await refused(
      writes.changeRide(on(phone), driver.id, id, { departure_datetime: '2030-03-01 16:00' }),
      'rideDepartsAfterEvent',
    );
    await refused(writes.changeRide(on(phone), driver.id, id, { seats: 12 }), 'rideSeatsInvalid');
    await refused(writes.changeRide(on(phone), driver.id, newId(), { seats: 2 }), 'rideNotFound');
    await refused(writes.cancelRide(on(phone), driver.id, newId()), 'rideNotFound');

    // Only the driver changes and cancels it: another member's device has it, and refuses.
    await eventually(async () => expect(await kindOf(laptop.db, 'rides').findOne(id).exec()).not.toBeNull());
    await refused(writes.changeRide(on(laptop), other.id, id, { seats: 1 }), 'forbidden');
    await refused(writes.cancelRide(on(laptop), other.id, id), 'forbidden');
    expect(laptop.outbox.size).toBe(0);
    await eventually(async () => expect(await serverRide(id)).toMatchObject({ seats: 3, deleted: 0 }));
  });

  it('a change made offline to a ride an admin removed meanwhile is refused with a notice; the ride goes from the device', async () => {
    const { eventId, driver, phone } = await setUp();
    const id = await writes.offerRide(on(phone), driver.id, eventId, valid);
    await eventually(async () => expect(await serverRide(id)).toMatchObject({ deleted: 0 }));
    await phone.inSync();

    await phone.goOffline();
    const failed = phone.nextPushFailure('rides');
    await writes.changeRide(on(phone), driver.id, id, { seats: 5 });
    await failed;
    expect(await shown(phone, eventId, driver)).toEqual([expect.objectContaining({ id, seats: 5 })]);
    expect((await t.call('DELETE', `/api/rides/${id}`, { token: admin })).status).toBe(200);

    phone.goOnline();
    await eventually(async () => {
      const notices = (await kindOf(phone.db, 'notices').find().exec()).map((doc) => doc.toJSON() as NoticeDoc);
      expect(notices).toEqual([
        expect.objectContaining({ action: 'ride.change', code: 'rideNotFound', event_id: eventId, is_read: false }),
      ]);
    });
    await eventually(async () => expect(await shown(phone, eventId, driver)).toEqual([]));
    expect(await serverRide(id)).toMatchObject({ seats: 3, deleted: 1 });
  });
});
