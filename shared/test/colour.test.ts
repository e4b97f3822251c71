import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  DARK_TEXT,
  isHexColour,
  LIGHT_TEXT,
  readableOn,
  relativeLuminance,
  shade,
  textColourOn,
} from '../src/rules/colour.js';
import { checkTeamConfig, checkTeamId, SITE_TITLE_MAX_LENGTH } from '../src/rules/siteConfig.js';

describe('theme colour and contrast (WCAG 2)', () => {
  it('accepts exactly # and six hex digits', () => {
    for (const colour of ['#00397D', '#c8102e', '#FFFFFF', '#000000']) expect(isHexColour(colour), colour).toBe(true);
    for (const colour of ['00397D', '#00397', '#00397DD', '#GGGGGG', 'red', '#abc', ' #00397D', '', null, 0x00397d]) {
      expect(isHexColour(colour), String(colour)).toBe(false);
    }
  });

  it('computes relative luminance and contrast ratios as WCAG defines them', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(relativeLuminance('#808080')).toBeCloseTo(0.2159, 4);
    expect(contrastRatio('#000000', '#FFFFFF')).toBe(21);
    expect(contrastRatio('#FFFFFF', '#000000')).toBe(21);
    expect(contrastRatio('#00397D', '#00397D')).toBe(1);
    // Published pairs: #767676 on white is the lightest grey that passes AA (4.54:1).
    expect(contrastRatio('#767676', '#FFFFFF')).toBeCloseTo(4.54, 2);
  });

  it('chooses white on dark colours and dark text on light ones', () => {
    expect(textColourOn('#00397D')).toBe(LIGHT_TEXT); // the default club blue
    expect(textColourOn('#C8102E')).toBe(LIGHT_TEXT); // red
    expect(textColourOn('#000000')).toBe(LIGHT_TEXT);
    expect(textColourOn('#FFE000')).toBe(DARK_TEXT); // yellow
    expect(textColourOn('#FFFFFF')).toBe(DARK_TEXT);
    expect(textColourOn('#7FFFD4')).toBe(DARK_TEXT); // aquamarine
  });

  it('keeps at least 4.5:1 between the bar and its text for every colour', () => {
    let worst = 21;
    for (let r = 0; r < 256; r += 15) {
      for (let g = 0; g < 256; g += 5) {
        for (let b = 0; b < 256; b += 15) {
          const colour = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          worst = Math.min(worst, contrastRatio(colour, textColourOn(colour)));
        }
      }
    }
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });

  it('darkens a colour for hover and for text on the light page', () => {
    expect(shade('#FFFFFF', 0.5)).toBe('#808080');
    expect(shade('#00397D', 0)).toBe('#00397d');
    expect(readableOn('#00397D', '#F3F5F9')).toBe('#00397d');
    const yellow = readableOn('#FFE000', '#F3F5F9');
    expect(contrastRatio(yellow, '#F3F5F9')).toBeGreaterThanOrEqual(4.5);
    expect(relativeLuminance(yellow)).toBeLessThan(relativeLuminance('#FFE000'));
    expect(contrastRatio(readableOn('#FFFFFF', '#FFFFFF'), '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('team configuration rules', () => {
  it('takes a positive whole team id, also as typed text', () => {
    expect(checkTeamId(553)).toEqual({ ok: true, value: 553 });
    expect(checkTeamId(' 80 ')).toEqual({ ok: true, value: 80 });
    for (const bad of [0, -1, 1.5, '1.5', '1e3', '', 'abc', null, undefined, 2 ** 31, Number.NaN]) {
      expect(checkTeamId(bad), String(bad)).toEqual({ ok: false, code: 'teamIdInvalid' });
    }
  });

  it('trims the texts and names every field that is wrong', () => {
    expect(checkTeamConfig({ team_id: '553', team_name: ' Union ', site_title: ' Fankurve ', theme_color: '#00397D' })).toEqual({
      ok: true,
      value: { team_id: 553, team_name: 'Union', site_title: 'Fankurve', theme_color: '#00397D' },
    });
    expect(
      checkTeamConfig({ team_id: 1, team_name: ' ', site_title: 'x'.repeat(SITE_TITLE_MAX_LENGTH + 1), theme_color: '#12345' }),
    ).toEqual({
      ok: false,
      code: 'teamNameRequired',
      problems: { team_name: 'teamNameRequired', site_title: 'siteTitleTooLong', theme_color: 'themeColorInvalid' },
    });
    // Characters, not UTF-16 units: 60 emoji are a title of 60.
    expect(checkTeamConfig({ team_id: 1, team_name: 'U', site_title: '⚽'.repeat(60), theme_color: '#000000' }).ok).toBe(true);
  });
});
