import { formatMoney } from '@fankurve/shared';
import type { TFunction } from 'i18next';
import { LocalRuleError } from '../../data/index.js';
import { errorText, i18next } from '../../i18n/index.js';

/** A ticket's price: the amount with two decimals, or free, or to be announced. */
export function ticketPriceText(
  ticket: { price_cents: number | null; is_free: boolean; is_price_tbd: boolean },
  language: string,
  t: TFunction,
): string {
  if (ticket.is_free) return t('tickets.free');
  if (ticket.price_cents === null || ticket.is_price_tbd) return t('tickets.priceTbd');
  return formatMoney(ticket.price_cents, language);
}

/** A refused request names the rule's reason; anything else is SPEC 8's 'Request failed. Please try again later.' */
export function requestErrorText(error: unknown): string {
  if (error instanceof LocalRuleError) return errorText(error);
  return i18next.t('tickets.requestFailed');
}
