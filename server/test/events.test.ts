import { eventDetailAnswer, eventsAnswer, MESSAGES, newId, userAnswer } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createEventVia, createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: string;
let adminId: string;
let fan: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = (await t.callTyped(userAnswer, 'GET', '/api/auth/profile', { token: admin })).user.id;
  fan = await t.member('eventfan');
});
afterAll(() => t.close());

const base = { title: 'Union - Bochum (H)', date: '2030-03-01 15:30', location: 'Berlin' };
const post = (body: unknown, token = admin) => t.call('POST', '/api/events', { token, body });

/** A stadium with two ticket price options, straight into the database (the stadium routes come later). */
async function insertStadium(): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  const db = t.runtime.deps.store.db;
  await db
    .insertInto('stadiums')
    .values({
      id,
      team_name: 'VfL Bochum',
      stadium_name: 'Vonovia Ruhrstadion',
      city: 'Bochum',
      capacity: 26000,
      guest_block_capacity: 3000,
      address: 'Castroper Str. 145, 44791 Bochum',
      ticket_price_cents: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('stadium_ticket_prices')
    .values([
      { id: newId(), stadium_id: id, price_cents: 2550, ticket_type: 'Stehplatz', created_at: now },
      { id: newId(), stadium_id: id, price_cents: 1999, ticket_type: 'Ermäßigt', created_at: now },
    ])
    .execute();
  return id;
}

describe('POST /api/events validation', () => {
  it.each([
    ['title missing', { date: base.date, location: base.location }, 'Title is required'],
    ['title blank', { ...base, title: '   ' }, 'Title is required'],
    ['title a number', { ...base, title: 42 }, 'Title is required'],
    ['date missing', { title: base.title, location: base.location }, 'A valid date is required'],
    ['date blank', { ...base, date: '' }, 'A valid date is required'],
    ['date not a date', { ...base, date: 'next saturday' }, 'A valid date is required'],
    ['date 30 February', { ...base, date: '2030-02-30 15:30' }, 'A valid date is required'],
    ['date hour 24', { ...base, date: '2030-03-01 24:00' }, 'A valid date is required'],
    ['date a number', { ...base, date: 20300301 }, 'A valid date is required'],
    ['location missing', { title: base.title, date: base.date }, 'Location is required'],
    ['location blank', { ...base, location: ' ' }, 'Location is required'],
    ['price negative', { ...base, ticket_price: -1 }, MESSAGES.priceInvalid],
    ['price a string', { ...base, ticket_price: '12.50' }, MESSAGES.priceInvalid],
    ['price absurd', { ...base, ticket_price: 1e9 }, MESSAGES.priceInvalid],
  ])('%s → 400', async (_case, body, message) => {
    const before = await countRows(t, 'events');
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await countRows(t, 'events')).toBe(before);
  });

  it('answers 404 "Stadium not found" for an unknown stadium and writes nothing', async () => {
    const before = await countRows(t, 'events');
    const res = await post({ ...base, stadium_id: newId() });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, message: 'Stadium not found' });
    expect(await countRows(t, 'events')).toBe(before);
  });
});

describe('POST /api/events', () => {
  it('stores the event normalised and answers it in the REST shape', async () => {
    const res = await post({
      title: '  Union - Bochum (H)  ',
      description: '  Choreo!  ',
      date: '2030-03-01 15:30',
      location: ' Stadion An der Alten Försterei ',
      ticket_price: 19.99,
      ticket_buyer: ' Kassenwart ',
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.event).toMatchObject({
      id: expect.any(String),
      title: 'Union - Bochum (H)',
      description: 'Choreo!',
      date: '2030-03-01 15:30:00',
      location: 'Stadion An der Alten Försterei',
      ticket_price: 19.99,
      ticket_buyer: 'Kassenwart',
      season: '2029/30',
      is_updated: false,
      created_by: adminId,
      creator_name: 'admin',
      image: null,
      image_filename: null,
      stadium_id: null,
      stadium_name: null,
    });
    expect(res.body.event.ticket_price_cents).toBeUndefined();
    const row = await t.runtime.deps.store.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', res.body.event.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ date: '2030-03-01 15:30:00', ticket_price_cents: 1999 });
  });

  it.each([
    ['2030-03-01 15:07', '2030-03-01 15:00:00'],
    ['2030-03-01 15:08', '2030-03-01 15:15:00'],
    ['2030-03-01 15:38', '2030-03-01 15:45:00'],
    ['2030-03-01 23:53', '2030-03-02 00:00:00'],
    ['2030-12-31 23:55', '2031-01-01 00:00:00'],
    ['2030-03-01T18:30', '2030-03-01 18:30:00'],
    ['2030-03-01T18:29:59', '2030-03-01 18:30:00'],
    ['2030-03-01T20:30:00.000Z', '2030-03-01 20:30:00'],
  ])('accepts the date %s and stores %s', async (date, stored) => {
    const res = await post({ ...base, date });
    expect(res.status).toBe(201);
    expect(res.body.event.date).toBe(stored);
  });

  it('treats a missing price as 0 (to be announced)', async () => {
    const res = await post(base);
    expect(res.body.event.ticket_price).toBe(0);
    const nullPrice = await post({ ...base, ticket_price: null });
    expect(nullPrice.status).toBe(201);
    expect(nullPrice.body.event.ticket_price).toBe(0);
  });

  it('lets a member create an event', async () => {
    const res = await post({ ...base, title: 'Fan club barbecue' }, fan.token);
    expect(res.status).toBe(201);
    expect(res.body.event).toMatchObject({ created_by: fan.id, creator_name: 'eventfan' });
  });

  it('links a stadium and shows its name, address, guest block and ticket prices', async () => {
    const stadiumId = await insertStadium();
    const res = await post({ ...base, title: 'Bochum - Union (A)', location: 'Bochum', stadium_id: stadiumId });
    expect(res.status).toBe(201);
    expect(res.body.event).toMatchObject({
      stadium_id: stadiumId,
      stadium_name: 'Vonovia Ruhrstadion',
      stadium_address: 'Castroper Str. 145, 44791 Bochum',
      guest_block_capacity: 3000,
    });
    const detail = await t.callTyped(eventDetailAnswer, 'GET', `/api/events/${res.body.event.id}`, { token: fan.token });
    expect(detail.ticketPrices).toEqual([
      { id: expect.any(String), price: 19.99, ticket_type: 'Ermäßigt' },
      { id: expect.any(String), price: 25.5, ticket_type: 'Stehplatz' },
    ]);
  });
});

describe('GET /api/events and /api/events/{id}', () => {
  let june: string;
  let july: string;
  beforeAll(async () => {
    june = (await createEventVia(t, admin, { title: 'Last match of the season (A)', date: '2032-06-30 20:30' })).id;
    july = (await createEventVia(t, admin, { title: 'Friendly (H)', date: '2032-07-01 18:00' })).id;
  });

  it('lists events by date with season, going and maybe counts', async () => {
    const going = await t.member('counter-going');
    const maybe = await t.member('counter-maybe');
    for (const [token, status] of [
      [going.token, 'going'],
      [fan.token, 'going'],
      [maybe.token, 'maybe'],
    ] as const) {
      expect((await t.call('POST', `/api/attendance/${june}`, { token, body: { status } })).status).toBe(200);
    }
    const { events } = await t.callTyped(eventsAnswer, 'GET', '/api/events', { token: fan.token });
    const dates = events.map((e) => e.date);
    expect(dates).toEqual([...dates].sort());
    expect(events.find((e) => e.id === june)).toMatchObject({ season: '2031/32', going_count: 2, maybe_count: 1 });
    expect(events.find((e) => e.id === july)).toMatchObject({ season: '2032/33', going_count: 0, maybe_count: 0 });
  });

  it('shows an event with its attendees by username', async () => {
    const { event, ticketPrices, attendees } = await t.callTyped(eventDetailAnswer, 'GET', `/api/events/${june}`, {
      token: fan.token,
    });
    expect(event).toMatchObject({ id: june, title: 'Last match of the season (A)', season: '2031/32' });
    expect(ticketPrices).toEqual([]);
    expect(attendees.map((a) => [a.username, a.status])).toEqual([
      ['counter-going', 'going'],
      ['eventfan', 'going'],
      ['counter-maybe', 'maybe'],
    ]);
    expect(attendees[1]).toMatchObject({
      user_id: fan.id,
      needs_ticket: true,
      has_ticket: false,
      needs_transport: true,
      bought: false,
      price: null,
    });
  });

  it('answers 404 "Event not found" for an unknown id', async () => {
    for (const id of [newId(), 'not-an-id']) {
      const res = await t.call('GET', `/api/events/${id}`, { token: fan.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Event not found', code: 'eventNotFound' });
    }
  });

  it('hides a deleted event', async () => {
    const gone = await createEventVia(t, admin, { title: 'Cancelled (H)' });
    await t.runtime.deps.store.db.updateTable('events').set({ deleted: 1 }).where('id', '=', gone.id).execute();
    expect((await t.call('GET', `/api/events/${gone.id}`, { token: fan.token })).status).toBe(404);
    const { events } = await t.callTyped(eventsAnswer, 'GET', '/api/events', { token: fan.token });
    expect(events.some((e) => e.id === gone.id)).toBe(false);
  });
});
