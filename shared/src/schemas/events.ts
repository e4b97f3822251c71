import { z } from 'zod';
import { euros, lineText, msg, multilineText } from './common.js';

/** The longest event title and location. */
export const EVENT_TEXT_MAX_LENGTH = 200;

/**
 * Event input (docs/architecture.md, Readings of the product specification); ticket_price in euros (0 = to be announced). Texts are free text
 * (rules/freeText.ts): the description may span lines, the others are one line.
 */
export const createEventInput = z.object({
  title: lineText(
    z.string(msg('titleRequired')).trim().min(1, msg('titleRequired')).max(EVENT_TEXT_MAX_LENGTH, msg('titleTooLong')),
  ),
  description: multilineText(z.string().max(5000)).nullish(),
  date: z.string(msg('dateRequired')).trim().min(1, msg('dateRequired')).max(40),
  location: lineText(
    z.string(msg('locationRequired')).trim().min(1, msg('locationRequired')).max(EVENT_TEXT_MAX_LENGTH, msg('locationTooLong')),
  ),
  stadium_id: z.string().max(64).nullish(),
  ticket_price: euros('priceInvalid').nullish(),
  ticket_buyer: lineText(z.string().max(200)).nullish(),
  /**
   * The answer deadline, the club's wall-clock time `YYYY-MM-DD HH:MM` before the event, or null for
   * none; its rules are the domain's (`checkAnswerDeadline`): answerDeadlineInvalid, answerDeadlineAfterEvent.
   */
  answer_deadline: z.string(msg('answerDeadlineInvalid')).max(40, msg('answerDeadlineInvalid')).nullish(),
});
export type CreateEventInput = z.infer<typeof createEventInput>;

/** PUT /api/events/{id}: any of the event fields, each validated like on create (unknown fields are ignored). */
export const updateEventInput = createEventInput.partial();
export type UpdateEventInput = z.infer<typeof updateEventInput>;
