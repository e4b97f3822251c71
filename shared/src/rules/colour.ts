/*
 * The club's theme colour ('#' and six hexadecimal digits) and the text that stays readable
 * on it, by the contrast of WCAG 2.x (relative luminance, contrast ratio). The server checks the
 * colour; the client's form checks the same and paints the nav bar, buttons and links with it.
 */

/** '#' followed by six hexadecimal digits (docs/product.md, Input rules). */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

export const isHexColour = (value: unknown): value is string => typeof value === 'string' && HEX_COLOUR.test(value);

/** Light text on the theme colour. */
export const LIGHT_TEXT = '#ffffff';
/**
 * Dark text on the theme colour: black. With it the better of the two always reaches 4.58:1 (WCAG AA
 * for normal text), whatever the colour; a softer dark (the app's --text) would fall to 4:1 on a
 * mid grey-green.
 */
export const DARK_TEXT = '#000000';

/** WCAG AA for normal text. */
export const READABLE_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** WCAG relative luminance of a `#rrggbb` colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rrggbb` colours, 1 to 21 (order does not matter). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour for a surface painted in `background`: white or the dark text, whichever has the
 * higher contrast on it (a dark blue gets white, a yellow gets dark text).
 */
export function textColourOn(background: string): string {
  return contrastRatio(LIGHT_TEXT, background) >= contrastRatio(DARK_TEXT, background) ? LIGHT_TEXT : DARK_TEXT;
}

/** Mixes a `#rrggbb` colour with black (`amount` 0 to 1): darker variants for hover and text. */
export function shade(hex: string, amount: number): string {
  return `#${channels(hex)
    .map((channel) => Math.round(channel * (1 - amount)))
    .map((channel) => channel.toString(16).padStart(2, '0'))
    .join('')}`;
}

/**
 * The colour itself when it reads on `background` (contrast at least `ratio`), else the first
 * darker shade of it (in steps of 5 %) that does: the theme colour as link and tab text on the
 * page, however light the club's colour is.
 */
export function readableOn(colour: string, background: string, ratio = READABLE_CONTRAST): string {
  for (let step = 0; step <= 20; step++) {
    const candidate = shade(colour, step / 20);
    if (contrastRatio(candidate, background) >= ratio) return candidate;
  }
  return '#000000';
}
