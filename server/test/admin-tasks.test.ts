import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/** /api/admin/*: the admin's pending tasks (/admin/tasks) and accepting paid and received requests. */
describe('admin tasks', () => {
  let t: TestApp;
  let admin: string;
  let fan = { id: '', token: '' };
  let other: { id: string; token: string };
  let eventId: string;
  let archivedEventId: string;
  const row = (id: string) => t.db.selectFrom('attendees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const count = async () => (await t.call('GET', '/api/admin/pending-tasks-count', { token: admin })).body.totalCount as number;

  /** The member's attendance for an event, bought at a price, with a request flag set as the member's device would. */
  let members = 0;
  /** A fresh member each time: a bought, unpaid ticket blocks the member's next attendance (debt block). */
  async function requestedRow(event: string, kind: 'paid' | 'received', price: number | null = 18.5): Promise<string> {
    const name = `tasks-fan${++members}`;
    fan = await t.member(name);
    const res = await t.call('POST', `/api/attendance/${event}`, { token: fan.token, body: { status: 'going' } });
    expect(res.status).toBe(200);
    const id = res.body.attendance.id as string;
    const body = price === null ? { bought: true } : { bought: true, price };
    expect((await t.call('PUT', `/api/tickets/event/${event}/user/${fan.id}/status`, { token: admin, body })).status).toBe(200);
    await t.db
      .updateTable('attendees')
      .set(
        kind === 'paid'
          ? { paid_requested: 1, paid_requested_at: '2026-03-01T10:00:00.000Z' }
          : { received_requested: 1, received_requested_at: '2026-03-02T10:00:00.000Z' },
      )
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    other = await t.member('tasks-other');
    eventId = (await createEventVia(t, admin, { title: 'Tasks match (A)' })).id;
    archivedEventId = (await createEventVia(t, admin, { title: 'Archived match (H)' })).id;
  });
  afterAll(() => t.close());

  it('is refused to anonymous (401) and members (403 Admin access required)', async () => {
    for (const path of ['pending-users', 'pending-paid-requests', 'pending-received-requests', 'pending-tasks-count']) {
      expect((await t.call('GET', `/api/admin/${path}`)).status).toBe(401);
      const res = await t.call('GET', `/api/admin/${path}`, { token: other.token });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MESSAGES.adminRequired);
    }
  });

  it('counts nothing on a fresh club, then a registration', async () => {
    expect(await count()).toBe(0);
    const reg = await t.call('POST', '/api/auth/register', {
      body: { username: 'waiting', email: 'waiting@example.org', password: 'waiting-pass' },
    });
    const pending = await t.call('GET', '/api/admin/pending-users', { token: admin });
    expect(pending.body.users).toEqual([
      expect.objectContaining({ id: reg.body.user.id, username: 'waiting', email: 'waiting@example.org' }),
    ]);
    expect(pending.body.users[0].created_at).toEqual(expect.any(String));
    expect(await count()).toBe(1);
    expect((await t.call('PUT', `/api/auth/users/${reg.body.user.id}/approve`, { token: admin })).status).toBe(200);
    expect(await count()).toBe(0);
  });

  it('lists a paid request with event, date, price and request date, and accepting it pays the ticket with a new seq', async () => {
    const id = await requestedRow(eventId, 'paid');
    const list = await t.call('GET', '/api/admin/pending-paid-requests', { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.requests).toEqual([
      expect.objectContaining({
        id,
        username: 'tasks-fan1',
        event_title: 'Tasks match (A)',
        event_date: expect.any(String),
        price: 18.5,
        price_open: false,
        request_date: '2026-03-01T10:00:00.000Z',
      }),
    ]);
    const counts = (await t.call('GET', '/api/admin/pending-tasks-count', { token: admin })).body;
    expect(counts).toMatchObject({ totalCount: 1, pendingPaidRequests: 1, pendingReceivedRequests: 0, pendingUsers: 0 });

    // A member cannot accept (not even their own request).
    const refused = await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: fan.token });
    expect(refused.status).toBe(403);
    expect((await row(id)).paid).toBe(0);

    const before = await row(id);
    const accepted = await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: admin });
    expect(accepted.status).toBe(200);
    expect(accepted.body.message).toBe(MESSAGES.paidRequestAccepted);
    const after = await row(id);
    expect(after).toMatchObject({ paid: 1, paid_requested: 0, paid_requested_at: null });
    expect(after.seq).toBeGreaterThan(before.seq);
    expect(await count()).toBe(0);

    // Once accepted it is no request any more.
    const again = await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: admin });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(MESSAGES.requestNotFound);
  });

  it('accepting a received request marks the ticket received', async () => {
    const event = (await createEventVia(t, admin, { title: 'Received match (H)' })).id;
    const id = await requestedRow(event, 'received', null);
    const list = await t.call('GET', '/api/admin/pending-received-requests', { token: admin });
    expect(list.body.requests).toEqual([
      // No price known (the event has none): 0 for the contract, and said to be open.
      expect.objectContaining({ id, username: 'tasks-fan2', event_title: 'Received match (H)', price: 0, price_open: true }),
    ]);
    expect((await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: admin })).status).toBe(404);
    const before = await row(id);
    const accepted = await t.call('PUT', `/api/admin/accept-received-request/${id}`, { token: admin });
    expect(accepted.status).toBe(200);
    expect(accepted.body.attendance).toMatchObject({ received: true, received_requested: false });
    const after = await row(id);
    expect(after).toMatchObject({ received: 1, received_requested: 0 });
    expect(after.seq).toBeGreaterThan(before.seq);
  });

  it("a guest's request shows the guest and the member who brought them", async () => {
    const event = (await createEventVia(t, admin, { title: 'Guest match (A)' })).id;
    fan = await t.member('guest-bringer');
    const guest = await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: event, guest_name: 'Gustav' } });
    expect(guest.status).toBe(201);
    const id = guest.body.guest.id as string;
    await t.db
      .updateTable('attendees')
      .set({ bought: 1, price_cents: 1200, paid_requested: 1, paid_requested_at: '2026-03-03T10:00:00.000Z' })
      .where('id', '=', id)
      .execute();
    const list = await t.call('GET', '/api/admin/pending-paid-requests', { token: admin });
    expect(list.body.requests).toEqual([
      expect.objectContaining({ id, username: null, guest_name: 'Gustav', brought_by_username: 'guest-bringer', price: 12 }),
    ]);
    expect((await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: admin })).status).toBe(200);
    expect((await row(id)).paid).toBe(1);
  });

  it('requests on tickets of an archived event still count and can be accepted', async () => {
    const id = await requestedRow(archivedEventId, 'paid', 30);
    const deleted = await t.call('DELETE', `/api/events/${archivedEventId}`, { token: admin });
    expect(deleted.status).toBe(200);
    const archived = await t.db
      .selectFrom('events')
      .select('archived')
      .where('id', '=', archivedEventId)
      .executeTakeFirstOrThrow();
    expect(archived.archived).toBe(1);
    expect(await count()).toBe(1);
    expect((await t.call('GET', '/api/admin/pending-paid-requests', { token: admin })).body.requests).toEqual([
      expect.objectContaining({ id, event_title: 'Archived match (H)', price: 30 }),
    ]);
    expect((await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: admin })).status).toBe(200);
    expect(await count()).toBe(0);
  });

  it('records request.accepted and ticket.paid after the commit', async () => {
    const event = (await createEventVia(t, admin, { title: 'Events match (A)' })).id;
    const id = await requestedRow(event, 'paid');
    const seen: string[] = [];
    const stop = t.runtime.deps.store.commits.subscribe((commit) => {
      for (const e of commit.events) seen.push(e.type === 'request.accepted' ? `${e.type}:${e.kind}` : e.type);
    });
    expect((await t.call('PUT', `/api/admin/accept-paid-request/${id}`, { token: admin })).status).toBe(200);
    await vi.waitFor(() => expect(seen).toEqual(expect.arrayContaining(['ticket.paid', 'request.accepted:paid'])));
    stop();
  });

  it('answers 404 for unknown ids and never 500 for odd ones', async () => {
    for (const id of ['nope', 'x'.repeat(64), '%00', "1' OR '1'='1"]) {
      for (const kind of ['paid', 'received']) {
        const res = await t.call('PUT', `/api/admin/accept-${kind}-request/${encodeURIComponent(id)}`, { token: admin });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body.success).toBe(false);
      }
    }
    const tooLong = await t.call('PUT', `/api/admin/accept-paid-request/${'x'.repeat(65)}`, { token: admin });
    expect(tooLong.status).toBe(400);
  });
});
