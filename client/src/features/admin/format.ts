import { eurosToCents, formatMoney, type Language } from '@fankurve/shared';
import { formatInstant } from '../../i18n/dates.js';
import { errorText, i18next } from '../../i18n/index.js';

/** A stored timestamp (ISO, UTC) as a local date and time: `01.03.2026, 11:00` (de), `1 Mar 2026, 11:00` (en). */
export const formatTimestamp = (value: string, language: Language): string => formatInstant(value, language);

/** A request's ticket price: euros with two decimals (`18,50 €`, `€18.50`), or "price open" when not known yet. */
export function requestPriceText(request: { price: number; price_open: boolean }, language: Language): string {
  return request.price_open ? i18next.t('tickets.priceOpen') : formatMoney(eurosToCents(request.price), language);
}

/** The server's message for a failed call, else the screen's own fallback (docs/product.md, Error texts). */
export function failureText(error: unknown, fallback: string): string {
  const text = errorText(error);
  return text === i18next.t('errors.generic') ? fallback : text;
}
