import { describe, expect, it } from 'vitest';
import {
  checkEventDate,
  isUpcoming,
  locationOfTitle,
  normaliseEventDate,
  roundToTimeStep,
  seasonOf,
  todayIn,
} from '../src/dates.js';

describe('normaliseEventDate', () => {
  it.each([
    ['2025-03-01 15:30:00', '2025-03-01 15:30:00'],
    ['2025-03-01 15:30', '2025-03-01 15:30:00'],
    ['2025-03-01T15:30', '2025-03-01 15:30:00'],
    ['2025-03-01T15:30:00', '2025-03-01 15:30:00'],
    ['2025-03-01T15:30:00.000', '2025-03-01 15:30:00'],
    ['  2025-03-01 15:30  ', '2025-03-01 15:30:00'],
    ['2025-03-01 7:45', '2025-03-01 07:45:00'],
  ])('accepts the stored form and ISO 8601: %j → %s', (input, expected) => {
    expect(normaliseEventDate(input)).toBe(expected);
  });

  it('keeps the wall-clock time of an ISO date with a zone suffix (the club time is written)', () => {
    expect(normaliseEventDate('2025-03-01T15:30:00Z')).toBe('2025-03-01 15:30:00');
    expect(normaliseEventDate('2025-03-01T15:30:00+01:00')).toBe('2025-03-01 15:30:00');
  });

  it.each([
    ['2025-03-01 15:07', '2025-03-01 15:00:00'],
    ['2025-03-01 15:08', '2025-03-01 15:15:00'],
    ['2025-03-01 15:22', '2025-03-01 15:15:00'],
    ['2025-03-01 15:23', '2025-03-01 15:30:00'],
    ['2025-03-01 15:52', '2025-03-01 15:45:00'],
    ['2025-03-01 15:53', '2025-03-01 16:00:00'],
    ['2025-03-01T15:20', '2025-03-01 15:15:00'],
  ])('rounds minutes to the nearest 15: %s → %s', (input, expected) => {
    expect(normaliseEventDate(input)).toBe(expected);
  });

  it('rounds 23:53 up into the next day, month and year', () => {
    expect(normaliseEventDate('2025-03-01 23:53')).toBe('2025-03-02 00:00:00');
    expect(normaliseEventDate('2025-02-28 23:58')).toBe('2025-03-01 00:00:00');
    expect(normaliseEventDate('2024-02-28 23:53')).toBe('2024-02-29 00:00:00');
    expect(normaliseEventDate('2025-12-31 23:53')).toBe('2026-01-01 00:00:00');
  });

  it('takes a date without time as midnight', () => {
    expect(normaliseEventDate('2025-03-01')).toBe('2025-03-01 15:00:00');
  });

  it.each([
    '2025-02-30 12:00',
    '2025-02-29 12:00',
    '2025-04-31 12:00',
    '2025-13-01 12:00',
    '2025-00-10 12:00',
    '2025-03-00 12:00',
    '2025-03-01 24:00',
    '2025-03-01 12:60',
    '01.03.2025 15:30',
    '2025/03/01 15:30',
    'tomorrow',
    '',
    '   ',
  ])('refuses an invalid date: %j', (input) => {
    expect(normaliseEventDate(input)).toBeNull();
  });

  it('accepts 29 February in a leap year', () => {
    expect(normaliseEventDate('2024-02-29 20:30')).toBe('2024-02-29 20:30:00');
  });

  it('roundToTimeStep rounds to 15-minute steps', () => {
    expect([0, 7, 8, 22, 23, 37, 38, 52, 53].map(roundToTimeStep)).toEqual([0, 0, 15, 15, 30, 30, 45, 45, 60]);
  });
});

describe('checkEventDate: years 2000 to 2100 only', () => {
  it.each([
    ['2000-01-01 00:00', '2000-01-01 00:00:00'],
    ['2100-12-31 20:00', '2100-12-31 20:00:00'],
    ['2100-12-31 23:45', '2100-12-31 23:45:00'],
    ['2100-12-31 23:52', '2100-12-31 23:45:00'],
  ])('accepts %s', (input, expected) => {
    expect(checkEventDate(input)).toEqual({ ok: true, value: expected });
    expect(normaliseEventDate(input)).toBe(expected);
  });

  it.each([
    '0099-05-01 15:00',
    '0000-01-01 00:00',
    '0001-02-29 12:00',
    '1999-12-31 15:00',
    '1999-12-31 23:55',
    '2101-01-01 15:00',
    '9999-12-31 23:59',
    '0099-05-01',
    // Rounded up it would be 2101-01-01 00:00: refused, not rounded down.
    '2100-12-31 23:53',
  ])('refuses %s as dateOutOfRange (never rewritten to another century)', (input) => {
    expect(checkEventDate(input)).toEqual({ ok: false, code: 'dateOutOfRange' });
    expect(checkEventDate(input, 'departureInvalid')).toEqual({ ok: false, code: 'dateOutOfRange' });
    expect(normaliseEventDate(input)).toBeNull();
  });

  it("answers the caller's code for text that is no date", () => {
    expect(checkEventDate('tomorrow')).toEqual({ ok: false, code: 'dateRequired' });
    expect(checkEventDate('0099-13-01 15:00')).toEqual({ ok: false, code: 'dateRequired' });
    expect(checkEventDate('2025-02-30 12:00', 'departureInvalid')).toEqual({ ok: false, code: 'departureInvalid' });
  });
});

describe('seasonOf', () => {
  it('runs from July to June', () => {
    expect(seasonOf('2025-06-30 23:45:00')).toBe('2024/25');
    expect(seasonOf('2025-07-01 00:00:00')).toBe('2025/26');
    expect(seasonOf('2025-01-15 15:30:00')).toBe('2024/25');
    expect(seasonOf('2025-12-31 20:30:00')).toBe('2025/26');
  });

  it('pads the second year to two digits across a century', () => {
    expect(seasonOf('2009-08-01 15:30:00')).toBe('2009/10');
    expect(seasonOf('2099-08-01 15:30:00')).toBe('2099/00');
    expect(seasonOf('2000-03-01 15:30:00')).toBe('1999/00');
  });
});

describe('locationOfTitle', () => {
  it('reads home and away from the title suffix', () => {
    expect(locationOfTitle('Union Berlin - Bochum (H)')).toBe('home');
    expect(locationOfTitle('Bochum - Union Berlin (A)')).toBe('away');
    expect(locationOfTitle('  Bochum - Union Berlin (A)  ')).toBe('away');
    expect(locationOfTitle('Fan club summer party')).toBe('other');
    expect(locationOfTitle('(H) at the start does not count')).toBe('other');
    expect(locationOfTitle('lower case (h)')).toBe('other');
  });
});

describe('isUpcoming and todayIn', () => {
  it('counts an event of today as upcoming, yesterday as past', () => {
    expect(isUpcoming('2025-03-01 00:00:00', '2025-03-01')).toBe(true);
    expect(isUpcoming('2025-03-01 23:45:00', '2025-03-01')).toBe(true);
    expect(isUpcoming('2025-03-02 15:30:00', '2025-03-01')).toBe(true);
    expect(isUpcoming('2025-02-28 23:45:00', '2025-03-01')).toBe(false);
    expect(isUpcoming('2024-12-31 15:30:00', '2025-01-01')).toBe(false);
  });

  it("gives today's date in the club's time zone", () => {
    // 23:30 UTC on 1 March is already 2 March in Berlin (UTC+1) but still 1 March in New York.
    const now = new Date('2025-03-01T23:30:00Z');
    expect(todayIn('Europe/Berlin', now)).toBe('2025-03-02');
    expect(todayIn('America/New_York', now)).toBe('2025-03-01');
    expect(todayIn('UTC', now)).toBe('2025-03-01');
  });
});
