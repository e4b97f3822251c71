import type { Language } from '@fankurve/shared';
import { formatWallClock } from './dates.js';

/**
 * An event's date and time for the language: `Sa., 05.12.2026, 15:30` (de), `Sat 5 Dec 2026, 15:30` (en),
 * by the one date formatter (`i18n/dates.ts`). The stored time is the club's wall clock, shown as written.
 */
export const formatEventDate = (date: string, language: Language): string => formatWallClock(date, language);

/** The `datetime` attribute of a <time> element: `2026-12-05T15:30`. */
export function isoWallClock(date: string): string {
  return date.slice(0, 16).replace(' ', 'T');
}
