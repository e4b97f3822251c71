import 'fake-indexeddb/auto';
import { kindOf } from '../src/data/pushedGroup.js';
import { SYNC_SCHEMAS, type AttendeeDoc } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addGuest, removeGuest, setOwnAttendance, updateOwnAnswer } from '../src/data/collections/attendees.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, MemoryStorage, TestClient } from './sync-clients.js';

/**
 * The sync core with real RxDB devices against the real server: a member's two devices that change
 * different fields offline, the events collection first, and the two faults seen before (a device
 * re-pushing rows it never changed; a change arriving while a pull is in flight).
 */
describe('sync core: devices against the real server', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let lena: { id: string; token: string };
  const clients: TestClient[] = [];

  const createEvent = async (title: string) => {
    const res = await t.call('POST', '/api/events', {
      token: admin,
      body: { title, date: '2027-03-13 15:30', location: 'Stadion' },
    });
    return res.body.event.id as string;
  };
  const connect = async (...args: Parameters<typeof TestClient.connect>) => {
    const client = await TestClient.connect(...args);
    clients.push(client);
    return client;
  };
  const serverRows = async (): Promise<(AttendeeDoc & { _deleted: boolean })[]> =>
    (
      await t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
        token: admin,
        body: { checkpoint: null, limit: 1000 },
      })
    ).body.documents;

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    lena = await t.member('lena');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
    await t?.close();
  });

  it("keeps both changes when a member's phone and laptop change different fields offline", async () => {
    const eventId = await createEvent('Wolfsburg (A)');
    const phone = await connect(server.url, lena.token, ['attendees', 'notices']);
    const laptop = await connect(server.url, lena.token, ['attendees', 'notices']);
    await setOwnAttendance(phone, eventId, lena.id, 'going');
    await eventually(async () => expect((await laptop.attendees(eventId)).map((row) => row.status)).toEqual(['going']));

    await phone.goOffline();
    await laptop.goOffline();
    await setOwnAttendance(phone, eventId, lena.id, 'maybe');
    await updateOwnAnswer(laptop, eventId, lena.id, { needs_transport: false });
    phone.goOnline();
    laptop.goOnline();

    // These devices hold no events: the first answer took the defaults of an event they do not know (no ticket).
    const expected = { status: 'maybe', needs_transport: false, needs_ticket: false };
    await eventually(async () => {
      const row = (await serverRows()).find((doc) => doc.event_id === eventId && !doc._deleted);
      expect(row).toMatchObject(expected);
      for (const device of [phone, laptop]) expect((await device.attendees(eventId))[0]).toMatchObject(expected);
    });
  });

  it("keeps the member's own rows in RxDB only: the document store holds everyone else's, so a guest removed offline is gone at once", async () => {
    const eventId = await createEvent('Bochum (A)');
    const marlene = await t.member('marlene');
    expect((await t.call('POST', `/api/attendance/${eventId}`, { token: marlene.token, body: { status: 'going' } })).status).toBe(
      200,
    );
    const phone = await connect(server.url, lena.token, ['attendees', 'notices']);
    await setOwnAttendance(phone, eventId, lena.id, 'going');
    const guestId = await addGuest(phone, eventId, lena.id, 'Gerda');
    await phone.inSync();
    phone.goOnline();
    await eventually(async () => {
      const stored = await phone.docs.rowsOfEvents('attendees', [eventId]);
      // The others' pull carries every row of the kept event; the store keeps marlene's alone.
      expect(stored.map((row) => row.user_id)).toEqual([marlene.id]);
      expect((await phone.attendees(eventId)).map((row) => row.guest_name ?? row.user_id).sort()).toEqual(
        ['Gerda', lena.id, marlene.id].sort(),
      );
    });
    await phone.goOffline();
    await removeGuest(phone, guestId);
    expect((await phone.attendees(eventId)).map((row) => row.guest_name ?? row.user_id).sort()).toEqual(
      [lena.id, marlene.id].sort(),
    );
  });

  it('syncs the events collection before any attendee row is asked for', async () => {
    const log: string[] = [];
    const device = await connect(server.url, lena.token, ['events', 'attendees', 'members'], async (url, init, next) => {
      const collection = /\/api\/sync\/(\w+)\/\d+\/pull/.exec(url)?.[1];
      if (collection) log.push(`${collection}:start`);
      const response = await next();
      if (collection) log.push(`${collection}:end`);
      return response;
    });
    await eventually(async () => expect(await device.docs.table('members').count()).toBeGreaterThan(0));
    const firstOther = log.findIndex((entry) => !entry.startsWith('events'));
    expect(log.indexOf('events:end')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('events:end')).toBeLessThan(firstOther);
  });

  /** The attendee events of this actor's commits: what the actor really changed on attendance rows. */
  const writesBy = (actorId: string) => {
    const seen: string[] = [];
    const stop = t.runtime.deps.store.commits.subscribe((commit) => {
      for (const event of commit.events) {
        if (event.actorId === actorId && 'attendeeId' in event) seen.push(event.type);
      }
    });
    return { seen, stop };
  };

  it("never turns the server's own state into a change, however often RESYNC hits its pulls (the admin's re-push)", async () => {
    const adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id as string;
    const adminWrites = writesBy(adminId);
    const adminDevice = await connect(server.url, admin, ['attendees', 'notices']);
    const members = await Promise.all(['mats', 'mara', 'milo'].map((name) => t.member(name)));
    const events = await Promise.all([1, 2, 3, 4, 5].map((n) => createEvent(`Runde ${n} (H)`)));
    const storm = setInterval(() => adminDevice.handle.reSync(), 3);
    try {
      for (let round = 0; round < 4; round++) {
        for (const member of members) {
          for (const eventId of events) {
            const status = round % 2 === 0 ? 'going' : 'maybe';
            await t.call('POST', `/api/attendance/${eventId}`, { token: member.token, body: { status } });
          }
        }
      }
      await eventually(async () => {
        const onDevice = (await adminDevice.attendees()).filter((row) => events.includes(row.event_id));
        expect(onDevice).toHaveLength(15);
        expect(onDevice.every((row) => row.status === 'maybe')).toBe(true);
      }, 15_000);
    } finally {
      clearInterval(storm);
    }
    // Every pull the storm started, and any push one of them could set off, is over.
    await adminDevice.inSync();
    adminWrites.stop();
    expect(adminWrites.seen).toEqual([]);
    expect(await kindOf(adminDevice.db, 'notices').count().exec()).toBe(0);
  });

  it('recovers a device whose replication state is lost: its own change arrives, nothing else is pushed as a change', async () => {
    const nora = await t.member('nora');
    const noraWrites = writesBy(nora.id);
    const other = await t.member('otto');
    const eventId = await createEvent('Augsburg (A)');
    await t.call('POST', `/api/attendance/${eventId}`, { token: other.token, body: { status: 'going' } });
    await t.call('POST', `/api/attendance/${eventId}`, { token: nora.token, body: { status: 'going' } });
    const device = await connect(server.url, nora.token, ['attendees', 'notices']);
    await eventually(async () => expect(await device.attendees(eventId)).toHaveLength(2));

    await device.handle.stop();
    await updateOwnAnswer(device, eventId, nora.id, { needs_transport: false });
    await t.call('POST', `/api/attendance/${eventId}`, { token: other.token, body: { status: 'maybe' } });
    await t.call('PUT', `/api/tickets/event/${eventId}/user/${other.id}/status`, {
      token: admin,
      body: { bought: true, price: 12 },
    });
    // Another base URL: a fresh replication state, as if the device had lost every checkpoint and assumed state.
    await device.restartReplication(server.url.replace('127.0.0.1', 'localhost'));

    await eventually(async () => {
      const rows = (await serverRows()).filter((row) => row.event_id === eventId && !row._deleted);
      const onDevice = await device.attendees(eventId);
      const fields = (row: AttendeeDoc) => [row.user_id, row.status, row.needs_transport, row.bought, row.price_cents];
      expect(onDevice.map(fields).sort()).toEqual(rows.map(fields).sort());
      expect(rows.find((row) => row.user_id === other.id)).toMatchObject({ status: 'maybe', bought: true, price_cents: 1200 });
      expect(rows.find((row) => row.user_id === nora.id)).toMatchObject({ needs_transport: false });
    });
    noraWrites.stop();
    expect(noraWrites.seen).toEqual(['attendance.set', 'attendance.changed']);
    expect(await kindOf(device.db, 'notices').count().exec()).toBe(0);
  });

  it('keeps a change made while its push was answered when the app is closed before the next push (the answer is stored)', async () => {
    const nele = await t.member('nele');
    const eventId = await createEvent('Bochum (A)');
    const storage = new MemoryStorage();
    const name = `nele-phone-${Date.now()}`;
    let held: { release: () => void; answered: Promise<void> } | null = null;
    let holdNextPush = false;
    const intercept = async (url: string, init: RequestInit | undefined, next: () => Promise<Response>) => {
      if (!(holdNextPush && url.includes('/attendees/') && url.endsWith('/push'))) return next();
      holdNextPush = false;
      let release!: () => void;
      let answered!: () => void;
      held = { release: () => release(), answered: new Promise((resolve) => (answered = resolve)) };
      await new Promise<void>((resolve) => (release = resolve));
      const response = await next();
      // The app is closed straight after this answer: nothing more reaches the server.
      phone.offline = true;
      answered();
      return response;
    };
    const phone = await TestClient.connect(server.url, nele.token, ['attendees', 'notices'], intercept, {
      name,
      answerStore: storage,
    });
    await setOwnAttendance(phone, eventId, nele.id, 'maybe');
    await eventually(async () => expect((await phone.attendees(eventId))[0]?.seq).toBeGreaterThan(0));
    await phone.inSync();

    // "going" is sent; while its push travels the member taps back to "maybe".
    holdNextPush = true;
    await setOwnAttendance(phone, eventId, nele.id, 'going');
    await vi.waitFor(() => expect(held).not.toBeNull());
    await setOwnAttendance(phone, eventId, nele.id, 'maybe');
    held!.release();
    await held!.answered;
    expect((await serverRows()).find((row) => row.event_id === eventId)?.status).toBe('going');
    await phone.quit();

    // Last received "going", final value "maybe": the device changed the status, also after a restart.
    const again = await connect(server.url, nele.token, ['attendees', 'notices'], undefined, { name, answerStore: storage });
    await eventually(async () => {
      expect((await serverRows()).find((row) => row.event_id === eventId)?.status).toBe('maybe');
      expect((await again.attendees(eventId))[0]?.status).toBe('maybe');
    });
    await again.inSync();
    expect((await serverRows()).find((row) => row.event_id === eventId)?.status).toBe('maybe');
  });

  it('catches a change that commits while a pull is in flight', async () => {
    let holdNextPull = false;
    const held: Array<() => void> = [];
    const watcher = await connect(server.url, admin, ['attendees'], async (url, init, next) => {
      const response = await next();
      // Hold the answer back after the server has run the query, so a change commits while it travels.
      if (holdNextPull && url.includes('/attendees/') && url.endsWith('/pull')) {
        holdNextPull = false;
        await new Promise<void>((resolve) => held.push(resolve));
      }
      return response;
    });
    const milan = await t.member('milan');
    const eventId = await createEvent('Freiburg (A)');
    await t.call('POST', `/api/attendance/${eventId}`, { token: milan.token, body: { status: 'going' } });
    await eventually(async () => expect(await watcher.attendees(eventId)).toHaveLength(1));
    for (let i = 0; i < 12; i++) {
      const status = i % 2 === 0 ? 'maybe' : 'going';
      holdNextPull = true;
      watcher.handle.reSync();
      await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 5000 });
      const changesBefore = watcher.serverChanges;
      await t.call('POST', `/api/attendance/${eventId}`, { token: milan.token, body: { status } });
      // The stream tells the change while the pull's answer is still held back; then the answer arrives.
      await vi.waitFor(() => expect(watcher.serverChanges).toBeGreaterThan(changesBefore), { timeout: 5000 });
      held.shift()!();
      await eventually(async () => expect((await watcher.attendees(eventId))[0]?.status).toBe(status), 5000);
    }
  });
});
