import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, GENERIC, type BodyRoute } from './bad-input-cases.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * Bad input for every route of the auth, events, attendance and meta areas that takes a body: each
 * answers 4xx with `{ success: false, message }`, never 500, and nothing in the database changes.
 */

let t: TestApp;
let admin: string;
let fan: { id: string; token: string };
let eventId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  fan = await t.member('badfan');
  eventId = (await createEventVia(t, admin, { title: 'Bad input match (H)' })).id;
  expect(
    (await t.call('POST', `/api/attendance/${eventId}`, { token: fan.token, body: { status: 'maybe', needs_transport: false } }))
      .status,
  ).toBe(200);
});
afterAll(() => t.close());

/** Every row of the tables these routes write, to prove a refused request changed nothing. */
async function snapshot() {
  const db = t.runtime.deps.store.db;
  const [users, events, attendees, settings, counters] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('events').selectAll().orderBy('id').execute(),
    db.selectFrom('attendees').selectAll().orderBy('id').execute(),
    db.selectFrom('settings').selectAll().orderBy('key').execute(),
    db.selectFrom('counters').selectAll().execute(),
  ]);
  return { users, events, attendees, settings, counters };
}

const ROUTES: BodyRoute[] = [
  {
    name: 'POST /api/auth/register',
    method: 'POST',
    url: () => '/api/auth/register',
    token: () => null,
    valid: () => ({ username: 'valid-name', email: 'valid@example.org', password: 'valid-pass' }),
    bad: [
      ['no fields', {}, null],
      ['username a number', { username: 12, email: 'a@example.org', password: 'abcd' }, MESSAGES.invalidInput],
      ['email not an email', { username: 'abc', email: 'not-an-email', password: 'abcd' }, MESSAGES.invalidInput],
      ['username blank', { username: '  ', email: 'a@example.org', password: 'abcd' }, MESSAGES.invalidInput],
      ['username too long', { username: 'u'.repeat(51), email: 'a@example.org', password: 'abcd' }, MESSAGES.usernameTooLong],
      ['password short', { username: 'abc', email: 'a@example.org', password: 'abc' }, MESSAGES.passwordTooShort],
      ['password a number', { username: 'abc', email: 'a@example.org', password: 12345678 }, MESSAGES.passwordTooShort],
      ['password missing', { username: 'abc', email: 'a@example.org' }, MESSAGES.passwordTooShort],
    ],
  },
  {
    name: 'POST /api/auth/login',
    method: 'POST',
    url: () => '/api/auth/login',
    token: () => null,
    valid: () => ({ username: 'badfan', password: 'member-pass' }),
    bad: [
      ['no fields', {}, MESSAGES.invalidCredentials],
      ['numbers', { username: 1, password: 2 }, MESSAGES.invalidCredentials],
      ['password missing', { username: 'badfan' }, MESSAGES.invalidCredentials],
      ['username empty', { username: '', password: 'member-pass' }, MESSAGES.invalidCredentials],
      ['password an object', { username: 'badfan', password: { $ne: '' } }, MESSAGES.invalidCredentials],
    ],
  },
  {
    name: 'POST /api/auth/change-password',
    method: 'POST',
    url: () => '/api/auth/change-password',
    token: () => fan.token,
    valid: () => ({ currentPassword: 'member-pass', newPassword: 'member-pass-2' }),
    bad: [
      ['no fields', {}, null],
      ['new password a number', { currentPassword: 'member-pass', newPassword: 12345678 }, MESSAGES.passwordTooShort],
      ['new password short', { currentPassword: 'member-pass', newPassword: 'abc' }, MESSAGES.passwordTooShort],
      ['current password a boolean', { currentPassword: true, newPassword: 'abcdefg' }, MESSAGES.currentPasswordWrong],
      ['current password wrong', { currentPassword: 'nope', newPassword: 'abcdefg' }, MESSAGES.currentPasswordWrong],
    ],
  },
  {
    name: 'POST /api/me/erase',
    method: 'POST',
    url: () => '/api/me/erase',
    token: () => fan.token,
    valid: () => ({ password: 'member-pass' }),
    bad: [
      ['no fields', {}, MESSAGES.erasurePasswordWrong],
      ['password a number', { password: 12345678 }, MESSAGES.erasurePasswordWrong],
      ['password an object', { password: { $ne: '' } }, MESSAGES.erasurePasswordWrong],
      ['password wrong', { password: 'not-the-password' }, MESSAGES.erasurePasswordWrong],
      ['password over 200 characters', { password: 'p'.repeat(201) }, MESSAGES.erasurePasswordWrong],
    ],
  },
  {
    name: 'PUT /api/auth/users/{id} (admin)',
    method: 'PUT',
    url: () => `/api/auth/users/${fan.id}`,
    token: () => admin,
    valid: () => ({ language: 'en' }),
    bad: [
      ['unknown language', { language: 'fr' }, null],
      ['unknown scope', { scope: 'superadmin' }, null],
      ['language a number', { language: 1 }, null],
      ['scope a boolean', { scope: true }, null],
      ['username blank', { username: ' ' }, MESSAGES.invalidInput],
      ['username a number', { username: 5 }, MESSAGES.invalidInput],
      ['email not an email', { email: 'nope' }, null],
      ['email null', { email: null }, null],
      ['unknown field', { language: 'en', password_hash: 'x' }, null],
      ['status smuggled', { status: 'pending' }, null],
    ],
  },
  {
    name: 'PUT /api/auth/users/{id} (own language)',
    method: 'PUT',
    url: () => `/api/auth/users/${fan.id}`,
    token: () => fan.token,
    valid: () => ({ language: 'en' }),
    bad: [
      ['unknown language', { language: 'xx' }, null],
      ['language a boolean', { language: false }, null],
      ['token_version smuggled', { language: 'en', token_version: 0 }, null],
    ],
  },
  {
    name: 'POST /api/events',
    method: 'POST',
    url: () => '/api/events',
    token: () => fan.token,
    valid: () => ({ title: 'Valid (H)', date: '2030-01-01 15:30', location: 'Berlin' }),
    bad: [
      ['no fields', {}, MESSAGES.titleRequired],
      ['title a number', { title: 1, date: '2030-01-01 15:30', location: 'Berlin' }, MESSAGES.titleRequired],
      ['date a boolean', { title: 'x', date: true, location: 'Berlin' }, MESSAGES.dateRequired],
      ['date invalid', { title: 'x', date: '2030-02-31 15:30', location: 'Berlin' }, MESSAGES.dateRequired],
      ['location an array', { title: 'x', date: '2030-01-01 15:30', location: ['Berlin'] }, MESSAGES.locationRequired],
      ['price a string', { title: 'x', date: '2030-01-01 15:30', location: 'Berlin', ticket_price: '10' }, MESSAGES.priceInvalid],
      [
        'price negative',
        { title: 'x', date: '2030-01-01 15:30', location: 'Berlin', ticket_price: -0.01 },
        MESSAGES.priceInvalid,
      ],
      ['description a number', { title: 'x', date: '2030-01-01 15:30', location: 'Berlin', description: 5 }, null],
      ['stadium_id a number', { title: 'x', date: '2030-01-01 15:30', location: 'Berlin', stadium_id: 5 }, null],
      ['title too long', { title: 't'.repeat(201), date: '2030-01-01 15:30', location: 'Berlin' }, MESSAGES.titleTooLong],
      ['location too long', { title: 'x', date: '2030-01-01 15:30', location: 'l'.repeat(201) }, MESSAGES.locationTooLong],
    ],
  },
  {
    name: 'POST /api/attendance/{eventId}',
    method: 'POST',
    url: () => `/api/attendance/${eventId}`,
    token: () => fan.token,
    valid: () => ({ status: 'going' }),
    bad: [
      ['no fields', {}, MESSAGES.invalidInput],
      ['unknown status', { status: 'not_going' }, MESSAGES.invalidInput],
      ['status in capitals', { status: 'GOING' }, MESSAGES.invalidInput],
      ['status a number', { status: 1 }, MESSAGES.invalidInput],
      ['needs_ticket a string', { status: 'going', needs_ticket: 'true' }, null],
      ['has_ticket a number', { status: 'going', has_ticket: 1 }, null],
      ['needs_transport null', { status: 'going', needs_transport: null }, null],
      ['both ticket flags', { status: 'going', needs_ticket: true, has_ticket: true }, MESSAGES.hasTicketAndNeedsTicket],
    ],
  },
];

describe.each(ROUTES)('$name', (route) => {
  it.each(route.bad)('refuses %s', async (_label, body, message) => {
    const before = await snapshot();
    const res = await t.call(route.method, route.url(), { token: route.token(), body });
    expectRefusal(res, null, message);
    expect(res.status).not.toBe(413);
    expect(await snapshot()).toEqual(before);
  });

  it.each(GENERIC)('refuses %s', async (_label, send, status, message) => {
    const before = await snapshot();
    const { raw, headers } = send(route);
    const res = await t.call(route.method, route.url(), { token: route.token(), raw, headers });
    expectRefusal(res, status, message);
    expect(await snapshot()).toEqual(before);
  });
});

describe('bad path parameters and unknown paths', () => {
  const long = 'x'.repeat(65);

  it.each([
    ['GET', () => `/api/events/${long}`],
    ['POST', () => `/api/attendance/${long}`],
    ['DELETE', () => `/api/attendance/${long}`],
    ['PUT', () => `/api/auth/users/${long}/approve`],
    ['DELETE', () => `/api/auth/users/${long}`],
    ['PUT', () => `/api/auth/users/${long}`],
  ] as const)('%s with an over-long id answers 400', async (method, url) => {
    const before = await snapshot();
    const body =
      method === 'POST' ? { status: 'going' } : method === 'PUT' && !url().endsWith('approve') ? { language: 'en' } : undefined;
    const res = await t.call(method, url(), { token: admin, body });
    expectRefusal(res, 400, null);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api/events/x/y/z'],
    ['PATCH', '/api/events'],
    ['PUT', '/api/version'],
    ['GET', '/api'],
    ['GET', '/api/'],
  ])('%s %s answers 404 JSON', async (method, url) => {
    for (const token of [admin, null]) {
      const res = await t.call(method, url, { token, body: method === 'GET' ? undefined : {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Not found', code: 'notFound' });
    }
  });

  it('answers JSON errors with the JSON content type', async () => {
    const res = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{bad',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('the data is intact after all of that', () => {
  it('keeps the member, their attendance and the event as they were', async () => {
    const profile = await t.call('GET', '/api/auth/profile', { token: fan.token });
    expect(profile.status).toBe(200);
    expect(profile.body.user).toMatchObject({ username: 'badfan', language: 'de', scope: 'user', status: 'active' });
    const mine = await t.call('GET', '/api/attendance/my', { token: fan.token });
    expect(mine.body.attendance).toEqual([
      expect.objectContaining({
        event_id: eventId,
        status: 'maybe',
        needs_ticket: true,
        has_ticket: false,
        needs_transport: false,
      }),
    ]);
    const events = await t.call('GET', '/api/events', { token: fan.token });
    expect(events.body.events).toHaveLength(1);
    expect(await t.login('badfan', 'member-pass')).toEqual(expect.any(String));
  });
});
