import { MESSAGES } from '@fankurve/shared';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashResetToken } from '../src/domain/people/passwordResets.js';
import { AdminDigest } from '../src/mail/adminDigest.js';
import { createTestApp, listen, openStream, register, type TestApp } from './helpers.js';

/*
 * Password recovery by mail and the admins' digest (docs/architecture.md, "Mail"), against a real local
 * SMTP server: nodemailer delivers over TCP, the test parses what arrived.
 */

interface Inbox {
  url: string;
  mails: ParsedMail[];
  to(address: string): ParsedMail[];
  waitFor(address: string, count?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

async function startSmtp(): Promise<Inbox> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const recipients = (mail: ParsedMail) => [mail.to ?? []].flat().flatMap((to) => to.value.map((a) => a.address?.toLowerCase()));
  const to = (address: string) => mails.filter((mail) => recipients(mail).includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    async waitFor(address, count = 1) {
      await vi.waitFor(
        () => {
          if (to(address).length < count) throw new Error(`no mail ${count} to ${address}`);
        },
        { timeout: 5000, interval: 20 },
      );
      return to(address)[count - 1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the reset link in a mail's text. */
function tokenOf(mail: ParsedMail): string {
  const match = /https:\/\/club\.example\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  return match![1]!;
}

const forgot = (t: TestApp, email: unknown) => t.call('POST', '/api/auth/forgot-password', { body: { email } });
const reset = (t: TestApp, token: unknown, newPassword: unknown) =>
  t.call('POST', '/api/auth/reset-password', { body: { token, newPassword } });
const loginStatus = async (t: TestApp, username: string, password: string) =>
  (await t.call('POST', '/api/auth/login', { body: { username, password } })).status;

describe('password recovery by mail', () => {
  let smtp: Inbox;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://club.example/' });
  });
  afterAll(async () => {
    await t.runtime.deps.mailer.idle();
    await t.close();
    await smtp.close();
  });

  it('forgot → mail in the user’s language → the link resets the password → old sessions and streams end, once only', async () => {
    const member = await t.member('rec-anna', 'old-pass');
    expect((await t.call('PUT', `/api/auth/users/${member.id}`, { token: member.token, body: { language: 'en' } })).status).toBe(
      200,
    );
    const second = await t.login('rec-anna', 'old-pass');
    const server = await listen(t);
    try {
      const stream = await openStream(server.url, second);
      expect(await stream.read(/event: ready/)).toMatch(/event: ready/);

      const answer = await forgot(t, 'REC-anna@example.org');
      expect(answer).toEqual({ status: 200, body: { success: true, message: MESSAGES.resetLinkSent } });
      const mail = await smtp.waitFor('rec-anna@example.org');
      expect(mail.subject).toMatch(/reset your password/);
      expect(mail.text).toContain('Hello rec-anna');
      expect(mail.html).toContain('https://club.example/reset-password/');
      const token = tokenOf(mail);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      // Stored hashed only.
      const rows = await t.runtime.deps.store.db
        .selectFrom('password_resets')
        .selectAll()
        .where('user_id', '=', member.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(hashResetToken(token));
      expect(JSON.stringify(rows)).not.toContain(token);

      const done = await reset(t, token, 'new-pass');
      expect(done).toEqual({ status: 200, body: { success: true, message: MESSAGES.passwordResetDone } });
      expect(await stream.read(/event: unauthorized/)).toMatch(/event: unauthorized/);
      stream.close();
      for (const old of [member.token, second])
        expect((await t.call('GET', '/api/auth/profile', { token: old })).status).toBe(401);
      const sessions = await t.runtime.deps.store.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', member.id)
        .execute();
      expect(sessions).toEqual([]);
      expect(await loginStatus(t, 'rec-anna', 'old-pass')).toBe(401);
      expect(await loginStatus(t, 'rec-anna', 'new-pass')).toBe(200);

      const again = await reset(t, token, 'third-pass');
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ success: false, message: MESSAGES.invalidResetToken, code: 'invalidResetToken' });
      expect(await loginStatus(t, 'rec-anna', 'new-pass')).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('mails in German to a German user', async () => {
    await t.member('rec-bernd');
    await forgot(t, 'rec-bernd@example.org');
    const mail = await smtp.waitFor('rec-bernd@example.org');
    expect(mail.subject).toMatch(/Passwort zurücksetzen/);
    expect(mail.text).toContain('Hallo rec-bernd');
    tokenOf(mail);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = smtp.mails.length;
    const answer = await forgot(t, 'nobody-here@example.org');
    expect(answer).toEqual({ status: 200, body: { success: true, message: MESSAGES.resetLinkSent } });
    // Mail goes out after the answer; once the mailer is idle, a mail sent would have arrived (the SMTP
    // server takes it before nodemailer's send resolves).
    await t.runtime.deps.mailer.idle();
    expect(smtp.mails.length).toBe(before);
    expect(await t.runtime.deps.store.db.selectFrom('password_resets').select('id').execute()).toHaveLength(2);
  });

  it('refuses an expired token and changes nothing', async () => {
    const member = await t.member('rec-carla', 'carla-pass');
    await forgot(t, 'rec-carla@example.org');
    const token = tokenOf(await smtp.waitFor('rec-carla@example.org'));
    await t.runtime.deps.store.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashResetToken(token))
      .execute();
    const res = await reset(t, token, 'carla-new');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MESSAGES.invalidResetToken);
    expect((await t.call('GET', '/api/auth/profile', { token: member.token })).status).toBe(200);
    expect(await loginStatus(t, 'rec-carla', 'carla-pass')).toBe(200);
  });

  it('answers bad bodies with 400 and its message, changing nothing', async () => {
    const member = await t.member('rec-dora', 'dora-pass');
    await forgot(t, 'rec-dora@example.org');
    const token = tokenOf(await smtp.waitFor('rec-dora@example.org'));
    const cases: Array<[() => Promise<{ status: number; body: any }>, string]> = [
      [() => forgot(t, 'not-an-email'), MESSAGES.invalidInput],
      [() => forgot(t, 42), MESSAGES.invalidInput],
      [() => forgot(t, 'x'.repeat(300) + '@example.org'), MESSAGES.emailTooLong],
      [() => t.call('POST', '/api/auth/forgot-password', { body: {} }), MESSAGES.invalidInput],
      [() => t.call('POST', '/api/auth/forgot-password', { raw: '{"email":' }), MESSAGES.malformedJson],
      [() => reset(t, token, 'abc'), MESSAGES.passwordTooShort],
      [() => reset(t, token, 1234), MESSAGES.passwordTooShort],
      [() => reset(t, '', 'long-enough'), MESSAGES.invalidResetToken],
      [() => reset(t, 'no-such-token', 'long-enough'), MESSAGES.invalidResetToken],
      [() => reset(t, token + 'x', 'long-enough'), MESSAGES.invalidResetToken],
      [() => reset(t, { token }, 'long-enough'), MESSAGES.invalidResetToken],
      [() => t.call('POST', '/api/auth/reset-password', { body: { token } }), MESSAGES.passwordTooShort],
    ];
    for (const [call, message] of cases) {
      const res = await call();
      expect(res.status, message).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toBe(message);
    }
    expect((await t.call('GET', '/api/auth/profile', { token: member.token })).status).toBe(200);
    expect(await loginStatus(t, 'rec-dora', 'dora-pass')).toBe(200);
    const row = await t.runtime.deps.store.db
      .selectFrom('password_resets')
      .select('used')
      .where('token_hash', '=', hashResetToken(token))
      .executeTakeFirstOrThrow();
    expect(Number(row.used)).toBe(0);
    // The token still works after all that.
    expect((await reset(t, token, 'dora-new')).status).toBe(200);
  });

  it('using one of three mailed links ends the other two; a password change ends an open link', async () => {
    await t.member('rec-fritz', 'fritz-pass');
    for (let i = 1; i <= 3; i++) expect((await forgot(t, 'rec-fritz@example.org')).status).toBe(200);
    const tokens = [1, 2, 3].map(() => '');
    for (let i = 1; i <= 3; i++) tokens[i - 1] = tokenOf(await smtp.waitFor('rec-fritz@example.org', i));
    expect(new Set(tokens).size).toBe(3);
    const [first, second, third] = tokens as [string, string, string];

    expect((await reset(t, second, 'fritz-new')).status).toBe(200);
    for (const other of [first, third]) {
      const res = await reset(t, other, 'fritz-attacker');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalidResetToken');
    }
    expect(await loginStatus(t, 'rec-fritz', 'fritz-attacker')).toBe(401);
    expect(await loginStatus(t, 'rec-fritz', 'fritz-new')).toBe(200);

    // Own password change: a link mailed before it no longer works (3 mails per address an hour,
    // so another member).
    const gina = await t.member('rec-gina', 'gina-pass');
    await forgot(t, 'rec-gina@example.org');
    const beforeOwnChange = tokenOf(await smtp.waitFor('rec-gina@example.org'));
    const changed = await t.call('POST', '/api/auth/change-password', {
      token: gina.token,
      body: { currentPassword: 'gina-pass', newPassword: 'gina-own' },
    });
    expect(changed.status).toBe(200);
    expect((await reset(t, beforeOwnChange, 'gina-attacker')).body.code).toBe('invalidResetToken');
    expect(await loginStatus(t, 'rec-gina', 'gina-own')).toBe(200);

    // An admin setting the password: the same.
    await forgot(t, 'rec-gina@example.org');
    const beforeAdminSet = tokenOf(await smtp.waitFor('rec-gina@example.org', 2));
    const set = await t.call('PUT', `/api/auth/users/${gina.id}/password`, {
      token: await t.adminToken(),
      body: { newPassword: 'gina-admin' },
    });
    expect(set.status).toBe(200);
    expect((await reset(t, beforeAdminSet, 'gina-attacker')).body.code).toBe('invalidResetToken');
    expect(await loginStatus(t, 'rec-gina', 'gina-attacker')).toBe(401);
    expect(await loginStatus(t, 'rec-gina', 'gina-admin')).toBe(200);
  });

  it('limits reset mails per email address and per client address (429)', async () => {
    await t.member('rec-emil');
    for (let i = 0; i < 3; i++) expect((await forgot(t, 'rec-emil@example.org')).status).toBe(200);
    const limited = await forgot(t, 'Rec-Emil@example.org');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(MESSAGES.tooManyResetRequests);
    await t.runtime.deps.mailer.idle();
    expect(smtp.to('rec-emil@example.org')).toHaveLength(3);
    // Per address: many different addresses from one client.
    let status = 200;
    for (let i = 0; i < 25 && status === 200; i++) status = (await forgot(t, `spray${i}@example.org`)).status;
    expect(status).toBe(429);
  });
});

describe('admin digest', () => {
  let smtp: Inbox;
  let t: TestApp;
  let digest: AdminDigest;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://club.example' });
    const admin = await t.call('GET', '/api/auth/profile', { token: await t.adminToken() });
    const changed = await t.call('PUT', `/api/auth/users/${admin.body.user.id}`, {
      token: await t.adminToken(),
      body: { email: 'boss@club.example', language: 'en' },
    });
    expect(changed.status).toBe(200);
    // The app's digest waits 15 minutes; this one, subscribed the same way (its job replaces the app's), a fraction of a second.
    t.runtime.deps.adminDigest.stop();
    digest = AdminDigest.subscribedTo(t.runtime.deps.store, t.runtime.deps.mailer, t.runtime.deps.config, t.runtime.jobs, 400);
  });
  afterAll(async () => {
    await t.runtime.deps.mailer.idle();
    await t.close();
    await smtp.close();
  });

  it('two registrations within the window → one mail to the admin', async () => {
    for (const name of ['digest-one', 'digest-two'])
      expect((await register(t, name, { password: 'pass-word' })).status).toBe(201);
    expect(smtp.to('boss@club.example')).toHaveLength(0);
    const mail = await smtp.waitFor('boss@club.example');
    expect(mail.subject).toMatch(/2 new task/);
    expect(mail.text).toContain('New registration: digest-one (digest-one@example.org)');
    expect(mail.text).toContain('New registration: digest-two (digest-two@example.org)');
    expect(mail.text).toContain('https://club.example/admin/tasks');
    // A registration after that digest opens a window of its own, and its digest is the next mail: a
    // second digest of the first window, started earlier, would have come before it.
    expect((await register(t, 'digest-three', { password: 'pass-word' })).status).toBe(201);
    const next = await smtp.waitFor('boss@club.example', 2);
    await t.runtime.deps.mailer.idle();
    expect(next.text).toContain('New registration: digest-three (digest-three@example.org)');
    expect(next.text).not.toContain('digest-one');
    expect(smtp.to('boss@club.example')).toHaveLength(2);
    // Members get no digest.
    expect(smtp.mails).toHaveLength(2);
    expect(digest.windowMs).toBe(400);
  });
});
