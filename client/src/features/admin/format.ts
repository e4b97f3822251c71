import { formatMoney, type Language } from '@fankurve/shared';
import { errorText, i18next } from '../../i18n/index.js';

const dateFormatters = new Map<Language, Intl.DateTimeFormat>();

/** A stored timestamp (ISO, UTC) as a local date and time: `01.03.2026, 11:00` (de), `01/03/2026, 11:00` (en). */
export function formatTimestamp(value: string, language: Language): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  let formatter = dateFormatters.get(language);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'de-DE', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateFormatters.set(language, formatter);
  }
  return formatter.format(date);
}

/** Euros with two decimals in the language (`18,50 €`, `€18.50`). */
export const formatEuros = (euros: number, language: Language) => formatMoney(Math.round(euros * 100), language);

/** The server's message for a failed call, else the screen's own fallback (SPEC 8). */
export function failureText(error: unknown, fallback: string): string {
  const text = errorText(error);
  return text === i18next.t('errors.generic') ? fallback : text;
}
