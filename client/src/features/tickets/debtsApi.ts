import { eurosToCents } from '@fankurve/shared';
import { api } from '../../api/client.js';

/** GET /api/tickets/debts (admin, online): the REST edge speaks euros; here they become cents. */

export interface MemberDebt {
  user_id: string;
  username: string | null;
  email: string | null;
  /** The known prices; the tickets whose price is open are counted in open_price_count. */
  totalCents: number;
  unpaid_count: number;
  open_price_count: number;
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
  price_open: boolean;
  paid_requested: boolean;
  overdue: boolean;
}

export interface DebtOverview {
  debts: MemberDebt[];
  unpaidTickets: UnpaidTicket[];
  /** The known prices of every unpaid ticket, and how many have their price open. */
  totalCents: number;
  openPriceCount: number;
}

interface RestDebt extends Omit<MemberDebt, 'totalCents'> {
  total_debt: number;
}
interface RestTicket extends Omit<UnpaidTicket, 'priceCents'> {
  price: number | null;
}

export async function fetchDebts(signal?: AbortSignal): Promise<DebtOverview> {
  const answer = await api<{ debts: RestDebt[]; unpaidTickets: RestTicket[]; total: number; open_price_count: number }>(
    '/api/tickets/debts',
    { signal },
  );
  return {
    totalCents: eurosToCents(answer.total),
    openPriceCount: answer.open_price_count,
    debts: answer.debts.map(({ total_debt, ...debt }) => ({ ...debt, totalCents: eurosToCents(total_debt) })),
    unpaidTickets: answer.unpaidTickets.map(({ price, ...ticket }) => ({
      ...ticket,
      priceCents: price === null ? null : eurosToCents(price),
    })),
  };
}
