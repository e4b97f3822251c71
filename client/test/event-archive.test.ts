import 'fake-indexeddb/auto';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOwnAttendance } from '../src/data/collections/attendees.js';
import { listedEvents, shownEvent } from '../src/data/collections/events.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/**
 * On the device: an event an admin deletes while tickets on it are bought arrives
 * archived. The events list, the seasons and the detail page leave it out; its ticket rows stay on
 * the device and keep counting for the debt block.
 */
describe('an archived event on the device', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let fan: { id: string; token: string };
  let device: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    fan = await t.member('archive-fan');
    device = await TestClient.connect(server.url, fan.token, ['events', 'attendees', 'notices']);
  });
  afterAll(async () => {
    await device?.close();
    await server?.close();
    await t?.close();
  });

  const createEvent = async (title: string) =>
    (await t.call('POST', '/api/events', { token: admin, body: { title, date: '2027-04-10 15:30', location: 'Stadion' } })).body
      .event.id as string;
  const listed = async () => (await firstValueFrom(listedEvents(device.docs))).map((event) => event.id);

  it('leaves the event out of the list and the detail, keeps its ticket rows and their debt', async () => {
    const archivedId = await createEvent('Bochum (A)');
    const keptId = await createEvent('Mainz (H)');
    const ticket = await t.call('POST', `/api/attendance/${archivedId}`, { token: fan.token, body: { status: 'going' } });
    await t.call('PUT', `/api/attendees/${ticket.body.attendance.id}`, { token: admin, body: { bought: true, price: 18.5 } });
    await eventually(async () => {
      expect(await listed()).toEqual(expect.arrayContaining([archivedId, keptId]));
      expect((await device.attendees(archivedId)).map((row) => row.bought)).toEqual([true]);
    });

    expect((await t.call('DELETE', `/api/events/${archivedId}`, { token: admin })).status).toBe(200);

    await eventually(async () => {
      const stored = (await device.stored('events', archivedId)) ?? undefined;
      expect(stored).toMatchObject({ archived: true, title: 'Bochum (A)' });
    });
    expect(await listed()).toEqual([keptId]);
    expect(await firstValueFrom(shownEvent(device.docs, archivedId))).toBeNull();
    expect(await firstValueFrom(shownEvent(device.docs, keptId))).toMatchObject({ id: keptId, archived: false });
    expect(await device.attendees(archivedId)).toMatchObject([{ id: ticket.body.attendance.id, bought: true, paid: false }]);
    // The device's own debt check still sees the ticket: a new attendance is refused offline too.
    await expect(setOwnAttendance(device, keptId, fan.id, 'going')).rejects.toMatchObject({ code: 'unpaidDebts' });
  });
});
