import { MESSAGES, newId } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/** Transport options: admins write them, members read them; price a number, free or TBD; departure optional. */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let eventId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('bus-fan');
  eventId = (await createEventVia(t, admin, { title: 'Bus trip (A)' })).id;
});
afterAll(() => t.close());
const rowOf = (id: string) => t.db.selectFrom('transports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const allRows = () => t.db.selectFrom('transports').selectAll().orderBy('id').execute();
const create = (body: Record<string, unknown>, token = admin) =>
  t.call('POST', '/api/transports', { token, body: { event_id: eventId, ...body } });
const bus = { name: 'Bus 1', departure_location: 'S Köpenick' };

describe('POST /api/transports', () => {
  it('adds an option with a price and a departure kept to the minute as entered', async () => {
    const res = await create({ ...bus, price_per_seat: 25.5, departure_datetime: '2030-03-01T07:08' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: MESSAGES.transportSaved,
      transport: {
        id: expect.any(String),
        event_id: eventId,
        name: 'Bus 1',
        departure_location: 'S Köpenick',
        price_per_seat: 25.5,
        is_free: false,
        is_price_tbd: false,
        departure_datetime: '2030-03-01 07:08:00',
      },
    });
    expect(await rowOf(res.body.transport.id)).toMatchObject({ price_per_seat_cents: 2550, deleted: 0 });
  });

  it('takes free (price 0) or to be announced, and no departure (to be announced)', async () => {
    const free = await create({ ...bus, name: ' Cars ', is_free: true, price_per_seat: 0, departure_datetime: null });
    expect(free.body.transport).toMatchObject({ name: 'Cars', is_free: true, price_per_seat: 0, departure_datetime: null });
    const tbd = await create({ ...bus, is_price_tbd: true, departure_datetime: '' });
    expect(tbd.body.transport).toMatchObject({ is_price_tbd: true, is_free: false, price_per_seat: 0, departure_datetime: null });
    const freeWithPrice = await create({ ...bus, is_free: true, price_per_seat: 12 });
    expect(freeWithPrice.body.transport.price_per_seat).toBe(0);
  });

  it.each([
    ['no fields', {}, 400, MESSAGES.transportNameRequired],
    ['a blank name', { ...bus, name: '  ', price_per_seat: 1 }, 400, MESSAGES.transportNameRequired],
    ['no departure location', { name: 'Bus', price_per_seat: 1 }, 400, MESSAGES.departureLocationRequired],
    ['no price', { ...bus }, 400, MESSAGES.seatPriceInvalid],
    ['a null price', { ...bus, price_per_seat: null }, 400, MESSAGES.seatPriceInvalid],
    ['a negative price', { ...bus, price_per_seat: -1 }, 400, MESSAGES.seatPriceInvalid],
    ['a price as text', { ...bus, price_per_seat: '10' }, 400, MESSAGES.seatPriceInvalid],
    ['free and TBD', { ...bus, is_free: true, is_price_tbd: true }, 400, MESSAGES.priceChoiceExclusive],
    ['a departure that is no date', { ...bus, price_per_seat: 1, departure_datetime: 'early' }, 400, MESSAGES.departureInvalid],
    [
      'a departure on 31 April',
      { ...bus, price_per_seat: 1, departure_datetime: '2030-04-31 08:00' },
      400,
      MESSAGES.departureInvalid,
    ],
    ['an unknown event', { ...bus, price_per_seat: 1, event_id: 'UNKNOWN' }, 404, MESSAGES.eventNotFound],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s and writes nothing',
    async (_label, body, status, message) => {
      const payload = { ...body, ...(body.event_id === 'UNKNOWN' ? { event_id: newId() } : {}) };
      const before = await allRows();
      const res = await t.call('POST', '/api/transports', {
        token: admin,
        body: 'event_id' in payload ? payload : { ...payload, event_id: eventId },
      });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, message });
      expect(await allRows()).toEqual(before);
    },
  );

  it('is for admins only', async () => {
    const before = await allRows();
    const res = await create({ ...bus, price_per_seat: 5 }, fan.token);
    expect(res).toMatchObject({ status: 403, body: { message: 'Admin access required' } });
    expect((await create({ ...bus, price_per_seat: 5 }, null as unknown as string)).status).toBe(401);
    expect(await allRows()).toEqual(before);
  });
});

describe('GET /api/transports/event/{eventId}', () => {
  it('lists the live options of an event for every member, oldest first', async () => {
    const otherEvent = await createEventVia(t, admin, { title: 'Other (H)' });
    await t.call('POST', '/api/transports', {
      token: admin,
      body: { ...bus, event_id: otherEvent.id, price_per_seat: 3 },
    });
    const res = await t.call('GET', `/api/transports/event/${eventId}`, { token: fan.token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.transports.length).toBeGreaterThanOrEqual(3);
    expect(res.body.transports.every((tr: { event_id: string }) => tr.event_id === eventId)).toBe(true);
    expect(res.body.transports[0]).toMatchObject({ name: 'Bus 1', price_per_seat: 25.5 });
    expect(res.body.transports[0].price_per_seat_cents).toBeUndefined();
    expect((await t.call('GET', `/api/transports/event/${newId()}`, { token: fan.token })).status).toBe(404);
  });
});

describe('PUT and DELETE /api/transports/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (await create({ ...bus, name: 'Van', price_per_seat: 15, departure_datetime: '2030-03-01 06:00' })).body.transport.id;
  });
  const put = (body: unknown, token = admin) => t.call('PUT', `/api/transports/${id}`, { token, body });

  it('changes any field; switching between price, free and TBD', async () => {
    const renamed = await put({ name: 'Big van', departure_datetime: null });
    expect(renamed.body.transport).toMatchObject({ name: 'Big van', price_per_seat: 15, departure_datetime: null });
    const free = await put({ is_free: true });
    expect(free.body.transport).toMatchObject({ is_free: true, price_per_seat: 0 });
    // Leaving "free" needs a price ...
    const noPrice = await put({ is_free: false });
    expect(noPrice).toMatchObject({ status: 400, body: { message: MESSAGES.seatPriceInvalid } });
    // ... or TBD.
    const tbd = await put({ is_free: false, is_price_tbd: true });
    expect(tbd.body.transport).toMatchObject({ is_free: false, is_price_tbd: true, price_per_seat: 0 });
    const priced = await put({ is_price_tbd: false, price_per_seat: 19.99, departure_datetime: '2030-03-01 05:53' });
    expect(priced.body.transport).toMatchObject({
      is_price_tbd: false,
      price_per_seat: 19.99,
      departure_datetime: '2030-03-01 05:53:00',
    });
  });

  it('gives the row a new seq on a change and none when nothing changes', async () => {
    const seq = Number((await rowOf(id)).seq);
    await put({ name: 'Big van' });
    expect(Number((await rowOf(id)).seq)).toBe(seq);
    await put({ departure_location: 'Hauptbahnhof' });
    expect(Number((await rowOf(id)).seq)).toBeGreaterThan(seq);
  });

  it.each([
    ['a blank name', { name: '' }, MESSAGES.transportNameRequired],
    ['a blank departure location', { departure_location: ' ' }, MESSAGES.departureLocationRequired],
    ['free and TBD', { is_free: true, is_price_tbd: true }, MESSAGES.priceChoiceExclusive],
    ['a negative price', { price_per_seat: -5 }, MESSAGES.seatPriceInvalid],
    ['a null price', { price_per_seat: null }, MESSAGES.seatPriceInvalid],
    ['a bad departure', { departure_datetime: '2030-13-01 10:00' }, MESSAGES.departureInvalid],
  ])('refuses %s and changes nothing', async (_label, body, message) => {
    const before = await rowOf(id);
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect(await rowOf(id)).toEqual(before);
  });

  it('refuses members; deletes as a tombstone with a new seq; then 404', async () => {
    const before = await rowOf(id);
    expect((await put({ name: 'Mine' }, fan.token)).status).toBe(403);
    expect((await t.call('DELETE', `/api/transports/${id}`, { token: fan.token })).status).toBe(403);
    expect(await rowOf(id)).toEqual(before);
    const res = await t.call('DELETE', `/api/transports/${id}`, { token: admin });
    expect(res.body).toEqual({ success: true, message: MESSAGES.transportDeleted });
    const after = await rowOf(id);
    expect(after.deleted).toBe(1);
    expect(Number(after.seq)).toBeGreaterThan(Number(before.seq));
    const list = await t.call('GET', `/api/transports/event/${eventId}`, { token: fan.token });
    expect(list.body.transports.some((tr: { id: string }) => tr.id === id)).toBe(false);
    expect((await put({ name: 'Ghost' })).body.message).toBe(MESSAGES.transportNotFound);
    expect((await t.call('DELETE', `/api/transports/${id}`, { token: admin })).status).toBe(404);
  });
});
