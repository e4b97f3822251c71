import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/*
 * Change batches on a device (docs/architecture.md, "The match-day rush on one server"): another
 * member's answer reaches a device through its change stream with the new attendee row and event
 * counts carried along, so the device stores them without a pull; its own rows, unchanged, are not
 * pulled either. The member who answered pulls their own rows.
 */
describe('a device told a change batch', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
    admin = await t.adminToken();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
    await t?.close();
  });

  it("stores another member's answer and the new counts without a pull, and pulls the own rows only where they changed", async () => {
    const eventId = (
      await t.call('POST', '/api/events', {
        token: admin,
        body: { title: 'Away (A)', date: '2031-03-13 15:30', location: 'Stadion' },
      })
    ).body.event.id as string;
    const mia = await t.member('batch-device-mia');
    const otto = await t.member('batch-device-otto');
    const pulls = { mia: [] as string[], otto: [] as string[] };
    const counting = (who: 'mia' | 'otto') => (url: string, init: RequestInit | undefined, next: () => Promise<Response>) => {
      if (url.endsWith('/pull')) {
        const scope = (JSON.parse(String(init?.body ?? '{}')) as { scope?: string }).scope;
        pulls[who].push(`${url.split('/')[5]}${scope ? `/${scope}` : ''}`);
      }
      return next();
    };
    const ottosDevice = await TestClient.connect(server.url, otto.token, undefined, counting('otto'));
    const miasDevice = await TestClient.connect(server.url, mia.token, undefined, counting('mia'));
    clients.push(ottosDevice, miasDevice);
    // Both devices have pulled everything and hold their change streams (each has taken a change since).
    await Promise.all([ottosDevice.inSync(), miasDevice.inSync()]);
    await t.call('POST', `/api/attendance/${eventId}`, { token: admin, body: { status: 'maybe' } });
    await eventually(async () => {
      expect((await ottosDevice.attendees(eventId)).map((row) => row.status)).toEqual(['maybe']);
      expect((await miasDevice.attendees(eventId)).map((row) => row.status)).toEqual(['maybe']);
    });
    await Promise.all([ottosDevice.inSync(), miasDevice.inSync()]);
    pulls.mia.length = 0;
    pulls.otto.length = 0;
    const toldBefore = ottosDevice.serverChanges;

    const answered = await t.call('POST', `/api/attendance/${eventId}`, { token: mia.token, body: { status: 'going' } });
    expect(answered.status).toBe(200);
    await eventually(async () => {
      const rows = await ottosDevice.attendees(eventId);
      expect(rows.find((row) => row.user_id === mia.id)?.status).toBe('going');
      const event = await ottosDevice.stored('events', eventId);
      expect(event).toMatchObject({ going_count: 1, maybe_count: 1 });
    });
    await eventually(async () => {
      expect((await miasDevice.attendees(eventId)).find((row) => row.user_id === mia.id)?.status).toBe('going');
    });
    await Promise.all([ottosDevice.inSync(), miasDevice.inSync()]);
    expect(ottosDevice.serverChanges).toBeGreaterThan(toldBefore);
    // Otto's device took everything from the batch; Mia's pulled only her own rows.
    expect(pulls.otto).toEqual([]);
    expect(new Set(pulls.mia)).toEqual(new Set(['attendees/own']));
  });
});
