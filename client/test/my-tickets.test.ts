import 'fake-indexeddb/auto';
import { SYNC_SCHEMAS, type AttendeeDoc } from '@fankurve/shared';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGuest, setOwnAttendance } from '../src/data/collections/attendees.js';
import { buildMyTickets, myTickets$, requestTicket } from '../src/data/collections/tickets.js';
import { myOwedFigures } from '../src/data/collections/ledger.js';
import { LocalRuleError } from '../src/data/device.js';
import { csvAmount, csvField, toCsv } from '@fankurve/shared/rules/csv';
import { createTestApp, listen, type TestApp } from '../../server/test/helpers.js';
import { eventually, TestClient } from './sync-clients.js';

const TODAY = '2026-06-01';

const row = (id: string, fields: Partial<AttendeeDoc>): AttendeeDoc => ({
  id,
  event_id: 'e1',
  user_id: 'u1',
  guest_name: null,
  brought_by: null,
  status: 'going',
  needs_ticket: true,
  has_ticket: false,
  needs_transport: true,
  transfer_status: 'outstanding',
  paid_by: null,
  ticket_price_id: null,
  ticket_type: null,
  price_cents: null,
  is_free: false,
  is_price_tbd: false,
  bought: false,
  paid: false,
  received: false,
  paid_requested: false,
  received_requested: false,
  created_at: '2026-01-01T00:00:00Z',
  seq: 1,
  ...fields,
});

describe('my tickets from the device documents', () => {
  const events = new Map([
    ['e1', { title: 'Union (H)', date: '2026-08-01 15:30:00', location: 'Köpenick', archived: false }],
    ['past', { title: 'Vorbei (A)', date: '2026-03-01 15:30:00', location: 'Bochum', archived: false }],
    ['gone', { title: 'Archiv (A)', date: '2026-09-01 15:30:00', location: 'Berlin', archived: true }],
  ]);

  it('sorts rows into unpaid, pending and paid, with guests, archived events and the overdue note', () => {
    const mine = buildMyTickets(
      [
        row('own', { bought: true, price_cents: 1850 }),
        row('guest', { user_id: null, brought_by: 'u1', guest_name: 'Jürgen', bought: true, price_cents: 1200 }),
        row('archived', { event_id: 'gone', bought: true, price_cents: 525 }),
        row('overdue', { event_id: 'past', bought: true, price_cents: 1000, paid_requested: true }),
        row('waiting', { event_id: 'e1', user_id: null, brought_by: 'u1', guest_name: 'Ulla' }),
        row('past-need', { event_id: 'past' }),
        row('own-ticket', { needs_ticket: false, has_ticket: true }),
        row('done', { bought: true, paid: true, received: true, price_cents: 900 }),
        row('someone-else', { user_id: 'u2', bought: true, price_cents: 5000 }),
      ],
      events,
      'u1',
      TODAY,
    );
    expect(mine.unpaid.map((ticket) => ticket.price_cents)).toEqual([1000, 1200, 1850, 525]);
    expect(mine.unpaid.map((ticket) => ticket.id)).toEqual(['overdue', 'guest', 'own', 'archived']);
    expect(mine.pending.map((ticket) => ticket.id)).toEqual(['waiting']);
    expect(mine.paid.map((ticket) => ticket.id)).toEqual(['done']);
    const byId = new Map([...mine.unpaid, ...mine.pending, ...mine.paid].map((ticket) => [ticket.id, ticket]));
    expect(byId.get('guest')).toMatchObject({ guest_name: 'Jürgen', canRequestPaid: true, canRequestReceived: true });
    expect(byId.get('archived')).toMatchObject({ archived: true, event_title: 'Archiv (A)' });
    expect(byId.get('overdue')).toMatchObject({ overdue: true, paidRequested: true, canRequestPaid: false });
    expect(byId.get('own')).toMatchObject({ overdue: false, event_location: 'Köpenick' });
    expect(byId.get('waiting')).toMatchObject({ canRequestPaid: false, canRequestReceived: false });
    // Received: no request buttons or hints any more.
    expect(byId.get('done')).toMatchObject({
      canRequestPaid: false,
      canRequestReceived: false,
      paidRequested: false,
      receivedRequested: false,
    });
  });

  it("shows a requested ticket at the price buying it will cost (the event's, or the stadium's only category)", () => {
    const priced = new Map([
      ['e1', { ...events.get('e1')!, ticket_price_cents: 2500, ticket_prices: [] }],
      [
        'cat',
        { ...events.get('e1')!, ticket_price_cents: 0, ticket_prices: [{ id: 'p', price_cents: 1500, ticket_type: 'Steh' }] },
      ],
      ['open', { ...events.get('e1')!, ticket_price_cents: 0, ticket_prices: [] }],
    ]);
    const mine = buildMyTickets(
      [row('event-price', {}), row('category', { event_id: 'cat' }), row('unknown', { event_id: 'open' })],
      priced,
      'u1',
      TODAY,
    );
    const byId = new Map(mine.pending.map((ticket) => [ticket.id, ticket.price_cents]));
    expect(Object.fromEntries(byId)).toEqual({ 'event-price': 2500, category: 1500, unknown: null });
  });

  it('counts a price still open apart from the total, never as 0,00 €; a free ticket is no open price', () => {
    const mine = buildMyTickets(
      [
        row('priced', { bought: true, price_cents: 1850 }),
        row('open', { event_id: 'past', bought: true }),
        row('tbd', { event_id: 'gone', bought: true, is_price_tbd: true }),
        row('free', { bought: true, price_cents: 0, is_free: true }),
      ],
      events,
      'u1',
      TODAY,
    );
    expect(mine.unpaid).toHaveLength(4);
    // What is owed is the ledger's balance (here the priced ticket's charge); open prices are counted apart.
    expect(myOwedFigures({ balanceCents: 1850 }, mine.unpaid)).toMatchObject({
      owedCents: 1850,
      openPriceCount: 2,
      unpaidCount: 4,
    });
  });

  it('writes CSV with a BOM, semicolons, quoted fields and decimal commas', () => {
    expect(csvField(csvAmount(1850))).toBe('18,50');
    expect(csvField(csvAmount(5))).toBe('0,05');
    const csv = toCsv(
      ['Mitglied', 'Schulden'],
      [
        ['Jürgen', csvAmount(1850)],
        ['A;B "C"', csvAmount(0)],
      ],
    );
    expect(csv).toBe('\uFEFFMitglied;Schulden\r\nJürgen;18,50\r\n"A;B ""C""";0,00\r\n');
  });
});

/** A member's device against the real server: the lists from RxDB, and a request made offline that syncs. */
describe('my tickets on a device', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let admin: string;
  let kai: { id: string; token: string };
  let device: TestClient;

  const serverRow = async (id: string) =>
    (
      (
        await t.call('POST', `/api/sync/attendees/${SYNC_SCHEMAS.attendees.version}/pull`, {
          token: admin,
          body: { checkpoint: null, limit: 1000 },
        })
      ).body.documents as AttendeeDoc[]
    ).find((doc) => doc.id === id);

  beforeAll(async () => {
    t = await createTestApp();
    t.runtime.deps.syncHeartbeatMs = 200;
    server = await listen(t);
    admin = await t.adminToken();
    kai = await t.member('kai');
    device = await TestClient.connect(server.url, kai.token, ['events', 'attendees']);
  });
  afterAll(async () => {
    await device?.close();
    await server?.close();
    await t?.close();
  });

  it('lists a bought ticket and a guest ticket, and takes a paid request offline that reaches the server', async () => {
    const event = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Köln (A)', date: '2030-02-01 15:30', location: 'Köln' },
    });
    const eventId = event.body.event.id as string;
    await eventually(async () => expect(await device.stored('events', eventId)).not.toBeNull());
    await setOwnAttendance(device, eventId, kai.id, 'going');
    const guestId = await addGuest(device, eventId, kai.id, 'Gast Ömer');
    await eventually(async () => expect((await serverRow(guestId))?.guest_name).toBe('Gast Ömer'));
    const own = (await device.attendees(eventId)).find((doc) => doc.user_id === kai.id)!;
    await eventually(async () => expect(await serverRow(own.id)).toBeDefined());

    // Pending until bought; a request on it is refused on the device already.
    const before = await firstValueFrom(myTickets$(device.db, device.docs, kai.id, TODAY));
    expect(before.pending.map((ticket) => ticket.id).sort()).toEqual([own.id, guestId].sort());
    await expect(requestTicket(device, own.id, kai.id, 'paid')).rejects.toBeInstanceOf(LocalRuleError);

    for (const [id, price] of [
      [own.id, 18.5],
      [guestId, 12],
    ] as const) {
      const res = await t.call('PUT', `/api/attendees/${id}`, { token: admin, body: { bought: true, price } });
      expect(res.status).toBe(200);
    }
    await eventually(async () => {
      const mine = await firstValueFrom(myTickets$(device.db, device.docs, kai.id, TODAY));
      expect(mine.unpaid.map((ticket) => ticket.price_cents).sort()).toEqual([1200, 1850]);
      expect(mine.unpaid.find((ticket) => ticket.id === guestId)).toMatchObject({
        guest_name: 'Gast Ömer',
        event_title: 'Köln (A)',
      });
    });

    await device.goOffline();
    await requestTicket(device, own.id, kai.id, 'paid');
    await requestTicket(device, guestId, kai.id, 'received');
    const offline = await firstValueFrom(myTickets$(device.db, device.docs, kai.id, TODAY));
    expect(offline.unpaid.find((ticket) => ticket.id === own.id)).toMatchObject({ paidRequested: true, canRequestPaid: false });
    expect((await serverRow(own.id))?.paid_requested).toBe(false);

    device.goOnline();
    await eventually(async () => {
      expect(await serverRow(own.id)).toMatchObject({ paid_requested: true });
      expect(await serverRow(guestId)).toMatchObject({ received_requested: true });
    });

    // The admin accepts: the ticket moves to paid on the device.
    await t.call('PUT', `/api/attendees/${own.id}`, { token: admin, body: { paid: true } });
    await eventually(async () => {
      const mine = await firstValueFrom(myTickets$(device.db, device.docs, kai.id, TODAY));
      expect(mine.paid.map((ticket) => ticket.id)).toEqual([own.id]);
      expect(mine.unpaid.map((ticket) => ticket.price_cents)).toEqual([1200]);
    });
  });
});
