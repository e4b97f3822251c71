import { formatMoney, isPriceOpen, type TicketPriceFields } from '@fankurve/shared';
import type { TFunction } from 'i18next';
import { LocalRuleError } from '../../data/index.js';
import { errorText, i18next } from '../../i18n/index.js';

/** A ticket's price: the amount with two decimals, or free, or "price open" (not known yet: never 0,00 €). */
export function ticketPriceText(ticket: TicketPriceFields, language: string, t: TFunction): string {
  if (ticket.is_free) return t('tickets.free');
  if (isPriceOpen(ticket) || ticket.price_cents === null) return t('tickets.priceOpen');
  return formatMoney(ticket.price_cents, language);
}

/** A refused request names the rule's reason; anything else is 'Request failed. Please try again later.' */
export function requestErrorText(error: unknown): string {
  if (error instanceof LocalRuleError) return errorText(error);
  return i18next.t('tickets.requestFailed');
}
