import { describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { checkCharacter, isValidPaymentCode, paymentCodeOf, paymentCodesIn, toSepaText } from '../src/rules/paymentCode.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('the payment code', () => {
  it('is FK, six characters and a check character, the same for the same id', () => {
    const id = uuidv7();
    const code = paymentCodeOf(id);
    expect(code).toMatch(/^FK[0-9A-HJKMNP-TV-Z]{7}$/);
    expect(paymentCodeOf(id)).toBe(code);
    expect(isValidPaymentCode(code)).toBe(true);
  });

  it('differs between the members of a large club (10,000 ids: at most a handful shared)', () => {
    const codes = new Set(Array.from({ length: 10_000 }, () => paymentCodeOf(uuidv7())));
    expect(codes.size).toBeGreaterThan(9_990);
  });

  it('is refused after any single mistyped character and any swap of two neighbours but 0 and Z', () => {
    for (let n = 0; n < 50; n++) {
      const code = paymentCodeOf(uuidv7());
      for (let i = 2; i < code.length; i++) {
        for (const other of ALPHABET) {
          if (other === code[i]) continue;
          expect(isValidPaymentCode(code.slice(0, i) + other + code.slice(i + 1))).toBe(false);
        }
        // Luhn mod N's one blind spot: the first and the last character of the alphabet swapped.
        const blind = [code[i], code[i + 1]].sort().join('') === '0Z';
        if (i + 1 < code.length && code[i] !== code[i + 1] && !blind) {
          const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
          expect(isValidPaymentCode(swapped)).toBe(false);
        }
      }
    }
  });

  it('has a check character computed by Luhn mod 32', () => {
    // 0 0 0 0 1: the rightmost doubled is 2, so the check is 32 - 2 = 30 → 'Y'.
    expect(checkCharacter('00001')).toBe('Y');
    expect(checkCharacter('00000')).toBe('0');
    expect(() => checkCharacter('0000U')).toThrow(RangeError);
  });
});

describe('finding codes in a purpose', () => {
  const code = paymentCodeOf('01a1b2c3-0000-7000-8000-000000000001');
  const spaced = `${code.slice(0, 2)} ${code.slice(2, 5)} ${code.slice(5)}`;

  it.each([
    ['at the start', `${code} coco: Union - Bayern 14.03.`],
    ['in lower case', `${code.toLowerCase()} coco`],
    ['with spaces inside', `Ueberweisung ${spaced} danke`],
    ['wrapped over two lines by the bank', `SVWZ+${code.slice(0, 4)}\n${code.slice(4)} coco`],
    ['after other words, with a dot', `Tickets fuer coco.${code}.`],
  ])('finds it %s', (_where, purpose) => {
    expect(paymentCodesIn(purpose)).toEqual([code]);
  });

  it('reads O as 0 and I or L as 1, as people type them', () => {
    const typed = code.replace(/0/g, 'O').replace(/1/g, 'I');
    expect(paymentCodesIn(`Beitrag ${typed}`)).toEqual([code]);
  });

  it('finds nothing in a purpose without a code or with a mistyped one', () => {
    const wrong = code.slice(0, -1) + (code.endsWith('A') ? 'B' : 'A');
    expect(paymentCodesIn('Miete Oktober')).toEqual([]);
    expect(paymentCodesIn(`FK ${wrong.slice(2)}`)).toEqual([]);
    expect(paymentCodesIn('')).toEqual([]);
  });

  it('names two codes in one purpose once each, in order', () => {
    const other = paymentCodeOf('01a1b2c3-0000-7000-8000-000000000002');
    expect(paymentCodesIn(`${code} und ${other} und ${code}`)).toEqual([code, other]);
  });
});

describe('the SEPA character set', () => {
  it.each([
    ['Jürgen Müller-Lüdenscheidt', 'Juergen Mueller-Luedenscheidt'],
    ['Straße Ärger Öl Übel', 'Strasse Aerger Oel Uebel'],
    ['Union – Bayern — 2×', 'Union - Bayern - 2x'],
    ['Café Niño Łódź', 'Cafe Nino Lodz'],
    ['„Flutlicht“ & Bier!', "'Flutlicht' + Bier."],
    ['weiter…', 'weiter...'],
    ['  viel   Platz \t ', 'viel Platz'],
    ['Fan 😀 Block', 'Fan Block'],
    ['10 €', '10 EUR'],
  ])('%s → %s', (text, sepa) => {
    expect(toSepaText(text)).toBe(sepa);
    expect(toSepaText(text)).toMatch(/^[A-Za-z0-9/\-?:().,'+ ]*$/);
  });
});
