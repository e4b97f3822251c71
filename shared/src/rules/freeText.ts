import type { CoreMessageCode } from '../messages.js';
import type { RuleResult } from './result.js';

/*
 * Free text (docs/architecture.md, "Rules once"): every text a person types — event titles,
 * locations, descriptions, ticket buyers, comments, guest names, stadium fields, price category
 * names, transport names and departure places, the team configuration's names — and every text
 * the fixture import takes from the feed. Like the username rule (rules/usernames.ts) it keeps out
 * characters that are invisible yet change what a reader sees: controls (a NUL, a bell, an escape)
 * and the characters that set the direction of text (an override U+202E turns "gpj.exe" around).
 *
 * - Refused everywhere: C0 controls (U+0000–U+001F) except the line breaks and tabs of multi-line
 *   texts, DEL and the C1 controls (U+007F–U+009F), the bidi embeddings and overrides
 *   (U+202A–U+202E), isolates (U+2066–U+2069), the direction marks LRM, RLM and ALM (U+200E,
 *   U+200F, U+061C: invisible, and they move neighbouring digits and punctuation), and the line and
 *   paragraph separators U+2028/U+2029 (line breaks that are no \n).
 * - Multi-line texts (event descriptions, comments) keep \n and \t; \r\n and a lone \r become \n.
 * - Single-line texts keep none of them: a tab or line break in a title is refused too.
 * - Other invisible format characters stay allowed: the zero-width joiner builds emoji such as 👨‍👩‍👧.
 *
 * Typed text is refused (`checkFreeText`, message 'textHasControlCharacters'): nothing is changed
 * behind the writer's back. Imported text, where nobody can be asked, is cleaned (`cleanFreeText`).
 */

/** Whether a text may span lines (descriptions, comments) or is one line (titles, names, places). */
export type FreeTextKind = 'line' | 'multiline';

const DIRECTION = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
const SEPARATORS = '\\u2028\\u2029';
const REFUSED: Record<FreeTextKind, RegExp> = {
  line: new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F${DIRECTION}${SEPARATORS}]`, 'u'),
  // \t, \n and \r (a line break, normalised to \n) stay.
  multiline: new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${DIRECTION}${SEPARATORS}]`, 'u'),
};
/** What cleaning turns into a space in a single line: tabs, line breaks and the separators. */
const LINE_BREAKING = /[\t\n\v\f\r\u0085\u2028\u2029]/gu;

/** \r\n and a lone \r become \n (the one line break stored). */
export function normaliseLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Why a text may not be stored as it is ('textHasControlCharacters'), or null. */
export function freeTextProblem(text: string, kind: FreeTextKind = 'line'): CoreMessageCode | null {
  return REFUSED[kind].test(text) ? 'textHasControlCharacters' : null;
}

/** A typed text: refused when it has a refused character, else the text (a multi-line one with \n line breaks). */
export function checkFreeText(input: string, kind: FreeTextKind = 'line'): RuleResult<string> {
  const problem = freeTextProblem(input, kind);
  if (problem) return { ok: false, code: problem };
  return { ok: true, value: kind === 'multiline' ? normaliseLineBreaks(input) : input };
}

/**
 * An imported text made storable: refused characters removed (in a single line, tabs and line
 * breaks become spaces), trimmed, and cut to `maxLength` (never inside a surrogate pair), so it
 * passes `checkFreeText` and the length limit of the field it goes into.
 */
export function cleanFreeText(input: string, kind: FreeTextKind, maxLength: number): string {
  let text = normaliseLineBreaks(input);
  if (kind === 'line') text = text.replace(LINE_BREAKING, ' ');
  const refused = new RegExp(REFUSED[kind].source, 'gu');
  text = text.replace(refused, '').trim();
  if (text.length <= maxLength) return text;
  let cut = text.slice(0, maxLength);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trim();
}
