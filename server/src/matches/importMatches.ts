import {
  MESSAGES,
  seasonOf,
  todayIn,
  type MatchImportIssue,
  type MatchImportResult,
  type UpdateEventInput,
  type VanishedMatch,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, MatchImportsTable } from '../db/schema.js';
import { write, toBool, type Store, type WriteContext } from '../db/store.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from '../domain/actor.js';
import { conflict } from '../domain/errors.js';
import { createEvent, updateEvent } from '../domain/events/events.js';
import { getSiteConfig } from '../domain/club/settings.js';
import { mapMatch, type MappedMatch } from './mapping.js';
import { FeedError, type InvalidFeedMatch, type OpenLigaDb } from './openLigaDb.js';
import { seasonStartYear, seasonWindow } from './season.js';
import { StadiumFinder } from './stadiumFinder.js';

/*
 * The fixture import (docs/architecture.md, "Fixture import"): the club's matches of the current
 * season from OpenLigaDB become events, one transaction per import, written through the same domain
 * functions as an admin's edits (createEvent, updateEvent, createStadium), so the change stream and
 * web push see the same domain events. An admin (or the daily import) starts it; its writes are
 * nobody's own and act as SYSTEM_ACTOR (created_by null, `actorId: 'system'`).
 *
 * - Key: the match's matchID (events.external_match_id and a match_imports row), so an import never
 *   creates a match twice. An event an admin deleted stays deleted (the match is skipped).
 * - Season (season.ts), mapping and cleaned texts (mapping.ts), the stadium found by name or created
 *   for the home team (stadiumFinder.ts); the team finder's list is teamFinder.ts.
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
  const db = w.db;
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
      await createMatchEvent(w, actor, stadiums, match, Boolean(state));
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
  await w.db
    .updateTable('events')
    .set({ external_match_id: String(match.matchId) })
    .where('id', '=', view.id)
    .execute();
  const state = { ...stateOf(match, view.id), imported_at: w.now, checked_at: w.now };
  if (hadState) await w.db.updateTable('match_imports').set(state).where('match_id', '=', state.match_id).execute();
  else await w.db.insertInto('match_imports').values(state).execute();
}

/** This season's imported matches with a live event that the feed no longer lists. */
async function vanishedMatches(db: Kysely<Database>, season: number, listed: Set<string>): Promise<VanishedMatch[]> {
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
