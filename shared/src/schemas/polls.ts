import { z } from 'zod';
import {
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX_LENGTH,
  POLL_RESULTS,
} from '../constants.js';
import { lineText, msg } from './common.js';

/*
 * Inputs of the poll routes (docs/product.md, Polls; Input rules). Texts are one-line free text
 * (rules/freeText.ts); whether the options differ and the closing time's form are the shared rules'
 * (rules/polls.ts), which the domain applies again. `closes_at` is the club's wall-clock time like an
 * event's date (`YYYY-MM-DD HH:MM[:SS]`), kept to the minute; null: open until an admin closes it.
 */

// Only a missing or blank question says 'pollQuestionRequired'; one too long says which field (`invalidInput: question`).
const questionText = z.string({ error: (issue) => (issue.code === 'invalid_type' ? 'pollQuestionRequired' : undefined) });
// Only a missing or blank option says 'pollOptionRequired'; one too long says which (`invalidInput: options.1`).
const optionText = lineText(
  z
    .string({ error: (issue) => (issue.code === 'invalid_type' ? 'pollOptionRequired' : undefined) })
    .trim()
    .min(1, msg('pollOptionRequired'))
    .max(POLL_OPTION_MAX_LENGTH),
);
const closesAt = z.string(msg('pollClosesAtInvalid')).max(40, msg('pollClosesAtInvalid')).nullable();

export const createPollInput = z.object({
  question: lineText(questionText.trim().min(1, msg('pollQuestionRequired')).max(POLL_QUESTION_MAX_LENGTH)),
  options: z
    .array(optionText, msg('pollOptionsCount'))
    .min(POLL_OPTIONS_MIN, msg('pollOptionsCount'))
    .max(POLL_OPTIONS_MAX, msg('pollOptionsCount')),
  multiple: z.boolean(msg('invalidInput')).optional(),
  results: z.enum(POLL_RESULTS, msg('invalidInput')).optional(),
  closes_at: closesAt.optional(),
  event_id: z.string(msg('invalidInput')).min(1, msg('invalidInput')).max(64, msg('eventNotFound')).nullish(),
});
export type CreatePollInput = z.input<typeof createPollInput>;

/** PUT /api/polls/{id}: the question and/or the closing time (a time already past closes the poll at once). */
export const updatePollInput = z.object({
  question: createPollInput.shape.question.optional(),
  closes_at: closesAt.optional(),
});
export type UpdatePollInput = z.input<typeof updatePollInput>;

/** PUT /api/polls/{id}/vote: the options the member chooses ([] withdraws the vote). */
export const pollVoteInput = z.object({
  option_ids: z
    .array(z.string(msg('pollOptionUnknown')).max(64, msg('pollOptionUnknown')), msg('invalidInput'))
    .max(POLL_OPTIONS_MAX, msg('pollOptionUnknown')),
});
export type PollVoteInput = z.input<typeof pollVoteInput>;
