import {
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX_LENGTH,
  type PollResults,
} from '../constants.js';
import { checkDepartureDate } from '../dates.js';
import { freeTextProblem } from './freeText.js';
import type { RuleResult } from './result.js';

/*
 * Polls (docs/product.md, Polls): the rules the server's domain and the device both apply. A poll
 * is open until it is closed (an admin closed it, or its closing time passed); the server decides
 * by a vote's arrival, the device by its own clock first.
 */

/** What the rules need of a poll. */
export interface PollState {
  /** Closed for good (by an admin or once its closing time was published). */
  closed: boolean;
  /** The closing time as an instant (ISO 8601 UTC), or null: open until an admin closes it. */
  closes_at_utc: string | null;
}

/** Whether a poll takes votes at `now` (ISO 8601 UTC): not closed, and its closing time not reached. */
export function isPollOpen(poll: PollState, now: string): boolean {
  return !poll.closed && (poll.closes_at_utc === null || now < poll.closes_at_utc);
}

/**
 * Whether a member sees a poll's counts: admins always; everyone once it is closed; with results
 * 'after_vote' a member who has a vote (at least one option) in it.
 */
export function pollResultsVisible(
  poll: { results: PollResults; open: boolean },
  viewer: { admin: boolean; voted: boolean },
): boolean {
  return viewer.admin || !poll.open || (poll.results === 'after_vote' && viewer.voted);
}

/**
 * A member's choice in a poll: each option must be one of the poll's (`pollOptionUnknown`), one at
 * most unless the poll takes several (`pollSingleChoice`). Duplicates count once; the answer is in
 * the poll's order of options. An empty choice withdraws the vote.
 */
export function checkPollVote(
  poll: { multiple: boolean; options: readonly { id: string }[] },
  optionIds: readonly unknown[],
): RuleResult<string[]> {
  const order = new Map(poll.options.map((option, index) => [option.id, index]));
  const chosen = new Set<string>();
  for (const id of optionIds) {
    if (typeof id !== 'string' || !order.has(id)) return { ok: false, code: 'pollOptionUnknown' };
    chosen.add(id);
  }
  if (!poll.multiple && chosen.size > 1) return { ok: false, code: 'pollSingleChoice' };
  return { ok: true, value: [...chosen].sort((a, b) => order.get(a)! - order.get(b)!) };
}

/** The question: one line, trimmed, not blank, at most POLL_QUESTION_MAX_LENGTH characters. */
export function checkPollQuestion(input: string): RuleResult<string> {
  const question = input.trim();
  if (!question) return { ok: false, code: 'pollQuestionRequired' };
  const problem = freeTextProblem(question, 'line');
  if (problem) return { ok: false, code: problem };
  if ([...question].length > POLL_QUESTION_MAX_LENGTH) return { ok: false, code: 'invalidInput' };
  return { ok: true, value: question };
}

/**
 * The options' texts: POLL_OPTIONS_MIN to POLL_OPTIONS_MAX, each one line, trimmed, not blank, at
 * most POLL_OPTION_MAX_LENGTH characters, no two alike (ignoring case).
 */
export function checkPollOptions(input: readonly string[]): RuleResult<string[]> {
  if (input.length < POLL_OPTIONS_MIN || input.length > POLL_OPTIONS_MAX) return { ok: false, code: 'pollOptionsCount' };
  const texts: string[] = [];
  for (const raw of input) {
    const text = raw.trim();
    if (!text) return { ok: false, code: 'pollOptionRequired' };
    const problem = freeTextProblem(text, 'line');
    if (problem) return { ok: false, code: problem };
    if ([...text].length > POLL_OPTION_MAX_LENGTH) return { ok: false, code: 'invalidInput' };
    texts.push(text);
  }
  if (new Set(texts.map((text) => text.toLocaleLowerCase())).size !== texts.length)
    return { ok: false, code: 'pollOptionsDuplicate' };
  return { ok: true, value: texts };
}

/**
 * A closing time as admins type it: the club's wall-clock time `YYYY-MM-DD HH:MM[:SS]` (or
 * `YYYY-MM-DDTHH:MM`), kept to the minute, years 2000–2100, like a contingent's request deadline.
 */
export function checkPollClosingTime(input: string): RuleResult<string> {
  const checked = checkDepartureDate(input);
  return checked.ok ? checked : { ok: false, code: 'pollClosesAtInvalid' };
}

/** An option's share of the members who voted, in whole percent (0 without voters). */
export function pollPercent(votes: number, voters: number): number {
  return voters > 0 ? Math.round((votes * 100) / voters) : 0;
}
