import { MESSAGES, memberImportAnswer } from '@fankurve/shared';
import { MEMBER_IMPORT_MAX_BYTES, MEMBER_IMPORT_MAX_ROWS } from '@fankurve/shared/rules/memberImport';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countRows, createTestApp, type TestApp } from './helpers.js';

/*
 * Members from a spreadsheet (docs/architecture.md, Member import): the preview names each row's
 * problem and writes nothing; the confirmed import creates exactly the rows without one, mails each a
 * link (the password reset's, valid 7 days) over a real local SMTP server, and a second import of the
 * same list creates nothing.
 */

interface Inbox {
  url: string;
  mails: ParsedMail[];
  to(address: string): ParsedMail[];
  waitFor(address: string): Promise<ParsedMail>;
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
    async waitFor(address) {
      await vi.waitFor(
        () => {
          if (to(address).length < 1) throw new Error(`no mail to ${address}`);
        },
        { timeout: 5000, interval: 20 },
      );
      return to(address)[0]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the link in a mail's text. */
function tokenOf(mail: ParsedMail): string {
  const match = /https:\/\/club\.example\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  return match![1]!;
}

const HEADER = 'Benutzername;E-Mail;Sprache;Rolle;Treuepunkte;Notiz';

describe('the member import', () => {
  let smtp: Inbox;
  let t: TestApp;
  let admin: string;
  const importList = (csv: unknown, confirm?: unknown, token: string | null = admin) =>
    t.call('POST', '/api/users/import', { token, body: confirm === undefined ? { csv } : { csv, confirm } });

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://club.example/' });
    admin = await t.adminToken();
    await t.member('imp-exist');
    await t.member('imp-lisa');
  });
  afterAll(async () => {
    await t.runtime.deps.mailer.idle();
    await t.close();
    await smtp.close();
  });

  it('previews every row with its problem and writes nothing', async () => {
    const list = [
      HEADER,
      'imp-anna;imp-anna@example.org;en;admin;5;Vor der App',
      'imp-bernd;imp-bernd@example.org;;;;',
      'Imp-Anna;other-anna@example.org;;;;',
      'imp-carl;IMP-ANNA@example.org;;;;',
      'imp-exist;new-exist@example.org;;;;',
      'imp-someone;IMP-EXIST@example.org;;;;',
      'imp-Iisa;imp-iisa@example.org;;;;',
      'imp-dora;not-an-address;;;;',
      '=HYPERLINK("http://x");imp-eva@example.org;;;;',
      'imp-fritz;imp-fritz@example.org;;;3;@SUMME(A1)',
      'imp-gerd;imp-gerd@example.org;fr;;;',
      'imp-hans;imp-hans@example.org;;boss;;',
      'imp-ida;imp-ida@example.org;;;abc;',
      'imp-jan;imp-jan@example.org;;;2000;',
      'imp-kai;imp-kai@example.org;;;;a note without points',
      ';imp-nobody@example.org;;;;',
      'imp-раul;imp-mixed@example.org;;;;',
      'imp-minus;imp-minus@example.org;Deutsch;Mitglied;-5;Strafe',
      '  ;  ;  ;  ;  ;  ',
      'imp-tab;imp-tab@example.org;\tde;;;',
    ].join('\n');
    const before = await countRows(t, 'users');
    const answer = await t.callTyped(memberImportAnswer, 'POST', '/api/users/import', {
      token: admin,
      body: { csv: list, confirm: false },
    });
    expect(answer.created).toBe(0);
    expect(answer.rows.map((row) => [row.line, row.username, row.problem])).toEqual([
      [2, 'imp-anna', null],
      [3, 'imp-bernd', null],
      [4, 'Imp-Anna', 'memberImportDuplicate'],
      [5, 'imp-carl', 'memberImportDuplicate'],
      [6, 'imp-exist', 'memberImportExisting'],
      [7, 'imp-someone', 'memberImportExisting'],
      [8, 'imp-Iisa', 'memberImportLooksLike'],
      [9, 'imp-dora', 'memberImportEmailInvalid'],
      [10, '=HYPERLINK("http://x")', 'memberImportFormula'],
      [11, 'imp-fritz', 'memberImportFormula'],
      [12, 'imp-gerd', 'memberImportLanguageInvalid'],
      [13, 'imp-hans', 'memberImportRoleInvalid'],
      [14, 'imp-ida', 'loyaltyPointsInvalid'],
      [15, 'imp-jan', 'loyaltyPointsInvalid'],
      [16, 'imp-kai', 'loyaltyPointsInvalid'],
      [17, '', 'memberImportUsernameMissing'],
      [18, 'imp-раul', 'usernameMixedScripts'],
      [19, 'imp-minus', null],
      // line 20 is empty cells only: no row
      [21, 'imp-tab', 'memberImportFormula'],
    ]);
    expect(answer.rows[0]!.email).toBe('imp-anna@example.org');
    for (const row of answer.rows) if (row.problem) expect(MESSAGES[row.problem]).toEqual(expect.any(String));
    expect(await countRows(t, 'users')).toBe(before);
    // A name that looks like a name earlier in the list counts as the same.
    const alike = await importList([HEADER, 'imp-olga;imp-olga@example.org', 'imp-oIga;imp-olga2@example.org'].join('\n'));
    expect(alike.body.rows.map((row: { problem: string | null }) => row.problem)).toEqual([null, 'memberImportDuplicate']);
  });

  it('creates only the valid rows, mails each a link valid for 7 days that sets the password; the same list again creates nothing', async () => {
    const list = [
      HEADER,
      'imp-nora;imp-nora@example.org;en;admin;7;Seit 1990 dabei',
      'imp-otto;imp-otto@example.org;;;;',
      'imp-nora;imp-nora-2@example.org;;;;',
      'imp-pia;no-address;;;;',
      'imp-quirin;imp-quirin@example.org;de;member;-3;',
    ].join('\r\n');
    const before = await countRows(t, 'users');
    const started = Date.now();
    const answer = await importList(list, true);
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(3);
    expect(answer.body.rows.map((row: { problem: string | null }) => row.problem)).toEqual([
      null,
      null,
      'memberImportDuplicate',
      'memberImportEmailInvalid',
      null,
    ]);
    expect(await countRows(t, 'users')).toBe(before + 3);

    const users = await t.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'scope', 'status', 'language', 'must_change_password'])
      .where('username', 'in', ['imp-nora', 'imp-otto', 'imp-quirin', 'imp-pia'])
      .orderBy('username')
      .execute();
    expect(users.map(({ id: _id, ...user }) => ({ ...user, must_change_password: Number(user.must_change_password) }))).toEqual([
      {
        username: 'imp-nora',
        email: 'imp-nora@example.org',
        scope: 'admin',
        status: 'active',
        language: 'en',
        must_change_password: 0,
      },
      {
        username: 'imp-otto',
        email: 'imp-otto@example.org',
        scope: 'user',
        status: 'active',
        language: 'de',
        must_change_password: 0,
      },
      {
        username: 'imp-quirin',
        email: 'imp-quirin@example.org',
        scope: 'user',
        status: 'active',
        language: 'de',
        must_change_password: 0,
      },
    ]);
    const nora = users[0]!;
    const adjustments = await t.db
      .selectFrom('loyalty_adjustments')
      .select(['user_id', 'points', 'note'])
      .where(
        'user_id',
        'in',
        users.map((user) => user.id),
      )
      .orderBy('points')
      .execute();
    expect(adjustments.map(({ points, note }) => [Number(points), note])).toEqual([
      [-3, ''],
      [7, 'Seit 1990 dabei'],
    ]);

    // No password works before the member sets one.
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'imp-nora', password: 'anything' } })).status).toBe(401);

    const mail = await smtp.waitFor('imp-nora@example.org');
    expect(mail.subject).toMatch(/your account is ready/);
    expect(mail.text).toContain('Hello imp-nora');
    expect(mail.text).toContain('valid for 7 days');
    const german = await smtp.waitFor('imp-otto@example.org');
    expect(german.subject).toMatch(/dein Konto ist angelegt/);
    expect(german.text).toContain('7 Tage');
    await smtp.waitFor('imp-quirin@example.org');
    await t.runtime.deps.mailer.idle();
    expect(smtp.to('imp-nora-2@example.org')).toEqual([]);
    expect(smtp.to('no-address')).toEqual([]);

    const links = await t.db
      .selectFrom('password_resets')
      .select(['expires_at', 'created_at'])
      .where('user_id', '=', nora.id)
      .execute();
    expect(links).toHaveLength(1);
    const validMs = Date.parse(links[0]!.expires_at) - started;
    expect(validMs).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(validMs).toBeLessThan(7 * 24 * 3600_000 + 60_000);

    const reset = await t.call('POST', '/api/auth/reset-password', { body: { token: tokenOf(mail), newPassword: 'nora-pass' } });
    expect(reset.status).toBe(200);
    expect((await t.call('POST', '/api/auth/login', { body: { username: 'imp-nora', password: 'nora-pass' } })).status).toBe(200);

    // A forgotten password keeps its one hour.
    await t.call('POST', '/api/auth/forgot-password', { body: { email: 'imp-otto@example.org' } });
    await t.runtime.deps.mailer.idle();
    const otto = users[1]!;
    const ottoLinks = await t.db
      .selectFrom('password_resets')
      .select('expires_at')
      .where('user_id', '=', otto.id)
      .orderBy('expires_at')
      .execute();
    expect(ottoLinks).toHaveLength(2);
    expect(Date.parse(ottoLinks[0]!.expires_at) - Date.now()).toBeLessThan(3600_000 + 60_000);

    const mailsBefore = smtp.mails.length;
    const again = await importList(list, true);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(0);
    expect(again.body.rows.map((row: { problem: string | null }) => row.problem)).toEqual([
      'memberImportExisting',
      'memberImportExisting',
      'memberImportExisting',
      'memberImportEmailInvalid',
      'memberImportExisting',
    ]);
    expect(await countRows(t, 'users')).toBe(before + 3);
    await t.runtime.deps.mailer.idle();
    expect(smtp.mails.length).toBe(mailsBefore);
  });

  it('reads commas, quotes, a byte order mark and English headers in any order', async () => {
    const list =
      '\uFEFFe-mail,Username,Loyalty adjustment,Note,Role,Language\n"imp-ulla@example.org","imp-ulla","4","Auswärts, immer","member","EN"\n';
    const answer = await importList(list);
    expect(answer.status).toBe(200);
    expect(answer.body.rows).toEqual([{ line: 2, username: 'imp-ulla', email: 'imp-ulla@example.org', problem: null }]);
    const created = await importList(list, true);
    expect(created.body.created).toBe(1);
    const row = await t.db
      .selectFrom('users as u')
      .innerJoin('loyalty_adjustments as l', 'l.user_id', 'u.id')
      .select(['u.language', 'l.points', 'l.note'])
      .where('u.username', '=', 'imp-ulla')
      .executeTakeFirstOrThrow();
    expect([row.language, Number(row.points), row.note]).toEqual(['en', 4, 'Auswärts, immer']);
  });

  it(`takes ${MEMBER_IMPORT_MAX_ROWS.toLocaleString('en')} rows and refuses one more; a body over the limit is 413`, async () => {
    const rows = (count: number) =>
      [HEADER, ...Array.from({ length: count }, (_, i) => `bulk-${i};bulk-${i}@example.org;de;member;1;Import`)].join('\n');
    const full = await importList(rows(MEMBER_IMPORT_MAX_ROWS));
    expect(full.status).toBe(200);
    expect(full.body.rows).toHaveLength(MEMBER_IMPORT_MAX_ROWS);
    expect(full.body.rows.every((row: { problem: string | null }) => row.problem === null)).toBe(true);

    const before = await countRows(t, 'users');
    const over = await importList(rows(MEMBER_IMPORT_MAX_ROWS + 1), true);
    expect(over).toEqual({
      status: 400,
      body: { success: false, code: 'memberImportTooManyRows', message: MESSAGES.memberImportTooManyRows },
    });
    const large = await importList('x'.repeat(MEMBER_IMPORT_MAX_BYTES + 10), true);
    expect(large.status).toBe(413);
    expect(large.body).toMatchObject({ code: 'memberImportTooLarge', message: MESSAGES.memberImportTooLarge });
    expect(await countRows(t, 'users')).toBe(before);
  });

  it('answers bad input 400 with its reason and changes nothing', async () => {
    const before = await countRows(t, 'users');
    const cases: [unknown, string][] = [
      [{ confirm: true }, 'invalidInput'],
      [{ csv: 5, confirm: true }, 'invalidInput'],
      [{ csv: `${HEADER}\nimp-v;imp-v@example.org`, confirm: 'yes' }, 'invalidInput'],
      [{ csv: `${HEADER}\nimp-v;imp-v@example.org`, confirm: true, extra: 1 }, 'invalidInput'],
      [{ csv: 'Vorname;Nachname\nVera;V', confirm: true }, 'memberImportHeaderInvalid'],
      [{ csv: 'Benutzername;Sprache\nimp-v;de', confirm: true }, 'memberImportHeaderInvalid'],
      [{ csv: '', confirm: true }, 'memberImportEmpty'],
      [{ csv: `${HEADER}\n;;;;;\n`, confirm: true }, 'memberImportEmpty'],
      [{ csv: 'username,email\n"imp-v,imp-v@example.org\n', confirm: true }, 'memberImportUnreadable'],
    ];
    for (const [body, code] of cases) {
      const answer = await t.call('POST', '/api/users/import', { token: admin, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code, JSON.stringify(body)).toBe(code);
    }
    const malformed = await t.call('POST', '/api/users/import', { token: admin, raw: '{"csv": "Benutzername;E-Mail' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'malformedJson']);
    expect(await countRows(t, 'users')).toBe(before);
  });

  it('is for admins only', async () => {
    const member = await t.member('imp-member');
    const list = `${HEADER}\nimp-w;imp-w@example.org`;
    expect((await importList(list, true, null)).status).toBe(401);
    expect((await importList(list, true, member.token)).status).toBe(403);
    expect(await t.db.selectFrom('users').select('id').where('username', '=', 'imp-w').execute()).toEqual([]);
  });
});
