import { LEGAL_TEXT_MAX_LENGTH } from '@fankurve/shared/rules/siteConfig';
import { MESSAGES } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * The imprint and the privacy notice (docs/architecture.md, Team configuration and theme): plain
 * text in the team configuration, written by an admin with PUT /api/config, read by everyone (also
 * anonymously) with GET /api/config; left out unchanged, '' or null cleared; at most 20,000 characters.
 */

const TEAM = { team_id: 553, team_name: '1. FC Union Berlin', site_title: 'Fankurve', theme_color: '#00397D' };
const IMPRINT =
  'Fanclub Eiserne Kurve e.V.\nAn der Alten Försterei 1\n12555 Berlin\n\nKontakt: mailto:vorstand@example.org\nhttps://example.org/verein';
const PRIVACY = 'Wir speichern deinen Namen und deine E-Mail-Adresse.\r\n\tFragen: datenschutz@example.org';

describe('imprint and privacy notice', () => {
  let t: TestApp;
  let admin: string;
  const put = (fields: Record<string, unknown>, token = admin) =>
    t.call('PUT', '/api/config', { token, body: { ...TEAM, ...fields } });
  const read = async (token?: string) => (await t.call('GET', '/api/config', { token })).body.config;
  const stored = async () =>
    Object.fromEntries(
      (await t.db.selectFrom('settings').selectAll().where('key', 'in', ['imprint', 'privacy_notice']).execute()).map((row) => [
        row.key,
        row.value,
      ]),
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it('are null until written, for everyone', async () => {
    expect(await read()).toMatchObject({ imprint: null, privacy_notice: null });
  });

  it('round trip: saved trimmed with \\n line breaks, read by anonymous callers, members and admins alike', async () => {
    const res = await put({ imprint: `  ${IMPRINT}\n\n`, privacy_notice: PRIVACY });
    expect(res.status).toBe(200);
    const expected = { imprint: IMPRINT, privacy_notice: PRIVACY.replace('\r\n', '\n') };
    expect(res.body.config).toMatchObject(expected);
    const member = await t.member('legal-reader');
    expect(await read()).toMatchObject(expected);
    expect(await read(member.token)).toMatchObject(expected);
    expect(await read(admin)).toMatchObject(expected);
  });

  it('keeps a text that is left out, and clears one sent as empty or null', async () => {
    await put({ imprint: IMPRINT, privacy_notice: PRIVACY });
    expect((await put({})).body.config).toMatchObject({ imprint: IMPRINT });
    expect((await put({ imprint: '' })).body.config).toMatchObject({ imprint: null, privacy_notice: expect.any(String) });
    expect((await put({ privacy_notice: null })).body.config).toMatchObject({ imprint: null, privacy_notice: null });
    expect((await put({ imprint: ' \n ' })).body.config.imprint).toBeNull();
    expect(await stored()).toEqual({});
  });

  it('takes 20,000 characters (counted as characters, not UTF-16 units) and refuses one more, storing nothing', async () => {
    const longest = '⚽'.repeat(LEGAL_TEXT_MAX_LENGTH - 1) + 'x';
    expect((await put({ imprint: longest })).status).toBe(200);
    expect((await read()).imprint).toBe(longest);
    await put({ imprint: 'kurz', privacy_notice: 'kurz' });
    for (const [field, code] of [
      ['imprint', 'imprintTooLong'],
      ['privacy_notice', 'privacyNoticeTooLong'],
    ] as const) {
      const before = await stored();
      const res = await put({ [field]: 'a'.repeat(LEGAL_TEXT_MAX_LENGTH + 1), site_title: 'Nicht gespeichert' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code, message: MESSAGES[code] });
      expect(await stored()).toEqual(before);
      expect((await read()).site_title).toBe('Fankurve');
    }
    // Far beyond: refused by the request's shape with the same message.
    const huge = await put({ privacy_notice: 'a'.repeat(150_000) });
    expect(huge.body.code).toBe('privacyNoticeTooLong');
  });

  it('refuses control and direction characters, and a text that is no text', async () => {
    for (const [value, code] of [
      ['Impressum\u0007', 'textHasControlCharacters'],
      ['Impressum \u202Egpj.exe', 'textHasControlCharacters'],
      [42, 'invalidInput'],
    ] as const) {
      const res = await put({ imprint: value });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
    }
  });

  it('are the admins’ to write', async () => {
    const member = await t.member('legal-writer');
    const res = await put({ imprint: 'Übernommen' }, member.token);
    expect(res.status).toBe(403);
    expect((await t.call('PUT', '/api/config', { body: { ...TEAM, imprint: 'x' } })).status).toBe(401);
    expect((await read()).imprint).not.toBe('Übernommen');
  });
});
