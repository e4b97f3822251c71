import { eurosToCents, type DebtsAnswer } from '@fankurve/shared';
import { api } from './client.js';

/** GET /api/tickets/debts (admin, online): the REST edge speaks euros; here they become cents. */

type RestDebt = DebtsAnswer['debts'][number];
type RestUnpaidTicket = DebtsAnswer['unpaidTickets'][number];

/** What one member owes (the ledger's balance when positive) in cents, `balance` signed euros; tickets whose price is open are counted in open_price_count. */
export type MemberDebt = Omit<RestDebt, 'total_debt'> & { totalCents: number };

/** An unpaid ticket with its price in cents (null while open). */
export type UnpaidTicket = Omit<RestUnpaidTicket, 'price'> & { priceCents: number | null };

export interface DebtOverview {
  debts: MemberDebt[];
  unpaidTickets: UnpaidTicket[];
  /** What all members owe together (their positive ledger balances), and how many unpaid tickets have their price open. */
  totalCents: number;
  openPriceCount: number;
  /** The members' credit together (not subtracted from the total). */
  creditTotalCents: number;
}

export async function fetchDebts(signal?: AbortSignal): Promise<DebtOverview> {
  const answer = await api<DebtsAnswer>('/api/tickets/debts', { signal });
  return {
    totalCents: eurosToCents(answer.total),
    openPriceCount: answer.open_price_count,
    creditTotalCents: eurosToCents(answer.credit_total),
    debts: answer.debts.map(({ total_debt, ...debt }) => ({ ...debt, totalCents: eurosToCents(total_debt) })),
    unpaidTickets: answer.unpaidTickets.map(({ price, ...ticket }) => ({
      ...ticket,
      priceCents: price === null ? null : eurosToCents(price),
    })),
  };
}
