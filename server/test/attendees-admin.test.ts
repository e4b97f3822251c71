import { CLUB_CASH_DESK, MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/**
 * The admin's attendee table: add attendee, remove attendee, transfer status, and the ticket fields
 * of member and guest rows (PUT /api/attendees/{attendeeId} and the per-user ticket status route,
 * one domain function).
 */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let other: { id: string; token: string };
let stadiumId: string;
let stehplatz: string;
let sitzplatz: string;
let foreignPrice: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('tab-fan');
  other = await t.member('tab-other');
  const stadium = await t.call('POST', '/api/stadiums', {
    token: admin,
    body: { team_name: 'Hertha BSC', stadium_name: 'Olympiastadion', city: 'Berlin' },
  });
  stadiumId = stadium.body.stadium.id;
  const price = async (stadium: string, euros: number, type: string) =>
    (await t.call('POST', '/api/ticket-prices', { token: admin, body: { stadium_id: stadium, price: euros, ticket_type: type } }))
      .body.ticketPrice.id as string;
  stehplatz = await price(stadiumId, 18.5, 'Stehplatz');
  sitzplatz = await price(stadiumId, 42, 'Sitzplatz');
  const elsewhere = await t.call('POST', '/api/stadiums', {
    token: admin,
    body: { team_name: 'FC St. Pauli', stadium_name: 'Millerntor', city: 'Hamburg' },
  });
  foreignPrice = await price(elsewhere.body.stadium.id, 30, 'Gäste');
});
afterAll(() => t.close());
const rowOf = (id: string) => t.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const memberRow = (eventId: string, userId: string) =>
  t.db
    .selectFrom('attendees')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();

describe('POST /api/events/{id}/attendees', () => {
  let eventId: string;
  beforeAll(async () => {
    eventId = (await createEventVia(t, admin, { title: 'Add attendee (A)' })).id;
  });
  const add = (body: unknown, token = admin, id = eventId) => t.call('POST', `/api/events/${id}/attendees`, { token, body });

  it('adds a member with the first-time defaults', async () => {
    const res = await add({ user_id: fan.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.attendeeAdded,
      attendance: {
        event_id: eventId,
        user_id: fan.id,
        username: 'tab-fan',
        status: 'going',
        needs_ticket: true,
        has_ticket: false,
        needs_transport: true,
        transfer_status: 'outstanding',
        bought: false,
        guest_id: null,
      },
    });
    const detail = await t.call('GET', `/api/events/${eventId}`, { token: fan.token });
    expect(detail.body.attendees.map((a: { username: string }) => a.username)).toEqual(['tab-fan']);
  });

  it('takes the answers given', async () => {
    const res = await add({ user_id: other.id, status: 'maybe', has_ticket: true, needs_transport: false });
    expect(res.body.attendance).toMatchObject({
      status: 'maybe',
      needs_ticket: false,
      has_ticket: true,
      needs_transport: false,
      transfer_status: null,
    });
  });

  it.each([
    ['no user', {}, 400, MESSAGES.selectUser],
    ['an empty user', { user_id: '' }, 400, MESSAGES.selectUser],
    ['a blank user', { user_id: '  ' }, 400, MESSAGES.selectUser],
    ['an unknown user', { user_id: newId() }, 404, MESSAGES.userNotFound],
    ['a member who already attends', { user_id: 'FAN' }, 409, MESSAGES.alreadyAttending],
  ])('refuses %s', async (_label, body, status, message) => {
    const payload = (body as { user_id?: string }).user_id === 'FAN' ? { user_id: fan.id } : body;
    const before = await t.db.selectFrom('attendees').selectAll().orderBy('id').execute();
    const res = await add(payload);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await t.db.selectFrom('attendees').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('refuses a pending registration (409) and a deleted event (404)', async () => {
    const reg = await t.call('POST', '/api/auth/register', {
      body: { username: 'tab-pending', email: 'tab-pending@example.org', password: 'pending-pass' },
    });
    const pending = await add({ user_id: reg.body.user.id });
    expect(pending.status).toBe(409);
    expect(pending.body.message).toBe(MESSAGES.userNotActive);
    const gone = await createEventVia(t, admin, { title: 'Gone (H)' });
    await t.call('DELETE', `/api/events/${gone.id}`, { token: admin });
    expect((await add({ user_id: fan.id }, admin, gone.id)).body.message).toBe('Event not found');
  });

  it('adds a member despite unpaid debts (the admin decides) and again after the member left', async () => {
    const debtor = await t.member('tab-debtor');
    const first = await createEventVia(t, admin, { title: 'Debt (A)' });
    const added = await add({ user_id: debtor.id }, admin, first.id);
    await t.call('PUT', `/api/attendees/${added.body.attendance.id}`, { token: admin, body: { bought: true, price: 20 } });
    expect((await t.call('POST', `/api/attendance/${eventId}`, { token: debtor.token, body: { status: 'going' } })).status).toBe(
      403,
    );
    expect((await add({ user_id: debtor.id })).status).toBe(201);
    expect((await t.call('DELETE', `/api/attendance/${eventId}/user/${debtor.id}`, { token: admin })).status).toBe(200);
    expect((await add({ user_id: debtor.id })).status).toBe(201);
  });

  it('is for admins only', async () => {
    const stranger = await t.member('tab-stranger');
    for (const token of [fan.token, stranger.token]) {
      const res = await add({ user_id: stranger.id }, token);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Admin access required');
    }
    expect(await memberRow(eventId, stranger.id)).toBeUndefined();
  });
});

describe('DELETE /api/attendance/{eventId}/user/{userId}', () => {
  it("removes a member's attendance, also with a bought ticket, as a tombstone with a new seq", async () => {
    const event = await createEventVia(t, admin, { title: 'Remove (H)' });
    await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'going' } });
    const row = (await memberRow(event.id, fan.id))!;
    await t.call('PUT', `/api/attendees/${row.id}`, { token: admin, body: { bought: true, price: 25 } });
    // The member cannot leave with a bought ticket ...
    expect((await t.call('DELETE', `/api/attendance/${event.id}`, { token: fan.token })).status).toBe(409);
    // ... nor use the admin's route.
    const refused = await t.call('DELETE', `/api/attendance/${event.id}/user/${fan.id}`, { token: fan.token });
    expect(refused).toMatchObject({ status: 403, body: { message: 'Admin access required' } });
    const seq = Number((await rowOf(row.id)).seq);
    const res = await t.call('DELETE', `/api/attendance/${event.id}/user/${fan.id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: MESSAGES.attendanceRemoved });
    const after = await rowOf(row.id);
    expect(after.deleted).toBe(1);
    expect(Number(after.seq)).toBeGreaterThan(seq);
    const again = await t.call('DELETE', `/api/attendance/${event.id}/user/${fan.id}`, { token: admin });
    expect(again).toMatchObject({ status: 404, body: { message: MESSAGES.attendanceNotFound } });
  });
});

describe('PUT /api/attendance/{eventId}/user/{userId}/transfer-status', () => {
  it('sets outstanding, reserved or waiting_list (admin)', async () => {
    const event = await createEventVia(t, admin, { title: 'Seats (A)' });
    await t.call('POST', `/api/attendance/${event.id}`, { token: fan.token, body: { status: 'going' } });
    const url = `/api/attendance/${event.id}/user/${fan.id}/transfer-status`;
    for (const status of ['reserved', 'waiting_list', 'outstanding'] as const) {
      const res = await t.call('PUT', url, { token: admin, body: { transfer_status: status } });
      expect(res.status).toBe(200);
      expect(res.body.attendance).toMatchObject({ user_id: fan.id, username: 'tab-fan', transfer_status: status });
    }
    expect((await t.call('PUT', url, { token: fan.token, body: { transfer_status: 'reserved' } })).status).toBe(403);
    for (const body of [{}, { transfer_status: 'booked' }, { transfer_status: null }]) {
      const res = await t.call('PUT', url, { token: admin, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MESSAGES.invalidInput);
    }
    expect((await memberRow(event.id, fan.id))!.transfer_status).toBe('outstanding');
    const notAttending = await t.call('PUT', `/api/attendance/${event.id}/user/${other.id}/transfer-status`, {
      token: admin,
      body: { transfer_status: 'reserved' },
    });
    expect(notAttending.status).toBe(404);
  });
});

describe('ticket fields (PUT /api/attendees/{attendeeId})', () => {
  let eventId: string;
  let rowId: string;
  let guestId: string;
  beforeAll(async () => {
    eventId = (await createEventVia(t, admin, { title: 'Hertha - Union (A)', stadium_id: stadiumId })).id;
    await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } });
    rowId = (await memberRow(eventId, fan.id))!.id;
    guestId = (await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: eventId, guest_name: 'Kalle' } })).body
      .guest.id;
  });
  const put = (body: unknown, id = rowId, token = admin) => t.call('PUT', `/api/attendees/${id}`, { token, body });

  it("takes a ticket price option of the event's stadium: price and type come from it", async () => {
    const res = await put({ ticket_price_id: stehplatz });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.attendeeUpdated });
    expect(res.body.attendance).toMatchObject({
      id: rowId,
      username: 'tab-fan',
      ticket_price_id: stehplatz,
      price: 18.5,
      ticket_type: 'Stehplatz',
      is_free: false,
      is_price_tbd: false,
    });
    // The option wins over a price and type in the same body.
    const other = await put({ ticket_price_id: sitzplatz, price: 1, ticket_type: 'VIP' });
    expect(other.body.attendance).toMatchObject({ ticket_price_id: sitzplatz, price: 42, ticket_type: 'Sitzplatz' });
    expect(await rowOf(rowId)).toMatchObject({ price_cents: 4200, ticket_type: 'Sitzplatz' });
  });

  it('marks a ticket free (price 0) or to be announced (no price); each clears the option and the other', async () => {
    const free = await put({ is_free: true });
    expect(free.body.attendance).toMatchObject({ is_free: true, is_price_tbd: false, price: 0, ticket_price_id: null });
    const tbd = await put({ is_price_tbd: true });
    expect(tbd.body.attendance).toMatchObject({ is_free: false, is_price_tbd: true, price: null, ticket_price_id: null });
    const priced = await put({ price: 12.34, ticket_type: ' Ermäßigt ' });
    expect(priced.body.attendance).toMatchObject({ is_free: false, is_price_tbd: false, price: 12.34, ticket_type: 'Ermäßigt' });
    const option = await put({ ticket_price_id: stehplatz });
    expect(option.body.attendance).toMatchObject({ is_free: false, is_price_tbd: false, price: 18.5 });
  });

  it('sets bought, paid, received and the payer (a member or the club cash desk); paid settles the request', async () => {
    await put({ bought: true, paid_by: CLUB_CASH_DESK });
    await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } });
    await t.db
      .updateTable('attendees')
      .set({ paid_requested: 1, paid_requested_at: new Date().toISOString() })
      .where('id', '=', rowId)
      .execute();
    const paid = await put({ paid: true, paid_by: other.id });
    expect(paid.body.attendance).toMatchObject({ bought: true, paid: true, paid_requested: false, paid_by: other.id });
    const received = await put({ received: true, paid_by: null });
    expect(received.body.attendance).toMatchObject({ received: true, paid_by: null });
  });

  it('edits transfer status and answers; needs and has ticket stay exclusive', async () => {
    const res = await put({ transfer_status: 'reserved', status: 'maybe', has_ticket: true, needs_transport: false });
    expect(res.body.attendance).toMatchObject({
      transfer_status: 'reserved',
      status: 'maybe',
      needs_ticket: false,
      has_ticket: true,
      needs_transport: false,
    });
    const back = await put({ needs_ticket: true });
    expect(back.body.attendance).toMatchObject({ needs_ticket: true, has_ticket: false, status: 'maybe' });
  });

  it("edits a guest's row the same way", async () => {
    const res = await put({ ticket_price_id: stehplatz, bought: true, paid_by: fan.id }, guestId);
    expect(res.status).toBe(200);
    expect(res.body.attendance).toMatchObject({
      id: guestId,
      guest_id: guestId,
      guest_name: 'Kalle',
      brought_by_username: 'tab-fan',
      username: null,
      price: 18.5,
      bought: true,
      paid_by: fan.id,
    });
  });

  it('gives the row a new seq on a change and none when nothing changes', async () => {
    await put({ bought: true });
    const seq = Number((await rowOf(rowId)).seq);
    expect((await put({ bought: true })).status).toBe(200);
    expect(Number((await rowOf(rowId)).seq)).toBe(seq);
    await put({ bought: false });
    expect(Number((await rowOf(rowId)).seq)).toBeGreaterThan(seq);
  });

  it.each([
    ['an option of another stadium', { ticket_price_id: 'FOREIGN' }, MESSAGES.ticketPriceNotForStadium],
    ['an unknown option', { ticket_price_id: newId() }, MESSAGES.ticketPriceNotForStadium],
    ['free and TBD', { is_free: true, is_price_tbd: true }, MESSAGES.priceChoiceExclusive],
    ['free with a price', { is_free: true, price: 5 }, MESSAGES.priceChoiceExclusive],
    ['TBD with a price', { is_price_tbd: true, price: 5 }, MESSAGES.priceChoiceExclusive],
    ['an option and free', { ticket_price_id: 'STEH', is_free: true }, MESSAGES.priceChoiceExclusive],
    ['an unknown payer', { paid_by: newId() }, MESSAGES.invalidPayer],
    ['a payer that is no id', { paid_by: 'somebody' }, MESSAGES.invalidPayer],
    ['both ticket flags', { needs_ticket: true, has_ticket: true }, MESSAGES.hasTicketAndNeedsTicket],
    ['a negative price', { price: -1 }, MESSAGES.priceInvalid],
    ['an unknown transfer status', { transfer_status: 'booked' }, MESSAGES.invalidInput],
    ['an unknown field', { deleted: 1 }, null],
    ['bought as text', { bought: 'yes' }, null],
  ])('refuses %s with 400 and changes nothing', async (_label, body, message) => {
    const payload = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, v === 'FOREIGN' ? foreignPrice : v === 'STEH' ? stehplatz : v]),
    );
    const before = await rowOf(rowId);
    const res = await put(payload);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toBe(message);
    expect(await rowOf(rowId)).toEqual(before);
  });

  it('refuses members (403), unknown and removed rows (404)', async () => {
    for (const token of [fan.token, other.token]) {
      expect((await put({ bought: false }, rowId, token)).body.message).toBe('Admin access required');
    }
    expect((await put({ bought: true }, newId())).body.message).toBe(MESSAGES.attendanceNotFound);
    // (The fan has unpaid tickets by now, so the admin brings the guest for them.)
    const removed = await t.call('POST', '/api/guests', {
      token: admin,
      body: { event_id: eventId, guest_name: 'Gone', brought_by: fan.id },
    });
    expect(removed.status).toBe(201);
    expect((await t.call('DELETE', `/api/guests/${removed.body.guest.id}`, { token: fan.token })).status).toBe(200);
    expect((await put({ bought: true }, removed.body.guest.id)).status).toBe(404);
  });

  it('the per-user ticket status route shares the rules', async () => {
    const url = `/api/tickets/event/${eventId}/user/${fan.id}/status`;
    const res = await t.call('PUT', url, { token: admin, body: { ticket_price_id: sitzplatz, is_free: false } });
    expect(res.body.attendance).toMatchObject({ ticket_price_id: sitzplatz, price: 42, ticket_type: 'Sitzplatz' });
    const refused = await t.call('PUT', url, { token: admin, body: { ticket_price_id: foreignPrice } });
    expect(refused).toMatchObject({ status: 400, body: { message: MESSAGES.ticketPriceNotForStadium } });
  });

  it('a deleted price option leaves the rows their price and type but drops the link, with a new seq', async () => {
    const extra = await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadiumId, price: 9.99, ticket_type: 'Kinder' },
    });
    await put({ ticket_price_id: extra.body.ticketPrice.id });
    const seq = Number((await rowOf(rowId)).seq);
    expect((await t.call('DELETE', `/api/ticket-prices/${extra.body.ticketPrice.id}`, { token: admin })).status).toBe(200);
    const row = await rowOf(rowId);
    expect(row).toMatchObject({ ticket_price_id: null, price_cents: 999, ticket_type: 'Kinder' });
    expect(Number(row.seq)).toBeGreaterThan(seq);
  });
});
