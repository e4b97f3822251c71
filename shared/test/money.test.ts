import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/registry.js';
import { centsToEuros, checkEuros, eurosToCents, formatMoney, hasWholeCents } from '../src/rules/money.js';
import { euros } from '../src/schemas/common.js';

/** Intl puts a no-break space before the euro sign in German; compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('eurosToCents / centsToEuros', () => {
  it('rounds float euros to whole cents', () => {
    expect(eurosToCents(19.99)).toBe(1999);
    expect(eurosToCents(0.1 + 0.2)).toBe(30);
    expect(eurosToCents(25.5)).toBe(2550);
    expect(eurosToCents(1.1)).toBe(110);
    expect(eurosToCents(4.35)).toBe(435);
    expect(eurosToCents(0)).toBe(0);
    expect(eurosToCents(100000)).toBe(10_000_000);
  });

  it('round-trips two-decimal amounts', () => {
    for (const euros of [0.01, 0.05, 1.15, 9.99, 19.99, 25.5, 33.33, 1234.56]) {
      expect(centsToEuros(eurosToCents(euros))).toBe(euros);
    }
    expect(centsToEuros(2550)).toBe(25.5);
  });
});

describe('formatMoney', () => {
  it('formats German like 25,50 € (also the default)', () => {
    expect(plain(formatMoney(2550, 'de'))).toBe('25,50 €');
    expect(plain(formatMoney(2550))).toBe('25,50 €');
    expect(plain(formatMoney(0, 'de'))).toBe('0,00 €');
    expect(plain(formatMoney(123456, 'de'))).toBe('1.234,56 €');
  });

  it('formats English like €25.50', () => {
    expect(formatMoney(2550, 'en')).toBe('€25.50');
    expect(formatMoney(123456, 'en')).toBe('€1,234.56');
    expect(formatMoney(1999, 'en')).toBe('€19.99');
  });

  it('falls back to German for an unknown language', () => {
    expect(plain(formatMoney(500, 'fr'))).toBe('5,00 €');
  });
});

describe('checkEuros and the euro schema: one rule for every money input, client and server', () => {
  it('accepts 18,5 · 18,50 · 18.50 · 18,50 € as 1850 cents', () => {
    for (const text of ['18,5', '18,50', '18.50', '18,50 €', '€ 18.50', ' 18 ']) {
      expect(checkEuros(text), text).toEqual({ ok: true, value: text.trim() === '18' ? 1800 : 1850 });
    }
  });

  it('refuses more than two decimals as such, and anything else as no amount', () => {
    for (const text of ['18,555', '0.001', '0,001', '18.5555', '1.234,567', '1,234.567']) {
      expect(checkEuros(text), text).toEqual({ ok: false, code: 'moneyTooPrecise' });
    }
    for (const text of ['', 'abc', '-5', '+5', '18,', ',5', '1e3', '18 50', '1.234.56', '1,234,56', '12.34.56', '1.23.456']) {
      expect(checkEuros(text), text).toEqual({ ok: false, code: 'moneyInvalid' });
    }
    expect(checkEuros('1234567890')).toEqual({ ok: false, code: 'moneyInvalid' });
  });

  it('accepts thousands separators as Germans and the English type them', () => {
    const amounts: [string, number][] = [
      ['1.234,56', 123456],
      ['1,234.56', 123456],
      ['1234,56', 123456],
      ['1234.56', 123456],
      ['1.234.567,8', 123456780],
      ['1,234,567', 123456700],
      ['1.000,00 €', 100000],
      ['€ 1,000.00', 100000],
    ];
    for (const [text, cents] of amounts) expect(checkEuros(text), text).toEqual({ ok: true, value: cents });
  });

  it('reads a lone point before three digits as German thousands, a lone comma before three digits as three decimals', () => {
    // "1.234": German 1.234,00 € — its English reading would have three decimals, no amount at all.
    expect(checkEuros('1.234')).toEqual({ ok: true, value: 123400 });
    expect(checkEuros('12.500')).toEqual({ ok: true, value: 1250000 });
    // "1,234" / "18,555": a German decimal comma with three decimals, refused rather than multiplied by 1000.
    expect(checkEuros('1,234')).toEqual({ ok: false, code: 'moneyTooPrecise' });
    expect(checkEuros('18,555')).toEqual({ ok: false, code: 'moneyTooPrecise' });
    // English thousands need decimals or a second group.
    expect(checkEuros('1,234.00')).toEqual({ ok: true, value: 123400 });
  });

  it('the REST schema refuses the same amounts the inputs refuse', () => {
    const schema = euros('priceInvalid');
    expect(schema.safeParse(18.5).success).toBe(true);
    expect(schema.safeParse(0.07).success).toBe(true);
    expect(schema.safeParse(19.99).success).toBe(true);
    const precise = schema.safeParse(12.345);
    expect(precise.success).toBe(false);
    expect(precise.error?.issues[0]?.message).toBe('moneyTooPrecise');
    expect(schema.safeParse(-1).error?.issues[0]?.message).toBe('priceInvalid');
    expect(hasWholeCents(1850 / 100)).toBe(true);
  });
});

describe("the money message gives an example in the reader's notation", () => {
  const translations = (language: string) =>
    JSON.parse(fs.readFileSync(new URL(`../../client/src/i18n/${language}.json`, import.meta.url), 'utf8')) as {
      serverMessages: Record<string, string>;
    };

  it("English (the server's message and the app) says 18.50, German 18,50", () => {
    expect(MESSAGES.moneyInvalid).toBe('Please enter an amount in euros, for example 18.50');
    expect(translations('en').serverMessages.moneyInvalid).toBe(MESSAGES.moneyInvalid);
    expect(translations('de').serverMessages.moneyInvalid).toBe('Bitte gib einen Betrag in Euro ein, zum Beispiel 18,50');
  });
});
