import { z } from 'zod';
import { attendeeWithNames } from './attendance.js';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the event routes (server/src/http/events.ts). */

/**
 * An event at the REST edge: the device's event document (shared/src/docs/events.ts `EventDoc`)
 * without seq, archived and the price options, with `ticket_price` in euros and the image's file
 * name also as `image`. REST never shows an archived event.
 */
export const restEvent = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    description: textOrNull,
    /** The club's wall-clock time `YYYY-MM-DD HH:MM:SS`. */
    date: z.string(),
    location: z.string(),
    stadium_id: textOrNull,
    stadium_name: textOrNull,
    stadium_address: textOrNull,
    ticket_buyer: textOrNull,
    season: z.string(),
    is_updated: z.boolean(),
    created_by: textOrNull,
    creator_name: textOrNull,
    image_filename: textOrNull,
    guest_block_capacity: z.number().int().nullable(),
    created_at: z.string(),
    /** Euros; 0 when not announced yet. */
    ticket_price: z.number(),
    image: textOrNull,
    /** The answer deadline, the club's wall-clock time `YYYY-MM-DD HH:MM:SS`, or null. */
    answer_deadline: textOrNull,
  })
  .meta({ id: 'Event' });
export type RestEvent = z.infer<typeof restEvent>;

/** An event of the list, with its going and maybe counts. */
export const listedEvent = restEvent
  .extend({ going_count: z.number().int(), maybe_count: z.number().int() })
  .meta({ id: 'ListedEvent' });
export type ListedEvent = z.infer<typeof listedEvent>;

/** GET /api/events (served from stored bytes, with an ETag; 304 on If-None-Match). */
export const eventsAnswer = successAnswer({ events: z.array(listedEvent) });
export type EventsAnswer = z.infer<typeof eventsAnswer>;

/** A price option of the event's stadium, in euros. */
export const eventTicketPrice = z.strictObject({ id: z.string(), price: z.number(), ticket_type: z.string() });

/** GET /api/events/{id}: the event, its attendees (members and guests) and its stadium's price options. */
export const eventDetailAnswer = successAnswer({
  event: restEvent,
  attendees: z.array(attendeeWithNames),
  ticketPrices: z.array(eventTicketPrice),
});
export type EventDetailAnswer = z.infer<typeof eventDetailAnswer>;

/** POST /api/events (201). */
export const eventCreatedAnswer = successAnswer({ event: restEvent });
export type EventCreatedAnswer = z.infer<typeof eventCreatedAnswer>;

/** PUT /api/events/{id}, DELETE /api/events/{id}/image, PUT /api/events/{id}/clear-updated. */
export const eventChangedAnswer = messageAnswerWith({ event: restEvent });
export type EventChangedAnswer = z.infer<typeof eventChangedAnswer>;

/** POST /api/events/{id}/image: the stored file's name, and the event. */
export const eventImageAnswer = messageAnswerWith({ filename: textOrNull, event: restEvent });
export type EventImageAnswer = z.infer<typeof eventImageAnswer>;

/**
 * A reminder a member was sent: before the event, before its answer deadline, or by an admin's hand
 * (`manual`, the latest one) (docs/product.md, Answer deadlines and reminders).
 */
export const eventReminder = z
  .strictObject({
    user_id: z.string(),
    username: z.string(),
    kind: z.enum(['event', 'deadline', 'manual']),
    /** When it was sent (ISO 8601 UTC). */
    sent_at: z.string(),
  })
  .meta({ id: 'EventReminder' });
export type EventReminder = z.infer<typeof eventReminder>;

/** GET /api/events/{id}/reminders (admin): who was reminded and when, newest first. */
export const eventRemindersAnswer = successAnswer({ reminders: z.array(eventReminder) });
export type EventRemindersAnswer = z.infer<typeof eventRemindersAnswer>;
