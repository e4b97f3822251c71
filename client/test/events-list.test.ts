import { newMemberAttendeeDoc, type AttendeeDoc } from '@fankurve/shared';
import { describe, expect, it } from 'vitest';
import { formatEventDate, isoWallClock } from '../src/i18n/eventDates.js';
import { orderEvents } from '../src/features/events/order.js';
import { attendanceOf, summarizeAttendance } from '../src/features/events/summary.js';

const event = (id: string, date: string, title = id) => ({ id, date, title });

describe('orderEvents', () => {
  it('puts upcoming events first (ascending), then past ones (descending); today counts as upcoming', () => {
    const events = [
      event('past-old', '2025-08-01 15:30:00'),
      event('next-year', '2027-01-17 18:30:00'),
      event('today-late', '2026-11-22 20:30:00'),
      event('past-recent', '2026-11-21 23:45:00'),
      event('soon', '2026-12-05 15:30:00'),
      event('today-early', '2026-11-22 00:00:00'),
    ];
    const { upcoming, past } = orderEvents(events, '2026-11-22');
    expect(upcoming.map((e) => e.id)).toEqual(['today-early', 'today-late', 'soon', 'next-year']);
    expect(past.map((e) => e.id)).toEqual(['past-recent', 'past-old']);
  });

  it('orders events at the same time by title and does not touch the input', () => {
    const events = [event('b', '2026-12-05 15:30:00', 'Zwickau'), event('a', '2026-12-05 15:30:00', 'Aue')];
    const { upcoming } = orderEvents(events, '2026-01-01');
    expect(upcoming.map((e) => e.title)).toEqual(['Aue', 'Zwickau']);
    expect(events.map((e) => e.id)).toEqual(['b', 'a']);
  });
});

describe('formatEventDate', () => {
  it('shows the wall-clock time as stored, per language', () => {
    expect(formatEventDate('2026-12-05 15:30:00', 'de')).toBe('Sa., 05.12.2026, 15:30');
    // English is unambiguous: never 05/12, which reads as May 12 in the US (docs/architecture.md,
    // Readings of the product specification).
    expect(formatEventDate('2026-12-05 15:30:00', 'en')).toBe('Sat 5 Dec 2026, 15:30');
    // No shift across midnight whatever the device's time zone is.
    expect(formatEventDate('2027-01-01 00:15:00', 'de')).toBe('Fr., 01.01.2027, 00:15');
  });

  it('leaves an unreadable date as it is', () => {
    expect(formatEventDate('soon', 'de')).toBe('soon');
  });

  it('gives a datetime attribute', () => {
    expect(isoWallClock('2026-12-05 15:30:00')).toBe('2026-12-05T15:30');
  });
});

function attendee(overrides: Partial<AttendeeDoc>): AttendeeDoc {
  const base = newMemberAttendeeDoc(
    {
      id: Math.random().toString(36).slice(2),
      event_id: 'e1',
      user_id: 'someone',
      status: 'going',
      created_at: '2026-11-01T10:00:00.000Z',
    },
    'Test match (A)',
  );
  return { ...base, seq: 1, user_id: null, transfer_status: null, ...overrides };
}

describe('summarizeAttendance', () => {
  it('counts going and maybe per event (guests included) and finds the own row', () => {
    const rows = [
      attendee({ event_id: 'e1', user_id: 'me', status: 'maybe' }),
      attendee({ event_id: 'e1', user_id: 'u2', status: 'going' }),
      attendee({ event_id: 'e1', user_id: null, guest_name: 'Guest', brought_by: 'u2', status: 'going' }),
      attendee({ event_id: 'e2', user_id: 'u2', status: 'maybe' }),
    ];
    const summary = summarizeAttendance(rows, 'me');
    const e1 = attendanceOf(summary, 'e1');
    expect([e1.going, e1.maybe, e1.own?.status]).toEqual([2, 1, 'maybe']);
    const e2 = attendanceOf(summary, 'e2');
    expect([e2.going, e2.maybe, e2.own]).toEqual([0, 1, null]);
    expect(attendanceOf(summary, 'none')).toEqual({ going: 0, maybe: 0, own: null, paymentRequired: false });
  });
});
