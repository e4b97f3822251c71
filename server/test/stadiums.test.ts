import { MESSAGES, newId, todayIn } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/** Stadiums and their ticket price options (admin), and the events' seq when what they show changes. */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('stadium-fan');
});
afterAll(() => t.close());
const stadiumRows = () => t.db.selectFrom('stadiums').selectAll().orderBy('id').execute();
const priceRows = () => t.db.selectFrom('stadium_ticket_prices').selectAll().orderBy('id').execute();
const eventSeq = async (id: string) =>
  Number((await t.db.selectFrom('events').select('seq').where('id', '=', id).executeTakeFirstOrThrow()).seq);
const full = { team_name: 'VfL Bochum', stadium_name: 'Vonovia Ruhrstadion', city: 'Bochum' };
const post = (body: unknown, token = admin) => t.call('POST', '/api/stadiums', { token, body });

describe('POST /api/stadiums', () => {
  it('adds a stadium; capacities default 0, address and price optional', async () => {
    const res = await post({ ...full, team_name: '  VfL Bochum ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.stadiumAdded,
      stadium: {
        id: expect.any(String),
        team_name: 'VfL Bochum',
        stadium_name: 'Vonovia Ruhrstadion',
        city: 'Bochum',
        capacity: 0,
        guest_block_capacity: 0,
        address: null,
        ticket_price: null,
        ticketPrices: [],
      },
    });
    const complete = await post({
      ...full,
      team_name: 'Werder Bremen',
      capacity: 42100,
      guest_block_capacity: 3500,
      address: 'Franz-Böhmert-Str. 1, 28205 Bremen',
      ticket_price: 19.5,
    });
    expect(complete.body.stadium).toMatchObject({ capacity: 42100, guest_block_capacity: 3500, ticket_price: 19.5 });
    expect((await post({ ...full, capacity: null, ticket_price: null })).body.stadium).toMatchObject({
      capacity: 0,
      ticket_price: null,
    });
  });

  it.each([
    ['no fields', {}, MESSAGES.teamNameRequired],
    ['a blank team name', { ...full, team_name: ' ' }, MESSAGES.teamNameRequired],
    ['no stadium name', { team_name: 'x', city: 'y' }, MESSAGES.stadiumNameRequired],
    ['no city', { team_name: 'x', stadium_name: 'y' }, MESSAGES.cityRequired],
    ['a negative capacity', { ...full, capacity: -1 }, MESSAGES.capacityInvalid],
    ['a fractional guest block', { ...full, guest_block_capacity: 1.5 }, MESSAGES.capacityInvalid],
    ['a capacity as text', { ...full, capacity: '100' }, MESSAGES.capacityInvalid],
    ['a negative price', { ...full, ticket_price: -2 }, MESSAGES.priceInvalid],
  ])('refuses %s and writes nothing', async (_label, body, message) => {
    const before = await stadiumRows();
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await stadiumRows()).toEqual(before);
  });

  it('is for admins only', async () => {
    const before = await stadiumRows();
    expect(await post(full, fan.token)).toMatchObject({ status: 403, body: { message: 'Admin access required' } });
    expect(await stadiumRows()).toEqual(before);
  });
});

describe('GET /api/stadiums', () => {
  it('lists every stadium with its prices in euros, for every signed-in user', async () => {
    const stadium = (await post({ ...full, team_name: 'Aachen' })).body.stadium;
    await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadium.id, price: 30, ticket_type: 'Sitz' },
    });
    await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadium.id, price: 12.5, ticket_type: 'Steh' },
    });
    const res = await t.call('GET', '/api/stadiums', { token: fan.token });
    expect(res.status).toBe(200);
    const names = res.body.stadiums.map((s: { team_name: string }) => s.team_name);
    expect(names).toEqual([...names].sort());
    expect(res.body.stadiums.find((s: { id: string }) => s.id === stadium.id).ticketPrices).toEqual([
      { id: expect.any(String), stadium_id: stadium.id, price: 12.5, ticket_type: 'Steh', created_at: expect.any(String) },
      { id: expect.any(String), stadium_id: stadium.id, price: 30, ticket_type: 'Sitz', created_at: expect.any(String) },
    ]);
    expect((await t.call('GET', '/api/stadiums')).status).toBe(401);
  });
});

describe('PUT and DELETE /api/stadiums/{id}', () => {
  it('changes fields; a change the events show gives each live event of the stadium a new seq', async () => {
    const stadium = (await post({ ...full, team_name: 'Schalke' })).body.stadium;
    const live = await createEventVia(t, admin, { title: 'Schalke - Union (A)', stadium_id: stadium.id });
    const gone = await createEventVia(t, admin, { title: 'Called off (A)', stadium_id: stadium.id });
    await t.call('DELETE', `/api/events/${gone.id}`, { token: admin });
    const unrelated = await createEventVia(t, admin, { title: 'Elsewhere (H)' });
    const [liveSeq, goneSeq, unrelatedSeq] = [await eventSeq(live.id), await eventSeq(gone.id), await eventSeq(unrelated.id)];

    // Capacity and city are not on the event document: no bump.
    const quiet = await t.call('PUT', `/api/stadiums/${stadium.id}`, {
      token: admin,
      body: { capacity: 62271, city: 'Gelsenkirchen' },
    });
    expect(quiet.body).toMatchObject({ success: true, message: MESSAGES.stadiumUpdated, stadium: { capacity: 62271 } });
    expect(await eventSeq(live.id)).toBe(liveSeq);

    const res = await t.call('PUT', `/api/stadiums/${stadium.id}`, {
      token: admin,
      body: { ...full, stadium_name: 'Veltins-Arena', address: 'Arenaring 1', guest_block_capacity: 5000, id: 'ignored' },
    });
    expect(res.status).toBe(200);
    expect(res.body.stadium).toMatchObject({ id: stadium.id, stadium_name: 'Veltins-Arena', address: 'Arenaring 1' });
    expect(await eventSeq(live.id)).toBeGreaterThan(liveSeq);
    expect(await eventSeq(gone.id)).toBe(goneSeq);
    expect(await eventSeq(unrelated.id)).toBe(unrelatedSeq);
    const event = await t.call('GET', `/api/events/${live.id}`, { token: fan.token });
    expect(event.body.event).toMatchObject({
      stadium_name: 'Veltins-Arena',
      stadium_address: 'Arenaring 1',
      guest_block_capacity: 5000,
    });
    const list = await t.call('GET', '/api/events', { token: fan.token });
    expect(list.body.events.find((e: { id: string }) => e.id === live.id)).toMatchObject({
      stadium_name: 'Veltins-Arena',
      stadium_address: 'Arenaring 1',
    });
  });

  it('refuses bad fields, members and unknown stadiums', async () => {
    const stadium = (await post({ ...full, team_name: 'Köln' })).body.stadium;
    const before = await stadiumRows();
    for (const [body, message] of [
      [{ team_name: '' }, MESSAGES.teamNameRequired],
      [{ city: '  ' }, MESSAGES.cityRequired],
      [{ capacity: -5 }, MESSAGES.capacityInvalid],
      [{ ticket_price: 'free' }, MESSAGES.priceInvalid],
    ] as const) {
      const res = await t.call('PUT', `/api/stadiums/${stadium.id}`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await t.call('PUT', `/api/stadiums/${stadium.id}`, { token: fan.token, body: { city: 'x' } })).status).toBe(403);
    const unknown = await t.call('PUT', `/api/stadiums/${newId()}`, { token: admin, body: { city: 'x' } });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Stadium not found' } });
    expect(await stadiumRows()).toEqual(before);
  });

  it('refuses deleting a stadium that live events use (409); deletes it with its prices once they are gone', async () => {
    const stadium = (await post({ ...full, team_name: 'Mainz' })).body.stadium;
    await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadium.id, price: 20, ticket_type: 'Steh' },
    });
    const event = await createEventVia(t, fan.token, { title: 'Mainz - Union (A)', stadium_id: stadium.id });
    const refused = await t.call('DELETE', `/api/stadiums/${stadium.id}`, { token: admin });
    expect(refused).toMatchObject({ status: 409, body: { success: false, message: MESSAGES.stadiumInUse } });
    expect((await t.call('DELETE', `/api/stadiums/${stadium.id}`, { token: fan.token })).status).toBe(403);
    await t.call('DELETE', `/api/events/${event.id}`, { token: fan.token });
    const res = await t.call('DELETE', `/api/stadiums/${stadium.id}`, { token: admin });
    expect(res.body).toEqual({ success: true, message: MESSAGES.stadiumDeleted });
    expect((await priceRows()).some((p) => p.stadium_id === stadium.id)).toBe(false);
    expect((await t.call('DELETE', `/api/stadiums/${stadium.id}`, { token: admin })).status).toBe(404);
  });
});

describe('GET /api/stadiums/{id}', () => {
  it('shows the stadium with prices, at most 5 upcoming (ascending) and 5 recent (descending) events', async () => {
    const stadium = (await post({ ...full, team_name: 'Freiburg' })).body.stadium;
    await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadium.id, price: 15, ticket_type: 'Steh' },
    });
    const today = todayIn(t.runtime.deps.config.clubTimeZone);
    const year = Number(today.slice(0, 4));
    const dates = [
      ...[1, 2, 3, 4, 5, 6].map((n) => `${year + n}-03-01 15:30`),
      `${today} 00:00`,
      ...[1, 2, 3, 4, 5, 6].map((n) => `${year - n}-03-01 15:30`),
    ];
    for (const date of dates) await createEventVia(t, admin, { title: `Freiburg ${date} (A)`, date, stadium_id: stadium.id });
    const deleted = await createEventVia(t, admin, {
      title: 'Deleted (A)',
      date: `${year + 1}-01-01 15:30`,
      stadium_id: stadium.id,
    });
    await t.call('DELETE', `/api/events/${deleted.id}`, { token: admin });

    const res = await t.call('GET', `/api/stadiums/${stadium.id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.stadium).toMatchObject({
      id: stadium.id,
      team_name: 'Freiburg',
      ticketPrices: [{ price: 15, ticket_type: 'Steh' }],
    });
    const upcoming = res.body.upcomingEvents.map((e: { date: string }) => e.date);
    const recent = res.body.recentEvents.map((e: { date: string }) => e.date);
    expect(upcoming).toEqual([`${today} 00:00:00`, ...[1, 2, 3, 4].map((n) => `${year + n}-03-01 15:30:00`)]);
    expect(recent).toEqual([1, 2, 3, 4, 5].map((n) => `${year - n}-03-01 15:30:00`));
    expect(res.body.upcomingEvents[0]).toMatchObject({
      stadium_id: stadium.id,
      stadium_name: full.stadium_name,
      ticket_price: 0,
    });

    expect(await t.call('GET', `/api/stadiums/${stadium.id}`, { token: fan.token })).toMatchObject({
      status: 403,
      body: { message: 'Admin access required' },
    });
    expect((await t.call('GET', `/api/stadiums/${newId()}`, { token: admin })).body.message).toBe('Stadium not found');
  });
});

describe('ticket prices', () => {
  let stadiumId: string;
  let eventId: string;
  beforeAll(async () => {
    stadiumId = (await post({ ...full, team_name: 'Hoffenheim' })).body.stadium.id;
    eventId = (await createEventVia(t, admin, { title: 'Hoffenheim - Union (A)', stadium_id: stadiumId })).id;
  });
  const add = (body: unknown, token = admin) => t.call('POST', '/api/ticket-prices', { token, body });

  it('adds a price option; the stadium events get a new seq and show it', async () => {
    const seq = await eventSeq(eventId);
    const res = await add({ stadium_id: stadiumId, price: 21.9, ticket_type: ' Gästeblock ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.ticketPriceAdded,
      ticketPrice: { id: expect.any(String), stadium_id: stadiumId, price: 21.9, ticket_type: 'Gästeblock' },
    });
    expect(await eventSeq(eventId)).toBeGreaterThan(seq);
    const detail = await t.call('GET', `/api/events/${eventId}`, { token: fan.token });
    expect(detail.body.ticketPrices).toEqual([{ id: res.body.ticketPrice.id, price: 21.9, ticket_type: 'Gästeblock' }]);
    const zero = await add({ stadium_id: stadiumId, price: 0, ticket_type: 'Kinder' });
    expect(zero.body.ticketPrice.price).toBe(0);
  });

  it('lists the options of a stadium (admin), cheapest first', async () => {
    const res = await t.call('GET', `/api/ticket-prices/stadium/${stadiumId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.ticketPrices.map((p: { price: number }) => p.price)).toEqual([0, 21.9]);
    expect((await t.call('GET', `/api/ticket-prices/stadium/${stadiumId}`, { token: fan.token })).status).toBe(403);
    expect((await t.call('GET', `/api/ticket-prices/stadium/${newId()}`, { token: admin })).status).toBe(404);
  });

  it.each([
    ['no fields', {}, 400, MESSAGES.fillAllFields],
    ['no price', { stadium_id: 'S', ticket_type: 'Steh' }, 400, MESSAGES.fillAllFields],
    ['a null price', { stadium_id: 'S', price: null, ticket_type: 'Steh' }, 400, MESSAGES.fillAllFields],
    ['no type', { stadium_id: 'S', price: 10 }, 400, MESSAGES.fillAllFields],
    ['a blank type', { stadium_id: 'S', price: 10, ticket_type: '  ' }, 400, MESSAGES.fillAllFields],
    ['no stadium', { price: 10, ticket_type: 'Steh' }, 400, MESSAGES.fillAllFields],
    ['a negative price', { stadium_id: 'S', price: -1, ticket_type: 'Steh' }, 400, MESSAGES.priceInvalid],
    ['an unknown stadium', { stadium_id: 'UNKNOWN', price: 10, ticket_type: 'Steh' }, 404, MESSAGES.stadiumNotFound],
  ])('refuses %s and writes nothing', async (_label, body, status, message) => {
    const payload = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, v === 'S' ? stadiumId : v === 'UNKNOWN' ? newId() : v]),
    );
    const before = await priceRows();
    const seq = await eventSeq(eventId);
    const res = await add(payload);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await priceRows()).toEqual(before);
    expect(await eventSeq(eventId)).toBe(seq);
  });

  it('deletes an option (admin); the stadium events get a new seq; unknown is 404', async () => {
    const id = (await add({ stadium_id: stadiumId, price: 50, ticket_type: 'VIP' })).body.ticketPrice.id;
    expect((await t.call('DELETE', `/api/ticket-prices/${id}`, { token: fan.token })).status).toBe(403);
    const seq = await eventSeq(eventId);
    const res = await t.call('DELETE', `/api/ticket-prices/${id}`, { token: admin });
    expect(res.body).toEqual({ success: true, message: MESSAGES.ticketPriceDeleted });
    expect(await eventSeq(eventId)).toBeGreaterThan(seq);
    expect((await priceRows()).some((p) => p.id === id)).toBe(false);
    const again = await t.call('DELETE', `/api/ticket-prices/${id}`, { token: admin });
    expect(again).toMatchObject({ status: 404, body: { message: MESSAGES.ticketPriceNotFound } });
  });
});
