import { AWAY_SUFFIX, DEFAULT_EVENT_TIME, HOME_SUFFIX, TIME_STEP_MINUTES } from './constants.js';
import type { CoreMessageCode } from './messages.js';
import type { RuleResult } from './rules/result.js';

/** Event dates are the club's wall-clock time as `YYYY-MM-DD HH:MM:SS` (docs/product.md, Limits and constants). */
const EVENT_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

const pad = (n: number): string => String(n).padStart(2, '0');

/** Event dates and departures lie in these years: the app has no use for others. */
export const EVENT_YEAR_MIN = 2000;
export const EVENT_YEAR_MAX = 2100;

/**
 * Accepts `YYYY-MM-DD HH:MM[:SS]` or ISO 8601 (`2025-03-01T15:30`) and returns the stored form with
 * minutes rounded to the nearest 15; otherwise `invalid` (the text is no date: the caller's own
 * message code, e.g. dateRequired or departureInvalid) or dateOutOfRange (a real date outside the
 * years EVENT_YEAR_MIN–EVENT_YEAR_MAX, like 0099 or 9999). A date without a time gets the default
 * kick-off (15:00). A time zone suffix is ignored: the wall-clock time as written is the club's local
 * time. The range holds after rounding too: 2100-12-31 23:53 would round to 2101 and is refused
 * rather than rounded down, so the stored date is always the nearest quarter hour of what was typed.
 */
export function checkEventDate(input: string, invalid: CoreMessageCode = 'dateRequired'): RuleResult<string> {
  return checkWallClock(input, invalid, true);
}

/**
 * A transport's departure (docs/product.md, Readings, Transport): the same forms and years as an event date, but kept to the
 * minute as entered; a bus leaving at 07:40 is not moved to 07:45.
 */
export function checkDepartureDate(input: string): RuleResult<string> {
  return checkWallClock(input, 'departureInvalid', false);
}

function checkWallClock(input: string, invalid: CoreMessageCode, round: boolean): RuleResult<string> {
  const match = EVENT_DATE_PATTERN.exec(input.trim());
  if (!match) return { ok: false, code: invalid };
  const [defaultHour, defaultMinute] = DEFAULT_EVENT_TIME.split(':');
  const [, y, mo, d, h = defaultHour, mi = defaultMinute] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return { ok: false, code: invalid };
  // Before any Date: Date.UTC reads the years 0–99 as 1900–1999.
  if (year < EVENT_YEAR_MIN || year > EVENT_YEAR_MAX) return { ok: false, code: 'dateOutOfRange' };
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return { ok: false, code: invalid };
  const rounded = new Date(Date.UTC(year, month - 1, day, hour, round ? roundToTimeStep(minute) : minute));
  if (rounded.getUTCFullYear() > EVENT_YEAR_MAX) return { ok: false, code: 'dateOutOfRange' };
  return { ok: true, value: formatEventDate(rounded) };
}

/** The same as a value or null (no date, or out of range), for callers that need no reason. */
export function normaliseEventDate(input: string): string | null {
  const checked = checkEventDate(input);
  return checked.ok ? checked.value : null;
}

export function roundToTimeStep(minutes: number): number {
  return Math.round(minutes / TIME_STEP_MINUTES) * TIME_STEP_MINUTES;
}

/** Formats the UTC fields of a Date that carries wall-clock time. */
function formatEventDate(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:00`
  );
}

/** Season July–June labelled like `2024/25`. */
export function seasonOf(eventDate: string): string {
  const year = Number(eventDate.slice(0, 4));
  const month = Number(eventDate.slice(5, 7));
  const start = month >= 7 ? year : year - 1;
  return `${start}/${pad((start + 1) % 100)}`;
}

const FORMAT_OPTIONS = {
  day: { year: 'numeric', month: '2-digit', day: '2-digit' },
  wallClock: {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per kind and time zone, made once: a new Intl.DateTimeFormat costs ~30 KiB of native
 * memory that the garbage collector does not see, and an answer asked for two (docs/architecture.md,
 * Memory).
 */
export function clubFormatter(kind: keyof typeof FORMAT_OPTIONS, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}\n${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, ...FORMAT_OPTIONS[kind] });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Per time zone, the last second asked for and its date: formatting costs tens of microseconds, and a busy server asks on every pull. */
const lastDays = new Map<string, { second: number; day: string }>();

/** Today's date (`YYYY-MM-DD`) in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // No zone's offset has a fraction of a second, so a date changes only on a whole second.
  const second = Math.floor(now.getTime() / 1000);
  const last = lastDays.get(timeZone);
  if (last?.second === second) return last.day;
  const day = clubFormatter('day', timeZone).format(now);
  lastDays.set(timeZone, { second, day });
  return day;
}

/**
 * The instant of the club's wall-clock time `YYYY-MM-DD HH:MM[:SS]` in `timeZone`. Worked out twice,
 * because the offset at the first guess may differ from the one at the result across a DST change
 * (in an overlap the later instant is taken).
 */
export function clubTimeToInstant(wallClock: string, timeZone: string): Date {
  const [date = '', time = '00:00:00'] = wallClock.split(/[ T]/);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number);
  const naive = Date.UTC(year, month - 1, day, hour, minute, second);
  const format = clubFormatter('wallClock', timeZone);
  const offset = (at: number) => {
    const parts = format.formatToParts(new Date(at));
    const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - at;
  };
  const first = naive - offset(naive);
  return new Date(naive - offset(first));
}

/** Upcoming if the event's date is today or later (docs/product.md, States and transitions). */
export function isUpcoming(eventDate: string, today: string): boolean {
  return eventDate.slice(0, 10) >= today;
}

export type EventLocation = 'home' | 'away' | 'other';
export const EVENT_LOCATIONS: readonly EventLocation[] = ['home', 'away', 'other'];

/**
 * Where an event is, by its title's suffix (docs/product.md, Limits and constants): '(H)' home, '(A)' away; a title with neither
 * (a Stammtisch, the Christmas party) is no match: 'other', shown under every location filter.
 */
export function locationOfTitle(title: string): EventLocation {
  const trimmed = title.trim();
  if (trimmed.endsWith(HOME_SUFFIX)) return 'home';
  if (trimmed.endsWith(AWAY_SUFFIX)) return 'away';
  return 'other';
}

/** A match is an event whose title ends in '(H)' or '(A)'. */
export const isMatchTitle = (title: string): boolean => locationOfTitle(title) !== 'other';

/**
 * The title for a chosen location: the typed title without any '(H)' / '(A)' suffix, followed by the
 * location's suffix (none for 'other'). `Union – Hertha` + home → `Union – Hertha (H)`.
 */
export function titleForLocation(title: string, location: EventLocation): string {
  let base = title.trim();
  while (locationOfTitle(base) !== 'other') base = base.slice(0, -HOME_SUFFIX.length).trimEnd();
  if (location === 'other' || base === '') return base;
  return `${base} ${location === 'home' ? HOME_SUFFIX : AWAY_SUFFIX}`;
}
