import { describe, expect, it } from 'vitest';
import { csvAmount, csvField, guardCsvText, toCsv } from '../src/rules/csv.js';

describe('the CSV formula guard', () => {
  it.each(['=', '+', '-', '@', '\t', '\r'])('puts an apostrophe before a text cell starting with %j', (start) => {
    const text = `${start}HYPERLINK("http://x","y")`;
    expect(guardCsvText(text)).toBe(`'${text}`);
    expect(csvField(text).replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
  });

  it.each([
    ['a full-width equals sign', '\uFF1DHYPERLINK("http://x","y")'],
    ['a full-width plus and minus', '\uFF0B1\uFF0D2'],
    ['a small equals sign', '\uFE66SUM(A1)'],
    ['a zero-width space before =', '\u200B=HYPERLINK("http://x","y")'],
    ['a zero-width joiner and a byte order mark before =', '\u200D\uFEFF=1+1'],
    ['a right-to-left mark before @', '\u200F@SUM(A1)'],
    ['a soft hyphen before -', '\u00AD-2+3'],
    ['a combining grapheme joiner and a variation selector before =', '\u034F\uFE0F=1+1'],
    ['a Hangul filler before a full-width =', '\u3164\uFF1D1+1'],
    ['a word joiner before +', '\u2060+1'],
  ])('guards %s: a spreadsheet reads it as a formula too', (_name, text) => {
    expect(guardCsvText(text)).toBe(`'${text}`);
  });

  it('leaves other texts as they are, and one in the middle of a text', () => {
    for (const text of ['Jürgen', 'a=b', 'x-y@z.de', ' =1', "'quoted", '', 'Zoë\u200B=', '\uFF21bc'])
      expect(guardCsvText(text)).toBe(text);
  });

  it('writes amounts as numbers, a negative one too, never guarded', () => {
    expect(csvField(csvAmount(1850))).toBe('18,50');
    expect(csvField(csvAmount(-500))).toBe('-5,00');
    expect(csvField(csvAmount(5))).toBe('0,05');
    expect(csvField(csvAmount(0))).toBe('0,00');
    // The same text as a text cell is guarded: the type tells them apart.
    expect(csvField('-5,00')).toBe("'-5,00");
    expect(csvField(-3)).toBe('-3');
  });

  it('quotes separators, quotes and line breaks after guarding', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('\r\nx')).toBe(`"'\r\nx"`);
    expect(csvField(null)).toBe('');
  });

  it('builds a file: BOM, header, rows, CRLF; header and every text cell guarded', () => {
    const file = toCsv(
      ['Name', '=Total'],
      [
        ['@admin', csvAmount(-1234)],
        ['Olaf', 7],
      ],
    );
    expect(file).toBe("\uFEFFName;'=Total\r\n'@admin;-12,34\r\nOlaf;7\r\n");
  });
});
