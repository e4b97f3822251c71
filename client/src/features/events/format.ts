import type { Language } from '@fankurve/shared';

const EVENT_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?/;
const formatters = new Map<Language, Intl.DateTimeFormat>();

/** The wall-clock date of `YYYY-MM-DD HH:MM:SS` as a Date whose UTC fields carry it, or null. */
export function wallClock(date: string): Date | null {
  const match = EVENT_DATE.exec(date);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0'] = match;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)));
}

/**
 * An event's date and time for the language: `Sa., 05.12.2026, 15:30` (de), `Sat, 05/12/2026, 15:30` (en).
 * The stored time is the club's wall clock, shown as written (no time-zone shift).
 */
export function formatEventDate(date: string, language: Language): string {
  const value = wallClock(date);
  if (!value) return date;
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'de-DE', {
      timeZone: 'UTC',
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(language, formatter);
  }
  return formatter.format(value);
}

/** The `datetime` attribute of a <time> element: `2026-12-05T15:30`. */
export function isoWallClock(date: string): string {
  return date.slice(0, 16).replace(' ', 'T');
}
