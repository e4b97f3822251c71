import { EPC_PAYLOAD_MAX_BYTES, epcAmount, epcPayload, epcPayloadOf, paymentReference } from '@fankurve/shared/rules/girocode';
import { paymentCodeOf } from '@fankurve/shared/rules/paymentCode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loyaltySeasons } from '../src/domain/tickets/loyalty.js';
import { clubAccount } from '../src/domain/club/settings.js';
import { createTestApp, type TestApp } from './helpers.js';

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** No half of a surrogate pair: the text survives a round trip through UTF-8 unchanged. */
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;

describe('the EPC payload (GiroCode)', () => {
  it("matches the standard's own example byte for byte", () => {
    // The example of the EPC's QR code guidelines: 1 euro to the Belgian Red Cross.
    const expected = Buffer.from(
      'BCD\n001\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1\nCHAR\n\nUrgency fund\nSample EPC QR code',
      'utf8',
    );
    const payload = epcPayloadOf({
      version: '001',
      bic: 'BPOTBEB1',
      name: 'Red Cross of Belgium',
      iban: 'BE72000000001616',
      amountCents: 100,
      purpose: 'CHAR',
      structuredReference: '',
      remittance: 'Urgency fund',
      information: 'Sample EPC QR code',
    });
    expect(Buffer.from(payload, 'utf8').equals(expected)).toBe(true);
    expect(payload.split('\n')).toHaveLength(12);
  });

  it("the club's payload is version 002, UTF-8, SCT, without purpose and structured reference, ending at the reference", () => {
    const payload = epcPayload({
      bic: 'BPOTBEB1',
      name: 'Red Cross of Belgium',
      iban: 'BE72000000001616',
      amountCents: 100,
      reference: 'Urgency fund',
    });
    expect(payload).toBe('BCD\n002\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1\n\n\nUrgency fund');
    expect(payload.endsWith('\n')).toBe(false);
  });

  it('leaves the BIC line empty without a BIC, writes the IBAN without spaces and in capitals', () => {
    const payload = epcPayload({
      bic: null,
      name: 'Eiserne Fans e. V.',
      iban: 'de89 3704 0044 0532 0130 00',
      amountCents: 1230,
      reference: 'Fankurve coco: Union – Bayern 14.03.',
    });
    expect(payload.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      '',
      'Eiserne Fans e. V.',
      'DE89370400440532013000',
      'EUR12.3',
      '',
      '',
      'Fankurve coco: Union – Bayern 14.03.',
    ]);
  });

  it('writes amounts with a dot, at most two decimals and no needless zeros, from 0.01 to 999999999.99', () => {
    expect(epcAmount(1)).toBe('EUR0.01');
    expect(epcAmount(5)).toBe('EUR0.05');
    expect(epcAmount(100)).toBe('EUR1');
    expect(epcAmount(1230)).toBe('EUR12.3');
    expect(epcAmount(1234)).toBe('EUR12.34');
    expect(epcAmount(99_999_999_999)).toBe('EUR999999999.99');
    for (const bad of [0, -1, 1.5, 100_000_000_000, Number.NaN]) expect(() => epcAmount(bad)).toThrow(RangeError);
  });

  it('cuts the name to 70 and the reference to 140 characters without breaking a character', () => {
    const name = `${'N'.repeat(69)}😀tail`;
    const reference = `${'r'.repeat(139)}😀tail`;
    const lines = epcPayload({ bic: null, name, iban: 'DE89370400440532013000', amountCents: 100, reference }).split('\n');
    expect(lines[5]).toBe(`${'N'.repeat(69)}😀`);
    expect([...lines[10]!]).toHaveLength(140);
    expect(lines[10]).toBe(`${'r'.repeat(139)}😀`);
    expect(wellFormed(lines[10]!)).toBe(true);
  });

  it('keeps line breaks in a name or reference from shifting the elements', () => {
    const lines = epcPayload({
      bic: '',
      name: 'Eiserne\nFans',
      iban: 'DE89370400440532013000',
      amountCents: 100,
      reference: 'a\r\nb',
    }).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[5]).toBe('Eiserne Fans');
    expect(lines[10]).toBe('a b');
  });

  it('stays within 331 bytes: a reference of umlauts is cut further, the name and IBAN stay whole', () => {
    const name = 'Ü'.repeat(70);
    const payload = epcPayload({
      bic: 'BPOTBEB1XXX',
      name,
      iban: 'DE89370400440532013000',
      amountCents: 99_999_999_999,
      reference: 'ä'.repeat(140),
    });
    expect(utf8Bytes(payload)).toBeLessThanOrEqual(EPC_PAYLOAD_MAX_BYTES);
    const lines = payload.split('\n');
    expect(lines[5]).toBe(name);
    expect(lines[6]).toBe('DE89370400440532013000');
    expect(lines[10]).toMatch(/^ä+$/);
  });
});

describe('the payment reference', () => {
  const coco = { id: '01a1b2c3-0000-7000-8000-000000000001', username: 'coco' };
  const code = paymentCodeOf(coco.id);
  const sepa = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

  it("starts with the member's payment code and names them and the tickets with day and month, in SEPA characters", () => {
    expect(code).toMatch(/^FK[0-9A-HJKMNP-TV-Z]{7}$/);
    expect(
      paymentReference(coco, [
        { event_title: 'Union – Bayern', event_date: '2025-03-14' },
        { event_title: 'Hertha – Union', event_date: '2025-04-02' },
      ]),
    ).toBe(`${code} coco: Union - Bayern 14.03., Hertha - Union 02.04.`);
  });

  it('spells umlauts and other letters out, so banks keep them', () => {
    const reference = paymentReference({ id: coco.id, username: 'Jürgen_Böß' }, [
      { event_title: 'Fortuna Düsseldorf – Union (A) „Flutlicht“ ×', event_date: '2025-03-14' },
    ]);
    expect(reference).toBe(`${code} Juergen-Boess: Fortuna Duesseldorf - Union (A) 'Flutlicht' x 14.03.`);
    expect(reference).toMatch(sepa);
  });

  it('counts several tickets of one event once, with their number', () => {
    const ticket = { event_title: 'Union – Bayern', event_date: '2025-03-14' };
    expect(paymentReference(coco, [ticket, ticket, ticket])).toBe(`${code} coco: 3x Union - Bayern 14.03.`);
  });

  it('without tickets is the member alone', () => {
    expect(paymentReference(coco, [])).toBe(`${code} coco`);
  });

  it('ends with ... after the last ticket that fits in 140 characters', () => {
    const tickets = Array.from({ length: 12 }, (_, i) => ({
      event_title: `Auswärtsspiel Nummer ${i + 1}`,
      event_date: `2025-05-${String(i + 1).padStart(2, '0')}`,
    }));
    const reference = paymentReference(coco, tickets);
    expect(reference.length).toBeLessThanOrEqual(140);
    expect(reference.startsWith(`${code} coco: Auswaertsspiel Nummer 1 01.05., Auswaertsspiel Nummer 2 02.05.`)).toBe(true);
    expect(reference.endsWith(', ...')).toBe(true);
    expect(reference).not.toContain('Nummer 12');
    expect(reference).toMatch(sepa);
  });

  it('cuts a single overlong title and keeps the code', () => {
    const reference = paymentReference(coco, [{ event_title: `${'Ö'.repeat(200)}`, event_date: '2025-03-14' }]);
    expect(reference).toHaveLength(140);
    expect(reference.startsWith(`${code} coco: OeOe`)).toBe(true);
    expect(reference.endsWith('...')).toBe(true);
  });

  it('drops what has no SEPA spelling (an emoji) instead of sending it', () => {
    expect(paymentReference({ id: coco.id, username: 'coco😀' }, [])).toBe(`${code} coco`);
  });
});

describe("the club's account and the loyalty seasons in the team configuration", () => {
  let t: TestApp;
  let admin: string;
  let member: string;
  const db = () => t.runtime.deps.store.db;
  const settings = async () =>
    Object.fromEntries((await db().selectFrom('settings').selectAll().execute()).map((row) => [row.key, row.value]));
  const BASE = { team_id: 553, team_name: '1. FC Union Berlin', site_title: 'Fankurve', theme_color: '#00397D' };
  const save = (extra: Record<string, unknown>, token = admin) =>
    t.call('PUT', '/api/config', { token, body: { ...BASE, ...extra } });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    member = (await t.member('giro-member')).token;
  });
  afterAll(() => t.close());

  it('has no account and two loyalty seasons at first', async () => {
    expect(await clubAccount(db())).toBeNull();
    const res = await t.call('GET', '/api/config', { token: member });
    expect(res.body.config).toMatchObject({ account_holder: null, iban: null, bic: null, loyalty_seasons: 2 });
    expect(await loyaltySeasons(db())).toBe(2);
  });

  it('stores the IBAN in electronic format and answers the account to signed-in users only', async () => {
    const res = await save({
      account_holder: '  Eiserne Fans e. V. ',
      iban: 'de89 3704 0044 0532 0130 00',
      bic: 'coba de ff xxx',
    });
    expect(res.status).toBe(200);
    expect(res.body.config).toMatchObject({
      account_holder: 'Eiserne Fans e. V.',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
    });
    expect(await settings()).toMatchObject({
      account_holder: 'Eiserne Fans e. V.',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
    });
    expect(await clubAccount(db())).toEqual({ holder: 'Eiserne Fans e. V.', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });

    const asMember = await t.call('GET', '/api/config', { token: member });
    expect(asMember.body.config).toMatchObject({ account_holder: 'Eiserne Fans e. V.', iban: 'DE89370400440532013000' });
    expect(asMember.body.config).not.toHaveProperty('auto_import_matches');
    const anonymous = await t.call('GET', '/api/config');
    expect(anonymous.body.config).toMatchObject({ account_holder: null, iban: null, bic: null, site_title: 'Fankurve' });
  });

  it('keeps fields that are left out, and clears them with an empty text or null', async () => {
    await save({ account_holder: 'Eiserne Fans e. V.', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
    expect((await save({})).status).toBe(200);
    expect(await clubAccount(db())).toEqual({ holder: 'Eiserne Fans e. V.', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
    expect((await save({ bic: '' })).status).toBe(200);
    expect(await clubAccount(db())).toEqual({ holder: 'Eiserne Fans e. V.', iban: 'DE89370400440532013000', bic: null });
    expect((await save({ iban: null })).status).toBe(200);
    expect(await clubAccount(db())).toBeNull();
    expect(await settings()).not.toHaveProperty('iban');
    // Without an IBAN the holder may go too.
    expect((await save({ account_holder: '' })).body.config).toMatchObject({ account_holder: null, iban: null, bic: null });
  });

  it('refuses a bad account or loyalty value with its message and changes nothing', async () => {
    await save({ account_holder: 'Eiserne Fans e. V.', iban: 'DE89370400440532013000', bic: null, loyalty_seasons: 3 });
    const before = await settings();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ iban: 'DE89370400440532013001' }, 'ibanInvalid', 'a wrong check digit'],
      [{ iban: 'DE89 3704 0044' }, 'ibanInvalid', 'too short'],
      [{ iban: 'BR1800360305000010009795493C1' }, 'ibanInvalid', 'valid, but no SEPA country'],
      [{ iban: 'x'.repeat(101) }, 'ibanInvalid', 'far too long'],
      [{ iban: 12345 }, 'ibanInvalid', 'no text'],
      [{ bic: 'ABC' }, 'bicInvalid', 'a short BIC'],
      [{ bic: 'COBAXXFF' }, 'bicInvalid', 'no country'],
      [{ account_holder: '' }, 'accountHolderRequired', 'the holder cleared while the IBAN stays'],
      [{ account_holder: null, iban: 'GB33BUKB20201555555555' }, 'accountHolderRequired', 'a new IBAN without holder'],
      [{ account_holder: 'H'.repeat(71) }, 'accountHolderTooLong', 'a holder longer than the GiroCode allows'],
      [{ account_holder: 'Fans\u202Eev' }, 'textHasControlCharacters', 'a direction override'],
      [{ loyalty_seasons: 0 }, 'loyaltySeasonsInvalid', 'zero seasons'],
      [{ loyalty_seasons: 11 }, 'loyaltySeasonsInvalid', 'eleven seasons'],
      [{ loyalty_seasons: 2.5 }, 'loyaltySeasonsInvalid', 'a fraction'],
      [{ loyalty_seasons: -1 }, 'loyaltySeasonsInvalid', 'negative'],
      [{ loyalty_seasons: 'drei' }, 'loyaltySeasonsInvalid', 'a word'],
      [{ loyalty_seasons: true }, 'loyaltySeasonsInvalid', 'a boolean'],
      // One bad field refuses the good ones of the same request.
      [{ site_title: 'Neu', iban: 'DE00' }, 'ibanInvalid', 'a good title beside a bad IBAN'],
    ];
    for (const [extra, code, why] of cases) {
      const res = await save(extra);
      expect(res.status, why).toBe(400);
      expect(res.body.code, why).toBe(code);
      expect(await settings(), why).toEqual(before);
    }
  });

  it('saves the loyalty seasons (also as typed text) for the loyalty points, and null sets the default again', async () => {
    expect((await save({ loyalty_seasons: 5 })).body.config.loyalty_seasons).toBe(5);
    expect(await loyaltySeasons(db())).toBe(5);
    expect((await save({ loyalty_seasons: '10' })).body.config.loyalty_seasons).toBe(10);
    expect((await save({})).body.config.loyalty_seasons).toBe(10);
    expect((await save({ loyalty_seasons: null })).body.config.loyalty_seasons).toBe(2);
    expect(await settings()).not.toHaveProperty('loyalty_seasons');
    expect(await loyaltySeasons(db())).toBe(2);
  });

  it('lets only admins change the account', async () => {
    const before = await settings();
    const res = await save({ iban: 'GB33BUKB20201555555555', account_holder: 'Mallory' }, member);
    expect(res.status).toBe(403);
    expect(await settings()).toEqual(before);
  });
});
