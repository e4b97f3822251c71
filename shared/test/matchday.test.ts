import { describe, expect, it } from 'vitest';
import { checkDepartureDate, checkEventDate, isMatchTitle, locationOfTitle, titleForLocation } from '../src/dates.js';
import { checkEventOpenForAnswers } from '../src/rules/attendance.js';

/** Match-day details: the rules both sides check. */

describe('a past event takes no more answers', () => {
  it('is open all of its day in the club and closed from the next day on', () => {
    expect(checkEventOpenForAnswers('2030-05-01 20:30:00', '2030-05-01')).toEqual({ ok: true, value: true });
    expect(checkEventOpenForAnswers('2030-05-02 00:00:00', '2030-05-01').ok).toBe(true);
    expect(checkEventOpenForAnswers('2030-04-30 23:45:00', '2030-05-01')).toEqual({ ok: false, code: 'eventIsPast' });
    expect(checkEventOpenForAnswers('2029-05-01 15:30:00', '2030-05-01')).toEqual({ ok: false, code: 'eventIsPast' });
  });
});

describe('matches and other events', () => {
  it('a match is a title ending in (H) or (A); anything else is other', () => {
    expect(isMatchTitle('Union – Hertha (H)')).toBe(true);
    expect(isMatchTitle('Bochum – Union (A) ')).toBe(true);
    expect(isMatchTitle('Stammtisch')).toBe(false);
    expect(isMatchTitle('(H) Weihnachtsfeier')).toBe(false);
    expect(locationOfTitle('Weihnachtsfeier')).toBe('other');
  });

  it('the title for a choice replaces any suffix and adds the chosen one', () => {
    expect(titleForLocation('Union – Hertha', 'home')).toBe('Union – Hertha (H)');
    expect(titleForLocation(' Union – Hertha (H) ', 'away')).toBe('Union – Hertha (A)');
    expect(titleForLocation('Union – Hertha (A)(H)', 'home')).toBe('Union – Hertha (H)');
    expect(titleForLocation('Stammtisch (A)', 'other')).toBe('Stammtisch');
    expect(titleForLocation('Stammtisch', 'other')).toBe('Stammtisch');
    expect(titleForLocation('(H)', 'home')).toBe('');
  });
});

describe('transport departures are kept as entered', () => {
  it('keeps the minute where event dates round to quarter hours', () => {
    expect(checkDepartureDate('2030-05-01T07:40')).toEqual({ ok: true, value: '2030-05-01 07:40:00' });
    expect(checkDepartureDate('2030-05-01 23:59')).toEqual({ ok: true, value: '2030-05-01 23:59:00' });
    expect(checkEventDate('2030-05-01 07:40')).toEqual({ ok: true, value: '2030-05-01 07:45:00' });
  });

  it('refuses what is no date, and years outside 2000–2100', () => {
    expect(checkDepartureDate('soon')).toEqual({ ok: false, code: 'departureInvalid' });
    expect(checkDepartureDate('2030-02-30 07:40')).toEqual({ ok: false, code: 'departureInvalid' });
    expect(checkDepartureDate('0099-05-01 07:40')).toEqual({ ok: false, code: 'dateOutOfRange' });
  });
});
