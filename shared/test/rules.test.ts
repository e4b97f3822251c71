import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/registry.js';
import { firstAnswerDefaults, isDebt, mergeAttendanceAnswer } from '../src/rules/attendance.js';
import { checkNewPassword } from '../src/rules/password.js';

const current = (needs_ticket: boolean, has_ticket: boolean, needs_transport: boolean) => ({
  needs_ticket,
  has_ticket,
  needs_transport,
});

describe('mergeAttendanceAnswer', () => {
  it('gives first-time attendance the defaults of its event: a ticket for a match, a seat for an away match', () => {
    expect(firstAnswerDefaults('Union – Hertha (A)')).toEqual({ needs_ticket: true, has_ticket: false, needs_transport: true });
    expect(firstAnswerDefaults('Union – Hertha (H)')).toEqual({ needs_ticket: true, has_ticket: false, needs_transport: false });
    expect(firstAnswerDefaults('Stammtisch')).toEqual({ needs_ticket: false, has_ticket: false, needs_transport: false });
    expect(firstAnswerDefaults('Weihnachtsfeier')).toEqual({ needs_ticket: false, has_ticket: false, needs_transport: false });
    expect(mergeAttendanceAnswer(firstAnswerDefaults('A – B (A)'), { status: 'going' })).toEqual({
      ok: true,
      value: { status: 'going', needs_ticket: true, has_ticket: false, needs_transport: true },
    });
    expect(mergeAttendanceAnswer(firstAnswerDefaults('A – B (A)'), { status: 'maybe', needs_transport: false })).toEqual({
      ok: true,
      value: { status: 'maybe', needs_ticket: true, has_ticket: false, needs_transport: false },
    });
    expect(mergeAttendanceAnswer(firstAnswerDefaults('Stammtisch'), { status: 'going', needs_ticket: true })).toEqual({
      ok: true,
      value: { status: 'going', needs_ticket: true, has_ticket: false, needs_transport: false },
    });
  });

  it('keeps the current flags when only the status changes', () => {
    expect(mergeAttendanceAnswer(current(false, true, false), { status: 'maybe' })).toEqual({
      ok: true,
      value: { status: 'maybe', needs_ticket: false, has_ticket: true, needs_transport: false },
    });
  });

  it('has_ticket true clears needs_ticket', () => {
    const result = mergeAttendanceAnswer(current(true, false, true), { status: 'going', has_ticket: true });
    expect(result).toEqual({
      ok: true,
      value: { status: 'going', needs_ticket: false, has_ticket: true, needs_transport: true },
    });
    // also on first attendance
    expect(mergeAttendanceAnswer(firstAnswerDefaults('A – B (H)'), { status: 'going', has_ticket: true })).toMatchObject({
      ok: true,
      value: { needs_ticket: false, has_ticket: true },
    });
  });

  it('needs_ticket true clears has_ticket', () => {
    const result = mergeAttendanceAnswer(current(false, true, true), { status: 'going', needs_ticket: true });
    expect(result).toEqual({
      ok: true,
      value: { status: 'going', needs_ticket: true, has_ticket: false, needs_transport: true },
    });
  });

  it('allows neither flag (e.g. not decided about the ticket)', () => {
    expect(mergeAttendanceAnswer(current(true, false, true), { status: 'going', needs_ticket: false })).toMatchObject({
      ok: true,
      value: { needs_ticket: false, has_ticket: false },
    });
  });

  it('refuses needs_ticket and has_ticket both true in one change', () => {
    const result = mergeAttendanceAnswer(current(true, false, true), { status: 'going', needs_ticket: true, has_ticket: true });
    expect(result).toEqual({ ok: false, code: 'hasTicketAndNeedsTicket' });
    expect(MESSAGES.hasTicketAndNeedsTicket).toBe('Needs ticket and has ticket cannot both be set');
    expect(
      mergeAttendanceAnswer(firstAnswerDefaults('Stammtisch'), { status: 'going', needs_ticket: true, has_ticket: true }).ok,
    ).toBe(false);
  });

  it('repairs a stored row that has both flags set', () => {
    expect(mergeAttendanceAnswer(current(true, true, true), { status: 'going' })).toMatchObject({
      ok: true,
      value: { needs_ticket: true, has_ticket: false },
    });
  });
});

describe('isDebt', () => {
  it('is a bought, unpaid ticket', () => {
    expect(isDebt({ bought: true, paid: false })).toBe(true);
    expect(isDebt({ bought: true, paid: true })).toBe(false);
    expect(isDebt({ bought: false, paid: false })).toBe(false);
  });
});

describe('checkNewPassword', () => {
  it('needs at least 4 characters', () => {
    expect(checkNewPassword('')).toBe('passwordTooShort');
    expect(checkNewPassword('abc')).toBe('passwordTooShort');
    expect(checkNewPassword('abcd')).toBeNull();
    expect(checkNewPassword('a much longer passphrase')).toBeNull();
    expect(MESSAGES.passwordTooShort).toBe('Password must be at least 4 characters long');
  });
});
