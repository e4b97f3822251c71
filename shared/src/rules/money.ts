import type { RuleResult } from './result.js';

/**
 * Euros as a person types them, to integer cents: `18`, `18,5`, `18.50`, `18,50 €`, `€ 18.50`. A
 * comma or a point is the decimal mark; at most two decimals; no sign, no thousands separators.
 * Null for anything else, so `18,555` or `1.000,00` is refused rather than guessed at.
 */
export function parseEuros(text: string): number | null {
  const trimmed = text.trim().replace(/^€\s*/, '').replace(/\s*€$/, '');
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(trimmed);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * The rule behind every money input (client and server): the amount in cents, or why not — more
 * than two decimals is `moneyTooPrecise` (refused, never rounded), anything else that is no amount
 * `moneyInvalid`.
 */
export function checkEuros(text: string): RuleResult<number> {
  const cents = parseEuros(text);
  if (cents !== null) return { ok: true, value: cents };
  const trimmed = text.trim().replace(/^€\s*/, '').replace(/\s*€$/, '');
  return { ok: false, code: /^\d{1,9}[.,]\d{3,}$/.test(trimmed) ? 'moneyTooPrecise' : 'moneyInvalid' };
}

/** Whether a euro amount sent as a JSON number has at most two decimals (12.5 yes, 12.345 no). */
export function hasWholeCents(euros: number): boolean {
  return Math.abs(euros * 100 - Math.round(euros * 100)) < 1e-6;
}

/** Cents as the text of a price input: `1850` → `18.50`. */
export function centsToInputText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** The same, as the REST API's euro amount (two decimals), or null. */
export function parseEurosAmount(text: string): number | null {
  const cents = parseEuros(text);
  return cents === null ? null : cents / 100;
}
