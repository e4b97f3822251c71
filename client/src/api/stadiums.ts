import type {
  MessageAnswer,
  RestStadium,
  StadiumAnswer,
  StadiumDetailAnswer,
  StadiumsAnswer,
  StadiumTicketPrice,
  TicketPriceAnswer,
  TicketPricesAnswer,
} from '@fankurve/shared';
import { api, isApiError } from './client.js';

/**
 * Stadiums and their ticket prices: admin work, online REST only. Money in euros at this edge
 * (docs/architecture.md, "Data model"); the answer types are the server's (shared/src/schemas/answers).
 */

const id = (value: string) => encodeURIComponent(value);

export type { StadiumTicketPrice };

/** A stadium with its price options (`ticketPrices`); `ticket_price` is its usual price in euros or null. */
export type Stadium = RestStadium;

/** The body of POST and PUT /api/stadiums (capacities default 0, ticket price a number or null). */
export interface StadiumInput {
  team_name: string;
  stadium_name: string;
  city: string;
  capacity: number;
  guest_block_capacity: number;
  address: string | null;
  ticket_price: number | null;
}

export const fetchStadiums = (signal?: AbortSignal) => api<StadiumsAnswer>('/api/stadiums', { signal });

export const createStadium = (body: StadiumInput) => api<StadiumAnswer>('/api/stadiums', { method: 'POST', body });

export const updateStadium = (stadiumId: string, body: StadiumInput) =>
  api<StadiumAnswer>(`/api/stadiums/${id(stadiumId)}`, { method: 'PUT', body });

export const deleteStadium = (stadiumId: string) => api<MessageAnswer>(`/api/stadiums/${id(stadiumId)}`, { method: 'DELETE' });

export const fetchTicketPrices = (stadiumId: string, signal?: AbortSignal) =>
  api<TicketPricesAnswer>(`/api/ticket-prices/stadium/${id(stadiumId)}`, { signal });

export const createTicketPrice = (body: { stadium_id: string; price: number; ticket_type: string }) =>
  api<TicketPriceAnswer>('/api/ticket-prices', { method: 'POST', body });

export const deleteTicketPrice = (priceId: string) =>
  api<MessageAnswer>(`/api/ticket-prices/${id(priceId)}`, { method: 'DELETE' });

/** The stadiums with their ticket prices (the list carries them). */
export async function fetchStadiumsWithPrices(signal?: AbortSignal): Promise<Stadium[]> {
  return (await fetchStadiums(signal)).stadiums;
}

/**
 * GET /api/stadiums/{id} (admin): one stadium with its ticket prices; null when it does not exist. (The
 * answer also lists the stadium's events; the detail page reads those from the local database instead,
 * so they show offline too.)
 */
export async function fetchStadium(stadiumId: string, signal?: AbortSignal): Promise<Stadium | null> {
  try {
    return (await api<StadiumDetailAnswer>(`/api/stadiums/${id(stadiumId)}`, { signal })).stadium;
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}
