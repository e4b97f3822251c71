/** Money is integer cents inside; the REST edge speaks euros with two decimals. */
export function eurosToCents(euros: number): number {
  return Math.round(euros * 100);
}

export function centsToEuros(cents: number): number {
  return Math.round(cents) / 100;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** `25,50 €` in German, `€25.50` in English. */
export function formatMoney(cents: number, language: string = 'de'): string {
  const locale = language === 'en' ? 'en-GB' : 'de-DE';
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });
    formatters.set(locale, formatter);
  }
  return formatter.format(cents / 100);
}
