import type {
  ContingentAllocatedAnswer,
  ContingentAnswer,
  ContingentInput,
  ContingentSavedAnswer,
  TicketRequestAnswer,
  TicketRequestFlagsInput,
  TicketReturnedAnswer,
  TicketReturnInput,
} from '@fankurve/shared';
import { api } from './client.js';

/*
 * Ticket contingents over REST (docs/product.md, REST API): the figures, the member's place and the
 * admin's queue are read online; the admin's settings, the allocation and a returned ticket are
 * online writes. Offers are answered on the device (data/collections/offers.ts), offline too.
 */

const id = (value: string) => encodeURIComponent(value);

export const getContingent = (eventId: string) => api<ContingentAnswer>(`/api/events/${id(eventId)}/contingent`);

export const saveContingent = (eventId: string, body: ContingentInput) =>
  api<ContingentSavedAnswer>(`/api/events/${id(eventId)}/contingent`, { method: 'PUT', body });

export const allocateContingent = (eventId: string) =>
  api<ContingentAllocatedAnswer>(`/api/events/${id(eventId)}/contingent/allocate`, { method: 'POST' });

export const setRequestFlags = (eventId: string, attendeeId: string, body: TicketRequestFlagsInput) =>
  api<TicketRequestAnswer>(`/api/events/${id(eventId)}/contingent/requests/${id(attendeeId)}`, { method: 'PUT', body });

export const returnTicket = (attendeeId: string, body: TicketReturnInput) =>
  api<TicketReturnedAnswer>(`/api/tickets/${id(attendeeId)}/return`, { method: 'PUT', body });
