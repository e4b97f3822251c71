import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements$ } from '../src/collections/announcements/data.js';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/** Announcements on a member's device (docs/product.md, Screens): pulled from the server, read offline. */
describe('sync: announcements', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let phone: TestClient;
  let eventId: string;
  const ids: Record<string, string> = {};

  const post = async (name: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/announcements', {
      token: admin,
      body: { title: name, text: `${name}\nZeile 2`, ...body },
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.announcement.id;
  };
  const onDevice = () => firstValueFrom(announcements$(phone.docs));

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    const mia = await t.member('mia');
    eventId = (
      await t.call('POST', '/api/events', {
        token: admin,
        body: { title: 'Hertha BSC (H)', date: '2027-04-10 15:30', location: 'Alte Försterei' },
      })
    ).body.event.id;
    phone = await TestClient.connect(server.url, mia.token, ['events', 'announcements']);
    await eventually(async () => expect(await phone.stored('events', eventId)).not.toBeNull());
  });

  afterAll(async () => {
    await phone?.close();
    await server?.close();
    await t?.close();
  });

  it('brings the admin’s announcements to the member’s device, pinned first, then newest first, with their event', async () => {
    await post('Older', {});
    await post('Pinned', { pinned: true, event_id: eventId });
    await post('Newer', {});
    await eventually(async () => {
      const shown = await onDevice();
      expect(shown.map((a) => a.title)).toEqual(['Pinned', 'Newer', 'Older']);
    });
    const [pinned] = await onDevice();
    expect(pinned).toMatchObject({
      id: ids.Pinned,
      text: 'Pinned\nZeile 2',
      pinned: true,
      event: { id: eventId, title: 'Hertha BSC (H)', date: '2027-04-10 15:30:00' },
    });
  });

  it('keeps them offline, and takes the changes made meanwhile once back online', async () => {
    await phone.goOffline();
    expect((await t.call('DELETE', `/api/announcements/${ids.Newer}`, { token: admin })).status).toBe(200);
    expect((await t.call('PUT', `/api/announcements/${ids.Older}`, { token: admin, body: { pinned: true } })).status).toBe(200);
    // Nothing reaches the device while it is offline (its fetches fail at once): it shows what it had.
    expect((await onDevice()).map((a) => a.title)).toEqual(['Pinned', 'Newer', 'Older']);

    phone.goOnline();
    await eventually(async () => {
      const shown = await onDevice();
      // Both pinned now: the newer of them first; the deleted one is gone.
      expect(shown.map((a) => [a.title, a.pinned])).toEqual([
        ['Pinned', true],
        ['Older', true],
      ]);
    });
    expect(await phone.stored('announcements', ids.Newer!)).toBeNull();
  });

  it('drops an announcement with its event', async () => {
    expect((await t.call('DELETE', `/api/events/${eventId}`, { token: admin })).status).toBe(200);
    await eventually(async () => expect((await onDevice()).map((a) => a.title)).toEqual(['Older']));
  });
});
