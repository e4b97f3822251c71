import { describe, expect, it } from 'vitest';
import {
  checkCommentText,
  checkFreeText,
  checkGuestName,
  cleanFreeText,
  createEventInput,
  freeTextProblem,
  normaliseLineBreaks,
  stadiumInput,
} from '../src/index.js';
import { checkTeamConfig } from '../src/rules/siteConfig.js';

/* The free-text rule (rules/freeText.ts) and the places that apply it. */

/** Every character the rule keeps out of every text, by name. */
const REFUSED: [string, string][] = [
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['ESC', '\u001B'],
  ['vertical tab', '\u000B'],
  ['DEL', '\u007F'],
  ['C1 control (NEL)', '\u0085'],
  ['C1 control (CSI)', '\u009B'],
  ['LRE', '\u202A'],
  ['RLE', '\u202B'],
  ['PDF', '\u202C'],
  ['LRO', '\u202D'],
  ['RLO', '\u202E'],
  ['LRI', '\u2066'],
  ['RLI', '\u2067'],
  ['FSI', '\u2068'],
  ['PDI', '\u2069'],
  ['LRM', '\u200E'],
  ['RLM', '\u200F'],
  ['ALM', '\u061C'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
];

const REFUSAL = { ok: false, code: 'textHasControlCharacters' };

describe('checkFreeText', () => {
  it.for(REFUSED)('refuses %s in one line and in several', ([, char]) => {
    for (const text of [`${char}Union`, `Uni${char}on`, `Union${char}`, char]) {
      expect(checkFreeText(text, 'line')).toEqual(REFUSAL);
      expect(checkFreeText(text, 'multiline')).toEqual(REFUSAL);
      expect(freeTextProblem(text)).toBe('textHasControlCharacters');
    }
  });

  it('keeps line breaks and tabs in multi-line texts only, with \\r\\n and a lone \\r stored as \\n', () => {
    expect(checkFreeText('Treffpunkt:\r\n\tTor 3\rBahnhof\nZug', 'multiline')).toEqual({
      ok: true,
      value: 'Treffpunkt:\n\tTor 3\nBahnhof\nZug',
    });
    for (const text of ['Union\nBerlin', 'Union\tBerlin', 'Union\r\nBerlin', 'Union\rBerlin']) {
      expect(checkFreeText(text, 'line'), JSON.stringify(text)).toEqual(REFUSAL);
    }
    expect(normaliseLineBreaks('a\r\n\r\nb\r')).toBe('a\n\nb\n');
  });

  it('allows ordinary text of every script, emoji with joiners, and formula-looking text', () => {
    for (const text of [
      'Stadion An der Alten Försterei',
      'Ζήτω · Слава · שלום · مرحبا · 東京',
      'Familie 👨‍👩‍👧 im Block',
      '=HYPERLINK("http://x","y")',
      'Preis: 18,50 € (ermäßigt)',
    ]) {
      expect(checkFreeText(text, 'line'), text).toEqual({ ok: true, value: text });
    }
  });
});

describe('cleanFreeText (imported text)', () => {
  it('removes refused characters, turns tabs and line breaks into spaces in one line, and trims', () => {
    const hostile = REFUSED.map(([, char]) => char).join('');
    expect(cleanFreeText(`${hostile}1. FC\tUnion\r\nBerlin${hostile}`, 'line', 200)).toBe('1. FC Union Berlin');
    expect(cleanFreeText('\u0000\u0000\u0000', 'line', 200)).toBe('');
    expect(cleanFreeText('Ab\u0007fahrt\r\n\tum 9', 'multiline', 200)).toBe('Abfahrt\n\tum 9');
  });

  it('cuts to the limit, never inside a surrogate pair, and the result passes the typed rule', () => {
    expect(cleanFreeText('x'.repeat(5000), 'line', 200)).toHaveLength(200);
    expect(cleanFreeText(`${'x'.repeat(199)}⚽⚽`, 'line', 200)).toBe(`${'x'.repeat(199)}⚽`);
    const emoji = `${'x'.repeat(199)}😀`;
    expect(cleanFreeText(emoji, 'line', 200)).toBe('x'.repeat(199));
    const cleaned = cleanFreeText(`\u202E${'Ü'.repeat(300)}\u0000`, 'line', 200);
    expect(checkFreeText(cleaned, 'line')).toEqual({ ok: true, value: cleaned });
  });
});

describe('the places that apply the rule', () => {
  it('guest names and comments (also pushed by devices) refuse them', () => {
    expect(checkGuestName('Max\u202EMustermann')).toEqual(REFUSAL);
    expect(checkGuestName('  Max Mustermann  ')).toEqual({ ok: true, value: 'Max Mustermann' });
    expect(checkCommentText('Tor!\u0000')).toEqual(REFUSAL);
    expect(checkCommentText(' Tor!\r\nNochmal ')).toEqual({ ok: true, value: 'Tor!\nNochmal' });
  });

  it("the team configuration's names refuse them", () => {
    const config = { team_id: 80, team_name: 'Union\u2066', site_title: 'Eiserne', theme_color: '#dd0000' };
    expect(checkTeamConfig(config)).toMatchObject({ ok: false, code: 'textHasControlCharacters' });
  });

  it('the REST schemas refuse them in every text field and normalise a description', () => {
    const event = { title: 'Union (H)', date: '2030-03-01 15:30', location: 'Berlin' };
    for (const field of ['title', 'location', 'ticket_buyer', 'description'] as const) {
      const parsed = createEventInput.safeParse({ ...event, [field]: 'a\u202Eb' });
      expect(parsed.error?.issues[0]?.message, field).toBe('textHasControlCharacters');
    }
    expect(createEventInput.parse({ ...event, description: 'Zeile 1\r\nZeile 2' }).description).toBe('Zeile 1\nZeile 2');
    const stadium = { team_name: 'Union', stadium_name: 'Alte Försterei', city: 'Berlin' };
    for (const field of ['team_name', 'stadium_name', 'city', 'address'] as const) {
      const parsed = stadiumInput.safeParse({ ...stadium, [field]: 'a\u0007b' });
      expect(parsed.error?.issues[0]?.message, field).toBe('textHasControlCharacters');
    }
  });
});
