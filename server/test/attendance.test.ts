import { MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../src/db/store.js';
import { countRows, createEventVia, createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const attend = (token: string, eventId: string, body: Record<string, unknown>) =>
  t.call('POST', `/api/attendance/${eventId}`, { token, body });
const leave = (token: string, eventId: string) => t.call('DELETE', `/api/attendance/${eventId}`, { token });

async function countsOf(eventId: string, token: string) {
  const res = await t.call('GET', '/api/events', { token });
  const event = res.body.events.find((e: { id: string }) => e.id === eventId);
  return { going: event.going_count as number, maybe: event.maybe_count as number };
}

async function attendeeRow(eventId: string, userId: string) {
  return t.runtime.deps.store.db
    .selectFrom('attendees')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

describe('first answers by the kind of event (docs/product.md, Attendance and guests)', () => {
  it('a match needs a ticket, only an away match a seat, other events neither: own answer, guest and admin alike', async () => {
    const fan = await t.member('kindfan');
    const other = await t.member('kindother');
    const cases = [
      { title: 'Stammtisch', needs_ticket: false, needs_transport: false, transfer_status: null },
      { title: 'Weihnachtsfeier', needs_ticket: false, needs_transport: false, transfer_status: null },
      { title: 'Union - Bochum (H)', needs_ticket: true, needs_transport: false, transfer_status: null },
      { title: 'Bochum - Union (A)', needs_ticket: true, needs_transport: true, transfer_status: 'outstanding' },
    ];
    for (const { title, ...expected } of cases) {
      const id = (await createEventVia(t, admin, { title, date: '2030-05-02 19:00' })).id;
      const own = await attend(fan.token, id, { status: 'going' });
      expect(own.status).toBe(200);
      expect(own.body.attendance, title).toMatchObject({ has_ticket: false, ...expected });
      const guest = await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: id, guest_name: 'Gast' } });
      expect(guest.status).toBe(201);
      expect(guest.body.guest, title).toMatchObject({ has_ticket: false, ...expected });
      const added = await t.call('POST', `/api/events/${id}/attendees`, { token: admin, body: { user_id: other.id } });
      expect(added.status).toBe(201);
      expect(added.body.attendance, title).toMatchObject({ has_ticket: false, ...expected });
    }
  });

  it('a member still ticks a ticket and a seat for a Stammtisch themselves', async () => {
    const fan = await t.member('kindticker');
    const id = (await createEventVia(t, admin, { title: 'Stammtisch im Mai', date: '2030-05-03 19:00' })).id;
    const res = await attend(fan.token, id, { status: 'maybe', needs_ticket: true, needs_transport: true });
    expect(res.body.attendance).toMatchObject({
      status: 'maybe',
      needs_ticket: true,
      needs_transport: true,
      transfer_status: 'outstanding',
    });
  });
});

describe('own attendance', () => {
  let fan: { id: string; token: string };
  let eventId: string;
  beforeAll(async () => {
    fan = await t.member('attfan');
    eventId = (await createEventVia(t, admin, { title: 'Union - Mainz (A)', date: '2030-04-05 15:30' })).id;
  });

  it('sets first-time attendance with the defaults', async () => {
    const res = await attend(fan.token, eventId, { status: 'going' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.attendanceSaved,
      attendance: {
        id: expect.any(String),
        event_id: eventId,
        user_id: fan.id,
        status: 'going',
        needs_ticket: true,
        has_ticket: false,
        needs_transport: true,
        bought: false,
        paid: false,
        guest_id: null,
      },
    });
    expect(await countsOf(eventId, fan.token)).toEqual({ going: 1, maybe: 0 });
  });

  it('keeps the flags when the status changes from going to maybe', async () => {
    expect((await attend(fan.token, eventId, { status: 'going', has_ticket: true, needs_transport: false })).status).toBe(200);
    const res = await attend(fan.token, eventId, { status: 'maybe' });
    expect(res.status).toBe(200);
    expect(res.body.attendance).toMatchObject({ status: 'maybe', needs_ticket: false, has_ticket: true, needs_transport: false });
    expect(await countsOf(eventId, fan.token)).toEqual({ going: 0, maybe: 1 });
    // Still one row for the member.
    const rows = await t.runtime.deps.store.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', eventId)
      .where('deleted', '=', 0)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps needs_ticket and has_ticket exclusive', async () => {
    const needs = await attend(fan.token, eventId, { status: 'going', needs_ticket: true });
    expect(needs.body.attendance).toMatchObject({ needs_ticket: true, has_ticket: false });
    const has = await attend(fan.token, eventId, { status: 'going', has_ticket: true });
    expect(has.body.attendance).toMatchObject({ needs_ticket: false, has_ticket: true });
    expect(await attendeeRow(eventId, fan.id)).toMatchObject({ needs_ticket: 0, has_ticket: 1 });
  });

  it('refuses needs_ticket and has_ticket both true (400) and changes nothing', async () => {
    const before = await attendeeRow(eventId, fan.id);
    const res = await attend(fan.token, eventId, {
      status: 'maybe',
      needs_ticket: true,
      has_ticket: true,
      needs_transport: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.hasTicketAndNeedsTicket });
    expect(await attendeeRow(eventId, fan.id)).toEqual(before);
  });

  it('lists own attendances with event title, date and location, newest event first', async () => {
    const later = await createEventVia(t, admin, {
      title: 'Union - Köln (H)',
      date: '2030-09-01 18:30',
      location: 'Berlin-Köpenick',
    });
    const other = await t.member('attother');
    expect((await attend(fan.token, later.id, { status: 'maybe' })).status).toBe(200);
    expect((await attend(other.token, later.id, { status: 'going' })).status).toBe(200);
    const res = await t.call('GET', '/api/attendance/my', { token: fan.token });
    expect(res.status).toBe(200);
    expect(res.body.attendance.map((a: { event_id: string }) => a.event_id)).toEqual([later.id, eventId]);
    expect(res.body.attendance[0]).toMatchObject({
      user_id: fan.id,
      status: 'maybe',
      event_title: 'Union - Köln (H)',
      event_date: '2030-09-01 18:30:00',
      event_location: 'Berlin-Köpenick',
    });
    const others = await t.call('GET', '/api/attendance/my', { token: other.token });
    expect(others.body.attendance.map((a: { event_id: string }) => a.event_id)).toEqual([later.id]);
  });

  it('removes attendance; the counts drop, a second removal is 404, attending again starts from the defaults', async () => {
    const res = await leave(fan.token, eventId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: MESSAGES.attendanceRemoved });
    expect(await countsOf(eventId, fan.token)).toEqual({ going: 0, maybe: 0 });
    expect(await attendeeRow(eventId, fan.id)).toBeUndefined();
    const mine = await t.call('GET', '/api/attendance/my', { token: fan.token });
    expect(mine.body.attendance.some((a: { event_id: string }) => a.event_id === eventId)).toBe(false);

    const again = await leave(fan.token, eventId);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, message: MESSAGES.attendanceNotFound });

    const back = await attend(fan.token, eventId, { status: 'going' });
    expect(back.body.attendance).toMatchObject({ needs_ticket: true, has_ticket: false, needs_transport: true });
  });

  it('keeps one row when the same answer arrives several times at once (double tap, retries)', async () => {
    const racer = await t.member('att-racer');
    const event = await createEventVia(t, admin, { title: 'Race (H)' });
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => attend(racer.token, event.id, { status: i % 2 ? 'going' : 'maybe' })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rows = await t.runtime.deps.store.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', event.id)
      .where('deleted', '=', 0)
      .execute();
    expect(rows).toHaveLength(1);
    const counts = await countsOf(event.id, racer.token);
    expect(counts.going + counts.maybe).toBe(1);
  });

  it('answers 404 "Event not found" for an unknown or deleted event and writes nothing', async () => {
    const gone = await createEventVia(t, admin, { title: 'Called off (A)' });
    await t.runtime.deps.store.db.updateTable('events').set({ deleted: 1 }).where('id', '=', gone.id).execute();
    const before = await countRows(t, 'attendees');
    for (const id of [newId(), gone.id]) {
      const set = await attend(fan.token, id, { status: 'going' });
      expect(set.status).toBe(404);
      expect(set.body).toMatchObject({ success: false, message: 'Event not found' });
      const del = await leave(fan.token, id);
      expect(del.status).toBe(404);
      expect(del.body.message).toBe('Event not found');
    }
    expect(await countRows(t, 'attendees')).toBe(before);
  });
});

describe('debt block', () => {
  let debtor: { id: string; token: string };
  let first: string;
  let second: string;
  beforeAll(async () => {
    debtor = await t.member('debtor');
    first = (await createEventVia(t, admin, { title: 'Debt match 1 (A)', date: '2030-05-01 15:30' })).id;
    second = (await createEventVia(t, admin, { title: 'Debt match 2 (H)', date: '2030-05-08 15:30' })).id;
    expect((await attend(debtor.token, first, { status: 'going' })).status).toBe(200);
    // A bought, unpaid ticket (the admin ticket routes are tested elsewhere).
    await t.runtime.deps.store.db
      .updateTable('attendees')
      .set({ bought: 1, price_cents: 2550 })
      .where('event_id', '=', first)
      .where('user_id', '=', debtor.id)
      .execute();
  });

  it('refuses attending another event with 403 and the unpaid-debts message, writing nothing', async () => {
    const before = await countRows(t, 'attendees');
    const res = await attend(debtor.token, second, { status: 'going' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.unpaidDebts });
    expect(await countRows(t, 'attendees')).toBe(before);
    expect(await attendeeRow(second, debtor.id)).toBeUndefined();
    expect(await countsOf(second, debtor.token)).toEqual({ going: 0, maybe: 0 });
    expect((await attend(debtor.token, second, { status: 'maybe' })).status).toBe(403);
  });

  it('still lets the member change the attendance they have', async () => {
    const res = await attend(debtor.token, first, { status: 'maybe', needs_transport: false });
    expect(res.status).toBe(200);
    expect(res.body.attendance).toMatchObject({
      status: 'maybe',
      needs_transport: false,
      bought: true,
      paid: false,
      price: 25.5,
    });
  });

  it('refuses removing an attendance whose ticket was bought (409)', async () => {
    const res = await leave(debtor.token, first);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.ticketAlreadyBought });
    expect(await attendeeRow(first, debtor.id)).toMatchObject({ bought: 1, deleted: 0 });
  });

  it('does not block other members', async () => {
    const clean = await t.member('clean');
    expect((await attend(clean.token, second, { status: 'going' })).status).toBe(200);
  });

  it('lifts the block once the ticket is paid (a bought ticket still cannot be removed)', async () => {
    await t.runtime.deps.store.db
      .updateTable('attendees')
      .set({ paid: 1 })
      .where('event_id', '=', first)
      .where('user_id', '=', debtor.id)
      .execute();
    expect((await attend(debtor.token, second, { status: 'going' })).status).toBe(200);
    expect((await leave(debtor.token, first)).status).toBe(409);
  });

  it('blocks the member who brought a guest whose ticket is bought and unpaid', async () => {
    const host = await t.member('host');
    const bystander = await t.member('bystander');
    const guestEvent = (await createEventVia(t, admin, { title: 'Guest match (A)', date: '2030-06-01 15:30' })).id;
    const guestId = newId();
    await write(t.runtime.deps.store, async (w) => {
      await w.db
        .insertInto('attendees')
        .values({
          id: guestId,
          event_id: guestEvent,
          user_id: null,
          guest_name: 'Onkel Heinz',
          brought_by: host.id,
          status: 'going',
          needs_ticket: 1,
          has_ticket: 0,
          needs_transport: 1,
          transfer_status: null,
          paid_by: null,
          ticket_price_id: null,
          ticket_type: null,
          price_cents: 3000,
          is_free: 0,
          is_price_tbd: 0,
          bought: 1,
          paid: 0,
          received: 0,
          paid_requested: 0,
          paid_requested_at: null,
          received_requested: 0,
          received_requested_at: null,
          created_at: w.now,
          updated_at: w.now,
          seq: await w.nextSeq('attendees'),
        })
        .execute();
    });

    const detail = await t.call('GET', `/api/events/${guestEvent}`, { token: host.token });
    expect(detail.body.attendees).toEqual([
      expect.objectContaining({
        id: guestId,
        guest_id: guestId,
        guest_name: 'Onkel Heinz',
        brought_by_username: 'host',
        username: null,
        bought: true,
        price: 30,
      }),
    ]);
    expect(await countsOf(guestEvent, host.token)).toEqual({ going: 1, maybe: 0 });

    const before = await countRows(t, 'attendees');
    const refused = await attend(host.token, second, { status: 'going' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGES.unpaidDebts);
    expect(await countRows(t, 'attendees')).toBe(before);
    // The guest's debt is the host's, nobody else's.
    expect((await attend(bystander.token, second, { status: 'going' })).status).toBe(200);

    await t.runtime.deps.store.db.updateTable('attendees').set({ paid: 1 }).where('id', '=', guestId).execute();
    expect((await attend(host.token, second, { status: 'going' })).status).toBe(200);
  });
});
