import { describe, expect, it } from 'vitest';
import {
  checkPollClosingTime,
  checkPollOptions,
  checkPollQuestion,
  checkPollVote,
  isPollOpen,
  pollPercent,
  pollResultsVisible,
} from '../src/rules/polls.js';

/* The poll rules both sides apply (docs/architecture.md, "Polls"; Rules once). */

const poll = { multiple: false, options: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] };

describe('poll rules', () => {
  it('a poll is open until closed or until its closing time', () => {
    expect(isPollOpen({ closed: false, closes_at_utc: null }, '2030-01-01T00:00:00.000Z')).toBe(true);
    expect(isPollOpen({ closed: true, closes_at_utc: null }, '2030-01-01T00:00:00.000Z')).toBe(false);
    expect(isPollOpen({ closed: false, closes_at_utc: '2030-01-01T12:00:00.000Z' }, '2030-01-01T11:59:59.999Z')).toBe(true);
    expect(isPollOpen({ closed: false, closes_at_utc: '2030-01-01T12:00:00.000Z' }, '2030-01-01T12:00:00.000Z')).toBe(false);
  });

  it('counts show to admins always, to everyone once closed, after the own vote when the poll says so', () => {
    const open = (results: 'after_vote' | 'after_close') => ({ results, open: true });
    expect(pollResultsVisible(open('after_vote'), { admin: true, voted: false })).toBe(true);
    expect(pollResultsVisible(open('after_vote'), { admin: false, voted: false })).toBe(false);
    expect(pollResultsVisible(open('after_vote'), { admin: false, voted: true })).toBe(true);
    expect(pollResultsVisible(open('after_close'), { admin: false, voted: true })).toBe(false);
    expect(pollResultsVisible({ results: 'after_close', open: false }, { admin: false, voted: false })).toBe(true);
  });

  it('a vote: options of the poll only, one unless several are allowed, duplicates once, in the poll’s order', () => {
    expect(checkPollVote(poll, ['b'])).toEqual({ ok: true, value: ['b'] });
    expect(checkPollVote(poll, [])).toEqual({ ok: true, value: [] });
    expect(checkPollVote(poll, ['b', 'b'])).toEqual({ ok: true, value: ['b'] });
    expect(checkPollVote(poll, ['a', 'b'])).toEqual({ ok: false, code: 'pollSingleChoice' });
    expect(checkPollVote(poll, ['x'])).toEqual({ ok: false, code: 'pollOptionUnknown' });
    expect(checkPollVote(poll, [1])).toEqual({ ok: false, code: 'pollOptionUnknown' });
    expect(checkPollVote({ ...poll, multiple: true }, ['c', 'a'])).toEqual({ ok: true, value: ['a', 'c'] });
  });

  it('question, options and closing time as typed', () => {
    expect(checkPollQuestion('  Wohin?  ')).toEqual({ ok: true, value: 'Wohin?' });
    expect(checkPollQuestion(' ')).toEqual({ ok: false, code: 'pollQuestionRequired' });
    expect(checkPollQuestion('Q'.repeat(201))).toEqual({ ok: false, code: 'invalidInput' });
    expect(checkPollQuestion('a\u202Eb')).toEqual({ ok: false, code: 'textHasControlCharacters' });
    expect(checkPollOptions([' Ja ', 'Nein'])).toEqual({ ok: true, value: ['Ja', 'Nein'] });
    expect(checkPollOptions(['Ja'])).toEqual({ ok: false, code: 'pollOptionsCount' });
    expect(checkPollOptions(Array.from({ length: 11 }, (_, i) => `${i}`))).toEqual({ ok: false, code: 'pollOptionsCount' });
    expect(checkPollOptions(['Ja', ''])).toEqual({ ok: false, code: 'pollOptionRequired' });
    expect(checkPollOptions(['Ja', 'ja'])).toEqual({ ok: false, code: 'pollOptionsDuplicate' });
    expect(checkPollOptions(['Ja', 'x'.repeat(101)])).toEqual({ ok: false, code: 'invalidInput' });
    expect(checkPollClosingTime('2030-05-01T18:37')).toEqual({ ok: true, value: '2030-05-01 18:37:00' });
    expect(checkPollClosingTime('morgen')).toEqual({ ok: false, code: 'pollClosesAtInvalid' });
    expect(checkPollClosingTime('2101-01-01 10:00')).toEqual({ ok: false, code: 'pollClosesAtInvalid' });
  });

  it('percent of the members who voted, whole numbers', () => {
    expect(pollPercent(1, 3)).toBe(33);
    expect(pollPercent(2, 3)).toBe(67);
    expect(pollPercent(0, 0)).toBe(0);
  });
});
