import { eventDetailAnswer, eventCreatedAnswer, ticketStatusAnswer } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTestApp, type TestApp } from './helpers.js';

/** PUT /api/tickets/event/{eventId}/user/{userId}/status: the admin's ticket fields of a member's row. */
describe('ticket status (admin)', () => {
  let t: TestApp;
  let admin: string;
  let fan: { id: string; token: string };
  let other: { id: string; token: string };
  let eventId: string;
  const url = () => `/api/tickets/event/${eventId}/user/${fan.id}/status`;
  const fanRow = async () =>
    (await t.callTyped(eventDetailAnswer, 'GET', `/api/events/${eventId}`, { token: admin })).attendees.find(
      (a) => a.user_id === fan.id,
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    fan = await t.member('tina');
    other = await t.member('olaf');
    const created = await t.callTyped(eventCreatedAnswer, 'POST', '/api/events', {
      token: admin,
      status: 201,
      body: { title: 'Wolfsburg (A)', date: '2027-01-16 15:30', location: 'Wolfsburg' },
    });
    eventId = created.event.id;
    await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'going' } });
  });
  afterAll(() => t.close());

  it('is refused to anonymous (401), the member themselves and another member (403 Admin access required)', async () => {
    expect((await t.call('PUT', url(), { body: { bought: true } })).status).toBe(401);
    for (const token of [fan.token, other.token]) {
      const res = await t.call('PUT', url(), { token, body: { bought: true, paid: true } });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Admin access required');
    }
    expect(await fanRow()).toMatchObject({ bought: false, paid: false });
  });

  it('lets the admin set bought, price, payer, paid and received', async () => {
    const bought = await t.callTyped(ticketStatusAnswer, 'PUT', url(), {
      token: admin,
      body: { bought: true, price: 19.99, paid_by: 'club_cash_desk' },
    });
    expect(bought.attendance).toMatchObject({ bought: true, paid: false, price: 19.99, paid_by: 'club_cash_desk' });
    const paid = await t.callTyped(ticketStatusAnswer, 'PUT', url(), { token: admin, body: { paid: true, received: true } });
    expect(paid.attendance).toMatchObject({ paid: true, received: true, paid_requested: false });
  });

  it('answers 404 for a member who does not attend and for an unknown event', async () => {
    expect(
      (await t.call('PUT', `/api/tickets/event/${eventId}/user/${other.id}/status`, { token: admin, body: { bought: true } }))
        .status,
    ).toBe(404);
    const unknown = await t.call('PUT', `/api/tickets/event/nope/user/${fan.id}/status`, {
      token: admin,
      body: { bought: true },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Attendance not found');
  });

  it('refuses bad input with a message and changes nothing', async () => {
    const before = JSON.stringify(await fanRow());
    const seqBefore = await countRows(t, 'attendees');
    for (const body of [
      { bought: 'yes' },
      { price: -1 },
      { price: 'free' },
      { unknown_field: true },
      { paid_by: 'not-a-member' },
    ]) {
      const res = await t.call('PUT', url(), { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: expect.any(String) });
    }
    expect((await t.call('PUT', url(), { token: admin, raw: '{bad' })).status).toBe(400);
    expect(JSON.stringify(await fanRow())).toBe(before);
    expect(await countRows(t, 'attendees')).toBe(seqBefore);
  });
});
