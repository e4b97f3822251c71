import 'fake-indexeddb/auto';
import { kindOf } from '../src/data/pushedGroup.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGuest, removeGuest, setOwnAttendance, updateGuest } from '../src/data/collections/attendees.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

const DEVICE_COLLECTIONS = ['events', 'attendees', 'members', 'notices', 'transports'] as const;

/** Match day through sync: a member's offline answer and guest, and the admin's REST changes arriving live. */
describe('sync: guests, tickets and transports', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let mia: { id: string; token: string };
  let phone: TestClient;
  let adminLaptop: TestClient;
  let eventId: string;
  let guestId: string;

  const serverRows = async () => (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees as any[];

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    mia = await t.member('mia');
    const created = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'SC Freiburg (A)', date: '2027-03-13 15:30', location: 'Freiburg' },
    });
    eventId = created.body.event.id;
    phone = await TestClient.connect(server.url, mia.token, DEVICE_COLLECTIONS);
    adminLaptop = await TestClient.connect(server.url, admin, DEVICE_COLLECTIONS);
    await eventually(async () => expect(await phone.stored('events', eventId)).not.toBeNull());
  });

  afterAll(async () => {
    await Promise.all([phone, adminLaptop].map((client) => client?.close()));
    await server?.close();
    await t?.close();
  });

  it('takes a member’s offline answer and the guest they bring to the server and the admin', async () => {
    await phone.goOffline();
    await setOwnAttendance(phone, eventId, mia.id, 'going');
    guestId = await addGuest(phone, eventId, mia.id, '  Paul ');
    expect(phone.outbox.size).toBe(2);
    phone.goOnline();
    await eventually(async () => {
      const rows = await serverRows();
      expect(rows).toHaveLength(2);
      expect(rows.find((r) => r.id === guestId)).toMatchObject({
        guest_name: 'Paul',
        user_id: null,
        brought_by_username: 'mia',
        status: 'going',
        needs_ticket: true,
        needs_transport: true,
      });
    });
    await eventually(async () => expect(await adminLaptop.attendees(eventId)).toHaveLength(2));
  });

  it('shows the admin’s ticket change on the guest row live on the member’s device', async () => {
    const res = await t.call('PUT', `/api/attendees/${guestId}`, { token: admin, body: { bought: true, price: 20 } });
    expect(res.status).toBe(200);
    await eventually(async () => {
      const guest = (await phone.attendees(eventId)).find((a) => a.id === guestId);
      expect(guest).toMatchObject({ bought: true, paid: false, price_cents: 2000 });
    });
  });

  it('keeps the admin’s ticket fields when the member renames the guest offline', async () => {
    await phone.goOffline();
    await updateGuest(phone, guestId, { guest_name: 'Paula', needs_transport: false });
    phone.goOnline();
    await eventually(async () =>
      expect((await serverRows()).find((r) => r.id === guestId)).toMatchObject({
        guest_name: 'Paula',
        needs_transport: false,
        bought: true,
        price: 20,
      }),
    );
    await eventually(async () =>
      expect((await adminLaptop.attendees(eventId)).find((a) => a.id === guestId)).toMatchObject({
        guest_name: 'Paula',
        bought: true,
      }),
    );
  });

  it('refuses removing a guest whose ticket is bought: the row comes back and a notice says why', async () => {
    await expect(removeGuest(phone, guestId)).rejects.toThrow('ticketAlreadyBought');
    // A device that missed the purchase removes the guest offline; the server refuses it.
    await phone.goOffline();
    const local = await phone.db.attendees.findOne(guestId).exec();
    await local!.incrementalPatch({ bought: false });
    await removeGuest(phone, guestId);
    phone.goOnline();
    await eventually(async () => {
      expect((await kindOf(phone.db, 'notices').find().exec()).map((n) => n.code)).toContain('ticketAlreadyBought');
      expect((await phone.attendees(eventId)).find((a) => a.id === guestId)).toMatchObject({ bought: true, guest_name: 'Paula' });
    });
    expect((await serverRows()).map((r) => r.id)).toContain(guestId);
  });

  it('brings a transport option the admin adds to the member’s device', async () => {
    const res = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: eventId, name: 'Bus', departure_location: 'Alte Försterei', price_per_seat: 15 },
    });
    expect(res.status).toBeLessThan(300);
    await eventually(async () => {
      const transports = (await phone.storedAll('transports')).filter((transport) => transport.event_id === eventId);
      expect(transports.map((tr) => [tr.name, tr.price_per_seat_cents])).toEqual([['Bus', 1500]]);
    });
  });
});
