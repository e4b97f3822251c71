import type { CalendarUrlAnswer } from '@fankurve/shared';
import { api } from './client.js';

/* The member's private calendar feed address (docs/architecture.md, "Calendar feed"). */

/** The feed address; the server creates it on the first call. */
export const fetchCalendarUrl = async () => (await api<CalendarUrlAnswer>('/api/calendar')).url;

/** A new feed address; the previous one answers 404 from then on. */
export const rotateCalendarUrl = async () => (await api<CalendarUrlAnswer>('/api/calendar/rotate', { method: 'POST' })).url;
