import { MESSAGES } from '@fankurve/shared';
import { OpenAPIHono } from '@hono/zod-openapi';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRoutes } from '../src/http/attendance.js';
import { attendeeRoutes } from '../src/http/attendees.js';
import { authRoutes } from '../src/http/auth.js';
import type { AppEnv } from '../src/http/context.js';
import { eventRoutes } from '../src/http/events.js';
import { guestRoutes } from '../src/http/guests.js';
import { metaRoutes } from '../src/http/meta.js';
import { stadiumRoutes } from '../src/http/stadiums.js';
import { ticketRoutes } from '../src/http/tickets.js';
import { transportRoutes } from '../src/http/transports.js';
import { createEventVia, createTestApp, IMAGES, uploadFile, type TestApp } from './helpers.js';

/*
 * The permission matrix of every REST route of the auth, events, attendance, attendees, guests,
 * tickets, transports, stadiums and meta areas (server/src/http/*.ts; /api/sync has its own tests).
 * Each route is called as anonymous, as a member, as another member where ownership matters
 * (event creator vs not, guest owner vs not), and as admin.
 */

type Role = 'anonymous' | 'member' | 'other' | 'admin';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Fixtures {
  t: TestApp;
  admin: { id: string; token: string };
  member: { id: string; token: string };
  other: { id: string; token: string };
  eventId: string;
  stadiumId: string;
}

interface RouteCase {
  method: Method;
  /** The path as the OpenAPI document spells it. */
  path: string;
  /** A valid body for the route. */
  body?: (f: Fixtures) => unknown;
  /** Path parameters for a call by this role (may create fresh fixtures, so every call is repeatable). */
  params?: (f: Fixtures, role: Role) => Promise<Record<string, string>>;
  /** A different caller than the role's standing token (e.g. a throwaway account whose password changes). */
  caller?: (f: Fixtures, role: Role) => Promise<string>;
  adminOnly?: boolean;
  /** A multipart upload of a small PNG in the field `image` instead of a JSON body. */
  upload?: boolean;
  /** Expected status per role; a role that is left out is not called. */
  expect: Partial<Record<Role, number>>;
  /** Further checks after the call (e.g. another member's call changed nothing). */
  after?: (f: Fixtures, role: Role, body: any) => Promise<void>;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

async function pendingUser(f: Fixtures): Promise<string> {
  const name = unique('pending');
  const res = await f.t.call('POST', '/api/auth/register', {
    body: { username: name, email: `${name}@example.org`, password: 'pending-pass' },
  });
  return res.body.user.id;
}

async function freshAccount(f: Fixtures, role: Role): Promise<string> {
  const m = await f.t.member(unique(`fresh-${role}-`));
  if (role === 'admin') {
    const promoted = await f.t.call('PUT', `/api/auth/users/${m.id}`, { token: f.admin.token, body: { scope: 'admin' } });
    expect(promoted.status).toBe(200);
  }
  return m.token;
}

const PUBLIC = { anonymous: 200, member: 200, admin: 200 };
const SIGNED_IN = { anonymous: 401, member: 200, admin: 200 };
const ADMIN_ONLY = { anonymous: 401, member: 403, admin: 200 };
/** Admin-only, also against the member the row is about (other members too). */
const ADMIN_ONLY_ALL = { anonymous: 401, member: 403, other: 403, admin: 200 };
/** The owner (event creator, guest's member) or an admin; another member gets 403. */
const OWNER_OR_ADMIN = { anonymous: 401, member: 200, other: 403, admin: 200 };

/** A fresh event created by the member (so "member" is its creator and "other" is not). */
async function membersEvent(f: Fixtures): Promise<string> {
  return (await createEventVia(f.t, f.member.token, { title: unique('Members event ') + ' (H)' })).id;
}

/** A fresh event the member attends; returns event id, user id and the attendee row id. */
async function attendedEvent(f: Fixtures): Promise<{ eventId: string; userId: string; attendeeId: string }> {
  const eventId = (await createEventVia(f.t, f.admin.token, { title: unique('Attended ') + ' (A)' })).id;
  const res = await f.t.call('POST', `/api/attendance/${eventId}`, { token: f.member.token, body: { status: 'going' } });
  expect(res.status).toBe(200);
  return { eventId, userId: f.member.id, attendeeId: res.body.attendance.id };
}

/** A fresh guest brought by the member. */
async function membersGuest(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/guests', {
    token: f.member.token,
    body: { event_id: f.eventId, guest_name: unique('G') },
  });
  expect(res.status).toBe(201);
  return res.body.guest.id;
}

async function adminsTransport(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/transports', {
    token: f.admin.token,
    body: { event_id: f.eventId, name: unique('Bus '), departure_location: 'Köpenick', is_price_tbd: true },
  });
  expect(res.status).toBe(201);
  return res.body.transport.id;
}

async function adminsStadium(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/stadiums', {
    token: f.admin.token,
    body: { team_name: unique('Team '), stadium_name: 'Arena', city: 'Town' },
  });
  expect(res.status).toBe(201);
  return res.body.stadium.id;
}

async function adminsTicketPrice(f: Fixtures): Promise<string> {
  const res = await f.t.call('POST', '/api/ticket-prices', {
    token: f.admin.token,
    body: { stadium_id: f.stadiumId, price: 10, ticket_type: unique('Type ') },
  });
  expect(res.status).toBe(201);
  return res.body.ticketPrice.id;
}

/** The event row straight from the database (to prove a refused call changed nothing). */
const eventRow = (f: Fixtures, id: string) =>
  f.t.runtime.deps.store.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();

const ROUTES: RouteCase[] = [
  // meta
  { method: 'GET', path: '/api/version', expect: PUBLIC },
  { method: 'GET', path: '/api/config', expect: PUBLIC },
  { method: 'GET', path: '/api/openapi.json', expect: PUBLIC },
  // auth
  {
    method: 'POST',
    path: '/api/auth/register',
    body: () => {
      const name = unique('reg');
      return { username: name, email: `${name}@example.org`, password: 'reg-pass' };
    },
    expect: { anonymous: 201, member: 201, admin: 201 },
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    body: () => ({ username: 'perm-member', password: 'member-pass' }),
    expect: PUBLIC,
  },
  { method: 'GET', path: '/api/auth/profile', expect: SIGNED_IN },
  {
    method: 'POST',
    path: '/api/auth/change-password',
    body: () => ({ currentPassword: 'member-pass', newPassword: 'changed-pass' }),
    caller: freshAccount,
    expect: SIGNED_IN,
  },
  { method: 'GET', path: '/api/auth/users/pending', adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'PUT',
    path: '/api/auth/users/{id}/approve',
    params: async (f) => ({ id: await pendingUser(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.user.status).toBe('active');
    },
  },
  {
    method: 'DELETE',
    path: '/api/auth/users/{id}',
    params: async (f, role) => ({ id: role === 'member' ? f.member.id : await pendingUser(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
    after: async (f) => {
      // Neither a member deleting themselves nor anyone else removed the member.
      expect((await f.t.call('GET', '/api/auth/profile', { token: f.member.token })).status).toBe(200);
    },
  },
  {
    method: 'PUT',
    path: '/api/auth/users/{id}',
    body: () => ({ language: 'en' }),
    params: async (f) => ({ id: f.member.id }),
    expect: { anonymous: 401, member: 200, other: 403, admin: 200 },
    after: async (f, role, body) => {
      if (role === 'other') expect(body.message).toBe(MESSAGES.adminRequired);
      if (role === 'member' || role === 'admin') expect(body.user).toMatchObject({ id: f.member.id, language: 'en' });
      // reset for the next caller
      await f.t.call('PUT', `/api/auth/users/${f.member.id}`, { token: f.admin.token, body: { language: 'de' } });
    },
  },
  // events
  { method: 'GET', path: '/api/events', expect: SIGNED_IN },
  { method: 'GET', path: '/api/events/{id}', params: async (f) => ({ id: f.eventId }), expect: SIGNED_IN },
  {
    method: 'POST',
    path: '/api/events',
    body: () => ({ title: unique('Matrix match ') + ' (H)', date: '2031-05-01 15:30', location: 'Berlin' }),
    expect: { anonymous: 401, member: 201, admin: 201 },
  },
  // attendance
  {
    method: 'POST',
    path: '/api/attendance/{eventId}',
    body: () => ({ status: 'going' }),
    params: async (f) => ({ eventId: f.eventId }),
    expect: SIGNED_IN,
  },
  {
    method: 'DELETE',
    path: '/api/attendance/{eventId}',
    params: async (f, role) => {
      // The member (or the admin) attends first; another member's DELETE cannot touch the member's row.
      const owner = role === 'admin' ? f.admin.token : f.member.token;
      expect((await f.t.call('POST', `/api/attendance/${f.eventId}`, { token: owner, body: { status: 'going' } })).status).toBe(
        200,
      );
      return { eventId: f.eventId };
    },
    expect: { anonymous: 401, member: 200, other: 404, admin: 200 },
    after: async (f, role) => {
      const mine = await f.t.call('GET', '/api/attendance/my', { token: f.member.token });
      const attending = mine.body.attendance.some((a: { event_id: string }) => a.event_id === f.eventId);
      expect(attending).toBe(role === 'anonymous' || role === 'other');
      await f.t.call('DELETE', `/api/attendance/${f.eventId}`, { token: f.member.token });
    },
  },
  {
    method: 'GET',
    path: '/api/attendance/my',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role === 'member') expect(body.attendance.every((a: { user_id: string }) => a.user_id === f.member.id)).toBe(true);
    },
  },
  // events: edit, delete, image, badge
  {
    method: 'PUT',
    path: '/api/events/{id}',
    body: () => ({ title: unique('Edited ') + ' (H)' }),
    params: async (f) => ({ id: await membersEvent(f) }),
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'DELETE',
    path: '/api/events/{id}',
    params: async (f) => ({ id: await membersEvent(f) }),
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'POST',
    path: '/api/events/{id}/image',
    upload: true,
    params: async (f) => ({ id: await membersEvent(f) }),
    expect: OWNER_OR_ADMIN,
    after: async (f, role, body) => {
      if (role === 'member' || role === 'admin') expect(body.filename).toMatch(/\.png$/);
    },
  },
  {
    method: 'DELETE',
    path: '/api/events/{id}/image',
    params: async (f) => {
      const id = await membersEvent(f);
      expect((await uploadFile(f.t, `/api/events/${id}/image`, { token: f.member.token, bytes: IMAGES.png })).status).toBe(200);
      return { id };
    },
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'PUT',
    path: '/api/events/{id}/clear-updated',
    params: async (f) => {
      const id = await membersEvent(f);
      await f.t.runtime.deps.store.db.updateTable('events').set({ is_updated: 1 }).where('id', '=', id).execute();
      return { id };
    },
    adminOnly: true,
    expect: ADMIN_ONLY_ALL,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.event.is_updated).toBe(false);
    },
  },
  // the admin's attendee table
  {
    method: 'POST',
    path: '/api/events/{id}/attendees',
    body: (f) => ({ user_id: f.other.id }),
    params: async (f) => ({ id: (await createEventVia(f.t, f.admin.token, { title: unique('Add ') })).id }),
    adminOnly: true,
    expect: { anonymous: 401, member: 403, other: 403, admin: 201 },
  },
  {
    method: 'DELETE',
    path: '/api/attendance/{eventId}/user/{userId}',
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY_ALL,
  },
  {
    method: 'PUT',
    path: '/api/attendance/{eventId}/user/{userId}/transfer-status',
    body: () => ({ transfer_status: 'reserved' }),
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY_ALL,
  },
  {
    method: 'PUT',
    path: '/api/attendees/{attendeeId}',
    body: () => ({ bought: true, price: 12.5 }),
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY_ALL,
    after: async (f, role, body) => {
      if (role === 'admin') expect(body.attendance).toMatchObject({ bought: true, price: 12.5 });
      // reset, so the member carries no debt into the next calls (the debt block)
      if (role === 'admin')
        await f.t.call('PUT', `/api/attendees/${body.attendance.id}`, { token: f.admin.token, body: { bought: false } });
    },
  },
  {
    method: 'PUT',
    path: '/api/tickets/event/{eventId}/user/{userId}/status',
    body: () => ({ received: true }),
    params: async (f) => attendedEvent(f),
    adminOnly: true,
    expect: ADMIN_ONLY_ALL,
  },
  // guests
  {
    method: 'POST',
    path: '/api/guests',
    body: (f) => ({ event_id: f.eventId, guest_name: unique('Guest ') }),
    expect: { anonymous: 401, member: 201, other: 201, admin: 201 },
  },
  {
    method: 'PUT',
    path: '/api/guests/{id}',
    body: () => ({ guest_name: unique('Renamed ') }),
    params: async (f) => ({ id: await membersGuest(f) }),
    expect: OWNER_OR_ADMIN,
  },
  {
    method: 'DELETE',
    path: '/api/guests/{id}',
    params: async (f) => ({ id: await membersGuest(f) }),
    expect: OWNER_OR_ADMIN,
  },
  // transports
  { method: 'GET', path: '/api/transports/event/{eventId}', params: async (f) => ({ eventId: f.eventId }), expect: SIGNED_IN },
  {
    method: 'POST',
    path: '/api/transports',
    body: (f) => ({ event_id: f.eventId, name: 'Matrix bus', departure_location: 'Köpenick', price_per_seat: 20 }),
    adminOnly: true,
    expect: { anonymous: 401, member: 403, admin: 201 },
  },
  {
    method: 'PUT',
    path: '/api/transports/{id}',
    body: () => ({ name: unique('Renamed bus ') }),
    params: async (f) => ({ id: await adminsTransport(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/transports/{id}',
    params: async (f) => ({ id: await adminsTransport(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  // stadiums and ticket prices
  {
    method: 'GET',
    path: '/api/stadiums',
    expect: SIGNED_IN,
    after: async (f, role, body) => {
      if (role !== 'anonymous') expect(body.stadiums.some((s: { id: string }) => s.id === f.stadiumId)).toBe(true);
    },
  },
  { method: 'GET', path: '/api/stadiums/{id}', params: async (f) => ({ id: f.stadiumId }), adminOnly: true, expect: ADMIN_ONLY },
  {
    method: 'POST',
    path: '/api/stadiums',
    body: () => ({ team_name: unique('New team '), stadium_name: 'Arena', city: 'Town' }),
    adminOnly: true,
    expect: { anonymous: 401, member: 403, admin: 201 },
  },
  {
    method: 'PUT',
    path: '/api/stadiums/{id}',
    body: () => ({ capacity: 1000 }),
    params: async (f) => ({ id: await adminsStadium(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    path: '/api/stadiums/{id}',
    params: async (f) => ({ id: await adminsStadium(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'GET',
    path: '/api/ticket-prices/stadium/{stadiumId}',
    params: async (f) => ({ stadiumId: f.stadiumId }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
  {
    method: 'POST',
    path: '/api/ticket-prices',
    body: (f) => ({ stadium_id: f.stadiumId, price: 15, ticket_type: unique('Matrix ') }),
    adminOnly: true,
    expect: { anonymous: 401, member: 403, admin: 201 },
  },
  {
    method: 'DELETE',
    path: '/api/ticket-prices/{id}',
    params: async (f) => ({ id: await adminsTicketPrice(f) }),
    adminOnly: true,
    expect: ADMIN_ONLY,
  },
];

const isPublic = (route: RouteCase) => route.expect.anonymous !== 401;

function urlOf(route: RouteCase, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'placeholder-id'));
}

describe('permission matrix', () => {
  let f: Fixtures;
  beforeAll(async () => {
    const t = await createTestApp();
    const adminToken = await t.adminToken();
    const profile = await t.call('GET', '/api/auth/profile', { token: adminToken });
    const member = await t.member('perm-member');
    const other = await t.member('perm-other');
    const event = await createEventVia(t, adminToken, { title: 'Matrix fixture (A)' });
    const stadium = await t.call('POST', '/api/stadiums', {
      token: adminToken,
      body: { team_name: 'Matrix FC', stadium_name: 'Matrix Arena', city: 'Berlin' },
    });
    f = {
      t,
      admin: { id: profile.body.user.id, token: adminToken },
      member,
      other,
      eventId: event.id,
      stadiumId: stadium.body.stadium.id,
    };
  });
  afterAll(() => f.t.close());

  it('covers every route of the route files it imports', () => {
    // Register just these areas on a bare app and read back what they declare, so a route added to
    // one of them fails here until it has its row in the matrix.
    const bare = new OpenAPIHono<AppEnv>();
    const areas = [
      metaRoutes,
      authRoutes,
      eventRoutes,
      attendanceRoutes,
      attendeeRoutes,
      guestRoutes,
      ticketRoutes,
      transportRoutes,
      stadiumRoutes,
    ];
    for (const register of areas) register(bare, f.t.runtime.deps);
    const doc = bare.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'matrix', version: '0' } });
    const declared = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = ROUTES.filter((r) => r.path !== '/api/openapi.json').map((r) => `${r.method} ${r.path}`);
    expect(covered.sort()).toEqual(declared.sort());
  });

  const calls = ROUTES.flatMap((route) =>
    (Object.entries(route.expect) as [Role, number][]).map(([role, status]) => ({ route, role, status })),
  );

  it.each(calls.map((c) => [`${c.route.method} ${c.route.path}`, c.role, c.status, c] as const))(
    '%s as %s → %i',
    async (_name, role, status, { route }) => {
      const params = route.params ? await route.params(f, role) : {};
      const standing = { anonymous: null, member: f.member.token, other: f.other.token, admin: f.admin.token }[role];
      const token = role !== 'anonymous' && route.caller ? await route.caller(f, role) : standing;
      const url = urlOf(route, params);
      const before = route.path.startsWith('/api/events/{id}') && params.id ? await eventRow(f, params.id) : undefined;
      const res = route.upload
        ? await uploadFile(f.t, url, { token, bytes: IMAGES.png })
        : await f.t.call(route.method, url, { token, body: route.body?.(f) });
      expect(res.status).toBe(status);
      // A refused call on an event changed nothing of it.
      if (status >= 400 && before) expect(await eventRow(f, params.id!)).toEqual(before);
      if (status >= 400) expect(res.body.success).toBe(false);
      else if (route.path !== '/api/openapi.json') expect(res.body.success).toBe(true);
      if (status === 401) expect(res.body.message).toBe('Authentication required');
      if (status === 403 && route.adminOnly) expect(res.body.message).toBe('Admin access required');
      await route.after?.(f, role, res.body);
    },
  );

  it('answers 401 to a void bearer token on every signed-in route and ignores it on public ones', async () => {
    const secret = new TextEncoder().encode('test-secret-test-secret-test-secret');
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      garbage: 'garbage',
      malformed: 'a.b.c',
      otherKey: await new SignJWT({ tv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(f.member.id)
        .sign(new TextEncoder().encode('another-secret-another-secret-xx')),
      expired: await new SignJWT({ tv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(f.member.id)
        .setExpirationTime(now - 60)
        .sign(secret),
      unknownUser: await f.t.runtime.deps.tokens.sign('01900000-0000-7000-8000-000000000000', 0),
      staleVersion: await f.t.runtime.deps.tokens.sign(f.member.id, 99),
      noVersion: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(f.member.id)
        .setExpirationTime('1h')
        .sign(secret),
      unsigned: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: f.member.id, tv: 0 })).toString('base64url')}.`,
    };
    for (const [kind, token] of Object.entries(tokens)) {
      for (const route of ROUTES) {
        const params = { id: f.eventId, eventId: f.eventId };
        const body = route.body?.(f);
        const res = await f.t.call(route.method, urlOf(route, params), { token, body });
        if (isPublic(route)) {
          expect(res.status, `${kind} ${route.method} ${route.path}`).toBeLessThan(300);
        } else {
          expect(res.status, `${kind} ${route.method} ${route.path}`).toBe(401);
          expect(res.body).toMatchObject({ success: false, message: MESSAGES.sessionExpired });
        }
      }
    }
    // A scheme other than Bearer is no token at all.
    const basic = await f.t.call('GET', '/api/events', {
      headers: { authorization: `Basic ${Buffer.from('admin:admin-secret').toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    expect(basic.body.message).toBe('Authentication required');
  });
});

describe('must_change_password (bootstrap admin with a generated password)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_PASSWORD: '' });
  });
  afterAll(() => t.close());

  it('creates the admin with a random password that must be changed', async () => {
    const password = t.runtime.bootstrapPassword;
    expect(password).toEqual(expect.any(String));
    expect(password!.length).toBeGreaterThanOrEqual(12);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'admin', password: 'admin-secret' } })).status).toBe(401);
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'admin', password } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ scope: 'admin', must_change_password: true });
    token = login.body.token;
  });

  it('answers 403 on every signed-in route but profile and change-password', async () => {
    const fake: Fixtures = {
      t,
      admin: { id: 'x', token },
      member: { id: 'x', token },
      other: { id: 'x', token },
      eventId: 'x',
      stadiumId: 'x',
    };
    const blocked = ROUTES.filter(
      (r) => !isPublic(r) && r.path !== '/api/auth/profile' && r.path !== '/api/auth/change-password',
    );
    expect(blocked.length).toBeGreaterThan(8);
    for (const route of blocked) {
      const res = await t.call(route.method, urlOf(route, { id: 'some-id', eventId: 'some-id' }), {
        token,
        body: route.body?.(fake),
      });
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.body).toMatchObject({ success: false, message: MESSAGES.mustChangePassword });
    }
    // Public routes stay public.
    for (const route of ROUTES.filter((r) => isPublic(r) && r.path !== '/api/auth/login' && r.path !== '/api/auth/register')) {
      expect((await t.call(route.method, route.path, { token })).status, route.path).toBe(200);
    }
    const profile = await t.call('GET', '/api/auth/profile', { token });
    expect(profile.status).toBe(200);
    expect(profile.body.user.must_change_password).toBe(true);
    // Nothing was written meanwhile.
    const rows = await t.runtime.deps.store.db.selectFrom('events').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('lifts the block once the password is changed', async () => {
    const short = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: t.runtime.bootstrapPassword, newPassword: 'abc' },
    });
    expect(short.status).toBe(400);
    const changed = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: t.runtime.bootstrapPassword, newPassword: 'my-own-admin-pass' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.user.must_change_password).toBe(false);
    const fresh = changed.body.token as string;
    expect((await t.call('GET', '/api/events', { token })).status).toBe(401);

    expect((await t.call('GET', '/api/events', { token: fresh })).status).toBe(200);
    expect((await t.call('GET', '/api/auth/users/pending', { token: fresh })).status).toBe(200);
    const event = await t.call('POST', '/api/events', {
      token: fresh,
      body: { title: 'First (H)', date: '2031-01-01 15:30', location: 'Berlin' },
    });
    expect(event.status).toBe(201);
    expect(
      (await t.call('POST', `/api/attendance/${event.body.event.id}`, { token: fresh, body: { status: 'going' } })).status,
    ).toBe(200);
    expect((await t.call('GET', '/api/auth/profile', { token: fresh })).body.user.must_change_password).toBe(false);
    const relogin = await t.call('POST', '/api/auth/login', { body: { username: 'admin', password: 'my-own-admin-pass' } });
    expect(relogin.body.user.must_change_password).toBe(false);
  });
});
