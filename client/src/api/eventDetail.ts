import type {
  AttendanceStatus,
  AttendeeAnswer,
  EventChangedAnswer,
  EventImageAnswer,
  GuestAnswer,
  MessageAnswer,
  RestStadium,
  TransferStatus,
  TransportAnswer,
} from '@fankurve/shared';
import { api } from './client.js';

export { fetchStadiums } from './stadiums.js';

/**
 * The online REST calls of the event detail screen (admin work, and event edit / delete / image by the
 * creator). Their result reaches every device through sync, so callers do not refetch: the local
 * database updates the screen. Money in euros at this edge (docs/architecture.md, "Data model"); the
 * answer types are the server's (shared/src/schemas/answers).
 */

const id = (value: string) => encodeURIComponent(value);

/** PUT /api/events/{id}: the event's fields; date as `YYYY-MM-DD HH:MM` (club wall clock). */
export interface EventUpdate {
  title: string;
  description: string | null;
  date: string;
  location: string;
  /** Left out where only an admin may change it (`checkPriceChange`): the form does not offer it then. */
  stadium_id?: string | null;
  ticket_price?: number;
  ticket_buyer: string | null;
  /** The answer deadline `YYYY-MM-DD HH:MM` (club wall clock), before the event; null: none. */
  answer_deadline: string | null;
}

export const updateEvent = (eventId: string, body: EventUpdate) =>
  api<EventChangedAnswer>(`/api/events/${id(eventId)}`, { method: 'PUT', body });

export const deleteEvent = (eventId: string) => api<MessageAnswer>(`/api/events/${id(eventId)}`, { method: 'DELETE' });

export const clearUpdated = (eventId: string) =>
  api<EventChangedAnswer>(`/api/events/${id(eventId)}/clear-updated`, { method: 'PUT' });

export const deleteEventImage = (eventId: string) =>
  api<EventChangedAnswer>(`/api/events/${id(eventId)}/image`, { method: 'DELETE' });

/** POST /api/events/{id}/image as multipart (field `image`). */
export async function uploadEventImage(eventId: string, file: File): Promise<void> {
  const form = new FormData();
  form.append('image', file);
  await api<EventImageAnswer>(`/api/events/${id(eventId)}/image`, { method: 'POST', body: form });
}

/** A stadium to choose for an event: from the stadium list, or only the event's own stadium while the list is missing. */
export type StadiumOption = Pick<RestStadium, 'id' | 'stadium_name'> & Partial<Pick<RestStadium, 'team_name' | 'city'>>;

/** POST /api/events/{id}/attendees (admin): a member who is not attending yet. */
export const addAttendee = (eventId: string, body: { user_id: string; status?: AttendanceStatus }) =>
  api<AttendeeAnswer>(`/api/events/${id(eventId)}/attendees`, { method: 'POST', body });

/** DELETE /api/attendance/{eventId}/user/{userId} (admin): removes a member's attendance. */
export const removeAttendee = (eventId: string, userId: string) =>
  api<MessageAnswer>(`/api/attendance/${id(eventId)}/user/${id(userId)}`, { method: 'DELETE' });

/** The admin's fields of an attendee row (member or guest); price in euros. */
export interface AttendeeUpdate {
  bought?: boolean;
  paid?: boolean;
  received?: boolean;
  paid_by?: string | null;
  ticket_price_id?: string | null;
  price?: number | null;
  ticket_type?: string | null;
  is_free?: boolean;
  is_price_tbd?: boolean;
  transfer_status?: TransferStatus | null;
}

export const updateAttendee = (attendeeId: string, body: AttendeeUpdate) =>
  api<AttendeeAnswer>(`/api/attendees/${id(attendeeId)}`, { method: 'PUT', body });

/** POST /api/guests (admin adding a guest for any member). */
export const addGuestFor = (body: { event_id: string; guest_name: string; brought_by: string }) =>
  api<GuestAnswer>('/api/guests', { method: 'POST', body });

export const deleteGuest = (guestId: string) => api<MessageAnswer>(`/api/guests/${id(guestId)}`, { method: 'DELETE' });

/** A transport option as the REST API takes it: price in euros, departure `YYYY-MM-DD HH:MM` or null. */
export interface TransportInput {
  event_id: string;
  name: string;
  departure_location: string;
  price_per_seat: number;
  is_free: boolean;
  is_price_tbd: boolean;
  departure_datetime: string | null;
  /** docs/product.md, Bus: who assigns the seats, and whether the fare is charged at departure. */
  seat_choice?: 'admin' | 'members';
  charge_at_departure?: boolean;
}

export const createTransport = (body: TransportInput) => api<TransportAnswer>('/api/transports', { method: 'POST', body });

export const updateTransport = (transportId: string, body: TransportInput) =>
  api<TransportAnswer>(`/api/transports/${id(transportId)}`, { method: 'PUT', body });

export const deleteTransport = (transportId: string) =>
  api<MessageAnswer>(`/api/transports/${id(transportId)}`, { method: 'DELETE' });
