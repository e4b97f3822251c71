import {
  AWAY_SUFFIX,
  checkEventDate,
  cleanFreeText,
  createEventInput,
  EVENT_TEXT_MAX_LENGTH,
  HOME_SUFFIX,
  MESSAGES,
  seasonOf,
  STADIUM_TEXT_MAX_LENGTH,
  stadiumInput,
  todayIn,
  type MatchImportIssue,
  type MatchImportResult,
  type UpdateEventInput,
  type VanishedMatch,
} from '@fankurve/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { write, toBool, type Store, type WriteContext } from '../db/store.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from '../domain/actor.js';
import { conflict } from '../domain/errors.js';
import { createEvent, updateEvent } from '../domain/events.js';
import { getSiteConfig } from '../domain/settings.js';
import { createStadium } from '../domain/stadiums.js';
import { FeedError, type FeedMatch, type FeedTeam, type InvalidFeedMatch, type OpenLigaDb } from './openLigaDb.js';

/*
 * The fixture import (docs/architecture.md, "Fixture import"): the club's matches of the current
 * season from OpenLigaDB become events, one transaction per import, written through the same domain
 * functions as an admin's edits (createEvent, updateEvent, createStadium), so the change stream and
 * web push see the same domain events. An admin (or the daily import) starts it; its writes are
 * nobody's own and act as SYSTEM_ACTOR (created_by null, `actorId: 'system'`).
 *
 * - Key: the match's matchID (events.external_match_id and a match_imports row), so an import never
 *   creates a match twice. An event an admin deleted stays deleted (the match is skipped).
 * - Mapping: "<opponent> (H)" when the team is team1 (home), "(A)" when team2; the date is the
 *   kick-off (matchDateTimeUTC) as the club's wall-clock time, on the quarter hour; location is the
 *   match's city, else its stadium, else the home team's name; the stadium is found by name
 *   (ignoring case and spacing) or created for the home team.
 * - Texts: team, stadium and place names are free text that nobody typed, so they are cleaned
 *   rather than refused (rules/freeText.ts `cleanFreeText`: control and direction characters
 *   removed) and cut to the fields' limits (an over-long opponent keeps its "(H)"/"(A)").
 * - Kick-off not fixed yet: OpenLigaDB has no flag for it. A match whose service-local time is 00:00
 *   (the "to be fixed" entry) keeps its day at 00:00 as the recognisable placeholder; when the feed
 *   gives the time, the event moves like any changed kick-off.
 * - Changes: the import compares the feed with what it last wrote (match_imports), not with the
 *   event, so an admin's own edit of an imported event stays until the feed itself changes that
 *   field. A changed kick-off, date, place or stadium goes through updateEvent, which marks the event
 *   UPDATED and records `event.changed` with `markedUpdated` exactly as for an admin's edit (when
 *   members already answered), so the 'match changed' push follows from it.
 * - Last change: every match carries the service's last-change date (lastUpdateDateTime); a match
 *   whose date and mapping are as last imported is skipped without a write, so an unchanged season
 *   costs the one team request and no write at all.
 * - Vanished: this season's imported matches that the feed no longer lists are reported, never
 *   deleted (the admin decides).
 * - Failures of the service (unreachable, 5xx, no JSON, unknown team) throw a FeedError before
 *   anything is written; a single match of another shape is counted as an error and the rest imports.
 */

export interface MatchImportOptions {
  feed: OpenLigaDb;
  /** The club's time zone (CLUB_TIME_ZONE): event dates are its wall-clock time. */
  timeZone: string;
  /** Today, for the season (tests fix it). */
  now?: Date;
}

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

/** The import's own table (migration 008), typed here: only this module reads or writes it. */
interface MatchImportsTable {
  match_id: string;
  event_id: string;
  league: string;
  season: number;
  title: string;
  date: string;
  location: string;
  stadium_name: string | null;
  source_updated_at: string | null;
  imported_at: string;
  checked_at: string;
}
type ImportDb = Transaction<Database & { match_imports: MatchImportsTable }>;

/** The year a season starts (OpenLigaDB's leagueSeason): July to June, from the club's date `YYYY-MM-DD`. */
export function seasonStartYear(today: string): number {
  const year = Number(today.slice(0, 4));
  return Number(today.slice(5, 7)) >= 7 ? year : year - 1;
}

/** Weeks before and after `today` that cover the season from 1 July to 30 June. */
export function seasonWindow(today: string, season: number): { weeksPast: number; weeksFuture: number } {
  const day = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  const week = 7 * 86_400_000;
  const past = Math.ceil((day(today) - day(`${season}-07-01`)) / week);
  const future = Math.ceil((day(`${season + 1}-06-30`) - day(today)) / week);
  return { weeksPast: Math.max(0, past), weeksFuture: Math.max(0, future) };
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

const issue = (matchId: number | null, detail: string): MatchImportIssue => ({
  code: 'matchDataInvalid',
  message: `${MESSAGES.matchDataInvalid}: ${matchId === null ? '' : `match ${matchId}, `}${detail}`,
  matchId,
});

/** The configured team (settings `team_id`); 409 when it is no team number. */
async function configuredTeam(store: Store): Promise<number> {
  const { team_id: teamId } = await getSiteConfig(store.db);
  if (!Number.isInteger(teamId) || teamId <= 0) throw conflict('matchTeamNotConfigured');
  return teamId;
}

/** One import at a time per database in this process (the admin's button and the daily import). */
const running = new WeakMap<Store, Promise<unknown>>();

function oneAtATime<T>(store: Store, task: () => Promise<T>): Promise<T> {
  const next = (running.get(store) ?? Promise.resolve()).catch(() => undefined).then(task);
  running.set(store, next);
  return next;
}

/**
 * Imports the configured team's matches of the current season (admin, or SYSTEM_ACTOR for the
 * daily import). Throws FeedError when the service fails (nothing written) and DomainError for the
 * actor and the configuration.
 */
export async function importMatches(store: Store, actor: Actor, options: MatchImportOptions): Promise<MatchImportResult> {
  requireAdmin(actor);
  return oneAtATime(store, async () => {
    const teamId = await configuredTeam(store);
    const today = todayIn(options.timeZone, options.now ?? new Date());
    const season = seasonStartYear(today);
    const { weeksPast, weeksFuture } = seasonWindow(today, season);
    // Outside the transaction: a slow service holds up no writer.
    const feed = await options.feed.matchesOfTeam(teamId, weeksPast, weeksFuture);

    const errors: MatchImportIssue[] = feed.invalid.map((bad: InvalidFeedMatch) => issue(bad.matchId, bad.issue));
    // Every match id the feed still has, readable or not: none of them counts as vanished.
    const listed = new Set<string>(feed.invalid.flatMap((bad) => (bad.matchId === null ? [] : [String(bad.matchId)])));
    const mapped: MappedMatch[] = [];
    let ours = 0;
    for (const match of feed.matches) {
      const result = mapMatch(match, teamId, options.timeZone);
      if (!result.ok && 'notOurs' in result) continue;
      ours++;
      if (match.leagueSeason !== season) continue;
      listed.add(String(match.matchID));
      if (result.ok) mapped.push(result.value);
      else errors.push(issue(match.matchID, result.issue));
    }
    if (ours === 0 && feed.invalid.length === 0) throw new FeedError('matchTeamUnknown', `team ${teamId}`);

    // The admin asked; the writes are the feed's, no user's: they act as the system (created_by null).
    const counts = await write(store, (w) => applyMatches(w, SYSTEM_ACTOR, mapped, season, listed));
    return { season: seasonOf(`${season}-07-01`), teamId, ...counts, errors };
  });
}

/** Writes the mapped matches in the caller's transaction; returns the counts and the vanished matches. */
async function applyMatches(
  w: WriteContext,
  actor: Actor,
  matches: MappedMatch[],
  season: number,
  listed: Set<string>,
): Promise<Omit<MatchImportResult, 'season' | 'teamId' | 'errors'>> {
  const db = w.db.withTables<{ match_imports: MatchImportsTable }>() as ImportDb;
  const ids = matches.map((m) => String(m.matchId));
  const states = new Map<string, MatchImportsTable>();
  const events = new Map<string, EventState>();
  if (ids.length > 0) {
    for (const row of await db.selectFrom('match_imports').selectAll().where('match_id', 'in', ids).execute()) {
      states.set(row.match_id, row);
    }
    const rows = await db
      .selectFrom('events')
      .select(['id', 'seq', 'deleted', 'archived', 'external_match_id'])
      .where('external_match_id', 'in', ids)
      .execute();
    for (const row of rows) events.set(row.external_match_id!, row);
  }
  const stadiums = new StadiumFinder(w, actor);
  let created = 0;
  let updated = 0;
  let skipped = 0;

  for (const match of matches) {
    const id = String(match.matchId);
    const state = states.get(id);
    const event = events.get(id);
    if (!event) {
      await createMatchEvent(w, db, actor, stadiums, match, Boolean(state));
      created++;
      continue;
    }
    if (toBool(event.deleted) || toBool(event.archived)) {
      // An admin deleted it: the import respects that.
      skipped++;
      continue;
    }
    if (!state) {
      // Imported before the import kept its state: take the feed as what was imported, change nothing.
      await db
        .insertInto('match_imports')
        .values({ ...stateOf(match, event.id), imported_at: w.now, checked_at: w.now })
        .execute();
      skipped++;
      continue;
    }
    if (state.source_updated_at === match.sourceUpdatedAt && sameMapping(state, match)) {
      skipped++;
      continue;
    }
    const changes: UpdateEventInput = {};
    if (match.title !== state.title) changes.title = match.title;
    if (match.date !== state.date) changes.date = match.date;
    if (match.location !== state.location) changes.location = match.location;
    if (match.stadiumName !== state.stadium_name) changes.stadium_id = await stadiums.idFor(match);
    let changed = false;
    if (Object.keys(changes).length > 0) {
      const view = await updateEvent(w, actor, event.id, changes);
      changed = view.seq !== Number(event.seq);
    }
    await db
      .updateTable('match_imports')
      .set({ ...stateOf(match, event.id), checked_at: w.now })
      .where('match_id', '=', id)
      .execute();
    if (changed) updated++;
    else skipped++;
  }

  return { created, updated, skipped, vanished: await vanishedMatches(db, season, listed) };
}

interface EventState {
  id: string;
  seq: number;
  deleted: number;
  archived: number;
  external_match_id: string | null;
}

const stateOf = (match: MappedMatch, eventId: string) => ({
  match_id: String(match.matchId),
  event_id: eventId,
  league: match.league,
  season: match.season,
  title: match.title,
  date: match.date,
  location: match.location,
  stadium_name: match.stadiumName,
  source_updated_at: match.sourceUpdatedAt,
});

const sameMapping = (state: MatchImportsTable, match: MappedMatch) =>
  state.title === match.title &&
  state.date === match.date &&
  state.location === match.location &&
  state.stadium_name === match.stadiumName;

async function createMatchEvent(
  w: WriteContext,
  db: ImportDb,
  actor: Actor,
  stadiums: StadiumFinder,
  match: MappedMatch,
  hadState: boolean,
): Promise<void> {
  const view = await createEvent(w, actor, {
    title: match.title,
    date: match.date,
    location: match.location,
    stadium_id: await stadiums.idFor(match),
    ticket_price: 0,
  });
  // The key is not part of the events document: the row took its seq just now, in this transaction.
  await db
    .updateTable('events')
    .set({ external_match_id: String(match.matchId) })
    .where('id', '=', view.id)
    .execute();
  const state = { ...stateOf(match, view.id), imported_at: w.now, checked_at: w.now };
  if (hadState) await db.updateTable('match_imports').set(state).where('match_id', '=', state.match_id).execute();
  else await db.insertInto('match_imports').values(state).execute();
}

/** This season's imported matches with a live event that the feed no longer lists. */
async function vanishedMatches(db: ImportDb, season: number, listed: Set<string>): Promise<VanishedMatch[]> {
  const rows = await db
    .selectFrom('match_imports as m')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .select(['m.match_id', 'e.id', 'e.title', 'e.date'])
    .where('m.season', '=', season)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .orderBy('e.date')
    .execute();
  return rows
    .filter((row) => !listed.has(row.match_id))
    .map((row) => ({ matchId: Number(row.match_id), eventId: row.id, title: row.title, date: row.date }));
}

/** Stadium names compared as people read them: case, width and spacing do not count. */
const stadiumKey = (name: string) => name.normalize('NFKC').toLocaleLowerCase('de').replace(/\s+/g, ' ').trim();

/** Finds a match's stadium by name among the stadiums, or creates it (for the home team). */
class StadiumFinder {
  private byName: Map<string, string> | null = null;

  constructor(
    private readonly w: WriteContext,
    private readonly actor: Actor,
  ) {}

  async idFor(match: MappedMatch): Promise<string | null> {
    if (!match.stadiumName) return null;
    if (!this.byName) {
      const rows = await this.w.db.selectFrom('stadiums').select(['id', 'stadium_name']).orderBy('created_at').execute();
      this.byName = new Map();
      for (const row of rows)
        if (!this.byName.has(stadiumKey(row.stadium_name))) this.byName.set(stadiumKey(row.stadium_name), row.id);
    }
    const key = stadiumKey(match.stadiumName);
    const known = this.byName.get(key);
    if (known) return known;
    const input = stadiumInput.safeParse({
      team_name: match.homeTeam,
      stadium_name: match.stadiumName,
      city: match.city ?? match.location,
    });
    if (!input.success) return null;
    const stadium = await createStadium(this.w, this.actor, input.data);
    this.byName.set(key, stadium.id);
    return stadium.id;
  }
}

/** The teams of a league and season for the team finder (admin), by name. */
export async function findLeagueTeams(actor: Actor, feed: OpenLigaDb, league: string, season: number): Promise<FeedTeam[]> {
  requireAdmin(actor);
  const teams = await feed.teamsOf(league, season);
  const unique = new Map(teams.map((team) => [team.teamId, team]));
  return [...unique.values()].sort((a, b) => a.teamName.localeCompare(b.teamName, 'de'));
}
