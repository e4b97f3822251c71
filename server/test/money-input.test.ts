import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createEventVia, createTestApp, type TestApp } from './helpers.js';

/** One money input: the server refuses what the client's money input refuses (more than whole cents). */
describe('euro amounts on every price route', () => {
  let t: TestApp;
  let admin: string;
  let eventId: string;
  let stadiumId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    eventId = (await createEventVia(t, admin, { title: 'Money (A)' })).id;
    const stadium = await t.call('POST', '/api/stadiums', {
      token: admin,
      body: { team_name: 'Geld FC', stadium_name: 'Arena', city: 'Köln' },
    });
    stadiumId = stadium.body.stadium.id;
  });
  afterAll(() => t.close());

  const precise = {
    status: 400,
    body: { success: false, code: 'moneyTooPrecise', message: 'Amounts have at most two decimal places (cents)' },
  };

  it('an event price of 12.345 is refused and nothing is created; 18.5 is 18,50', async () => {
    const before = await countRows(t, 'events');
    const res = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Precise (H)', date: '2031-02-01 15:30', location: 'Berlin', ticket_price: 12.345 },
    });
    expect(res).toMatchObject(precise);
    expect(await countRows(t, 'events')).toBe(before);
    const ok = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Half (H)', date: '2031-02-01 15:30', location: 'Berlin', ticket_price: 18.5 },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.event.ticket_price).toBe(18.5);
  });

  it('transport seat prices, stadium prices, ticket options and the admin ticket edit refuse it too', async () => {
    const transport = await t.call('POST', '/api/transports', {
      token: admin,
      body: { event_id: eventId, name: 'Bus', departure_location: 'Köpenick', price_per_seat: 1.001 },
    });
    expect(transport).toMatchObject(precise);
    const stadium = await t.call('PUT', `/api/stadiums/${stadiumId}`, { token: admin, body: { ticket_price: 9.999 } });
    expect(stadium).toMatchObject(precise);
    const option = await t.call('POST', '/api/ticket-prices', {
      token: admin,
      body: { stadium_id: stadiumId, price: 10.005, ticket_type: 'Steh' },
    });
    expect(option).toMatchObject(precise);
    expect(await countRows(t, 'stadium_ticket_prices')).toBe(0);
    const member = await t.member('geld-fan');
    const attendance = await t.call('POST', `/api/attendance/${eventId}`, { token: member.token, body: { status: 'going' } });
    const edit = await t.call('PUT', `/api/attendees/${attendance.body.attendance.id}`, { token: admin, body: { price: 3.333 } });
    expect(edit).toMatchObject(precise);
  });
});
