import { describe, expect, it } from 'vitest';
import {
  averageMember,
  checkStatsSeason,
  seasonDateRange,
  seasonLabel,
  seasonStats,
  seasonYearOf,
  type StatsAttendee,
  type StatsEvent,
} from '../src/rules/stats.js';

/* The season's statistic (docs/product.md, Statistics): one rule for the server and the device. */

const event = (id: string, title: string, date: string, fields: Partial<StatsEvent> = {}): StatsEvent => ({
  id,
  title,
  date: `${date} 15:30:00`,
  deleted: false,
  archived: false,
  ...fields,
});

const row = (event_id: string, user_id: string | null, fields: Partial<StatsAttendee> = {}): StatsAttendee => ({
  event_id,
  user_id,
  guest_name: null,
  status: 'going',
  has_ticket: false,
  bought: false,
  deleted: false,
  ...fields,
});

const members = [
  { id: 'u-anna', username: 'Anna' },
  { id: 'u-bert', username: 'bert' },
  { id: 'u-carl', username: 'Carl' },
];

describe('seasons', () => {
  it('names a season by its first year and knows its days', () => {
    expect(seasonLabel(2025)).toBe('2025/26');
    expect(seasonLabel(2099)).toBe('2099/00');
    expect(seasonYearOf('2025-06-30')).toBe(2024);
    expect(seasonYearOf('2025-07-01')).toBe(2025);
    expect(seasonDateRange(2025)).toEqual({ from: '2025-07-01', until: '2026-07-01' });
  });

  it('takes four digits from 2000 to 2100, and the season of today when none is given', () => {
    expect(checkStatsSeason('2024', '2026-01-01')).toEqual({ ok: true, value: 2024 });
    expect(checkStatsSeason('2000', '2026-01-01')).toEqual({ ok: true, value: 2000 });
    expect(checkStatsSeason('2100', '2026-01-01')).toEqual({ ok: true, value: 2100 });
    expect(checkStatsSeason(undefined, '2026-01-01')).toEqual({ ok: true, value: 2025 });
    expect(checkStatsSeason(null, '2026-07-01')).toEqual({ ok: true, value: 2026 });
    for (const bad of ['', '24', '02024', '1999', '2101', '2024/25', 'abcd', ' 2024', '2024 ', '2e03', '２０２４']) {
      expect(checkStatsSeason(bad, '2026-01-01'), bad).toEqual({ ok: false, code: 'statsSeasonInvalid' });
    }
  });
});

describe('seasonStats', () => {
  const events = [
    event('e-away', 'Bochum – Union (A)', '2024-09-14'),
    event('e-home', 'Union – Hertha (H)', '2024-10-05'),
    event('e-party', 'Weihnachtsfeier', '2024-12-20'),
    event('e-ahead', 'Köln – Union (A)', '2025-03-01'),
    event('e-deleted', 'Mainz – Union (A)', '2024-11-01', { deleted: true }),
    event('e-archived', 'Freiburg – Union (A)', '2024-11-08', { archived: true }),
    event('e-before', 'Letzte Saison (A)', '2024-06-30'),
    event('e-after', 'Nächste Saison (A)', '2025-07-01'),
  ];

  it('counts going and maybe per live event of the season, guests and every account included, by date', () => {
    const result = seasonStats({
      season: 2024,
      today: '2025-01-01',
      events: [...events].reverse(),
      members,
      attendees: [
        row('e-away', 'u-anna'),
        row('e-away', null, { guest_name: 'Onkel Horst', status: 'going' }),
        row('e-away', 'u-gone'),
        row('e-away', 'u-bert', { status: 'maybe' }),
        row('e-away', 'u-carl', { deleted: true }),
        row('e-home', 'u-carl', { status: 'maybe' }),
        row('e-deleted', 'u-anna'),
        row('e-archived', 'u-anna', { bought: true }),
        row('e-before', 'u-anna'),
        row('e-after', 'u-anna'),
        row('e-unknown', 'u-anna'),
      ],
    });
    expect(result.events).toEqual([
      { event_id: 'e-away', title: 'Bochum – Union (A)', date: '2024-09-14 15:30:00', going: 3, maybe: 1 },
      { event_id: 'e-home', title: 'Union – Hertha (H)', date: '2024-10-05 15:30:00', going: 0, maybe: 1 },
      { event_id: 'e-party', title: 'Weihnachtsfeier', date: '2024-12-20 15:30:00', going: 0, maybe: 0 },
      { event_id: 'e-ahead', title: 'Köln – Union (A)', date: '2025-03-01 15:30:00', going: 0, maybe: 0 },
    ]);
  });

  it("counts each member's own going rows of past events by the title's suffix, and their tickets of the season", () => {
    const result = seasonStats({
      season: 2024,
      today: '2025-03-01',
      events,
      members,
      attendees: [
        // Anna: away with her own ticket, home, the party; the match of today is not over yet, its ticket counts.
        row('e-away', 'u-anna', { has_ticket: true }),
        row('e-home', 'u-anna'),
        row('e-party', 'u-anna'),
        row('e-ahead', 'u-anna', { bought: true }),
        // Her guest's ticket is not hers.
        row('e-home', null, { guest_name: 'Gast', has_ticket: true }),
        // Deleted, archived and other seasons' events count for nobody.
        row('e-deleted', 'u-anna', { has_ticket: true }),
        row('e-archived', 'u-anna', { bought: true }),
        row('e-before', 'u-anna', { has_ticket: true }),
        row('e-after', 'u-anna', { has_ticket: true }),
        // Bert: maybe with a bought ticket is a ticket, not a match he went to; a removed row is nothing.
        row('e-away', 'u-bert', { status: 'maybe', bought: true }),
        row('e-home', 'u-bert', { deleted: true, has_ticket: true }),
        // Carl: one match, one away, twice in the rows, counts once.
        row('e-away', 'u-carl', { has_ticket: true }),
        row('e-away', 'u-carl', { has_ticket: true }),
        // Not a member (deleted or pending account): not listed.
        row('e-away', 'u-gone', { has_ticket: true }),
      ],
    });
    expect(result.members).toEqual([
      { user_id: 'u-anna', username: 'Anna', home: 1, away: 1, other: 1, tickets: 2, travelled: 0 },
      { user_id: 'u-carl', username: 'Carl', home: 0, away: 1, other: 0, tickets: 1, travelled: 0 },
      { user_id: 'u-bert', username: 'bert', home: 0, away: 0, other: 0, tickets: 1, travelled: 0 },
    ]);
    // A day later the match of 2025-03-01 is over.
    const later = seasonStats({ season: 2024, today: '2025-03-02', events, members, attendees: [row('e-ahead', 'u-anna')] });
    expect(later.members[0]).toEqual({
      user_id: 'u-anna',
      username: 'Anna',
      home: 0,
      away: 1,
      other: 0,
      tickets: 0,
      travelled: 0,
    });
  });

  it("counts the past events a member's own row was ticked on board of a club bus, once each (docs/product.md, Bus)", () => {
    const ticked = (id: string, eventId: string, userId: string | null, fields = {}) => ({ ...row(eventId, userId, fields), id });
    const result = seasonStats({
      season: 2024,
      today: '2025-03-02',
      events,
      members,
      attendees: [
        ticked('a1', 'e-away', 'u-anna'),
        // Ticked twice (two rows of one event) counts once; a guest's tick is the guest's; the event of today is over.
        ticked('a2', 'e-ahead', 'u-anna'),
        ticked('a3', 'e-ahead', 'u-anna'),
        ticked('g1', 'e-away', null, { guest_name: 'Gast' }),
        // Carl's row is not ticked.
        ticked('c1', 'e-away', 'u-carl'),
      ],
      onBoard: new Set(['a1', 'a2', 'a3', 'g1']),
    });
    expect(result.members.map((member) => [member.username, member.travelled])).toEqual([
      ['Anna', 2],
      ['Carl', 0],
      ['bert', 0],
    ]);
  });

  it('orders by away matches, then home matches (most first), then by name folded like usernames, then id', () => {
    const many = [
      { id: 'u1', username: 'zora' },
      { id: 'u2', username: 'Bruno' },
      { id: 'u3', username: 'anton' },
      { id: 'u4', username: 'Émil' },
      { id: 'u5', username: 'ANTON' },
    ];
    const result = seasonStats({
      season: 2024,
      today: '2026-01-01',
      events,
      members: many,
      attendees: [row('e-home', 'u1'), row('e-away', 'u2'), row('e-home', 'u4'), row('e-away', 'u4')],
    });
    expect(result.members.map((member) => member.username)).toEqual(['Émil', 'Bruno', 'zora', 'anton', 'ANTON']);
  });

  it('gives every member a row, with nothing in the season too', () => {
    const result = seasonStats({ season: 2030, today: '2026-01-01', events, members, attendees: [row('e-away', 'u-anna')] });
    expect(result.events).toEqual([]);
    expect(result.members.map((member) => [member.username, member.home + member.away + member.other + member.tickets])).toEqual([
      ['Anna', 0],
      ['bert', 0],
      ['Carl', 0],
    ]);
  });
});

describe('averageMember', () => {
  it('averages home, away and other over every member, zeros included', () => {
    expect(
      averageMember([
        { home: 2, away: 3, other: 0 },
        { home: 0, away: 0, other: 0 },
        { home: 1, away: 0, other: 1 },
      ]),
    ).toEqual({ home: 1, away: 1, other: 1 / 3 });
    expect(averageMember([])).toEqual({ home: 0, away: 0, other: 0 });
  });
});
