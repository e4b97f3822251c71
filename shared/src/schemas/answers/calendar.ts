import { z } from 'zod';
import { successAnswer } from './common.js';

/* Answers of the calendar feed routes (server/src/http/calendar.ts; docs/architecture.md, Calendar feed). */

/** GET /api/calendar and POST /api/calendar/rotate: the member's private feed address (absolute). */
export const calendarUrlAnswer = successAnswer({ url: z.string() });
export type CalendarUrlAnswer = z.infer<typeof calendarUrlAnswer>;

/** GET /api/calendar/{token}.ics: an iCalendar text (RFC 5545), not JSON. */
export const calendarFeedAnswer = z.string().meta({ id: 'CalendarFeed', description: 'iCalendar (text/calendar, UTF-8)' });
