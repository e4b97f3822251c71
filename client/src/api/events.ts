import type { EventCreatedAnswer, EventRemindersAnswer } from '@fankurve/shared';
import { api } from './client.js';

/** POST /api/events: date `YYYY-MM-DD HH:MM` in the club's wall clock, ticket price in euros (0 = not yet available). */
export interface NewEvent {
  title: string;
  date: string;
  location: string;
  stadium_id?: string;
  description?: string;
  ticket_price?: number;
  /** The answer deadline `YYYY-MM-DD HH:MM` (club wall clock), before the event; left out: none. */
  answer_deadline?: string;
}

/** The created event reaches the list through sync; the answer is only used for its id. */
export const createEvent = (body: NewEvent) => api<EventCreatedAnswer>('/api/events', { method: 'POST', body });

/** GET /api/events/{id}/reminders (admin): who was reminded to answer, and when. */
export const fetchEventReminders = (eventId: string, signal?: AbortSignal) =>
  api<EventRemindersAnswer>(`/api/events/${encodeURIComponent(eventId)}/reminders`, { signal });
