import 'fake-indexeddb/auto';
import type { CommentDoc } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/**
 * What a device keeps (docs/architecture.md): every upcoming event's and the current season's
 * attendee rows and comments, the member's own rows of any season, and an older season's event in
 * full once the member has opened it online; the event document carries its counts meanwhile.
 */
describe('what a device keeps of the club’s history', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let fan: { id: string; token: string };
  let other: { id: string; token: string };
  let upcomingId: string;
  let oldId: string;
  let oldCommentId: string;
  let device: TestClient;

  const collections = ['events', 'attendees', 'comments', 'members'] as const;

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    fan = await t.member('keeper-fan');
    other = await t.member('keeper-other');
    const create = async (title: string) =>
      (await t.call('POST', '/api/events', { token: admin, body: { title, date: '2027-04-10 15:30', location: 'Stadion' } })).body
        .event.id as string;
    upcomingId = await create('Mainz (H)');
    oldId = await create('Bochum (A)');
    for (const member of [fan, other]) {
      for (const eventId of [upcomingId, oldId]) {
        await t.call('POST', `/api/attendance/${eventId}`, { token: member.token, body: { status: 'going' } });
      }
    }
    const comment = await t.call('POST', `/api/comments/event/${oldId}`, {
      token: other.token,
      body: { comment: 'Was für ein Spiel' },
    });
    oldCommentId = comment.body.comment.id as string;
    // The match took place three seasons ago (an admin corrects its date): it leaves what devices keep.
    const moved = await t.call('PUT', `/api/events/${oldId}`, { token: admin, body: { date: '2023-05-01 15:30:00' } });
    expect(moved.status).toBe(200);
    device = await TestClient.connect(server.url, fan.token, collections);
  });
  afterAll(async () => {
    await device?.close();
    await server?.close();
    await t?.close();
  });

  const rowsOf = async (eventId: string) => (await device.attendees(eventId)).map((row) => row.user_id);
  const commentsOf = async (eventId: string) =>
    (await device.db.comments.find({ selector: { event_id: eventId } }).exec()).map((doc) => (doc.toJSON() as CommentDoc).id);
  const eventOnDevice = async (eventId: string) => (await device.stored('events', eventId)) ?? undefined;

  it('holds the upcoming event in full, of the older one its counts and the member’s own row only', async () => {
    await eventually(async () => {
      expect((await rowsOf(upcomingId)).sort()).toEqual([fan.id, other.id].sort());
      expect(await eventOnDevice(oldId)).toMatchObject({ going_count: 2, maybe_count: 0 });
    });
    await device.inSync();
    expect(await rowsOf(oldId)).toEqual([fan.id]);
    expect(await commentsOf(oldId)).toEqual([]);
  });

  it('fetches the older event’s rows and comments when asked, and keeps them', async () => {
    await device.handle.loadEvent(oldId);
    expect((await rowsOf(oldId)).sort()).toEqual([fan.id, other.id].sort());
    expect(await commentsOf(oldId)).toEqual([oldCommentId]);
    // Later pulls do not take them away.
    await t.call('POST', `/api/attendance/${upcomingId}`, { token: other.token, body: { status: 'maybe' } });
    await eventually(async () => expect(await eventOnDevice(upcomingId)).toMatchObject({ going_count: 1, maybe_count: 1 }));
    await device.inSync();
    expect((await rowsOf(oldId)).sort()).toEqual([fan.id, other.id].sort());
  });

  it('fails to fetch an event while offline, and changes nothing on the device', async () => {
    const before = await device.attendees();
    await device.goOffline();
    await expect(device.handle.loadEvent(oldId)).rejects.toThrow();
    expect(await device.attendees()).toEqual(before);
    device.goOnline();
    await device.handle.loadEvent(oldId);
  });
});
