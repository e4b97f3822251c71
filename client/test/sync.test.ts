import 'fake-indexeddb/auto';
import { formerMemberNumber } from '@fankurve/shared';
import { kindOf } from '../src/data/pushedGroup.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOwnAttendance, updateOwnAnswer } from '../src/data/collections/attendees.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/**
 * Devices with their own RxDB databases replicate against the real app over HTTP: offline edits on
 * several clients, a member's and an admin's change to the same row, deletes, a dropped stream, and
 * a push refused by the debt rule arriving as a notice. Everything converges.
 */
describe('sync: RxDB clients against the real server', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let anna: { id: string; token: string };
  let ben: { id: string; token: string };
  let annaPhone: TestClient;
  let benPhone: TestClient;
  let adminLaptop: TestClient;
  let bochum: string;
  let koeln: string;

  const createEvent = async (title: string, date: string) => {
    const res = await t.call('POST', '/api/events', { token: admin, body: { title, date, location: 'Stadion' } });
    expect(res.status).toBe(201);
    return res.body.event.id as string;
  };
  const serverAttendees = async (eventId: string) =>
    (await t.call('GET', `/api/events/${eventId}`, { token: admin })).body.attendees as any[];

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    anna = await t.member('anna');
    ben = await t.member('ben');
    bochum = await createEvent('VfL Bochum (A)', '2027-02-06 15:30');
    koeln = await createEvent('1. FC Köln (A)', '2027-02-20 18:30');
    annaPhone = await TestClient.connect(server.url, anna.token);
    benPhone = await TestClient.connect(server.url, ben.token);
    adminLaptop = await TestClient.connect(server.url, admin);
  });

  afterAll(async () => {
    await Promise.all([annaPhone, benPhone, adminLaptop].map((client) => client?.close()));
    await server?.close();
    await t?.close();
  });

  it('pulls events and members to every device', async () => {
    for (const client of [annaPhone, benPhone, adminLaptop]) {
      await eventually(async () => {
        expect(await client.docs.table('events').count()).toBe(2);
        const names = (await client.storedAll('members')).map((m) => m.username).sort();
        expect(names).toEqual(['admin', 'anna', 'ben']);
      });
    }
    const annaView = await annaPhone.stored('members', ben.id);
    const adminView = await adminLaptop.stored('members', ben.id);
    expect(annaView?.email).toBeNull();
    expect(adminView?.email).toBe('ben@example.org');
  });

  it('keeps offline answers of two members and converges everywhere', async () => {
    await annaPhone.goOffline();
    await benPhone.goOffline();
    const refused = Promise.all([annaPhone, benPhone].map((client) => client.nextPushFailure('attendees')));
    await setOwnAttendance(annaPhone, bochum, anna.id, 'going');
    await setOwnAttendance(benPhone, bochum, ben.id, 'maybe');
    expect(annaPhone.outbox.size).toBe(1);
    // Both devices tried to push their answer and could not.
    await refused;
    expect(await serverAttendees(bochum)).toHaveLength(0);

    annaPhone.goOnline();
    benPhone.goOnline();
    await eventually(async () => {
      const rows = await serverAttendees(bochum);
      expect(rows.map((r) => [r.username, r.status]).sort()).toEqual([
        ['anna', 'going'],
        ['ben', 'maybe'],
      ]);
      expect(rows.find((r) => r.username === 'anna')).toMatchObject({
        needs_ticket: true,
        has_ticket: false,
        needs_transport: true,
      });
    });
    for (const client of [annaPhone, benPhone, adminLaptop]) {
      await eventually(async () =>
        expect((await client.attendees(bochum)).map((a) => a.status).sort()).toEqual(['going', 'maybe']),
      );
    }
    await eventually(() => expect(annaPhone.outbox.size).toBe(0));
  });

  it("keeps both a member's offline change and an admin's ticket change to the same row", async () => {
    await annaPhone.goOffline();
    await updateOwnAnswer(annaPhone, bochum, anna.id, { needs_transport: false });
    await setOwnAttendance(annaPhone, bochum, anna.id, 'maybe');

    const bought = await t.call('PUT', `/api/tickets/event/${bochum}/user/${anna.id}/status`, {
      token: admin,
      body: { bought: true, price: 25.5 },
    });
    expect(bought.status).toBe(200);
    await eventually(async () => {
      const row = (await adminLaptop.attendees(bochum)).find((a) => a.user_id === anna.id);
      expect(row).toMatchObject({ bought: true, price_cents: 2550 });
    });

    annaPhone.goOnline();
    const expected = { status: 'maybe', needs_transport: false, bought: true, paid: false, price_cents: 2550 };
    await eventually(async () => {
      const row = (await serverAttendees(bochum)).find((r) => r.user_id === anna.id);
      expect(row).toMatchObject({ status: 'maybe', needs_transport: false, bought: true, price: 25.5 });
    });
    for (const client of [annaPhone, benPhone, adminLaptop]) {
      await eventually(async () =>
        expect((await client.attendees(bochum)).find((a) => a.user_id === anna.id)).toMatchObject(expected),
      );
    }
  });

  it('refuses an offline answer blocked by an unpaid ticket and tells the member through a notice', async () => {
    // Anna's device learnt of the bought ticket above; her offline answer passes the local check only
    // while the device does not know it, so forget the debt locally to exercise the server's rule.
    await annaPhone.goOffline();
    const local = await annaPhone.db.attendees.findOne({ selector: { user_id: anna.id, event_id: bochum } }).exec();
    await local!.incrementalPatch({ bought: false });
    await setOwnAttendance(annaPhone, koeln, anna.id, 'going');
    expect(await annaPhone.attendees(koeln)).toHaveLength(1);

    annaPhone.goOnline();
    await eventually(async () => {
      const notices = await kindOf(annaPhone.db, 'notices').find().exec();
      expect(notices.map((n) => n.code)).toContain('unpaidDebts');
      expect(await annaPhone.attendees(koeln)).toHaveLength(0);
      expect((await annaPhone.attendees(bochum)).find((a) => a.user_id === anna.id)?.bought).toBe(true);
    });
    expect(await serverAttendees(koeln)).toHaveLength(0);
    expect(await kindOf(benPhone.db, 'notices').count().exec()).toBe(0);
  });

  it('replicates a removal (not going) to every device', async () => {
    await benPhone.goOffline();
    await setOwnAttendance(benPhone, bochum, ben.id, null);
    benPhone.goOnline();
    await eventually(async () => expect((await serverAttendees(bochum)).map((r) => r.username)).toEqual(['anna']));
    for (const client of [annaPhone, benPhone, adminLaptop]) {
      await eventually(async () => expect((await client.attendees(bochum)).map((a) => a.user_id)).toEqual([anna.id]));
    }
  });

  it('catches up through RESYNC after the change stream dropped', async () => {
    await benPhone.goOffline();
    const derby = await createEvent('Hertha BSC (H)', '2027-03-06 15:30');
    // The change was told to every open stream: Anna's device, online, has the event.
    await eventually(async () => expect(await annaPhone.stored('events', derby)).not.toBeNull());
    expect(await benPhone.stored('events', derby)).toBeNull();
    // Back online, but no pull is triggered by hand: only the stream's reconnect brings the change.
    benPhone.offline = false;
    benPhone.handle.stream.reconnect();
    await eventually(async () => expect(await benPhone.stored('events', derby)).not.toBeNull());
  });

  it('converges: every device holds exactly the server state', async () => {
    const server = await Promise.all([bochum, koeln].map(serverAttendees));
    const serverState = server
      .flat()
      .map((r) => `${r.id}:${r.status}:${r.bought}`)
      .sort();
    for (const client of [annaPhone, benPhone, adminLaptop]) {
      await eventually(async () =>
        expect((await client.attendees()).map((a) => `${a.id}:${a.status}:${a.bought}`).sort()).toEqual(serverState),
      );
    }
  });

  // An erased account stays on the other devices under its pseudonym (docs/architecture.md, Erasure and retention).
  it('ends the stream and signals the device when the account is erased; the others keep it under its pseudonym', async () => {
    const removed = await t.call('DELETE', `/api/auth/users/${ben.id}`, { token: admin });
    expect(removed.status).toBe(200);
    await eventually(() => expect(benPhone.unauthorized).toBeGreaterThan(0));
    await eventually(async () => {
      const members = await annaPhone.storedAll('members');
      expect(members.map((m) => (formerMemberNumber(m.username) === null ? m.username : 'former')).sort()).toEqual([
        'admin',
        'anna',
        'former',
      ]);
    });
  });
});
