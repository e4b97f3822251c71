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

/** Cents as the text of a price input: `1850` → `18.50`. */
export function centsToInputText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** The same, as the REST API's euro amount (two decimals), or null. */
export function parseEurosAmount(text: string): number | null {
  const cents = parseEuros(text);
  return cents === null ? null : cents / 100;
}
