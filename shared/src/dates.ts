import { AWAY_SUFFIX, DEFAULT_EVENT_TIME, HOME_SUFFIX, TIME_STEP_MINUTES } from './constants.js';

/** Event dates are the club's wall-clock time as `YYYY-MM-DD HH:MM:SS` (SPEC 5). */
const EVENT_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * Accepts `YYYY-MM-DD HH:MM[:SS]` or ISO 8601 (`2025-03-01T15:30`) and returns the stored form with
 * minutes rounded to the nearest 15, or null when the text is no valid date. A date without a time
 * gets the default kick-off (15:00). A time zone suffix is ignored: the wall-clock time as written is
 * the club's local time.
 */
export function normaliseEventDate(input: string): string | null {
  const match = EVENT_DATE_PATTERN.exec(input.trim());
  if (!match) return null;
  const [defaultHour, defaultMinute] = DEFAULT_EVENT_TIME.split(':');
  const [, y, mo, d, h = defaultHour, mi = defaultMinute] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  const rounded = new Date(Date.UTC(year, month - 1, day, hour, roundToTimeStep(minute)));
  return formatEventDate(rounded);
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

/** Today's date (`YYYY-MM-DD`) in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Upcoming if the event's date is today or later (SPEC 4). */
export function isUpcoming(eventDate: string, today: string): boolean {
  return eventDate.slice(0, 10) >= today;
}

export type EventLocation = 'home' | 'away' | 'other';

export function locationOfTitle(title: string): EventLocation {
  const trimmed = title.trim();
  if (trimmed.endsWith(HOME_SUFFIX)) return 'home';
  if (trimmed.endsWith(AWAY_SUFFIX)) return 'away';
  return 'other';
}
