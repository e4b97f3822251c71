import type { AttendeeDoc } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOwnAttendance } from '../src/data/collections/attendees.js';
import { LocalRuleError } from '../src/data/device.js';
import { createEventVia, createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

/*
 * The debt block on the device agrees with the server's (docs/architecture.md, Ticket contingents):
 * a ticket the contingent just handed out is to be paid within the contingent's payment days, and
 * until then its member still answers other events, offline too; the server sends the pay-by time on
 * the attendee document (`pay_by`). A ticket an admin bought without a contingent blocks at once.
 */
describe('the debt block on the device', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let counter = 0;
  const devices: TestClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
  });
  afterAll(async () => {
    for (const device of devices) await device.close();
    await server?.close();
    await t?.close();
  });

  const event = (extra: Record<string, unknown> = {}) =>
    createEventVia(t, admin, { title: `Auswärts ${++counter} (A)`, date: '2030-03-01 15:30', ticket_price: 22, ...extra });
  const ownRow = (phone: TestClient, eventId: string) => phone.db.attendees.findOne({ selector: { event_id: eventId } }).exec();

  async function phoneWithTicket(fan: { id: string; token: string }, eventId: string, payBy: 'set' | 'none') {
    const phone = await TestClient.connect(server.url, fan.token, ['events', 'attendees']);
    devices.push(phone);
    await eventually(async () => {
      const doc = (await ownRow(phone, eventId))?.toJSON() as AttendeeDoc | undefined;
      expect(doc).toMatchObject({ bought: true, paid: false });
      if (payBy === 'set') expect(doc!.pay_by).toEqual(expect.any(String));
      else expect(doc!.pay_by).toBeNull();
    });
    return phone;
  }

  it('lets a member with a freshly allocated ticket answer another event offline; it lands', async () => {
    const away = await event();
    expect(
      (await t.call('PUT', `/api/events/${away.id}/contingent`, { token: admin, body: { tickets: 1, payment_days: 7 } })).status,
    ).toBe(200);
    const fan = await t.member(`pay-days-${counter}`);
    const asked = await t.call('POST', `/api/attendance/${away.id}`, {
      token: fan.token,
      body: { status: 'going', needs_ticket: true },
    });
    expect(asked.status).toBe(200);
    const phone = await phoneWithTicket(fan, away.id, 'set');
    const payBy = ((await ownRow(phone, away.id))!.toJSON() as AttendeeDoc).pay_by!;
    // Seven days from the allocation, which happened just now.
    expect(Math.abs(Date.parse(payBy) - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

    const next = await event({ title: `Stammtisch ${counter}` });
    await eventually(async () => expect(await phone.stored('events', next.id)).not.toBeNull());
    await phone.goOffline();
    await setOwnAttendance({ db: phone.db, docs: phone.docs, outbox: phone.outbox }, next.id, fan.id, 'going');
    phone.goOnline();
    await eventually(async () => {
      const row = await t.db
        .selectFrom('attendees')
        .select('status')
        .where('event_id', '=', next.id)
        .where('user_id', '=', fan.id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      expect(row).toEqual({ status: 'going' });
    });
  });

  it('blocks a member whose ticket an admin bought without a contingent, on the device as on the server', async () => {
    const home = await event({ title: `Heimspiel ${counter} (H)` });
    const fan = await t.member(`no-pay-days-${counter}`);
    const added = await t.call('POST', `/api/events/${home.id}/attendees`, { token: admin, body: { user_id: fan.id } });
    expect(added.status).toBe(201);
    expect(
      (await t.call('PUT', `/api/attendees/${added.body.attendance.id}`, { token: admin, body: { bought: true } })).status,
    ).toBe(200);
    const phone = await phoneWithTicket(fan, home.id, 'none');

    const next = await event();
    await eventually(async () => expect(await phone.stored('events', next.id)).not.toBeNull());
    await expect(
      setOwnAttendance({ db: phone.db, docs: phone.docs, outbox: phone.outbox }, next.id, fan.id, 'going'),
    ).rejects.toEqual(new LocalRuleError('unpaidDebts'));
    expect((await t.call('POST', `/api/attendance/${next.id}`, { token: fan.token, body: { status: 'going' } })).status).toBe(
      403,
    );
  });
});
