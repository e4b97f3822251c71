import { SESSION_IDLE_MS } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStreamCount } from '../src/sync/stream.js';
import { createEventVia, createTestApp, listen, openStream, signIn, type TestApp } from './helpers.js';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('sessions', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('gives every sign-in its own session, named after the device, listed for the user only', async () => {
    await t.member('sess-fan', 'fan-pass');
    const phone = await signIn(t, 'sess-fan', 'fan-pass', { 'user-agent': ANDROID_CHROME });
    const laptop = await signIn(t, 'sess-fan', 'fan-pass');
    const list = await t.call('GET', '/api/auth/sessions', { token: phone.token });
    expect(list.status).toBe(200);
    const ids = list.body.sessions.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([phone.sessionId, laptop.sessionId]));
    const mine = list.body.sessions.find((s: { id: string }) => s.id === phone.sessionId);
    expect(mine).toMatchObject({ device_name: 'Chrome on Android', current: true });
    expect(list.body.sessions.find((s: { id: string }) => s.id === laptop.sessionId).current).toBe(false);
    // Another member sees none of them.
    const other = await t.member('sess-other');
    const theirs = await t.call('GET', '/api/auth/sessions', { token: other.token });
    expect(theirs.body.sessions.map((s: { id: string }) => s.id)).not.toContain(phone.sessionId);
  });

  it('logout ends the current session only, and its open change stream at once', async () => {
    await t.member('sess-logout', 'fan-pass');
    const a = await signIn(t, 'sess-logout', 'fan-pass');
    const b = await signIn(t, 'sess-logout', 'fan-pass');
    const stream = await openStream(server.url, a.token);
    expect(stream.status).toBe(200);
    await stream.read(/event: ready/);
    const started = Date.now();
    const out = await t.call('POST', '/api/auth/logout', { token: a.token });
    expect(out).toMatchObject({ status: 200, body: { success: true, message: 'Signed out' } });
    expect(await stream.read(/event: unauthorized/)).toMatch(/event: unauthorized/);
    expect(Date.now() - started).toBeLessThan(1000);
    stream.close();
    expect((await t.call('GET', '/api/events', { token: a.token })).status).toBe(401);
    expect((await t.call('GET', '/api/events', { token: b.token })).status).toBe(200);
    // Signing out twice is a 401, not a 500.
    expect((await t.call('POST', '/api/auth/logout', { token: a.token })).status).toBe(401);
  });

  it('ends all other sessions, keeping this one', async () => {
    await t.member('sess-others', 'fan-pass');
    const here = await signIn(t, 'sess-others', 'fan-pass');
    const there = await signIn(t, 'sess-others', 'fan-pass');
    const elsewhere = await signIn(t, 'sess-others', 'fan-pass');
    const stream = await openStream(server.url, there.token);
    await stream.read(/event: ready/);
    const res = await t.call('POST', '/api/auth/sessions/end-others', { token: here.token });
    // The two above and the sign-in of t.member.
    expect(res).toMatchObject({ status: 200, body: { success: true, ended: 3 } });
    expect(await stream.read(/event: unauthorized/)).toMatch(/event: unauthorized/);
    stream.close();
    expect((await t.call('GET', '/api/events', { token: there.token })).status).toBe(401);
    expect((await t.call('GET', '/api/events', { token: elsewhere.token })).status).toBe(401);
    expect((await t.call('GET', '/api/events', { token: here.token })).status).toBe(200);
  });

  it('ends one named session of the user; another user cannot end it (404)', async () => {
    const owner = await t.member('sess-one', 'fan-pass');
    const second = await signIn(t, 'sess-one', 'fan-pass');
    const intruder = await t.member('sess-intruder');
    const admin = await t.adminToken();
    for (const token of [intruder.token, admin]) {
      const res = await t.call('DELETE', `/api/auth/sessions/${second.sessionId}`, { token });
      expect(res).toMatchObject({ status: 404, body: { message: 'Session not found' } });
    }
    expect((await t.call('GET', '/api/events', { token: second.token })).status).toBe(200);
    expect((await t.call('DELETE', `/api/auth/sessions/${second.sessionId}`, { token: owner.token })).status).toBe(200);
    expect((await t.call('GET', '/api/events', { token: second.token })).status).toBe(401);
    expect((await t.call('GET', '/api/events', { token: owner.token })).status).toBe(200);
  });

  it('a password change ends every session and open stream at once; the changing device gets a fresh one', async () => {
    await t.member('sess-pw', 'old-pass');
    const phone = await signIn(t, 'sess-pw', 'old-pass');
    const laptop = await signIn(t, 'sess-pw', 'old-pass');
    const stream = await openStream(server.url, laptop.token);
    await stream.read(/event: ready/);
    const started = Date.now();
    const changed = await t.call('POST', '/api/auth/change-password', {
      token: phone.token,
      body: { currentPassword: 'old-pass', newPassword: 'new-pass' },
    });
    expect(changed.status).toBe(200);
    expect(await stream.read(/event: unauthorized/)).toMatch(/event: unauthorized/);
    expect(Date.now() - started).toBeLessThan(1000);
    stream.close();
    for (const token of [phone.token, laptop.token]) expect((await t.call('GET', '/api/events', { token })).status).toBe(401);
    expect((await t.call('GET', '/api/events', { token: changed.body.token })).status).toBe(200);
    const sessions = await t.call('GET', '/api/auth/sessions', { token: changed.body.token });
    expect(sessions.body.sessions).toHaveLength(1);
  });

  it('deleting a user ends their sessions and streams', async () => {
    const gone = await t.member('sess-gone');
    const stream = await openStream(server.url, gone.token);
    await stream.read(/event: ready/);
    expect((await t.call('DELETE', `/api/auth/users/${gone.id}`, { token: await t.adminToken() })).status).toBe(200);
    expect(await stream.read(/event: unauthorized/)).toMatch(/event: unauthorized/);
    stream.close();
    const left = await t.runtime.deps.store.db.selectFrom('sessions').select('id').where('user_id', '=', gone.id).execute();
    expect(left).toEqual([]);
  });

  it('keeps a session that was unused for weeks, ends one unused for 90 days', async () => {
    const fan = await t.member('sess-idle', 'fan-pass');
    const old = await signIn(t, 'sess-idle', 'fan-pass');
    const db = t.runtime.deps.store.db;
    const weeksAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000).toISOString();
    await db.updateTable('sessions').set({ last_seen_at: weeksAgo }).where('id', '=', old.sessionId).execute();
    // A fresh server process (no cached session) reads the stored last use.
    const restarted = await createTestAppOn(t);
    expect((await restarted.call('GET', '/api/events', { token: old.token })).status).toBe(200);
    // The use is written through in the background.
    await expect
      .poll(async () => {
        const stored = await db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('id', '=', old.sessionId)
          .executeTakeFirstOrThrow();
        return Date.parse(stored.last_seen_at);
      })
      .toBeGreaterThan(Date.now() - 60_000);

    const tooOld = new Date(Date.now() - SESSION_IDLE_MS - 1000).toISOString();
    await db.updateTable('sessions').set({ last_seen_at: tooOld }).where('id', '=', old.sessionId).execute();
    const later = await createTestAppOn(t);
    const res = await later.call('GET', '/api/events', { token: old.token });
    expect(res).toMatchObject({ status: 401, body: { message: 'Session expired, please sign in again' } });
    expect(fan.id).toBeTruthy();
  });

  it('refuses a token without a session (issued before sessions existed)', async () => {
    const fan = await t.member('sess-legacy');
    const { SignJWT } = await import('jose');
    const legacy = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(fan.id)
      .setExpirationTime('30d')
      .sign(new TextEncoder().encode('test-secret-test-secret-test-secret'));
    expect((await t.call('GET', '/api/events', { token: legacy })).status).toBe(401);
  });

  it('keeps at most five change streams per user: a sixth ends the oldest with superseded', async () => {
    const fan = await t.member('sess-streams');
    const streams = [];
    for (let i = 0; i < 6; i++) {
      const stream = await openStream(server.url, fan.token);
      await stream.read(/event: ready/);
      streams.push(stream);
    }
    expect(await streams[0]!.read(/event: superseded/)).toMatch(/event: superseded/);
    // A change after that reaches the second stream, still open: anything written to it before came first.
    await createEventVia(t, fan.token, { title: 'Streams counted (H)' });
    const second = await streams[1]!.read(/event: change/);
    expect(second).toMatch(/event: change/);
    expect(second).not.toMatch(/superseded/);
    expect(openStreamCount(fan.id)).toBe(5);
    for (const stream of streams) stream.close();
  });
});

/** A second app on the same database: a restarted server with empty caches. */
async function createTestAppOn(t: TestApp) {
  const { createApp } = await import('../src/app.js');
  const { LiveSessions } = await import('../src/auth/liveSessions.js');
  const { LiveUsers } = await import('../src/auth/liveUsers.js');
  const deps = t.runtime.deps;
  const app = createApp({ ...deps, sessions: LiveSessions.subscribedTo(deps.store), users: LiveUsers.subscribedTo(deps.store) });
  return {
    call: async (method: string, url: string, options: { token: string }) => {
      const response = await app.request(url, { method, headers: { authorization: `Bearer ${options.token}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}
