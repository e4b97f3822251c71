import { z } from 'zod';
import { POLL_RESULTS } from '../../constants.js';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the poll routes (server/src/http/polls.ts). */

const countOrNull = z.number().int().min(0).nullable();

/**
 * A poll; `voters` (members with a vote) is null while the counts are hidden from the caller
 * (docs/product.md, Polls). `closes_at` is the club's wall-clock time, `closes_at_utc` the same instant.
 */
export const restPoll = z
  .strictObject({
    id: z.string(),
    question: z.string(),
    multiple: z.boolean(),
    results: z.enum(POLL_RESULTS),
    closes_at: textOrNull,
    closes_at_utc: textOrNull,
    closed: z.boolean(),
    voters: countOrNull,
    event_id: textOrNull,
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Poll' });
export type RestPoll = z.infer<typeof restPoll>;

/** One option; `votes` is null while the counts are hidden from the caller. */
export const restPollOption = z.strictObject({ id: z.string(), text: z.string(), votes: countOrNull }).meta({ id: 'PollOption' });
export type RestPollOption = z.infer<typeof restPollOption>;

const pollDetail = {
  poll: restPoll,
  options: z.array(restPollOption),
  /** The options the caller chose ([] none). */
  my_votes: z.array(z.string()),
};

/** GET /api/polls: every live poll, newest first (open ones before closed ones). */
export const pollsAnswer = successAnswer({ polls: z.array(restPoll) });
export type PollsAnswer = z.infer<typeof pollsAnswer>;

/** GET /api/polls/{id}. */
export const pollDetailAnswer = successAnswer(pollDetail);
export type PollDetailAnswer = z.infer<typeof pollDetailAnswer>;

/** POST (201), PUT /api/polls/{id} and PUT /api/polls/{id}/vote: the poll as the caller now sees it. */
export const pollAnswer = messageAnswerWith(pollDetail);
export type PollAnswer = z.infer<typeof pollAnswer>;
