import { createHash } from 'node:crypto';
import { inviteCheckAnswer, inviteCreatedAnswer, invitesAnswer, MESSAGES, registerAnswer } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, isPostgres, type TestApp } from './helpers.js';

/*
 * Invites (docs/architecture.md, Invites): an admin makes, lists and withdraws links; registering
 * through one counts a use (atomically: a race for the last use has one winner), is approved at once
 * or waits as the invite says; expired, used-up, withdrawn and unknown links are refused with their
 * own codes, guessed ones throttled per client address like sign-in guesses; bad input changes nothing.
 */

const PUBLIC_URL = 'https://fans.example.org/';
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const tokenOf = (url: string) => new URL(url).searchParams.get('invite')!;
/** A request from the client address `address` (the app trusts one proxy: TRUST_PROXY=1). */
const from = (address: string) => ({ 'x-forwarded-for': address });

let t: TestApp;
let admin: string;
let names = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, TRUST_PROXY: '1' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

async function makeInvite(body: Partial<{ expires_at: string; max_uses: number; approve: boolean }> = {}) {
  const answer = await t.callTyped(inviteCreatedAnswer, 'POST', '/api/invites', {
    token: admin,
    body: { expires_at: inDays(7), max_uses: 5, approve: false, ...body },
    status: 201,
  });
  return answer.invite;
}

function registerWith(invite: string | undefined, options: { username?: string; headers?: Record<string, string> } = {}) {
  const username = options.username ?? `inv${process.pid % 1000}x${++names}`;
  return t.call('POST', '/api/auth/register', {
    body: { username, email: `${username}@example.org`, password: 'invite-pass', ...(invite === undefined ? {} : { invite }) },
    headers: options.headers,
  });
}

const listed = async () => (await t.callTyped(invitesAnswer, 'GET', '/api/invites', { token: admin })).invites;
const inviteRow = (id: string) => t.db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const userCount = async () => (await t.db.selectFrom('users').select('id').execute()).length;
const inviteCount = async () => (await t.db.selectFrom('invites').select('id').execute()).length;

describe('making, listing and withdrawing invites', () => {
  it('makes an invite with a link on PUBLIC_URL whose token is random and kept beside its sha256', async () => {
    const invite = await makeInvite({ max_uses: 3, approve: true });
    expect(invite).toMatchObject({ max_uses: 3, uses: 0, approve: true, revoked_at: null, members: [] });
    expect(invite.url).toMatch(/^https:\/\/fans\.example\.org\/register\?invite=[\w-]+$/);
    const token = tokenOf(invite.url);
    // 32 random bytes: 43 base64url characters (at least 128 bits).
    expect(token).toMatch(/^[\w-]{43}$/);
    const row = await inviteRow(invite.id);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.created_by).toBe((await t.call('GET', '/api/auth/profile', { token: admin })).body.user.id);
    const other = await makeInvite();
    expect(tokenOf(other.url)).not.toBe(token);
  });

  it('lists every invite newest first with its link again, and withdraws one, which stays listed as revoked', async () => {
    const older = await makeInvite();
    const newer = await makeInvite();
    let invites = await listed();
    expect(invites.map((invite) => invite.id).indexOf(newer.id)).toBeLessThan(invites.map((i) => i.id).indexOf(older.id));
    expect(invites.find((invite) => invite.id === older.id)).toEqual(older);

    const revoked = await t.call('DELETE', `/api/invites/${older.id}`, { token: admin });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, message: MESSAGES.inviteWithdrawn });
    invites = await listed();
    const after = invites.find((invite) => invite.id === older.id)!;
    expect(after.revoked_at).toEqual(expect.any(String));
    expect(after.url).toBe(older.url);
    // Again: nothing changes.
    const again = await t.call('DELETE', `/api/invites/${older.id}`, { token: admin });
    expect(again.status).toBe(200);
    expect((await inviteRow(older.id)).revoked_at).toBe(after.revoked_at);
    const unknown = await t.call('DELETE', '/api/invites/no-such-invite', { token: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('inviteNotFound');
  });

  it('is the admins’ alone', async () => {
    const member = await t.member('inv-member');
    for (const [method, url, body] of [
      ['POST', '/api/invites', { expires_at: inDays(1), max_uses: 1, approve: true }],
      ['GET', '/api/invites', undefined],
      ['DELETE', `/api/invites/${(await makeInvite()).id}`, undefined],
    ] as const) {
      const res = await t.call(method, url, { token: member.token, body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.code).toBe('adminRequired');
    }
    expect((await t.call('GET', '/api/invites')).status).toBe(401);
  });
});

describe('registering through an invite', () => {
  it('with approve: the account is active and signed in at once, counted, and listed under the invite', async () => {
    const invite = await makeInvite({ approve: true, max_uses: 2 });
    const check = await t.callTyped(inviteCheckAnswer, 'GET', `/api/invites/check/${tokenOf(invite.url)}`);
    expect(check.invite).toEqual({ expires_at: invite.expires_at, approve: true });

    const res = await registerWith(tokenOf(invite.url), { username: 'inv-anna' });
    expect(res.status).toBe(201);
    const answer = registerAnswer.parse(res.body);
    expect(answer).toMatchObject({ requiresApproval: false, message: MESSAGES.registrationActive });
    expect(answer.user).toMatchObject({ username: 'inv-anna', status: 'active', scope: 'user' });
    if (answer.requiresApproval) throw new Error('expected a signed-in answer');
    const profile = await t.call('GET', '/api/auth/profile', { token: answer.token });
    expect(profile.status).toBe(200);
    expect(profile.body.user.username).toBe('inv-anna');
    // The password works too, and nothing waits for an admin.
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'inv-anna', password: 'invite-pass' } })).status).toBe(
      200,
    );
    const pending = await t.call('GET', '/api/auth/users/pending', { token: admin });
    expect(pending.body.users.map((user: { username: string }) => user.username)).not.toContain('inv-anna');

    const listedInvite = (await listed()).find((one) => one.id === invite.id)!;
    expect(listedInvite.uses).toBe(1);
    expect(listedInvite.members).toEqual([{ user_id: answer.user.id, username: 'inv-anna', joined_at: expect.any(String) }]);
  });

  it('without approve: the account waits for an admin like any registration, and is counted and listed', async () => {
    const invite = await makeInvite({ approve: false });
    const res = await registerWith(tokenOf(invite.url), { username: 'inv-bert' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      requiresApproval: true,
      message: MESSAGES.registrationPending,
      user: { status: 'pending' },
    });
    expect(res.body.token).toBeUndefined();
    const login = await t.call('POST', '/api/auth/login', { body: { username: 'inv-bert', password: 'invite-pass' } });
    expect(login.status).toBe(403);
    const pending = await t.call('GET', '/api/auth/users/pending', { token: admin });
    expect(pending.body.users.map((user: { username: string }) => user.username)).toContain('inv-bert');
    const listedInvite = (await listed()).find((one) => one.id === invite.id)!;
    expect(listedInvite).toMatchObject({ uses: 1, members: [{ username: 'inv-bert' }] });
  });

  it('refuses an expired, a used-up, a withdrawn and an unknown link with their own codes, creating nobody', async () => {
    const expired = await makeInvite({ approve: true });
    await t.db
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    const usedUp = await makeInvite({ approve: true, max_uses: 1 });
    expect((await registerWith(tokenOf(usedUp.url))).status).toBe(201);
    const withdrawn = await makeInvite({ approve: true });
    expect((await t.call('DELETE', `/api/invites/${withdrawn.id}`, { token: admin })).status).toBe(200);
    const cases = [
      [tokenOf(expired.url), 409, 'inviteExpired'],
      [tokenOf(usedUp.url), 409, 'inviteUsedUp'],
      [tokenOf(withdrawn.url), 409, 'inviteRevoked'],
      ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 404, 'inviteNotFound'],
    ] as const;
    for (const [token, status, code] of cases) {
      const users = await userCount();
      const headers = from('198.51.100.10');
      const check = await t.call('GET', `/api/invites/check/${token}`, { headers });
      expect(check.status, code).toBe(status);
      expect(check.body).toEqual({ success: false, code, message: MESSAGES[code] });
      const res = await registerWith(token, { headers });
      expect(res.status, code).toBe(status);
      expect(res.body.code).toBe(code);
      expect(await userCount()).toBe(users);
    }
    expect((await inviteRow(usedUp.id)).uses).toBe(1);
    expect((await inviteRow(expired.id)).uses).toBe(0);
  });

  it('counts nothing when the registration itself is refused (a taken name)', async () => {
    const invite = await makeInvite({ max_uses: 1 });
    const res = await registerWith(tokenOf(invite.url), { username: 'inv-anna' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('usernameTaken');
    expect((await inviteRow(invite.id)).uses).toBe(0);
    expect((await registerWith(tokenOf(invite.url))).status).toBe(201);
  });

  it(`gives the last use to one of two registrations racing for it (${isPostgres() ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const invite = await makeInvite({ approve: true, max_uses: 2 });
    expect((await registerWith(tokenOf(invite.url))).status).toBe(201);
    const users = await userCount();
    const racers = await Promise.all([0, 1, 2].map(() => registerWith(tokenOf(invite.url))));
    const statuses = racers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const loser of racers.filter((res) => res.status === 409)) expect(loser.body.code).toBe('inviteUsedUp');
    expect(await userCount()).toBe(users + 1);
    expect((await inviteRow(invite.id)).uses).toBe(2);
    expect((await listed()).find((one) => one.id === invite.id)!.members).toHaveLength(2);
  });

  it('is not held up by the registrations-per-address limit: the invite’s uses bound it', async () => {
    const limited = await createTestApp({ REGISTRATIONS_PER_HOUR: '1' });
    try {
      const body = (name: string, invite?: string) => ({
        body: { username: name, email: `${name}@example.org`, password: 'invite-pass', ...(invite ? { invite } : {}) },
      });
      expect((await limited.call('POST', '/api/auth/register', body('lim-one'))).status).toBe(201);
      expect((await limited.call('POST', '/api/auth/register', body('lim-two'))).body.code).toBe('tooManyRegistrations');
      const made = await limited.call('POST', '/api/invites', {
        token: await limited.adminToken(),
        body: { expires_at: inDays(1), max_uses: 2, approve: false },
      });
      const token = tokenOf(made.body.invite.url);
      expect((await limited.call('POST', '/api/auth/register', body('lim-three', token))).status).toBe(201);
      expect((await limited.call('POST', '/api/auth/register', body('lim-four', token))).status).toBe(201);
      expect((await limited.call('POST', '/api/auth/register', body('lim-five', token))).body.code).toBe('inviteUsedUp');
    } finally {
      await limited.close();
    }
  });
});

describe('guessing invite tokens', () => {
  it('slows a client that guesses like sign-in guesses (429 tooManyInviteAttempts), on the check and on registration alike', async () => {
    const invite = await makeInvite({ approve: true });
    const guesser = from('203.0.113.7');
    const guess = (i: number) => `guess-${i}-${'x'.repeat(30)}`;
    // Five free failures...
    for (let i = 0; i < 5; i++) {
      const res = await t.call('GET', `/api/invites/check/${guess(i)}`, { headers: guesser });
      expect(res.status).toBe(404);
    }
    // ...then the client waits (a second after the fifth, doubling: asked at once here), even with a
    // real token, and registration says the same.
    const users = await userCount();
    const [registering, held, response] = await Promise.all([
      registerWith(guess(99), { headers: guesser }),
      t.call('GET', `/api/invites/check/${tokenOf(invite.url)}`, { headers: guesser }),
      t.app.request(`/api/invites/check/${guess(100)}`, { headers: guesser }),
    ]);
    expect(registering.status).toBe(429);
    expect(registering.body.code).toBe('tooManyInviteAttempts');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ success: false, code: 'tooManyInviteAttempts', message: MESSAGES.tooManyInviteAttempts });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await userCount()).toBe(users);

    // Another client is not held up, nor is signing in from the guessing address.
    expect((await t.call('GET', `/api/invites/check/${tokenOf(invite.url)}`, { headers: from('203.0.113.8') })).status).toBe(200);
    expect(
      (await t.call('POST', '/api/auth/login', { body: { username: 'inv-anna', password: 'invite-pass' }, headers: guesser }))
        .status,
    ).toBe(200);
  });

  it('does not count known links as guesses, and a valid check does not wipe earlier guesses', async () => {
    const invite = await makeInvite();
    const client = from('203.0.113.20');
    for (let i = 0; i < 10; i++) {
      expect((await t.call('GET', `/api/invites/check/${tokenOf(invite.url)}`, { headers: client })).status).toBe(200);
    }
    for (let i = 0; i < 4; i++)
      expect((await t.call('GET', `/api/invites/check/nope-${i}`, { headers: client })).status).toBe(404);
    expect((await t.call('GET', `/api/invites/check/${tokenOf(invite.url)}`, { headers: client })).status).toBe(200);
    expect((await t.call('GET', '/api/invites/check/nope-last', { headers: client })).status).toBe(404);
    expect((await t.call('GET', `/api/invites/check/${tokenOf(invite.url)}`, { headers: client })).status).toBe(429);
  });
});

describe('bad input', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a negative number of uses', { max_uses: -1 }, 'inviteMaxUsesInvalid'],
    ['no uses', { max_uses: 0 }, 'inviteMaxUsesInvalid'],
    ['more than 1000 uses', { max_uses: 1001 }, 'inviteMaxUsesInvalid'],
    ['a fraction of a use', { max_uses: 2.5 }, 'inviteMaxUsesInvalid'],
    ['uses as text', { max_uses: '5' }, 'inviteMaxUsesInvalid'],
    ['uses left out', { max_uses: undefined }, 'inviteMaxUsesInvalid'],
    ['an end in the past', { expires_at: inDays(-1) }, 'inviteExpiryPast'],
    ['an end more than a year ahead', { expires_at: inDays(367) }, 'inviteExpiryTooFar'],
    ['an end without a time', { expires_at: '2031-01-01' }, 'inviteExpiryInvalid'],
    ['an end without a zone', { expires_at: '2031-01-01T12:00:00' }, 'inviteExpiryInvalid'],
    ['an end that is no date', { expires_at: '2031-02-30T12:00:00Z' }, 'inviteExpiryInvalid'],
    ['an end at no time of day', { expires_at: '2031-01-01T24:30:00Z' }, 'inviteExpiryInvalid'],
    ['an end in words', { expires_at: 'tomorrow' }, 'inviteExpiryInvalid'],
    ['an end as a number', { expires_at: Date.now() + DAY }, 'inviteExpiryInvalid'],
    ['approve as text', { approve: 'yes' }, 'inviteApproveInvalid'],
    ['approve as a number', { approve: 1 }, 'inviteApproveInvalid'],
    ['approve left out', { approve: undefined }, 'inviteApproveInvalid'],
    ['a field it does not know', { uses: 3 }, 'invalidInput'],
  ];
  it.each(cases)('refuses %s with its message, storing nothing', async (_name, change, code) => {
    const before = await inviteCount();
    const body = { expires_at: inDays(7), max_uses: 5, approve: true, ...change };
    const res = await t.call('POST', '/api/invites', { token: admin, body: JSON.parse(JSON.stringify(body)) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code });
    expect(res.body.message.startsWith(MESSAGES[code as keyof typeof MESSAGES])).toBe(true);
    expect(await inviteCount()).toBe(before);
  });

  it('takes an end with an offset, kept as UTC, up to a year ahead', async () => {
    const local = `${new Date(Date.now() + 300 * DAY).toISOString().slice(0, 16)}+02:00`;
    const invite = await makeInvite({ expires_at: local });
    expect(invite.expires_at).toBe(new Date(Date.parse(local)).toISOString());
    const yearAhead = inDays(365);
    expect((await makeInvite({ expires_at: yearAhead })).expires_at).toBe(yearAhead);
  });

  it('refuses a registration whose invite is no text or far too long, before counting anything', async () => {
    const users = await userCount();
    for (const invite of [42, '', 'x'.repeat(201)]) {
      const res = await t.call('POST', '/api/auth/register', {
        body: { username: `inv-bad${++names}`, email: `bad${names}@example.org`, password: 'invite-pass', invite },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('inviteNotFound');
    }
    expect(await userCount()).toBe(users);
  });
});
