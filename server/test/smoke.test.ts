import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

describe('app smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs in the bootstrap admin and creates an event that a member answers', async () => {
    const admin = await t.adminToken();
    const ev = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Bochum (A)', date: '2026-12-05T15:20', location: 'Bochum' },
    });
    expect(ev.status).toBe(201);
    expect(ev.body.event.date).toBe('2026-12-05 15:15:00');
    const m = await t.member('fan1');
    const att = await t.call('POST', `/api/attendance/${ev.body.event.id}`, { token: m.token, body: { status: 'going' } });
    expect(att.status).toBe(200);
    expect(att.body.attendance).toMatchObject({ needs_ticket: true, has_ticket: false, needs_transport: true });
    const list = await t.call('GET', '/api/events', { token: m.token });
    expect(list.body.events[0]).toMatchObject({ going_count: 1, maybe_count: 0, season: '2026/27' });
  });
});
