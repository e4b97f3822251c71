import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, countRows, createEventVia, createTestApp, register, type TestApp } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('registration and approval', () => {
  it('registers a pending account: 201, requiresApproval, no token', async () => {
    const res = await register(t, 'newfan');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, requiresApproval: true, message: MESSAGES.registrationPending });
    expect(res.body.token).toBeUndefined();
    expect(res.body.user).toMatchObject({ username: 'newfan', email: 'newfan@example.org', scope: 'user', status: 'pending' });
    expect(res.body.user.password_hash).toBeUndefined();
  });

  it('refuses to sign in a pending account (403) and lists it as pending for admins', async () => {
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'newfan', password: 'secret-1' } });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ success: false, message: MESSAGES.accountPending });
    expect(login.body.token).toBeUndefined();
    // A wrong password on a pending account says nothing about the account.
    const wrong = await t.call('POST', '/api/auth/login', { body: { username: 'newfan', password: 'nope-nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Invalid username or password');

    const pending = await t.call('GET', '/api/auth/users/pending', { token: admin });
    expect(pending.status).toBe(200);
    expect(pending.body.users.map((u: { username: string }) => u.username)).toEqual(['newfan']);
  });

  it('lets the account sign in once an admin approved it', async () => {
    const pending = await t.call('GET', '/api/auth/users/pending', { token: admin });
    const id = pending.body.users[0].id;
    const approve = await t.call('PUT', `/api/auth/users/${id}/approve`, { token: admin });
    expect(approve.status).toBe(200);
    expect(approve.body).toMatchObject({ success: true, message: MESSAGES.userApproved, user: { id, status: 'active' } });

    const login = await t.call('POST', '/api/auth/login', { body: { username: 'newfan', password: 'secret-1' } });
    expect(login.status).toBe(200);
    expect(typeof login.body.token).toBe('string');
    expect(login.body.user).toMatchObject({
      id,
      username: 'newfan',
      scope: 'user',
      status: 'active',
      must_change_password: false,
    });
    expect(login.body.user.password_hash).toBeUndefined();

    expect((await t.call('GET', '/api/auth/users/pending', { token: admin })).body.users).toEqual([]);
    const again = await t.call('PUT', `/api/auth/users/${id}/approve`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MESSAGES.userAlreadyActive);
  });

  it('signs in with the username in any case', async () => {
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'NewFan', password: 'secret-1' } });
    expect(login.status).toBe(200);
    expect(login.body.user.username).toBe('newfan');
  });

  it('answers 401 "Invalid username or password" for a wrong password or an unknown user', async () => {
    for (const body of [
      { username: ADMIN.username, password: 'wrong-password' },
      { username: 'nobody-here', password: 'whatever' },
    ]) {
      const res = await t.call('POST', '/api/auth/login', { body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Invalid username or password', code: 'invalidCredentials' });
    }
  });

  it('refuses a taken username (case-insensitive) or email with 409 and writes nothing', async () => {
    const before = await countRows(t, 'users');
    const name = await register(t, 'NEWFAN', { email: 'other@example.org' });
    expect(name.status).toBe(409);
    expect(name.body).toMatchObject({ success: false, message: MESSAGES.usernameTaken });
    const email = await register(t, 'someone-else', { email: 'NewFan@Example.org' });
    expect(email.status).toBe(409);
    expect(email.body).toMatchObject({ success: false, message: MESSAGES.emailTaken });
    const adminName = await register(t, ' Admin ', { email: 'x@example.org' });
    expect(adminName.status).toBe(409);
    expect(await countRows(t, 'users')).toBe(before);
  });

  it('lets exactly one of several simultaneous registrations of a name through', async () => {
    const results = await Promise.all(
      ['Racer', 'racer', 'RACER'].map((username, i) => register(t, username, { email: `racer${i}@example.org` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const rows = await t.runtime.deps.store.db.selectFrom('users').select('id').where('email', 'like', 'racer%').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a short password on registration', async () => {
    const res = await register(t, 'shorty', { password: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Password must be at least 4 characters long' });
  });

  it('names the field and its limit for an over-long username, password or email, writing nothing', async () => {
    const before = await countRows(t, 'users');
    const cases: Array<[string, string, string, string, RegExp]> = [
      ['u'.repeat(5000), 'long-1@example.org', 'secret-1', 'usernameTooLong', /^Username must be at most 50 characters$/],
      ['u'.repeat(51), 'long-2@example.org', 'secret-1', 'usernameTooLong', /^Username must be at most 50 characters$/],
      ['long-pass', 'long-3@example.org', 'p'.repeat(201), 'passwordTooLong', /^Password must be at most 200 characters$/],
      ['long-mail', `${'m'.repeat(200)}@example.org`, 'secret-1', 'emailTooLong', /^Email must be at most 200 characters$/],
    ];
    for (const [username, email, password, code, message] of cases) {
      const res = await register(t, username, { email, password });
      expect(res.status, code).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(message);
    }
    expect(await countRows(t, 'users')).toBe(before);
  });
});

describe('login throttling', () => {
  it('blocks a username after 10 failures, even with the right password, and only that username', async () => {
    await t.member('target');
    for (let i = 0; i < 10; i++) {
      const res = await t.call('POST', '/api/auth/login', { body: { username: 'target', password: `wrong-${i}` } });
      expect(res.status).toBe(401);
    }
    const blocked = await t.call('POST', '/api/auth/login', { body: { username: 'target', password: 'member-pass' } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ success: false, message: MESSAGES.tooManyLoginAttempts });
    // Spelling the name differently does not get around it.
    expect((await t.call('POST', '/api/auth/login', { body: { username: ' TARGET ', password: 'member-pass' } })).status).toBe(
      429,
    );
    // Other accounts are not affected.
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'newfan', password: 'secret-1' } })).status).toBe(200);
  });

  it('resets the count after a successful sign-in', async () => {
    await t.member('forgetful');
    for (let i = 0; i < 9; i++) {
      expect((await t.call('POST', '/api/auth/login', { body: { username: 'forgetful', password: 'nope' } })).status).toBe(401);
    }
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'forgetful', password: 'member-pass' } })).status).toBe(
      200,
    );
    for (let i = 0; i < 9; i++) {
      expect((await t.call('POST', '/api/auth/login', { body: { username: 'forgetful', password: 'nope' } })).status).toBe(401);
    }
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'forgetful', password: 'member-pass' } })).status).toBe(
      200,
    );
  });
});

describe('profile and change-password', () => {
  it('returns the signed-in user', async () => {
    const m = await t.member('profiled');
    const res = await t.call('GET', '/api/auth/profile', { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      user: {
        id: m.id,
        username: 'profiled',
        email: 'profiled@example.org',
        scope: 'user',
        language: 'de',
        must_change_password: false,
      },
    });
    expect(res.body.user.password_hash).toBeUndefined();
    expect(res.body.user.token_version).toBeUndefined();
  });

  it('checks the current password and the new password length', async () => {
    const m = await t.member('changer');
    const wrong = await t.call('POST', '/api/auth/change-password', {
      token: m.token,
      body: { currentPassword: 'not-it', newPassword: 'brand-new' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, message: MESSAGES.currentPasswordWrong });
    const short = await t.call('POST', '/api/auth/change-password', {
      token: m.token,
      body: { currentPassword: 'member-pass', newPassword: 'abc' },
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ success: false, message: 'Password must be at least 4 characters long' });
    // Neither changed anything: the old password and token still work.
    expect((await t.call('GET', '/api/auth/profile', { token: m.token })).status).toBe(200);
    expect(await t.login('changer', 'member-pass')).toEqual(expect.any(String));
  });

  it('changes the password, returns a new token and voids the old one', async () => {
    const m = await t.member('rotator');
    const res = await t.call('POST', '/api/auth/change-password', {
      token: m.token,
      body: { currentPassword: 'member-pass', newPassword: 'next-pass' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.passwordChanged, user: { id: m.id } });
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.token).not.toBe(m.token);

    const old = await t.call('GET', '/api/auth/profile', { token: m.token });
    expect(old.status).toBe(401);
    expect(old.body.success).toBe(false);
    expect((await t.call('GET', '/api/auth/profile', { token: res.body.token })).status).toBe(200);

    expect((await t.call('POST', '/api/auth/login', { body: { username: 'rotator', password: 'member-pass' } })).status).toBe(
      401,
    );
    expect(await t.login('rotator', 'next-pass')).toEqual(expect.any(String));
  });
});

describe('deleting users', () => {
  it('declines a pending registration: the account is gone and its name is free again', async () => {
    const reg = await register(t, 'declined');
    const del = await t.call('DELETE', `/api/auth/users/${reg.body.user.id}`, { token: admin });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, message: MESSAGES.userDeleted });
    const pending = await t.call('GET', '/api/auth/users/pending', { token: admin });
    expect(pending.body.users.some((u: { id: string }) => u.id === reg.body.user.id)).toBe(false);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'declined', password: 'secret-1' } })).status).toBe(401);
    expect((await t.call('PUT', `/api/auth/users/${reg.body.user.id}/approve`, { token: admin })).status).toBe(404);
    expect((await register(t, 'declined')).status).toBe(201);
  });

  it('deletes an active user: their token stops working at once and their attendances leave the counts', async () => {
    const keeper = await t.member('keeper');
    const leaver = await t.member('leaver');
    const event = await createEventVia(t, admin, { title: 'Deletion match (H)' });
    expect((await t.call('POST', `/api/attendance/${event.id}`, { token: keeper.token, body: { status: 'going' } })).status).toBe(
      200,
    );
    expect((await t.call('POST', `/api/attendance/${event.id}`, { token: leaver.token, body: { status: 'going' } })).status).toBe(
      200,
    );
    const maybeEvent = await createEventVia(t, admin, { title: 'Deletion maybe (A)' });
    expect(
      (await t.call('POST', `/api/attendance/${maybeEvent.id}`, { token: leaver.token, body: { status: 'maybe' } })).status,
    ).toBe(200);

    const counts = async () => {
      const list = await t.call('GET', '/api/events', { token: keeper.token });
      const find = (id: string) => list.body.events.find((e: { id: string }) => e.id === id);
      return [find(event.id).going_count, find(maybeEvent.id).maybe_count];
    };
    expect(await counts()).toEqual([2, 1]);

    const del = await t.call('DELETE', `/api/auth/users/${leaver.id}`, { token: admin });
    expect(del.status).toBe(200);

    const refused = await t.call('GET', '/api/events', { token: leaver.token });
    expect(refused.status).toBe(401);
    expect(refused.body.success).toBe(false);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'leaver', password: 'member-pass' } })).status).toBe(401);
    expect(await counts()).toEqual([1, 0]);
    const detail = await t.call('GET', `/api/events/${event.id}`, { token: keeper.token });
    expect(detail.body.attendees.map((a: { username: string }) => a.username)).toEqual(['keeper']);

    const twice = await t.call('DELETE', `/api/auth/users/${leaver.id}`, { token: admin });
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe(MESSAGES.userNotFound);
  });

  it('refuses to delete your own account', async () => {
    const profile = await t.call('GET', '/api/auth/profile', { token: admin });
    const res = await t.call('DELETE', `/api/auth/users/${profile.body.user.id}`, { token: admin });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.cannotDeleteSelf });
    expect((await t.call('GET', '/api/auth/profile', { token: admin })).status).toBe(200);
  });
});

describe('updating users', () => {
  let a: { id: string; token: string };
  let b: { id: string; token: string };
  beforeAll(async () => {
    a = await t.member('upd-a');
    b = await t.member('upd-b');
  });

  it('lets a member change their own language', async () => {
    const res = await t.call('PUT', `/api/auth/users/${a.id}`, { token: a.token, body: { language: 'en' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: a.id, language: 'en', scope: 'user' });
    expect((await t.call('GET', '/api/auth/profile', { token: a.token })).body.user.language).toBe('en');
  });

  it("refuses a member's own scope, username or email change (403) and changes nothing", async () => {
    for (const body of [
      { scope: 'admin' },
      { language: 'de', scope: 'admin' },
      { username: 'renamed' },
      { email: 'new@example.org' },
    ]) {
      const res = await t.call('PUT', `/api/auth/users/${a.id}`, { token: a.token, body });
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
    }
    const profile = await t.call('GET', '/api/auth/profile', { token: a.token });
    expect(profile.body.user).toMatchObject({ username: 'upd-a', email: 'upd-a@example.org', scope: 'user', language: 'en' });
    expect((await t.call('GET', '/api/auth/users/pending', { token: a.token })).status).toBe(403);
  });

  it("refuses a member changing someone else's language", async () => {
    const res = await t.call('PUT', `/api/auth/users/${b.id}`, { token: a.token, body: { language: 'en' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, message: 'Admin access required' });
    expect((await t.call('GET', '/api/auth/profile', { token: b.token })).body.user.language).toBe('de');
  });

  it('refuses an unknown language with 400', async () => {
    const res = await t.call('PUT', `/api/auth/users/${a.id}`, { token: a.token, body: { language: 'fr' } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect((await t.call('GET', '/api/auth/profile', { token: a.token })).body.user.language).toBe('en');
  });

  it('lets an admin change username, email, scope and language; the new scope applies at once', async () => {
    const res = await t.call('PUT', `/api/auth/users/${b.id}`, {
      token: admin,
      body: { username: 'upd-b-renamed', email: 'b2@example.org', scope: 'admin', language: 'en' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: b.id,
      username: 'upd-b-renamed',
      email: 'b2@example.org',
      scope: 'admin',
      language: 'en',
    });
    // The existing token carries the new rights (the user is loaded on every request).
    expect((await t.call('GET', '/api/auth/users/pending', { token: b.token })).status).toBe(200);
    expect(await t.login('upd-b-renamed', 'member-pass')).toEqual(expect.any(String));

    const back = await t.call('PUT', `/api/auth/users/${b.id}`, { token: admin, body: { scope: 'user' } });
    expect(back.status).toBe(200);
    expect((await t.call('GET', '/api/auth/users/pending', { token: b.token })).status).toBe(403);
  });

  it('refuses an admin changing their own scope, so the club keeps an admin', async () => {
    const me = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user;
    const res = await t.call('PUT', `/api/auth/users/${me.id}`, { token: admin, body: { scope: 'user' } });
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
    expect((await t.call('GET', '/api/auth/users/pending', { token: admin })).status).toBe(200);
    // Their own language (and the unchanged scope) are fine.
    const lang = await t.call('PUT', `/api/auth/users/${me.id}`, { token: admin, body: { language: 'en', scope: 'admin' } });
    expect(lang.status).toBe(200);
    expect(lang.body.user).toMatchObject({ scope: 'admin', language: 'en' });
  });

  it('refuses an admin renaming a user to a taken name or email (409)', async () => {
    const name = await t.call('PUT', `/api/auth/users/${b.id}`, { token: admin, body: { username: 'UPD-A' } });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe(MESSAGES.usernameTaken);
    const email = await t.call('PUT', `/api/auth/users/${b.id}`, { token: admin, body: { email: 'upd-a@example.org' } });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe(MESSAGES.emailTaken);
    const unknown = await t.call('PUT', `/api/auth/users/no-such-user`, { token: admin, body: { language: 'en' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(MESSAGES.userNotFound);
  });
});

describe('public meta routes', () => {
  it('GET /api/version answers anonymously', async () => {
    const res = await t.call('GET', '/api/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, version: t.runtime.deps.version });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('GET /api/config answers anonymously with the defaults', async () => {
    const res = await t.call('GET', '/api/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      config: {
        team_id: 553,
        team_name: expect.any(String),
        site_title: 'Fankurve',
        theme_color: '#00397D',
        logo_filename: null,
        time_zone: 'Europe/Berlin',
        // The club's account is for members: an anonymous caller gets none.
        account_holder: null,
        iban: null,
        bic: null,
        loyalty_seasons: 2,
        imprint: null,
        privacy_notice: null,
      },
    });
  });
});

describe('registration language', () => {
  it('keeps the language chosen on the registration page; German when none is sent; refuses another', async () => {
    const english = await t.call('POST', '/api/auth/register', {
      body: { username: 'lang-en', email: 'lang-en@example.org', password: 'secret-1', language: 'en' },
    });
    expect(english.status).toBe(201);
    expect(english.body.user.language).toBe('en');
    const plain = await t.call('POST', '/api/auth/register', {
      body: { username: 'lang-none', email: 'lang-none@example.org', password: 'secret-1' },
    });
    expect(plain.body.user.language).toBe('de');
    const before = await countRows(t, 'users');
    const klingon = await t.call('POST', '/api/auth/register', {
      body: { username: 'lang-tlh', email: 'lang-tlh@example.org', password: 'secret-1', language: 'tlh' },
    });
    expect(klingon).toMatchObject({ status: 400, body: { message: 'Invalid input' } });
    expect(await countRows(t, 'users')).toBe(before);
    // Declined again, so the other tests see no extra pending accounts.
    for (const user of [english.body.user, plain.body.user]) {
      expect((await t.call('DELETE', `/api/auth/users/${user.id}`, { token: await t.adminToken() })).status).toBe(200);
    }
  });
});
