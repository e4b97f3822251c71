import {
  AWAY_SUFFIX,
  checkEventDate,
  cleanFreeText,
  createEventInput,
  EVENT_TEXT_MAX_LENGTH,
  HOME_SUFFIX,
  STADIUM_TEXT_MAX_LENGTH,
} from '@fankurve/shared';
import type { FeedMatch, FeedTeam } from './openLigaDb.js';

/*
 * A match of the feed as the event it becomes (docs/architecture.md, "Fixture import", mapping).
 * Pure: no database, no service.
 *
 * - "<opponent> (H)" when the team is team1 (home), "(A)" when team2; the date is the kick-off
 *   (matchDateTimeUTC) as the club's wall-clock time, on the quarter hour; location is the match's
 *   city, else its stadium, else the home team's name.
 * - Texts: team, stadium and place names are free text that nobody typed, so they are cleaned
 *   rather than refused (rules/freeText.ts `cleanFreeText`: control and direction characters
 *   removed) and cut to the fields' limits (an over-long opponent keeps its "(H)"/"(A)").
 * - Kick-off not fixed yet: OpenLigaDB has no flag for it. A match whose service-local time is 00:00
 *   (the "to be fixed" entry) keeps its day at 00:00 as the recognisable placeholder; when the feed
 *   gives the time, the event moves like any changed kick-off.
 */

/** A match of the feed as the event it becomes. */
export interface MappedMatch {
  matchId: number;
  league: string;
  season: number;
  title: string;
  /** `YYYY-MM-DD HH:MM:00`, the club's wall-clock time; 00:00 while the kick-off is not fixed. */
  date: string;
  timeFixed: boolean;
  location: string;
  stadiumName: string | null;
  city: string | null;
  homeTeam: string;
  sourceUpdatedAt: string | null;
}

const SERVICE_MIDNIGHT = /T00:00(:00(\.\d+)?)?$/;

/** A UTC instant as the wall-clock time of a time zone, `YYYY-MM-DD HH:MM:00`. */
function wallClockIn(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:00`;
}

type Mapping = { ok: true; value: MappedMatch } | { ok: false; issue: string } | { ok: false; notOurs: true };

/**
 * A text of the feed as one line of at most `maxLength` characters, cleaned like free text
 * (rules/freeText.ts `cleanFreeText`); null when nothing is left.
 */
const fitted = (value: string | null | undefined, maxLength: number) =>
  (value ? cleanFreeText(value, 'line', maxLength) : '') || null;

/** The event a match becomes for the club's team, or why it cannot be one. */
export function mapMatch(match: FeedMatch, teamId: number, timeZone: string): Mapping {
  const home = match.team1.teamId === teamId;
  const away = match.team2.teamId === teamId;
  if (!home && !away) return { ok: false, notOurs: true };
  if (home && away) return { ok: false, issue: 'the team plays itself' };
  const opponent: FeedTeam = home ? match.team2 : match.team1;
  const suffix = home ? HOME_SUFFIX : AWAY_SUFFIX;
  const opponentName = fitted(opponent.teamName, EVENT_TEXT_MAX_LENGTH - suffix.length - 1);
  if (!opponentName) return { ok: false, issue: 'no opponent name' };
  const title = `${opponentName} ${suffix}`;

  const local = match.matchDateTime?.trim() || null;
  const utc = match.matchDateTimeUTC?.trim() || null;
  const timeFixed = !(local && SERVICE_MIDNIGHT.test(local));
  let wallClock: string;
  if (!timeFixed) wallClock = `${local!.slice(0, 10)} 00:00`;
  else if (utc) {
    const instant = new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(utc) ? utc : `${utc}Z`);
    if (Number.isNaN(instant.getTime())) return { ok: false, issue: `matchDateTimeUTC ${utc}` };
    wallClock = wallClockIn(instant, timeZone);
  } else if (local) wallClock = local;
  else return { ok: false, issue: 'no kick-off date' };
  const date = checkEventDate(wallClock);
  if (!date.ok) return { ok: false, issue: `kick-off ${utc ?? local}` };

  const city = fitted(match.location?.locationCity, STADIUM_TEXT_MAX_LENGTH);
  const stadiumName = fitted(match.location?.locationStadium, STADIUM_TEXT_MAX_LENGTH);
  const homeTeam = fitted(match.team1.teamName, STADIUM_TEXT_MAX_LENGTH);
  if (!homeTeam) return { ok: false, issue: 'no home team name' };
  const location = fitted(city ?? stadiumName ?? homeTeam, EVENT_TEXT_MAX_LENGTH)!;
  const fields = createEventInput.safeParse({ title, date: date.value, location });
  if (!fields.success) return { ok: false, issue: fields.error.issues[0]?.path.join('.') || 'fields' };
  return {
    ok: true,
    value: {
      matchId: match.matchID,
      league: match.leagueShortcut?.trim() || '',
      season: match.leagueSeason,
      title: fields.data.title,
      date: date.value,
      timeFixed,
      location: fields.data.location,
      stadiumName,
      city,
      homeTeam,
      sourceUpdatedAt: match.lastUpdateDateTime?.trim() || null,
    },
  };
}
