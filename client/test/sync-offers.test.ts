import type { NoticeDoc, OfferDoc } from '@fankurve/shared';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptOffer, openOffers$ } from '../src/data/collections/offers.js';
import { createEventVia, createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';
import { kindOf } from '../src/data/pushedGroup.js';

/*
 * Offers of returned tickets on a member's device (docs/architecture.md, "Ticket contingents"): the
 * offer arrives through sync with its event, is accepted offline, and lands when the device is back
 * online: the ticket and its debt move. An accept that arrives after the window closed is refused
 * with a notice, and the device gets the open offer back as the server has it.
 */
describe('sync: offers', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let members = 0;
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

  const needsTicket = async (token: string, eventId: string) => {
    const res = await t.call('POST', `/api/attendance/${eventId}`, { token, body: { status: 'going', needs_ticket: true } });
    expect(res.status).toBe(200);
    return res.body.attendance.id as string;
  };
  const row = (id: string) => t.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** A one-ticket contingent: a holder's ticket returned and offered to a fan, whose phone has it. */
  async function offeredOnPhone() {
    const event = await createEventVia(t, admin, {
      title: `Auswärts ${++members} (A)`,
      date: '2030-03-01 15:30',
      ticket_price: 22,
    });
    expect((await t.call('PUT', `/api/events/${event.id}/contingent`, { token: admin, body: { tickets: 1 } })).status).toBe(200);
    const holder = await t.member(`offer-holder-${members}`);
    const fan = await t.member(`offer-fan-${members}`);
    const holderRow = await needsTicket(holder.token, event.id);
    const fanRow = await needsTicket(fan.token, event.id);
    expect((await t.call('PUT', `/api/tickets/${holderRow}/return`, { token: holder.token })).body.offered).toBe(true);
    const phone = await TestClient.connect(server.url, fan.token, ['events', 'attendees', 'offers', 'notices']);
    devices.push(phone);
    await eventually(async () => {
      const [offer] = await firstValueFrom(openOffers$(phone.db, phone.docs, fan.id));
      expect(offer).toMatchObject({ event_id: event.id, event_title: event.title, price_cents: 2200, response: null });
    });
    const [offer] = await firstValueFrom(openOffers$(phone.db, phone.docs, fan.id));
    return { eventId: event.id, holder, fan, holderRow, fanRow, phone, offerId: offer!.id };
  }

  it('accepts an offer offline; it lands after reconnecting, with the ticket and its debt', async () => {
    const { fan, holderRow, fanRow, phone, offerId } = await offeredOnPhone();
    await phone.goOffline();
    const failed = phone.nextPushFailure('offers');
    await acceptOffer({ db: phone.db, docs: phone.docs, outbox: phone.outbox }, fan.id, offerId);
    await failed;
    // On the device the answer is made and waits; the server has not heard of it.
    expect(await firstValueFrom(openOffers$(phone.db, phone.docs, fan.id))).toEqual([
      expect.objectContaining({ id: offerId, response: 'accept' }),
    ]);
    expect(phone.outbox.size).toBeGreaterThan(0);
    expect(await row(fanRow)).toMatchObject({ bought: 0 });

    phone.goOnline();
    await eventually(async () => {
      const doc = (await kindOf(phone.db, 'offers').findOne(offerId).exec())?.toJSON() as OfferDoc | undefined;
      expect(doc).toMatchObject({ state: 'accepted', response: 'accept' });
    });
    expect(await row(fanRow)).toMatchObject({ bought: 1, price_cents: 2200, paid: 0 });
    expect(await row(holderRow)).toMatchObject({ bought: 0, price_cents: null, needs_ticket: 0 });
    // The fan's own row reaches the phone bought; the open offers are empty.
    await eventually(async () => expect((await phone.attendees()).find((a) => a.id === fanRow)).toMatchObject({ bought: true }));
    expect(await firstValueFrom(openOffers$(phone.db, phone.docs, fan.id))).toEqual([]);
    const debts = await t.call('GET', '/api/tickets/debts', { token: admin });
    const owed = (id: string) => debts.body.debts.find((d: { user_id: string }) => d.user_id === id)?.total_debt ?? 0;
    expect(owed(fan.id)).toBe(22);
  });

  it('refuses an offline accept that arrives after the window closed, with a notice on the device', async () => {
    const { fan, fanRow, holderRow, phone, offerId, eventId } = await offeredOnPhone();
    await phone.goOffline();
    const failed = phone.nextPushFailure('offers');
    await acceptOffer({ db: phone.db, docs: phone.docs, outbox: phone.outbox }, fan.id, offerId);
    await failed;
    // While the phone is offline, the window closes (the job that would close the offer has not run yet).
    await t.db
      .updateTable('offers')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', offerId)
      .execute();

    phone.goOnline();
    await eventually(async () => {
      const notices = (await kindOf(phone.db, 'notices').find().exec()).map((doc) => doc.toJSON() as NoticeDoc);
      expect(notices).toEqual([expect.objectContaining({ code: 'offerExpired', action: 'offer.answer', event_id: eventId })]);
    });
    await eventually(async () => {
      const doc = (await kindOf(phone.db, 'offers').findOne(offerId).exec())?.toJSON() as OfferDoc | undefined;
      expect(doc).toMatchObject({ state: 'open', response: null });
    });
    expect(await row(fanRow)).toMatchObject({ bought: 0 });
    expect(await row(holderRow)).toMatchObject({ bought: 1 });
  });
});
