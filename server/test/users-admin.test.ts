import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal } from './bad-input-cases.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/** User administration (docs/product.md, "Screens": /users, /users/{id}): list with debts, one user, create, set password. */
describe('user administration', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let fan: { id: string; token: string };
  let other: { id: string; token: string };
  async function snapshot() {
    const [users, sessions, counters] = await Promise.all([
      t.db.selectFrom('users').selectAll().orderBy('id').execute(),
      t.db.selectFrom('sessions').selectAll().orderBy('id').execute(),
      t.db.selectFrom('counters').selectAll().execute(),
    ]);
    return { users, sessions, counters };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    adminId = (await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id;
    fan = await t.member('debtor');
    other = await t.member('clean');
  });
  afterAll(() => t.close());

  it('refuses every route to anonymous (401) and members (403)', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/auth/users'],
      ['GET', '/api/auth/users/all'],
      ['GET', `/api/auth/users/${fan.id}`],
      ['POST', '/api/auth/users', { username: 'sneaky', email: 'sneaky@example.org' }],
      ['PUT', `/api/auth/users/${other.id}/password`, { newPassword: 'hijacked' }],
    ];
    const before = await snapshot();
    for (const [method, url, body] of calls) {
      expect((await t.call(method, url, { body })).status, url).toBe(401);
      const res = await t.call(method, url, { token: fan.token, body });
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe(MESSAGES.adminRequired);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lists users with unpaid_count and total_debt, guests counting for the member who brought them', async () => {
    const a = (await createEventVia(t, admin, { title: 'Debt A (A)' })).id;
    const b = (await createEventVia(t, admin, { title: 'Debt B (H)' })).id;
    await t.call('POST', `/api/attendance/${a}`, { token: fan.token, body: { status: 'going' } });
    const guest = await t.call('POST', '/api/guests', { token: fan.token, body: { event_id: b, guest_name: 'Gerd' } });
    expect(guest.status).toBe(201);
    await t.call('POST', `/api/attendance/${b}`, { token: fan.token, body: { status: 'going' } });
    await t.call('PUT', `/api/tickets/event/${a}/user/${fan.id}/status`, { token: admin, body: { bought: true, price: 18.5 } });
    await t.call('PUT', `/api/tickets/event/${b}/user/${fan.id}/status`, {
      token: admin,
      body: { bought: true, price: 10, paid: true },
    });
    // Bought through the admin's attendee table, so the ledger charges it (the debt is the ledger's balance).
    const guestBought = await t.call('PUT', `/api/attendees/${guest.body.guest.id}`, {
      token: admin,
      body: { bought: true, price: 12.25 },
    });
    expect(guestBought.status).toBe(200);
    // A pending registration is not in the table, but in /all.
    const pending = await t.call('POST', '/api/auth/register', {
      body: { username: 'newbie', email: 'newbie@example.org', password: 'newbie-pass' },
    });

    const list = await t.call('GET', '/api/auth/users', { token: admin });
    expect(list.status).toBe(200);
    const debtor = list.body.users.find((u: { id: string }) => u.id === fan.id);
    expect(debtor).toMatchObject({
      username: 'debtor',
      email: 'debtor@example.org',
      scope: 'user',
      language: 'de',
      unpaid_count: 2,
      total_debt: 30.75,
    });
    expect(debtor.created_at).toEqual(expect.any(String));
    expect(debtor).not.toHaveProperty('password_hash');
    expect(list.body.users.find((u: { id: string }) => u.id === other.id)).toMatchObject({ unpaid_count: 0, total_debt: 0 });
    expect(list.body.users.some((u: { id: string }) => u.id === pending.body.user.id)).toBe(false);

    const all = await t.call('GET', '/api/auth/users/all', { token: admin });
    expect(all.body.users.find((u: { id: string }) => u.id === pending.body.user.id)).toMatchObject({ status: 'pending' });

    const one = await t.call('GET', `/api/auth/users/${fan.id}`, { token: admin });
    expect(one.body.user).toMatchObject({ id: fan.id, unpaid_count: 2, total_debt: 30.75 });
  });

  it('answers 404 User not found for an unknown or deleted user', async () => {
    const res = await t.call('GET', '/api/auth/users/nope', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(MESSAGES.userNotFound);
    const gone = await t.member('gone-soon');
    expect((await t.call('DELETE', `/api/auth/users/${gone.id}`, { token: admin })).status).toBe(200);
    expect((await t.call('GET', `/api/auth/users/${gone.id}`, { token: admin })).status).toBe(404);
    expect(
      (await t.call('PUT', `/api/auth/users/${gone.id}/password`, { token: admin, body: { newPassword: 'whatever' } })).status,
    ).toBe(404);
  });

  it('creates a user whose temporary password signs in and must be changed', async () => {
    const res = await t.call('POST', '/api/auth/users', {
      token: admin,
      body: { username: '  Neu  ', email: 'neu@example.org', language: 'en' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(MESSAGES.userCreated);
    expect(res.body.user).toMatchObject({
      username: 'Neu',
      status: 'active',
      scope: 'user',
      language: 'en',
      must_change_password: true,
    });
    expect(res.body.temporaryPassword).toEqual(expect.any(String));
    expect(res.body.temporaryPassword.length).toBeGreaterThanOrEqual(8);
    const token = await t.login('neu', res.body.temporaryPassword);
    const profile = await t.call('GET', '/api/auth/profile', { token });
    expect(profile.body.user.must_change_password).toBe(true);
    expect((await t.call('GET', '/api/events', { token })).status).toBe(403);
    const changed = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: res.body.temporaryPassword, newPassword: 'my-own-pass' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.user.must_change_password).toBe(false);
    // The temporary password is stored hashed only.
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', res.body.user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain(res.body.temporaryPassword);
  });

  it('gives a registration and an account an admin creates the same defaults: German unless a language is named', async () => {
    const register = (username: string, language?: 'de' | 'en') =>
      t.call('POST', '/api/auth/register', {
        body: { username, email: `${username}@example.org`, password: 'self-pass', ...(language ? { language } : {}) },
      });
    const create = (username: string, language?: 'de' | 'en') =>
      t.call('POST', '/api/auth/users', {
        token: admin,
        body: { username, email: `${username}@example.org`, ...(language ? { language } : {}) },
      });
    /** The fields a new account takes from the one row builder rather than from its kind (pending or created). */
    const stored = async (id: string) => {
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { scope: row.scope, language: row.language, token_version: row.token_version, deleted: row.deleted };
    };

    const registered = await register('selbst');
    const created = await create('angelegt');
    expect([registered.status, created.status]).toEqual([201, 201]);
    expect(registered.body.user).toMatchObject({ scope: 'user', language: 'de', status: 'pending', must_change_password: false });
    expect(created.body.user).toMatchObject({ scope: 'user', language: 'de', status: 'active', must_change_password: true });
    expect(await stored(created.body.user.id)).toEqual(await stored(registered.body.user.id));
    expect(await stored(registered.body.user.id)).toEqual({ scope: 'user', language: 'de', token_version: 0, deleted: 0 });

    // A language named on either path is kept.
    const registeredEn = await register('selbst-en', 'en');
    const createdEn = await create('angelegt-en', 'en');
    expect([registeredEn.body.user.language, createdEn.body.user.language]).toEqual(['en', 'en']);
    expect(await stored(createdEn.body.user.id)).toEqual(await stored(registeredEn.body.user.id));
  });

  it('refuses bad create bodies without changing anything, never 500', async () => {
    const bad: [unknown, string | null, number][] = [
      [{}, MESSAGES.invalidInput, 400],
      [{ username: 'abc' }, MESSAGES.invalidInput, 400],
      [{ email: 'x@example.org' }, MESSAGES.invalidInput, 400],
      [{ username: '   ', email: 'x@example.org' }, MESSAGES.invalidInput, 400],
      [{ username: 12, email: 'x@example.org' }, MESSAGES.invalidInput, 400],
      [{ username: 'abc', email: 'not-an-email' }, MESSAGES.invalidInput, 400],
      [{ username: 'u'.repeat(51), email: 'x@example.org' }, MESSAGES.usernameTooLong, 400],
      [{ username: 'u'.repeat(5000), email: 'x@example.org' }, MESSAGES.usernameTooLong, 400],
      [{ username: 'abc', email: `${'x'.repeat(200)}@example.org` }, MESSAGES.emailTooLong, 400],
      [{ username: 'a\u202Eb', email: 'x@example.org' }, MESSAGES.usernameInvalidCharacters, 400],
      [{ username: 'abc', email: 'x@example.org', scope: 'root' }, MESSAGES.invalidInput, 400],
      [{ username: 'abc', email: 'x@example.org', language: 'fr' }, MESSAGES.invalidInput, 400],
      [{ username: 'abc', email: 'x@example.org', password: 'chosen' }, null, 400],
      [{ username: 'DEBTOR', email: 'x@example.org' }, MESSAGES.usernameTaken, 409],
      [{ username: 'abc', email: 'Debtor@Example.org' }, MESSAGES.emailTaken, 409],
      [[], null, 400],
      [null, null, 400],
    ];
    const before = await snapshot();
    for (const [body, message, status] of bad) {
      expectRefusal(await t.call('POST', '/api/auth/users', { token: admin, body }), status, message);
    }
    expectRefusal(await t.call('POST', '/api/auth/users', { token: admin, raw: '{bad' }), 400, MESSAGES.malformedJson);
    expect(await snapshot()).toEqual(before);
  });

  it("sets a user's password: old sessions end, the new one signs in", async () => {
    const target = await t.member('forgetful', 'old-password');
    const second = await t.login('forgetful', 'old-password');
    const res = await t.call('PUT', `/api/auth/users/${target.id}/password`, {
      token: admin,
      body: { newPassword: 'new-password' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MESSAGES.passwordUpdated);
    for (const token of [target.token, second]) expect((await t.call('GET', '/api/auth/profile', { token })).status).toBe(401);
    await expect(t.login('forgetful', 'old-password')).rejects.toThrow();
    const fresh = await t.login('forgetful', 'new-password');
    expect((await t.call('GET', '/api/auth/profile', { token: fresh })).body.user.must_change_password).toBe(true);
    // The admin's own session lives on.
    expect((await t.call('GET', '/api/auth/profile', { token: admin })).status).toBe(200);
  });

  it('refuses bad password bodies without changing anything, never 500', async () => {
    const url = `/api/auth/users/${other.id}/password`;
    const bad: [unknown, string | null][] = [
      [{}, MESSAGES.passwordTooShort],
      [{ newPassword: 'abc' }, MESSAGES.passwordTooShort],
      [{ newPassword: '' }, MESSAGES.passwordTooShort],
      [{ newPassword: 1234 }, MESSAGES.passwordTooShort],
      [{ newPassword: null }, MESSAGES.passwordTooShort],
      [{ newPassword: 'x'.repeat(201) }, MESSAGES.passwordTooLong],
      [{ newPassword: 'valid-pass', extra: 1 }, null],
      [[], null],
      ['text', null],
    ];
    const before = await snapshot();
    for (const [body, message] of bad) expectRefusal(await t.call('PUT', url, { token: admin, body }), 400, message);
    expectRefusal(await t.call('PUT', url, { token: admin, raw: '' }), 400, MESSAGES.malformedJson);
    expect(await snapshot()).toEqual(before);
    expect((await t.call('GET', '/api/auth/profile', { token: other.token })).status).toBe(200);
  });

  it('promotes a member to admin and back; an admin cannot demote or delete themselves', async () => {
    const up = await t.call('PUT', `/api/auth/users/${other.id}`, { token: admin, body: { scope: 'admin' } });
    expect(up.body.user.scope).toBe('admin');
    expect((await t.call('GET', '/api/auth/users', { token: other.token })).status).toBe(200);
    const down = await t.call('PUT', `/api/auth/users/${other.id}`, { token: admin, body: { scope: 'user' } });
    expect(down.body.user.scope).toBe('user');
    expect((await t.call('GET', '/api/auth/users', { token: other.token })).status).toBe(403);
    const self = await t.call('PUT', `/api/auth/users/${adminId}`, { token: admin, body: { scope: 'user' } });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe(MESSAGES.cannotDemoteSelf);
    const del = await t.call('DELETE', `/api/auth/users/${adminId}`, { token: admin });
    expect(del.status).toBe(400);
    expect(del.body.message).toBe(MESSAGES.cannotDeleteSelf);
  });
});
