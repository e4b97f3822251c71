import type { Language } from '@fankurve/shared/constants';

/*
 * The one date formatter of the interface (docs/product.md, Readings). English dates are unambiguous (`Sat 5 Dec 2026,
 * 18:30`: never 05/12, which reads as May 12 to half the world); German stays `Sa., 05.12.2026, 18:30`.
 * The names are written out here rather than asked from Intl, so every browser (and the tests' Node)
 * shows exactly the same text.
 */

const WEEKDAYS: Record<Language, readonly string[]> = {
  de: ['So.', 'Mo.', 'Di.', 'Mi.', 'Do.', 'Fr.', 'Sa.'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
};
const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

interface Fields {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday */
  weekday: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

function dayText({ year, month, day }: Fields, language: Language): string {
  return language === 'en' ? `${day} ${MONTHS_EN[month - 1]} ${year}` : `${pad(day)}.${pad(month)}.${year}`;
}

function format(fields: Fields, language: Language, parts: { weekday: boolean; time: boolean }): string {
  let text = dayText(fields, language);
  if (parts.weekday) text = `${WEEKDAYS[language][fields.weekday]}${language === 'en' ? ' ' : ', '}${text}`;
  if (parts.time) text += `, ${pad(fields.hour)}:${pad(fields.minute)}`;
  return text;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?/;

/** The fields of a club wall-clock time `YYYY-MM-DD HH:MM[:SS]`, or null. */
function wallClockFields(value: string): Fields | null {
  const match = WALL_CLOCK.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0'] = match;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)));
  if (Number.isNaN(date.getTime())) return null;
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    weekday: date.getUTCDay(),
  };
}

/** The fields of a stored timestamp (ISO, UTC) in the device's time zone, or null. */
function instantFields(value: string): Fields | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    weekday: date.getDay(),
  };
}

/**
 * An event's kick-off or a transport's departure, the club's wall-clock time as written (no time-zone
 * shift): `Sa., 05.12.2026, 18:30` (de), `Sat 5 Dec 2026, 18:30` (en). Anything else is shown as it is.
 */
export function formatWallClock(value: string, language: Language): string {
  const fields = wallClockFields(value);
  return fields ? format(fields, language, { weekday: true, time: true }) : value;
}

/**
 * A wall-clock time within the coming days, short: weekday, day and time without the year
 * (`Sa. 14.03. 18:00`, `Sat 14 Mar 18:00`), as an answer deadline shows it on the event card.
 */
export function formatWallClockShort(value: string, language: Language): string {
  const fields = wallClockFields(value);
  if (!fields) return value;
  const day = language === 'en' ? `${fields.day} ${MONTHS_EN[fields.month - 1]}` : `${pad(fields.day)}.${pad(fields.month)}.`;
  return `${WEEKDAYS[language][fields.weekday]} ${day} ${pad(fields.hour)}:${pad(fields.minute)}`;
}

/** When something happened (a stored ISO timestamp) on this device's clock: `05.12.2026, 18:30` (de), `5 Dec 2026, 18:30` (en). */
export function formatInstant(value: string, language: Language): string {
  const fields = instantFields(value);
  return fields ? format(fields, language, { weekday: false, time: true }) : value;
}

/** The day of a stored timestamp on this device's clock: `05.12.2026` (de), `5 Dec 2026` (en). */
export function formatDay(value: string, language: Language): string {
  const fields = instantFields(value);
  return fields ? format(fields, language, { weekday: false, time: false }) : value;
}

/** A calendar day of the club as stored (`YYYY-MM-DD`, no time zone): `05.12.2026` (de), `5 Dec 2026` (en). */
export function formatClubDay(value: string, language: Language): string {
  const fields = wallClockFields(value);
  return fields ? format(fields, language, { weekday: false, time: false }) : value;
}
