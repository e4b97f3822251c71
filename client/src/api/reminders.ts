import type { RemindNowAnswer, UnansweredAnswer } from '@fankurve/shared';
import { api } from './client.js';

/** GET /api/events/{id}/unanswered (admin): who has not answered yet, and when each can be reminded again. */
export const fetchUnanswered = (eventId: string, signal?: AbortSignal) =>
  api<UnansweredAnswer>(`/api/events/${encodeURIComponent(eventId)}/unanswered`, { signal });

/** POST /api/events/{id}/reminders (admin): remind now, everyone who has not answered or `userIds`. */
export const remindNow = (eventId: string, userIds?: string[]) =>
  api<RemindNowAnswer>(`/api/events/${encodeURIComponent(eventId)}/reminders`, {
    method: 'POST',
    body: userIds ? { user_ids: userIds } : {},
  });
