import { describe, expect, it } from 'vitest';
import {
  answerTimeLeft,
  checkAnswerDeadline,
  checkAnswerDeadlineOpen,
  clubWallClock,
  isAnswerDeadlinePassed,
} from '../src/rules/attendance.js';
import { checkDeadlineReminderHours, checkReminderDaysBefore } from '../src/rules/siteConfig.js';

/* The answer deadline's rules (docs/product.md, Answer deadlines and reminders), once for server and client. */

describe('the answer deadline as typed', () => {
  it('is optional, kept to the minute and must lie before the event', () => {
    for (const none of [null, undefined, '', '   '])
      expect(checkAnswerDeadline(none, '2030-03-14 18:30:00')).toEqual({ ok: true, value: null });
    expect(checkAnswerDeadline('2030-03-12 18:07', '2030-03-14 18:30:00')).toEqual({ ok: true, value: '2030-03-12 18:07:00' });
    expect(checkAnswerDeadline('2030-03-14T18:29:59', '2030-03-14 18:30:00')).toEqual({ ok: true, value: '2030-03-14 18:29:00' });
    expect(checkAnswerDeadline('2030-03-14 18:30', '2030-03-14 18:30:00')).toEqual({
      ok: false,
      code: 'answerDeadlineAfterEvent',
    });
    expect(checkAnswerDeadline('2030-03-15 09:00', '2030-03-14 18:30:00')).toEqual({
      ok: false,
      code: 'answerDeadlineAfterEvent',
    });
    for (const bad of ['morgen', '2030-02-30 12:00', '1999-12-31 10:00', 42, {}]) {
      expect(checkAnswerDeadline(bad, '2030-03-14 18:30:00'), String(bad)).toEqual({ ok: false, code: 'answerDeadlineInvalid' });
    }
  });
});

describe('after the deadline', () => {
  it("closes members' answers by the club's wall clock; admins stay open", () => {
    const deadline = '2030-03-12 18:00:00';
    expect(isAnswerDeadlinePassed(deadline, '2030-03-12 18:00:00')).toBe(false);
    expect(isAnswerDeadlinePassed(deadline, '2030-03-12 18:00:01')).toBe(true);
    expect(isAnswerDeadlinePassed(null, '2099-01-01 00:00:00')).toBe(false);
    expect(checkAnswerDeadlineOpen(deadline, '2030-03-12 18:01:00', false)).toEqual({ ok: false, code: 'answerDeadlinePassed' });
    expect(checkAnswerDeadlineOpen(deadline, '2030-03-12 18:01:00', true).ok).toBe(true);
    expect(checkAnswerDeadlineOpen(deadline, '2030-03-12 17:59:00', false).ok).toBe(true);
  });

  it('reads the wall clock in the club’s time zone', () => {
    const instant = new Date('2030-07-01T10:15:30Z');
    expect(clubWallClock('Europe/Berlin', instant)).toBe('2030-07-01 12:15:30');
    expect(clubWallClock('UTC', new Date('2030-12-31T23:59:59Z'))).toBe('2030-12-31 23:59:59');
  });

  it('says the time left in days, hours or minutes, and nothing once it has passed', () => {
    const deadline = '2030-03-14 18:00:00';
    expect(answerTimeLeft(deadline, '2030-03-12 17:00:00')).toEqual({ unit: 'days', count: 2 });
    expect(answerTimeLeft(deadline, '2030-03-13 17:00:00')).toEqual({ unit: 'days', count: 1 });
    expect(answerTimeLeft(deadline, '2030-03-13 18:30:00')).toEqual({ unit: 'hours', count: 23 });
    expect(answerTimeLeft(deadline, '2030-03-14 17:00:00')).toEqual({ unit: 'hours', count: 1 });
    expect(answerTimeLeft(deadline, '2030-03-14 17:01:00')).toEqual({ unit: 'minutes', count: 59 });
    expect(answerTimeLeft(deadline, '2030-03-14 17:59:59')).toEqual({ unit: 'minutes', count: 1 });
    expect(answerTimeLeft(deadline, '2030-03-14 18:00:01')).toBeNull();
    expect(answerTimeLeft(null, '2030-03-14 18:00:01')).toBeNull();
  });
});

describe('the reminder times', () => {
  it('are whole numbers from 0 (off) to 14 days and 168 hours, also as typed text', () => {
    expect(checkReminderDaysBefore(0)).toEqual({ ok: true, value: 0 });
    expect(checkReminderDaysBefore('14')).toEqual({ ok: true, value: 14 });
    expect(checkDeadlineReminderHours(168)).toEqual({ ok: true, value: 168 });
    for (const bad of [15, -1, 2.5, 'drei', '', null, true]) {
      expect(checkReminderDaysBefore(bad), String(bad)).toEqual({ ok: false, code: 'reminderDaysInvalid' });
    }
    for (const bad of [169, -1, 0.5, 'x', null]) {
      expect(checkDeadlineReminderHours(bad), String(bad)).toEqual({ ok: false, code: 'deadlineReminderHoursInvalid' });
    }
  });
});
