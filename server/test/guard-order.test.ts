import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/** Sign-in is checked before the body: an anonymous caller learns nothing about what a route expects. */
describe('access is checked before input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['POST', '/api/events', { title: '' }],
    ['POST', '/api/attendance/x', { status: 'sometimes' }],
    ['PUT', '/api/auth/users/x', { language: 'fr' }],
    ['POST', '/api/sync/attendees/0/push', { not: 'rows' }],
    ['PUT', '/api/tickets/event/x/user/y/status', { bought: 'yes' }],
  ])('%s %s answers 401 to anonymous with a bad body', async (method, url, body) => {
    const res = await t.call(method, url, { body });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Authentication required', code: 'notSignedIn' });
  });

  it('answers 415 with a message when the body is not JSON', async () => {
    const admin = await t.adminToken();
    const res = await t.call('POST', '/api/events', {
      token: admin,
      raw: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ success: false, message: 'The request body must be JSON', code: 'unsupportedMediaType' });
  });

  it('gives a date without a time the default kick-off, 15:00', async () => {
    const admin = await t.adminToken();
    const res = await t.call('POST', '/api/events', {
      token: admin,
      body: { title: 'Bremen (A)', date: '2027-05-01', location: 'Bremen' },
    });
    expect(res.body.event.date).toBe('2027-05-01 15:00:00');
  });
});
