import { newGuestAttendeeDoc, newMemberAttendeeDoc, type AttendeeDoc } from '@fankurve/shared';
import { describe, expect, it } from 'vitest';
import { eventDateOf, EMPTY_EVENT_FORM, HOURS, MINUTES, toNewEvent } from '../src/features/events/eventForm.js';
import { tidyEuros } from '../src/ui/MoneyField.js';
import {
  defaultSeason,
  filterEvents,
  isSeasonLabel,
  matchesWhere,
  readFilters,
  seasonOfEvent,
  seasonsOf,
  writeFilters,
} from '../src/features/events/filters.js';
import { attendanceOf, summarizeAttendance } from '../src/features/events/summary.js';
import { eventsAtStadium } from '../src/features/stadiums/stadiumEvents.js';
import {
  EMPTY_STADIUM_FORM,
  stadiumFormValues,
  toStadiumInput,
  toTicketPriceInput,
} from '../src/features/stadiums/stadiumForm.js';

const event = (id: string, date: string, title = id, season?: string) => ({ id, date, title, season });

describe('seasons', () => {
  const events = [
    event('a', '2025-08-01 15:30:00', 'A (A)'),
    event('b', '2026-05-20 15:30:00', 'B (H)'),
    event('c', '2026-07-01 15:30:00', 'C (A)'),
    event('d', '2024-12-01 15:30:00', 'D'),
  ];

  it('are the distinct seasons of the events, July to June, newest first', () => {
    expect(seasonsOf(events)).toEqual(['2026/27', '2025/26', '2024/25']);
    expect(seasonsOf([])).toEqual([]);
  });

  it("take the server's season field, else the date", () => {
    expect(seasonOfEvent(event('x', '2026-08-01 15:30:00', 'x', '2026/27'))).toBe('2026/27');
    expect(seasonOfEvent(event('x', '2026-08-01 15:30:00', 'x', ''))).toBe('2026/27');
    expect(seasonOfEvent(event('x', '2026-06-30 20:00:00', 'x', 'bogus'))).toBe('2025/26');
    expect(isSeasonLabel('1999/00')).toBe(true);
    expect(isSeasonLabel('2025/27')).toBe(false);
  });

  it('default to the current season of the club, else the newest season with events', () => {
    const seasons = ['2026/27', '2025/26'];
    expect(defaultSeason(seasons, '2026-03-10')).toBe('2025/26');
    expect(defaultSeason(seasons, '2026-07-01')).toBe('2026/27');
    // The current season has no events: the newest that has.
    expect(defaultSeason(['2024/25', '2023/24'], '2026-11-22')).toBe('2024/25');
    expect(defaultSeason([], '2026-11-22')).toBeNull();
  });
});

describe('location filter', () => {
  it('goes by the (H) / (A) suffix; events without one are no match and show under every filter', () => {
    expect(matchesWhere('Union – Hertha (H)', 'home')).toBe(true);
    expect(matchesWhere('Union – Hertha (H)', 'away')).toBe(false);
    expect(matchesWhere('Bochum – Union (A) ', 'away')).toBe(true);
    expect(matchesWhere('Fan party', 'away')).toBe(true);
    expect(matchesWhere('Fan party', 'home')).toBe(true);
    expect(matchesWhere('Fan party', 'all')).toBe(true);
    expect(matchesWhere('(H) in the middle', 'home')).toBe(true);
    expect(matchesWhere('(H) in the middle', 'away')).toBe(true);
  });
});

describe('filters in the URL query', () => {
  const seasons = ['2026/27', '2025/26'];
  const today = '2026-11-22';

  it('read the season and location, with defaults for missing and unknown values', () => {
    expect(readFilters(new URLSearchParams(''), seasons, today)).toEqual({ season: '2026/27', where: 'away' });
    expect(readFilters(new URLSearchParams('season=2025/26&where=home'), seasons, today)).toEqual({
      season: '2025/26',
      where: 'home',
    });
    expect(readFilters(new URLSearchParams('season=1990/91&where=everywhere'), seasons, today)).toEqual({
      season: '2026/27',
      where: 'away',
    });
    expect(readFilters(new URLSearchParams('where=all'), [], today)).toEqual({ season: null, where: 'all' });
  });

  it('write only what differs from the defaults and keep other parameters', () => {
    const query = new URLSearchParams('x=1&where=home');
    expect(writeFilters(query, { season: '2025/26', where: 'all' }, seasons, today).toString()).toBe(
      'x=1&where=all&season=2025%2F26',
    );
    expect(writeFilters(query, { season: '2026/27', where: 'away' }, seasons, today).toString()).toBe('x=1');
    expect(query.toString()).toBe('x=1&where=home');
  });

  it('round-trip', () => {
    const filters = { season: '2025/26', where: 'home' } as const;
    expect(readFilters(writeFilters(new URLSearchParams(), filters, seasons, today), seasons, today)).toEqual(filters);
  });

  it('select the events of the season and location', () => {
    const events = [
      event('away-now', '2026-10-01 15:30:00', 'X (A)', '2026/27'),
      event('home-now', '2026-10-08 15:30:00', 'Y (H)', '2026/27'),
      event('party-now', '2026-10-09 19:00:00', 'Party', '2026/27'),
      event('away-last', '2026-03-01 15:30:00', 'Z (A)', '2025/26'),
    ];
    const ids = (season: string | null, where: 'away' | 'home' | 'all') =>
      filterEvents(events, { season, where }).map((e) => e.id);
    expect(ids('2026/27', 'away')).toEqual(['away-now', 'party-now']);
    expect(ids('2026/27', 'home')).toEqual(['home-now', 'party-now']);
    expect(ids('2026/27', 'all')).toEqual(['away-now', 'home-now', 'party-now']);
    expect(ids('2025/26', 'away')).toEqual(['away-last']);
    expect(ids(null, 'away')).toEqual(['away-now', 'party-now', 'away-last']);
  });
});

describe('payment required', () => {
  const base = (doc: AttendeeDoc, overrides: Partial<AttendeeDoc>): AttendeeDoc => ({ ...doc, seq: 1, ...overrides });
  const own = (overrides: Partial<AttendeeDoc>) =>
    base(
      newMemberAttendeeDoc(
        { id: 'own', event_id: 'e1', user_id: 'me', status: 'going', created_at: '2026-11-01T10:00:00Z' },
        'Test match (A)',
      ),
      overrides,
    );
  const guest = (overrides: Partial<AttendeeDoc>) =>
    base(
      newGuestAttendeeDoc(
        { id: 'g', event_id: 'e1', guest_name: 'Kalle', brought_by: 'me', created_at: '2026-11-01T10:00:00Z' },
        'Test match (A)',
      ),
      overrides,
    );

  it("is the member's bought, unpaid ticket", () => {
    expect(attendanceOf(summarizeAttendance([own({ bought: true })], 'me'), 'e1').paymentRequired).toBe(true);
    expect(attendanceOf(summarizeAttendance([own({ bought: true, paid: true })], 'me'), 'e1').paymentRequired).toBe(false);
    expect(attendanceOf(summarizeAttendance([own({ bought: false })], 'me'), 'e1').paymentRequired).toBe(false);
  });

  it("is also a guest's bought, unpaid ticket for the member who brought them, not for others", () => {
    const rows = [own({}), guest({ bought: true })];
    expect(attendanceOf(summarizeAttendance(rows, 'me'), 'e1').paymentRequired).toBe(true);
    expect(attendanceOf(summarizeAttendance(rows, 'someone-else'), 'e1').paymentRequired).toBe(false);
    expect(attendanceOf(summarizeAttendance([guest({ bought: true, paid: true })], 'me'), 'e1').paymentRequired).toBe(false);
  });

  it("is not another member's debt", () => {
    const rows = [own({}), base(own({ id: 'other', user_id: 'other', bought: true }), {})];
    expect(attendanceOf(summarizeAttendance(rows, 'me'), 'e1').paymentRequired).toBe(false);
  });
});

describe('create-event form', () => {
  const filled = { ...EMPTY_EVENT_FORM, title: ' Bochum – Union (A) ', date: '2026-12-05', location: ' Bochum ' };

  it('offers hours 0-23 and minutes 00/15/30/45, default 15:00', () => {
    expect(HOURS).toHaveLength(24);
    expect([HOURS[0], HOURS[23]]).toEqual(['0', '23']);
    expect(MINUTES).toEqual(['00', '15', '30', '45']);
    expect([EMPTY_EVENT_FORM.hour, EMPTY_EVENT_FORM.minute]).toEqual(['15', '00']);
  });

  it('requires title, home / away / other, date and location', () => {
    expect(toNewEvent(EMPTY_EVENT_FORM)).toEqual({
      ok: false,
      errors: { title: 'titleRequired', kind: 'eventKindRequired', date: 'dateRequired', location: 'locationRequired' },
    });
    expect(toNewEvent({ ...filled, date: '2026-02-30' })).toEqual({ ok: false, errors: { date: 'dateRequired' } });
  });

  it('builds the body: trimmed texts, date and time, optional fields left out', () => {
    expect(toNewEvent(filled)).toEqual({
      ok: true,
      body: { title: 'Bochum – Union (A)', date: '2026-12-05 15:00', location: 'Bochum' },
    });
    expect(
      toNewEvent({ ...filled, hour: '9', minute: '45', stadiumId: 's1', description: ' Bus at 6 ', price: '12,35' }),
    ).toEqual({
      ok: true,
      body: {
        title: 'Bochum – Union (A)',
        date: '2026-12-05 09:45',
        location: 'Bochum',
        stadium_id: 's1',
        description: 'Bus at 6',
        ticket_price: 12.35,
      },
    });
  });

  it("sends 0 for 'not yet available' and refuses a negative price", () => {
    expect(toNewEvent({ ...filled, price: '30', priceTba: true })).toMatchObject({ ok: true, body: { ticket_price: 0 } });
    expect(toNewEvent({ ...filled, price: '-1' })).toEqual({ ok: false, errors: { price: 'moneyInvalid' } });
    expect(toNewEvent({ ...filled, price: 'abc' })).toEqual({ ok: false, errors: { price: 'moneyInvalid' } });
    // At most two decimals: a third is refused rather than rounded away, and the form says why.
    expect(toNewEvent({ ...filled, price: '12,345' })).toEqual({ ok: false, errors: { price: 'moneyTooPrecise' } });
    expect(toNewEvent({ ...filled, price: '18,5' })).toMatchObject({ ok: true, body: { ticket_price: 18.5 } });
  });

  it('rounds the time to 15 minutes and tidies the price to two decimals', () => {
    expect(eventDateOf({ date: '2026-12-05', hour: '23', minute: '53' })).toBe('2026-12-06 00:00');
    expect(eventDateOf({ date: '2026-12-05', hour: '24', minute: '00' })).toBeNull();
    expect(eventDateOf({ date: '', hour: '15', minute: '00' })).toBeNull();
    expect(tidyEuros('12.5')).toBe('12.50');
    expect(tidyEuros('12,5')).toBe('12.50');
    expect(tidyEuros('12,345')).toBe('12,345');
    expect(tidyEuros('1.234,5')).toBe('1234.50');
    expect(tidyEuros('x')).toBe('x');
  });
});

describe('stadium form', () => {
  const filled = { ...EMPTY_STADIUM_FORM, team_name: ' VfL Bochum ', stadium_name: 'Vonovia Ruhrstadion', city: 'Bochum' };

  it('requires team name, stadium name and city; capacities default 0', () => {
    expect(toStadiumInput(EMPTY_STADIUM_FORM)).toEqual({
      ok: false,
      errors: { team_name: 'teamNameRequired', stadium_name: 'stadiumNameRequired', city: 'cityRequired' },
    });
    expect(toStadiumInput({ ...filled, capacity: '', guest_block_capacity: '' })).toEqual({
      ok: true,
      body: {
        team_name: 'VfL Bochum',
        stadium_name: 'Vonovia Ruhrstadion',
        city: 'Bochum',
        capacity: 0,
        guest_block_capacity: 0,
        address: null,
        ticket_price: null,
      },
    });
  });

  it('takes whole capacities, an optional address and price', () => {
    expect(
      toStadiumInput({
        ...filled,
        capacity: '26000',
        guest_block_capacity: '3500',
        address: ' Castroper Str. 145 ',
        ticket_price: '18.5',
      }),
    ).toMatchObject({
      ok: true,
      body: { capacity: 26000, guest_block_capacity: 3500, address: 'Castroper Str. 145', ticket_price: 18.5 },
    });
    expect(toStadiumInput({ ...filled, capacity: '-1', guest_block_capacity: '2.5', ticket_price: '-3' })).toEqual({
      ok: false,
      errors: { capacity: 'capacityInvalid', guest_block_capacity: 'capacityInvalid', ticket_price: 'priceInvalid' },
    });
  });

  it('fills the form from a stadium for editing', () => {
    expect(
      stadiumFormValues({
        id: 's',
        team_name: 'T',
        stadium_name: 'S',
        city: 'C',
        capacity: 10,
        guest_block_capacity: 2,
        address: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        ticket_price: 12,
        ticketPrices: [],
      }),
    ).toEqual({
      team_name: 'T',
      stadium_name: 'S',
      city: 'C',
      capacity: '10',
      guest_block_capacity: '2',
      address: '',
      ticket_price: '12.00',
    });
  });

  it("asks for all fields of a ticket price ('Please fill in all fields')", () => {
    expect(toTicketPriceInput('', 'Stehplatz')).toEqual({ ok: false, field: 'form', error: 'fillAllFields' });
    expect(toTicketPriceInput('15', '  ')).toEqual({ ok: false, field: 'form', error: 'fillAllFields' });
    // The price field's own rule and code (checkEuros), the same the field shows while typing.
    expect(toTicketPriceInput('-5', 'Stehplatz')).toEqual({ ok: false, field: 'price', error: 'moneyInvalid' });
    expect(toTicketPriceInput('18,555', 'Stehplatz')).toEqual({ ok: false, field: 'price', error: 'moneyTooPrecise' });
    expect(toTicketPriceInput('1.234,50', 'Loge')).toEqual({ ok: true, price: 1234.5, ticket_type: 'Loge' });
    expect(toTicketPriceInput('15.5', ' Stehplatz ')).toEqual({ ok: true, price: 15.5, ticket_type: 'Stehplatz' });
    expect(toTicketPriceInput('0', 'Kinder')).toEqual({ ok: true, price: 0, ticket_type: 'Kinder' });
  });
});

describe('events at a stadium', () => {
  it('are the next five upcoming (soonest first) and the five latest past ones', () => {
    const today = '2026-11-22';
    const events = [
      ...Array.from({ length: 7 }, (_, i) => ({ ...event(`up${i}`, `2026-12-${String(10 + i)} 15:30:00`), stadium_id: 's1' })),
      ...Array.from({ length: 6 }, (_, i) => ({ ...event(`past${i}`, `2026-10-${String(10 + i)} 15:30:00`), stadium_id: 's1' })),
      { ...event('today', '2026-11-22 20:30:00'), stadium_id: 's1' },
      { ...event('elsewhere', '2026-11-30 15:30:00'), stadium_id: 's2' },
      { ...event('none', '2026-11-29 15:30:00'), stadium_id: null },
    ];
    const { upcoming, recent } = eventsAtStadium(events, 's1', today);
    expect(upcoming.map((e) => e.id)).toEqual(['today', 'up0', 'up1', 'up2', 'up3']);
    expect(recent.map((e) => e.id)).toEqual(['past5', 'past4', 'past3', 'past2', 'past1']);
  });
});
