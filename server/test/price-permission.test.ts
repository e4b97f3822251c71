import { MESSAGES, SYNC_SCHEMAS } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventVia, createTestApp, eventRow, type TestApp } from './helpers.js';

/*
 * What members are charged is the admins' once it is charged (docs/product.md, Roles and
 * permissions): while an event has a ticket contingent or a bought ticket, its creator may no longer
 * change its ticket price or stadium (409 'eventPriceLocked', nothing changed); before that they
 * may, other fields stay theirs, and admins may always. Events take no sync pushes: a device cannot
 * go round the rule either.
 */

let t: TestApp;
let admin: string;
let creator: { id: string; token: string };
let fan: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  creator = await t.member('price-creator');
  fan = await t.member('price-fan');
});
afterAll(() => t.close());

const put = (id: string, body: unknown, token: string) => t.call('PUT', `/api/events/${id}`, { token, body });
const stadium = async (name: string) => {
  const res = await t.call('POST', '/api/stadiums', {
    token: admin,
    body: { team_name: 'Union', stadium_name: name, city: 'Berlin' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.stadium.id as string;
};

async function expectLocked(eventId: string, body: Record<string, unknown>) {
  const before = await eventRow(t, eventId);
  const res = await put(eventId, body, creator.token);
  expect(res.status).toBe(409);
  expect(res.body).toEqual({ success: false, code: 'eventPriceLocked', message: MESSAGES.eventPriceLocked });
  expect(await eventRow(t, eventId)).toEqual(before);
}

describe('the ticket price of a member-created event', () => {
  it('stays the creator’s until a contingent exists, then only an admin changes it (or the stadium)', async () => {
    const event = await createEventVia(t, creator.token, { title: 'Stammtisch-Tour (A)', ticket_price: 20 });
    expect((await put(event.id, { ticket_price: 25 }, creator.token)).status).toBe(200);

    const contingent = await t.call('PUT', `/api/events/${event.id}/contingent`, { token: admin, body: { tickets: 2 } });
    expect(contingent.status, JSON.stringify(contingent.body)).toBe(200);

    await expectLocked(event.id, { ticket_price: 99_999.99 });
    await expectLocked(event.id, { ticket_price: null });
    await expectLocked(event.id, { stadium_id: await stadium('Alte Försterei') });
    // The same price again changes nothing and is no change of price; other fields stay the creator's.
    expect((await put(event.id, { ticket_price: 25, title: 'Stammtisch-Tour 2 (A)' }, creator.token)).status).toBe(200);
    expect((await eventRow(t, event.id)).title).toBe('Stammtisch-Tour 2 (A)');

    // Another member may not edit it at all; an admin may change the price.
    expect((await put(event.id, { ticket_price: 1 }, fan.token)).status).toBe(403);
    const byAdmin = await put(event.id, { ticket_price: 30 }, admin);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.event.ticket_price).toBe(30);
    expect(Number((await eventRow(t, event.id)).ticket_price_cents)).toBe(3000);
  });

  it('is locked by a bought ticket without a contingent too', async () => {
    const event = await createEventVia(t, creator.token, { title: 'Bus nach Bochum (A)', ticket_price: 18 });
    const added = await t.call('POST', `/api/events/${event.id}/attendees`, { token: admin, body: { user_id: fan.id } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const bought = await t.call('PUT', `/api/attendees/${added.body.attendance.id}`, { token: admin, body: { bought: true } });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);

    await expectLocked(event.id, { ticket_price: 50 });
    expect((await put(event.id, { ticket_price: 19 }, admin)).status).toBe(200);
  });

  it('cannot be changed through the sync: events take no pushes', async () => {
    const event = await createEventVia(t, creator.token, { title: 'Sync-Versuch (A)', ticket_price: 18 });
    await t.call('PUT', `/api/events/${event.id}/contingent`, { token: admin, body: { tickets: 1 } });
    const before = await eventRow(t, event.id);
    const pulled = await t.call('POST', `/api/sync/events/${SYNC_SCHEMAS.events.version}/pull`, {
      token: creator.token,
      body: { checkpoint: null, limit: 1000 },
    });
    const doc = (pulled.body.documents as { id: string; ticket_price_cents: number }[]).find((d) => d.id === event.id);
    expect(doc).toBeDefined();
    const pushed = await t.call('POST', `/api/sync/events/${SYNC_SCHEMAS.events.version}/push`, {
      token: creator.token,
      body: [{ newDocumentState: { ...doc, ticket_price_cents: 9_999_999, _deleted: false }, assumedMasterState: doc }],
    });
    expect(pushed.status).toBeGreaterThanOrEqual(400);
    expect(pushed.status).toBeLessThan(500);
    expect(await eventRow(t, event.id)).toEqual(before);
  });
});
