import { api, isApiError } from './client.js';

/**
 * Stadiums and their ticket prices (SPEC 3, 7): admin work, online REST only. Money in euros at this
 * edge (docs/architecture.md, data model).
 */

const id = (value: string) => encodeURIComponent(value);

export interface StadiumTicketPrice {
  id: string;
  price: number;
  ticket_type: string;
}

export interface Stadium {
  id: string;
  team_name: string;
  stadium_name: string;
  city: string;
  capacity: number;
  guest_block_capacity: number;
  address: string | null;
  /** The usual ticket price in euros, optional. */
  ticket_price: number | null;
  /** Present when the list carries the prices; otherwise load them with fetchTicketPrices. */
  ticketPrices?: StadiumTicketPrice[];
}

/** The body of POST and PUT /api/stadiums (SPEC 5: capacities default 0, ticket price a number or null). */
export interface StadiumInput {
  team_name: string;
  stadium_name: string;
  city: string;
  capacity: number;
  guest_block_capacity: number;
  address: string | null;
  ticket_price: number | null;
}

export const fetchStadiums = (signal?: AbortSignal) => api<{ stadiums: Stadium[] }>('/api/stadiums', { signal });

export const createStadium = (body: StadiumInput) => api<{ stadium?: Stadium }>('/api/stadiums', { method: 'POST', body });

export const updateStadium = (stadiumId: string, body: StadiumInput) =>
  api<{ stadium?: Stadium }>(`/api/stadiums/${id(stadiumId)}`, { method: 'PUT', body });

export const deleteStadium = (stadiumId: string) => api(`/api/stadiums/${id(stadiumId)}`, { method: 'DELETE' });

export const fetchTicketPrices = (stadiumId: string, signal?: AbortSignal) =>
  api<{ ticketPrices: StadiumTicketPrice[] }>(`/api/ticket-prices/stadium/${id(stadiumId)}`, { signal });

export const createTicketPrice = (body: { stadium_id: string; price: number; ticket_type: string }) =>
  api<{ ticketPrice?: StadiumTicketPrice }>('/api/ticket-prices', { method: 'POST', body });

export const deleteTicketPrice = (priceId: string) => api(`/api/ticket-prices/${id(priceId)}`, { method: 'DELETE' });

/** The stadiums with their ticket prices: from the list when it carries them, else one call per stadium. */
export async function fetchStadiumsWithPrices(signal?: AbortSignal): Promise<Required<Stadium>[]> {
  const { stadiums } = await fetchStadiums(signal);
  return Promise.all(
    stadiums.map(async (stadium) => ({
      ...stadium,
      address: stadium.address ?? null,
      ticket_price: stadium.ticket_price ?? null,
      ticketPrices: Array.isArray(stadium.ticketPrices)
        ? stadium.ticketPrices
        : (await fetchTicketPrices(stadium.id, signal)).ticketPrices,
    })),
  );
}

/**
 * GET /api/stadiums/{id} (admin): one stadium with its ticket prices; null when it does not exist. (The
 * answer also lists the stadium's events; the detail page reads those from the local database instead,
 * so they show offline too.)
 */
export async function fetchStadium(stadiumId: string, signal?: AbortSignal): Promise<Required<Stadium> | null> {
  try {
    const { stadium } = await api<{ stadium: Stadium }>(`/api/stadiums/${id(stadiumId)}`, { signal });
    return {
      ...stadium,
      address: stadium.address ?? null,
      ticket_price: stadium.ticket_price ?? null,
      ticketPrices: Array.isArray(stadium.ticketPrices)
        ? stadium.ticketPrices
        : (await fetchTicketPrices(stadium.id, signal)).ticketPrices,
    };
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}
