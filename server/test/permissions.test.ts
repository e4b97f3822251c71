import { MESSAGES } from '@fankurve/shared';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuessThrottle } from '../src/auth/throttle.js';
import { createEventVia, createTestApp, eventRow, IMAGES, uploadFile, type TestApp } from './helpers.js';
import {
  FIXTURE_USERS,
  isPublic,
  ROLES,
  routeKey,
  ROUTES,
  sampleParams,
  urlOf,
  type Fixtures,
  type Params,
  type Role,
  type RouteCase,
} from './permission-matrix.js';

/*
 * The permission matrix (rows in permission-matrix.ts): every route of the app's OpenAPI document,
 * called as anonymous, as a member, as another member and as admin. A route of the document
 * without a row, a row without all four roles, or a row for a route the document no longer has
 * fails the coverage tests below.
 */

/** The routes of the real app's OpenAPI document, as `METHOD /path`. */
async function documentedRoutes(t: TestApp): Promise<string[]> {
  const res = await t.call('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  return Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => routeKey({ method, path })),
  );
}

/**
 * One call of a route, as the app answers it. A stream is checked for its start (status, content
 * type, the `ready` event) and then aborted; its body is the text read so far.
 */
async function send(
  t: TestApp,
  route: RouteCase,
  url: string,
  token: string | null,
  body: unknown,
): Promise<{ status: number; body: any; contentType: string | null }> {
  if (route.upload) return { ...(await uploadFile(t, url, { token, bytes: IMAGES.png })), contentType: null };
  if (route.uploadFile) return { ...(await uploadFile(t, url, { token, ...route.uploadFile() })), contentType: null };
  if (!route.stream) return { ...(await t.call(route.method, url, { token, body })), contentType: null };
  const controller = new AbortController();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const response = await t.app.request(url, { method: route.method, headers, signal: controller.signal });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text), contentType };
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    const deadline = Date.now() + 5000;
    while (!text.includes('event: ready') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    controller.abort();
    await reader.cancel();
  }
  return { status: response.status, body: text, contentType };
}

/**
 * Every call of a test comes from one address, and the matrix signs in far more often than the
 * per-address sign-in limit allows (createTestApp lifts the registration limit). That limit is not
 * what the matrix checks (throttle.test.ts does).
 */
function liftAbuseLimits(t: TestApp): void {
  const many = Number.MAX_SAFE_INTEGER;
  t.runtime.deps.throttle = new GuessThrottle({
    windowMs: 60_000,
    pairMax: many,
    addressMax: many,
    freeFailures: many,
    maxDelayMs: 0,
  });
}

const profileStatusOf = async (t: TestApp, token: string) => (await t.call('GET', '/api/auth/profile', { token })).status;

/**
 * What a refused call must leave as it was: the seq counter (every write to a replicated table
 * takes one) and the tables that are not replicated.
 */
async function databaseState(t: TestApp) {
  const db = t.runtime.deps.store.db;
  return {
    counters: await db.selectFrom('counters').selectAll().orderBy('name').execute(),
    stadiums: await db.selectFrom('stadiums').selectAll().orderBy('id').execute(),
    prices: await db.selectFrom('stadium_ticket_prices').selectAll().orderBy('id').execute(),
    settings: await db.selectFrom('settings').selectAll().orderBy('key').execute(),
    // Which sessions exist (every signed-in call moves its session's last_seen_at).
    sessions: await db.selectFrom('sessions').select('id').orderBy('id').execute(),
  };
}

describe('permission matrix', () => {
  let f: Fixtures;
  let documented: Set<string>;
  beforeAll(async () => {
    const t = await createTestApp();
    liftAbuseLimits(t);
    const adminToken = await t.adminToken();
    const profile = await t.call('GET', '/api/auth/profile', { token: adminToken });
    const member = await t.member(FIXTURE_USERS.member.username, FIXTURE_USERS.member.password);
    const other = await t.member(FIXTURE_USERS.other.username, FIXTURE_USERS.other.password);
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
    documented = new Set(await documentedRoutes(t));
  });
  afterAll(() => f.t.close());

  /** A row whose route the app has (the document itself is not listed in the document). */
  const exists = (route: RouteCase) => Boolean(route.notInDocument) || documented.has(routeKey(route));

  describe('covers the OpenAPI document', () => {
    it('has exactly one row for every route of the document', () => {
      expect(documented.size).toBeGreaterThan(40);
      const rows = ROUTES.map(routeKey);
      const missing = [...documented].filter((key) => !rows.includes(key));
      expect.soft(missing, `routes without a row in permission-matrix.ts: ${missing.join(', ')}`).toEqual([]);
      const twice = rows.filter((key, index) => rows.indexOf(key) !== index);
      expect.soft(twice, `routes with more than one row: ${twice.join(', ')}`).toEqual([]);
    });

    it('names the expected status of all four roles in every row', () => {
      const gaps = ROUTES.flatMap((route) => {
        const missing = ROLES.filter((role) => !Number.isInteger(route.expect[role]));
        const unknown = Object.keys(route.expect).filter((role) => !ROLES.includes(role as Role));
        return [
          ...missing.map((role) => `${routeKey(route)}: no status for ${role}`),
          ...unknown.map((role) => `${routeKey(route)}: unknown role ${role}`),
        ];
      });
      expect(gaps, gaps.join('; ')).toEqual([]);
    });

    it('has no row for a route the document does not have', () => {
      const stale = ROUTES.filter((route) => !exists(route)).map(routeKey);
      expect(stale, `rows for routes that do not exist: ${stale.join(', ')}`).toEqual([]);
    });
  });

  const calls = ROUTES.flatMap((route) => ROLES.map((role) => ({ route, role, status: route.expect[role] })));

  it.for(calls.map((c) => [routeKey(c.route), c.role, c.status, c] as const))(
    '%s as %s → %i',
    async ([name, role, status, { route }], ctx) => {
      // A row for a missing route, or without this role, fails the coverage tests above instead.
      if (!exists(route) || !Number.isInteger(status)) ctx.skip();
      const params: Params = route.params ? await route.params(f, role) : {};
      const standing = { anonymous: null, member: f.member.token, other: f.other.token, admin: f.admin.token }[role];
      const token = role !== 'anonymous' && route.caller ? await route.caller(f, role, params) : standing;
      const body = await route.body?.(f, role, params);
      const eventBefore = route.path.startsWith('/api/events/{id}') && params.id ? await eventRow(f.t, params.id) : undefined;
      const stateBefore = await databaseState(f.t);
      const res = await send(f.t, route, urlOf(route, params), token, body);
      expect(res.status, `${name} as ${role}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status >= 400) {
        // A refused call changed nothing: no write to a replicated table, nothing else stored, the event as it was.
        expect(await databaseState(f.t), `${name} as ${role} wrote`).toEqual(stateBefore);
        if (eventBefore) expect(await eventRow(f.t, params.id!)).toEqual(eventBefore);
        expect(res.body.success).toBe(false);
      } else if (!route.plainAnswer) {
        expect(res.body.success).toBe(true);
      }
      if (route.stream && status === 200) {
        expect(res.contentType).toMatch(/^text\/event-stream/);
        expect(res.body).toContain('event: ready');
      }
      if (status === 401) expect(res.body.message).toBe('Authentication required');
      if (status === 403 && route.adminOnly) expect(res.body.message).toBe('Admin access required');
      await route.after?.(f, role, res.body, { params, token, sent: body });
    },
  );

  it('answers 401 to a void bearer token on every signed-in route and ignores it on public ones', async () => {
    const secret = new TextEncoder().encode('test-secret-test-secret-test-secret');
    const now = Math.floor(Date.now() / 1000);
    // The member's live session: each forged token below names it, so only the forgery makes it void.
    const { sid, tv } = decodeJwt(f.member.token) as { sid: string; tv: number };
    const forged = (claims: Record<string, unknown>) =>
      new SignJWT({ tv, sid, ...claims }).setProtectedHeader({ alg: 'HS256' }).setSubject(f.member.id);
    const tokens = {
      garbage: 'garbage',
      malformed: 'a.b.c',
      otherKey: await forged({}).sign(new TextEncoder().encode('another-secret-another-secret-xx')),
      expired: await forged({})
        .setExpirationTime(now - 60)
        .sign(secret),
      unknownUser: await f.t.runtime.deps.tokens.sign('01900000-0000-7000-8000-000000000000', tv, sid),
      staleVersion: await f.t.runtime.deps.tokens.sign(f.member.id, tv + 99, sid),
      unknownSession: await f.t.runtime.deps.tokens.sign(f.member.id, tv, '01900000-0000-7000-8000-000000000001'),
      noVersion: await forged({ tv: undefined }).setExpirationTime('1h').sign(secret),
      noSession: await forged({ sid: undefined }).setExpirationTime('1h').sign(secret),
      unsigned: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: f.member.id, tv, sid })).toString('base64url')}.`,
    };
    // The forging itself is right: the same claims signed with the app's key are a working token.
    expect(await profileStatusOf(f.t, await forged({}).sign(secret))).toBe(200);
    const routes = ROUTES.filter(exists);
    for (const [kind, token] of Object.entries(tokens)) {
      for (const route of routes) {
        // A public route with path parameters opens only with real ones (the calendar feed's address).
        const params = isPublic(route) && route.params ? await route.params(f, 'member') : sampleParams(f.eventId);
        const body = await route.body?.(f, 'member', params);
        const res = await send(f.t, route, urlOf(route, params), token, body);
        if (isPublic(route)) {
          expect(res.status, `${kind} ${routeKey(route)}`).toBeLessThan(300);
        } else {
          expect(res.status, `${kind} ${routeKey(route)}`).toBe(401);
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
  let documented: Set<string>;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_PASSWORD: '' });
    documented = new Set(await documentedRoutes(t));
  });
  afterAll(() => t.close());

  it('creates the admin with a random password that must be changed', async () => {
    const password = t.runtime.bootstrapAdmin?.password;
    expect(password).toEqual(expect.any(String));
    expect(password!.length).toBeGreaterThanOrEqual(12);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'admin', password: 'admin-secret' } })).status).toBe(401);
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'admin', password } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ scope: 'admin', must_change_password: true });
    token = login.body.token;
  });

  it('answers 403 on every signed-in route but those open while the password must change (profile, change-password, logout)', async () => {
    const fake: Fixtures = {
      t,
      admin: { id: 'x', token },
      member: { id: 'x', token },
      other: { id: 'x', token },
      eventId: 'x',
      stadiumId: 'x',
    };
    const routes = ROUTES.filter((r) => r.notInDocument || documented.has(routeKey(r)));
    const blocked = routes.filter((r) => !isPublic(r) && !r.passwordChangePending);
    expect(blocked.length).toBeGreaterThan(8);
    for (const route of blocked) {
      const params = sampleParams('some-id');
      const res = await send(t, route, urlOf(route, params), token, await route.body?.(fake, 'member', params));
      expect(res.status, routeKey(route)).toBe(403);
      expect(res.body).toMatchObject({ success: false, message: MESSAGES.mustChangePassword });
    }
    // Public routes stay public.
    // Not the calendar feed: its address needs a member's token (its own row checks it is public).
    const open = routes.filter(
      (r) => isPublic(r) && r.path !== '/api/auth/login' && r.path !== '/api/auth/register' && !r.path.includes('{'),
    );
    for (const route of open) {
      const body = await route.body?.(fake, 'member', {});
      expect((await t.call(route.method, route.path, { token, body })).status, route.path).toBe(200);
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
      body: { currentPassword: t.runtime.bootstrapAdmin?.password, newPassword: 'abc' },
    });
    expect(short.status).toBe(400);
    const changed = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: t.runtime.bootstrapAdmin?.password, newPassword: 'my-own-admin-pass' },
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
