import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createEventVia, createTestApp, eventRow, type TestApp } from './helpers.js';

/** Event dates and transport departures lie in the years 2000 to 2100 (docs/architecture.md, "Rules once"). */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const OUT_OF_RANGE = ['0099-05-01 15:00', '1999-12-31 15:00', '2101-01-01 15:00', '9999-12-31 23:59', '2100-12-31 23:55'];
const refusal = { success: false, code: 'dateOutOfRange', message: MESSAGES.dateOutOfRange };

describe('POST /api/events', () => {
  it.each(OUT_OF_RANGE)('refuses %s with 400 dateOutOfRange and creates nothing', async (date) => {
    const before = await countRows(t, 'events');
    const res = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Old match (H)', date, location: 'Stadion' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal);
    expect(await countRows(t, 'events')).toBe(before);
  });

  it.each([
    ['2000-01-01 00:00', '2000-01-01 00:00:00', '1999/00'],
    ['2100-12-31 20:00', '2100-12-31 20:00:00', '2100/01'],
  ])('accepts %s', async (date, stored, season) => {
    const event = await createEventVia(t, admin, { date });
    expect(event.date).toBe(stored);
    expect(event.season).toBe(season);
  });

  it('still calls text that is no date dateRequired', async () => {
    const res = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'X (H)', date: '2030-02-30 15:00', location: 'S' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('dateRequired');
  });
});

describe('PUT /api/events/{id}', () => {
  it.each(OUT_OF_RANGE)('refuses %s with 400 dateOutOfRange and changes nothing', async (date) => {
    const event = await createEventVia(t, admin, { date: '2030-03-01 15:30' });
    const before = await eventRow(t, event.id);
    const res = await t.call('PUT', `/api/events/${event.id}`, { token: admin, body: { date, title: 'Changed (H)' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal);
    expect(await eventRow(t, event.id)).toEqual(before);
  });

  it('accepts the first and the last years', async () => {
    const event = await createEventVia(t, admin);
    for (const [date, stored] of [
      ['2000-01-01 00:00', '2000-01-01 00:00:00'],
      ['2100-12-31 20:00', '2100-12-31 20:00:00'],
    ]) {
      const res = await t.call('PUT', `/api/events/${event.id}`, { token: admin, body: { date } });
      expect(res.status).toBe(200);
      expect((await eventRow(t, event.id)).date).toBe(stored);
    }
  });
});

describe('transport departures', () => {
  it('refuse years outside 2000–2100 with dateOutOfRange on create and edit', async () => {
    const event = await createEventVia(t, admin);
    const body = { event_id: event.id, name: 'Bus', departure_location: 'Clubhouse', is_free: true };
    // A departure is kept to the minute: 2100-12-31 23:55 is no rounding into 2101 there.
    for (const departure_datetime of OUT_OF_RANGE.filter((date) => date !== '2100-12-31 23:55')) {
      const res = await t.call('POST', '/api/transports', { token: admin, body: { ...body, departure_datetime } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal);
    }
    expect(await countRows(t, 'transports')).toBe(0);
    const created = await t.call('POST', '/api/transports', {
      token: admin,
      body: { ...body, departure_datetime: '2100-12-31 20:00' },
    });
    expect(created.status).toBe(201);
    const id = created.body.transport.id as string;
    const res = await t.call('PUT', `/api/transports/${id}`, { token: admin, body: { departure_datetime: '0099-05-01 15:00' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal);
    const row = await t.runtime.deps.store.db.selectFrom('transports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.departure_datetime).toBe('2100-12-31 20:00:00');
    const invalid = await t.call('PUT', `/api/transports/${id}`, { token: admin, body: { departure_datetime: 'soon' } });
    expect(invalid.body.code).toBe('departureInvalid');
  });
});
