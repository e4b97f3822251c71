import { describe, expect, it } from 'vitest';
import { isKeptOnDevice, keptOnDeviceSince, seasonOf } from '../src/index.js';

/** What a device keeps in full (docs/architecture.md, What a device keeps). */
describe('isKeptOnDevice', () => {
  const event = (date: string) => ({ date, season: seasonOf(date) });

  it('keeps upcoming events, today included, and every event of the season of today', () => {
    const today = '2026-03-14';
    expect(isKeptOnDevice(event('2026-03-14 00:00:00'), today)).toBe(true);
    expect(isKeptOnDevice(event('2031-08-01 15:30:00'), today)).toBe(true);
    expect(isKeptOnDevice(event('2026-03-13 20:30:00'), today)).toBe(true);
    expect(isKeptOnDevice(event('2025-07-01 00:00:00'), today)).toBe(true);
  });

  it('does not keep the events of earlier seasons', () => {
    expect(isKeptOnDevice(event('2025-06-30 23:45:00'), '2026-03-14')).toBe(false);
    expect(isKeptOnDevice(event('2016-09-10 15:30:00'), '2026-03-14')).toBe(false);
    // On the first day of a season, the last one's events are no longer kept.
    expect(isKeptOnDevice(event('2026-06-30 20:30:00'), '2026-07-01')).toBe(false);
    expect(isKeptOnDevice(event('2026-06-30 20:30:00'), '2026-06-30')).toBe(true);
  });

  it('is one comparison of the date with the first day of the season of today', () => {
    expect(keptOnDeviceSince('2026-03-14')).toBe('2025-07-01');
    expect(keptOnDeviceSince('2026-07-01')).toBe('2026-07-01');
    expect(keptOnDeviceSince('2026-06-30')).toBe('2025-07-01');
    const dates = [
      '2025-06-30 23:45:00',
      '2025-07-01 00:00:00',
      '2026-01-01 12:00:00',
      '2026-06-30 20:30:00',
      '2026-07-01 00:00:00',
      '2027-05-05 15:30:00',
    ];
    for (const today of ['2025-06-30', '2025-07-01', '2026-03-14', '2026-06-30', '2026-07-01', '2026-07-02']) {
      for (const date of dates)
        expect(date >= keptOnDeviceSince(today), `${date} on ${today}`).toBe(isKeptOnDevice(event(date), today));
    }
  });
});
