import { formatMoney } from '@fankurve/shared';
import type { TFunction } from 'i18next';

/**
 * A debt as every screen shows it (/my-tickets, /debts, /users): the known prices, and "+ 2 tickets
 * with price open" when some prices are not known yet (docs/product.md, Tickets and money).
 */
export function debtText(cents: number, openPriceCount: number, language: string, t: TFunction): string {
  const amount = formatMoney(cents, language);
  return openPriceCount > 0 ? `${amount} ${t('tickets.openPrices', { count: openPriceCount })}` : amount;
}
