import { describe, expect, it } from 'vitest';
import { EMPTY_EVENT_FORM, toNewEvent, withKind, withTitle, type EventFormValues } from '../src/features/events/eventForm.js';
import { transportInputOf, EMPTY_TRANSPORT_FORM } from '../src/features/eventDetail/transportForm.js';
import { eventsUsing } from '../src/features/stadiums/DeleteStadiumDialog.js';
import { formatDay, formatInstant, formatWallClock } from '../src/i18n/dates.js';
import type { EventDoc } from '@fankurve/shared';

/** Match-day details: the client's pure parts. */

describe('the one date formatter', () => {
  it('writes English dates unambiguously and keeps the German form', () => {
    expect(formatWallClock('2026-12-05 18:30:00', 'en')).toBe('Sat 5 Dec 2026, 18:30');
    expect(formatWallClock('2026-12-05 18:30:00', 'de')).toBe('Sa., 05.12.2026, 18:30');
    expect(formatWallClock('2026-09-01 07:05', 'en')).toBe('Tue 1 Sep 2026, 07:05');
    expect(formatWallClock('2026-03-01T00:00', 'de')).toBe('So., 01.03.2026, 00:00');
    expect(formatWallClock('later', 'en')).toBe('later');
  });

  it("shows timestamps on the device's clock, without weekday", () => {
    const local = new Date(2026, 11, 5, 18, 30).toISOString();
    expect(formatInstant(local, 'en')).toBe('5 Dec 2026, 18:30');
    expect(formatInstant(local, 'de')).toBe('05.12.2026, 18:30');
    expect(formatDay(local, 'en')).toBe('5 Dec 2026');
    expect(formatDay(local, 'de')).toBe('05.12.2026');
    expect(formatInstant('not a time', 'de')).toBe('not a time');
  });
});

describe('home / away / other in the create dialog', () => {
  const form = (values: Partial<EventFormValues>): EventFormValues => ({
    ...EMPTY_EVENT_FORM,
    date: '2030-12-07',
    location: 'Köpenick',
    ...values,
  });

  it('writes the choice into the title, replacing a typed suffix', () => {
    expect(withKind(form({ title: 'Union – Hertha' }), 'home')).toMatchObject({ title: 'Union – Hertha (H)', kind: 'home' });
    expect(withKind(form({ title: 'Union – Hertha (H)' }), 'away').title).toBe('Union – Hertha (A)');
    expect(withKind(form({ title: 'Stammtisch (A) ' }), 'other').title).toBe('Stammtisch');
    // Nothing typed yet: the title stays empty (the suffix comes when the title does).
    expect(withKind(form({ title: '' }), 'home').title).toBe('');
  });

  it('reads a typed suffix as the choice; taking it away again undoes home or away, not other', () => {
    expect(withTitle(form({}), 'Bochum – Union (A)').kind).toBe('away');
    expect(withTitle(form({ kind: 'away' }), 'Bochum – Union').kind).toBe('');
    expect(withTitle(form({ kind: 'other' }), 'Weihnachtsfeier').kind).toBe('other');
  });

  it('refuses to guess: without a choice or suffix the form asks', () => {
    expect(toNewEvent(form({ title: 'Stammtisch' }))).toEqual({ ok: false, errors: { kind: 'eventKindRequired' } });
    expect(toNewEvent(form({ title: 'Stammtisch', kind: 'other' }))).toMatchObject({ ok: true, body: { title: 'Stammtisch' } });
    expect(toNewEvent(form({ title: ' Derby ', kind: 'home' }))).toMatchObject({ ok: true, body: { title: 'Derby (H)' } });
    expect(toNewEvent(form({ title: 'Derby (A)' }))).toMatchObject({ ok: true, body: { title: 'Derby (A)' } });
  });

  it('refuses control and direction characters in title and place, as the server does (rules/freeText.ts)', () => {
    expect(toNewEvent(form({ title: 'Der\u202Eby (H)', location: 'Ber\u0000lin' }))).toEqual({
      ok: false,
      errors: { title: 'textHasControlCharacters', location: 'textHasControlCharacters' },
    });
  });
});

describe('transport departure', () => {
  it('is sent as entered, to the minute', () => {
    const result = transportInputOf('e1', {
      ...EMPTY_TRANSPORT_FORM,
      name: 'Bus',
      departure_location: 'Köpenick',
      is_free: true,
      departure: '2030-05-01T07:40',
    });
    expect(result).toMatchObject({ ok: true, body: { departure_datetime: '2030-05-01 07:40' } });
  });
});

describe('a stadium in use', () => {
  const event = (id: string, date: string, stadium_id: string | null) => ({ id, date, stadium_id }) as EventDoc;

  it('is named by its events, soonest first', () => {
    const events = [
      event('b', '2030-02-01 15:30:00', 's1'),
      event('x', '2030-01-01 15:30:00', 's2'),
      event('a', '2030-01-05 15:30:00', 's1'),
    ];
    expect(eventsUsing(events, 's1').map((e) => e.id)).toEqual(['a', 'b']);
    expect(eventsUsing(events, 's3')).toEqual([]);
  });
});
