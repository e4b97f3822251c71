import { eurosToCents } from '@fankurve/shared';
import { api } from '../../api/client.js';

/** GET /api/tickets/debts (admin, online): the REST edge speaks euros; here they become cents. */

export interface MemberDebt {
  user_id: string;
  username: string | null;
  email: string | null;
  totalCents: number;
  unpaid_count: number;
}

export interface UnpaidTicket {
  id: string;
  event_id: string;
  event_title: string;
  event_date: string;
  event_location: string;
  username: string | null;
  email: string | null;
  guest_name: string | null;
  priceCents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
  paid_requested: boolean;
  overdue: boolean;
}

export interface DebtOverview {
  debts: MemberDebt[];
  unpaidTickets: UnpaidTicket[];
}

interface RestDebt extends Omit<MemberDebt, 'totalCents'> {
  total_debt: number;
}
interface RestTicket extends Omit<UnpaidTicket, 'priceCents'> {
  price: number | null;
}

export async function fetchDebts(signal?: AbortSignal): Promise<DebtOverview> {
  const answer = await api<{ debts: RestDebt[]; unpaidTickets: RestTicket[] }>('/api/tickets/debts', { signal });
  return {
    debts: answer.debts.map(({ total_debt, ...debt }) => ({ ...debt, totalCents: eurosToCents(total_debt) })),
    unpaidTickets: answer.unpaidTickets.map(({ price, ...ticket }) => ({
      ...ticket,
      priceCents: price === null ? null : eurosToCents(price),
    })),
  };
}
