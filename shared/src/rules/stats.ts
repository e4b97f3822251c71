import { EVENT_YEAR_MAX, EVENT_YEAR_MIN, isUpcoming, locationOfTitle, seasonOf } from '../dates.js';
import { holdsTicket } from './tickets.js';
import type { RuleResult } from './result.js';
import { usernameKey } from './usernames.js';

/*
 * A season in numbers (docs/product.md, Statistics): the club's going and maybe per event, and per
 * active member the past events they went to (home, away, other) and the tickets they had. One pure
 * function, called by the server (domain/attendance/stats.ts, rows narrowed to the season in SQL) and by the
 * device from its own collections (data/collections/stats.ts), so both count alike.
 */

/** The seasons a statistic may name, by the year they start in July: the years an event may have. */
export const STATS_SEASON_MIN = EVENT_YEAR_MIN;
export const STATS_SEASON_MAX = EVENT_YEAR_MAX;

/** The part of an event the statistic reads. */
export interface StatsEvent {
  id: string;
  title: string;
  date: string;
  deleted: boolean;
  archived: boolean;
}

/** The part of an attendee row the statistic reads. */
export interface StatsAttendee {
  /** The row's id: what a boarding tick names (docs/product.md, Bus). */
  id?: string;
  event_id: string;
  user_id: string | null;
  guest_name: string | null;
  status: 'going' | 'maybe';
  has_ticket: boolean;
  bought: boolean;
  deleted: boolean;
}

/** An active member (pending and deleted accounts are no members and are not passed). */
export interface StatsMember {
  id: string;
  username: string;
}

export interface MemberSeasonStats {
  user_id: string;
  username: string;
  /** The season's past home matches ('(H)'), away matches ('(A)') and other events they went to. */
  home: number;
  away: number;
  other: number;
  /** The season's events they had a ticket for: their own, or one bought for them. */
  tickets: number;
  /** The season's past events their own row was ticked on board of a club bus ("mitgefahren"). */
  travelled: number;
}

export interface EventSeasonStats {
  event_id: string;
  title: string;
  date: string;
  /** Live attendee rows, members and guests, answering going / maybe: the event's going_count and maybe_count. */
  going: number;
  maybe: number;
}

export interface SeasonStats {
  members: MemberSeasonStats[];
  events: EventSeasonStats[];
}

/** The season starting in July of `year`, as events name it: 2025 → `2025/26`. */
export const seasonLabel = (year: number): string => `${year}/${String((year + 1) % 100).padStart(2, '0')}`;

/** The year the season of `day` (`YYYY-MM-DD…`) starts in: the current season of the club's today. */
export const seasonYearOf = (day: string): number => Number(seasonOf(day).slice(0, 4));

/** The season's days as a half-open range of event dates, for narrowing a query: [`YYYY-07-01`, `YYYY+1-07-01`). */
export const seasonDateRange = (year: number): { from: string; until: string } => ({
  from: `${year}-07-01`,
  until: `${year + 1}-07-01`,
});

/**
 * The season a statistic asks for (GET /api/stats?season=YYYY): the year it starts in, four digits
 * from STATS_SEASON_MIN to STATS_SEASON_MAX, else 'statsSeasonInvalid'; none given is the season
 * of `today` (the club's day).
 */
export function checkStatsSeason(input: string | null | undefined, today: string): RuleResult<number> {
  if (input === undefined || input === null) return { ok: true, value: seasonYearOf(today) };
  if (!/^\d{4}$/.test(input)) return { ok: false, code: 'statsSeasonInvalid' };
  const year = Number(input);
  if (year < STATS_SEASON_MIN || year > STATS_SEASON_MAX) return { ok: false, code: 'statsSeasonInvalid' };
  return { ok: true, value: year };
}

/** An event the statistic shows: live (neither deleted nor archived: archived ones show nowhere) and of the season. */
export const isSeasonEvent = (event: StatsEvent, season: string): boolean =>
  !event.deleted && !event.archived && event.date !== '' && seasonOf(event.date) === season;

/** The member's own row (not a guest they brought), live. */
const isOwnRow = (row: StatsAttendee): row is StatsAttendee & { user_id: string } =>
  !row.deleted && row.user_id !== null && row.guest_name === null;

/** Most away matches first, then most home matches, then by name (folded like usernames), then id. */
export function compareMemberStats(a: MemberSeasonStats, b: MemberSeasonStats): number {
  if (a.away !== b.away) return b.away - a.away;
  if (a.home !== b.home) return b.home - a.home;
  const ka = usernameKey(a.username);
  const kb = usernameKey(b.username);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0;
}

/**
 * The statistic of the season starting in July of `season`:
 * - `events`: every live event of the season by date (then id), with its live rows (members and
 *   guests) going and maybe, counted like the event document's going_count and maybe_count;
 * - `members`: every member passed, with the season's past events (their day before `today`, the
 *   club's day: as loyalty and "past" everywhere, an event of today is not over yet) where their own
 *   row says going, by the title's suffix (home, away, other); and `tickets`: the season's events,
 *   past or upcoming, where their own row holds a ticket (has a ticket, or one was bought for them),
 *   whatever it answers; and `travelled`: the season's past events where their own row was ticked on
 *   board of a club bus (`onBoard`, the ticked rows). A guest's ticket is the guest's, not the host's. An event counts once per
 *   member however many rows of theirs it has. Sorted by away, then home matches (most first), then name.
 */
export function seasonStats(input: {
  season: number;
  today: string;
  events: readonly StatsEvent[];
  attendees: readonly StatsAttendee[];
  members: readonly StatsMember[];
  /** The attendee rows ticked on board of a transport option (docs/product.md, Bus); none: nobody travelled. */
  onBoard?: ReadonlySet<string>;
}): SeasonStats {
  const label = seasonLabel(input.season);
  const events = input.events
    .filter((event) => isSeasonEvent(event, label))
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map(events.map((event) => [event.id, event]));
  const counts = new Map(events.map((event) => [event.id, { going: 0, maybe: 0 }]));
  const members = new Map<string, MemberSeasonStats>(
    input.members.map((member) => [
      member.id,
      { user_id: member.id, username: member.username, home: 0, away: 0, other: 0, tickets: 0, travelled: 0 },
    ]),
  );
  const went = new Set<string>();
  const ticketed = new Set<string>();
  const travelled = new Set<string>();

  for (const row of input.attendees) {
    const event = byId.get(row.event_id);
    if (!event || row.deleted) continue;
    const count = counts.get(event.id)!;
    if (row.status === 'going') count.going++;
    else if (row.status === 'maybe') count.maybe++;
    if (!isOwnRow(row)) continue;
    const member = members.get(row.user_id);
    if (!member) continue;
    const key = `${row.user_id}\u0000${event.id}`;
    if (holdsTicket(row) && !ticketed.has(key)) {
      ticketed.add(key);
      member.tickets++;
    }
    if (row.status === 'going' && !isUpcoming(event.date, input.today) && !went.has(key)) {
      went.add(key);
      member[locationOfTitle(event.title)]++;
    }
    if (row.id !== undefined && input.onBoard?.has(row.id) && !isUpcoming(event.date, input.today) && !travelled.has(key)) {
      travelled.add(key);
      member.travelled++;
    }
  }

  return {
    members: [...members.values()].sort(compareMemberStats),
    events: events.map((event) => ({
      event_id: event.id,
      title: event.title,
      date: event.date,
      ...counts.get(event.id)!,
    })),
  };
}

/** Per location, the average of the members' counts (0 without members): the club's average member. */
export function averageMember(members: readonly Pick<MemberSeasonStats, 'home' | 'away' | 'other'>[]): {
  home: number;
  away: number;
  other: number;
} {
  const total = { home: 0, away: 0, other: 0 };
  for (const member of members) {
    total.home += member.home;
    total.away += member.away;
    total.other += member.other;
  }
  const n = members.length;
  return n === 0 ? total : { home: total.home / n, away: total.away / n, other: total.other / n };
}
