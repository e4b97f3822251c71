import { DEFAULT_LOYALTY_SEASONS, seasonOf } from '@fankurve/shared';
import {
  attendedWithTicket,
  checkLoyaltyAdjustment,
  compareRanking,
  isCountedAwayMatch,
  lastSeasons,
  loyaltyPoints,
  placesOf,
  type RankingRow,
} from '@fankurve/shared/rules/loyalty';
import { checkLoyaltySeasons } from '@fankurve/shared/rules/siteConfig';
import type { LoyaltyBreakdown } from '@fankurve/shared/rules/allocationReasons';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { findLiveUser } from '../people/accounts.js';
import { badInput, notFound } from '../errors.js';
import { audit } from '../club/auditLog.js';

/*
 * Loyalty points (docs/architecture.md, "Loyalty"; docs/product.md, Loyalty): counted from the
 * attendee rows whenever asked, never stored, so they always agree with the rows; only an admin's
 * adjustment is kept (loyalty_adjustments). The contingent's allocation order reads loyaltyPointsOf.
 */

/** The club setting `loyalty_seasons` (1..10, set in the team configuration), DEFAULT_LOYALTY_SEASONS when unset. */
export async function loyaltySeasons(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'loyalty_seasons').executeTakeFirst();
  // The team configuration's own rule, so its form and the count read a stored value alike.
  const seasons = row ? checkLoyaltySeasons(row.value) : null;
  return seasons?.ok ? seasons.value : DEFAULT_LOYALTY_SEASONS;
}

/** Seasons the member's chart shows at least: the counted ones, and history before them up to this many. */
const CHART_SEASONS = 5;

/** The first day of the oldest of `seasons` (`2023/24` → `2023-07-01`). */
const seasonStart = (season: string): string => `${season.slice(0, 4)}-07-01`;

/** Per active, live member: counted away matches per season (only the given seasons) and the adjustment. */
interface Tally {
  user_id: string;
  username: string;
  username_key: string;
  bySeason: Map<string, number>;
  adjustment: number;
}

async function tallies(db: Kysely<Database>, today: string, seasons: readonly string[]): Promise<Map<string, Tally>> {
  const members = await db
    .selectFrom('users as u')
    .leftJoin('loyalty_adjustments as l', 'l.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.username_key', 'l.points'])
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .execute();
  const result = new Map<string, Tally>(
    members.map((m) => [
      m.id,
      { user_id: m.id, username: m.username, username_key: m.username_key, bySeason: new Map(), adjustment: m.points ?? 0 },
    ]),
  );
  if (seasons.length === 0) return result;
  const oldest = seasons[seasons.length - 1]!;
  // Narrowed in SQL to the window's own live rows; the shared rules decide the rest.
  const rows = await db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select([
      'a.user_id',
      'a.event_id',
      'a.guest_name',
      'a.status',
      'a.has_ticket',
      'a.bought',
      'a.deleted',
      'e.title',
      'e.date',
      'e.deleted as event_deleted',
      'e.archived as event_archived',
    ])
    .where('a.deleted', '=', 0)
    .where('a.user_id', 'is not', null)
    .where('a.guest_name', 'is', null)
    .where('e.deleted', '=', 0)
    .where('e.date', '>=', seasonStart(oldest))
    .where('e.date', '<', today)
    .execute();
  const window = new Set(seasons);
  const counted = new Set<string>();
  for (const row of rows) {
    const tally = result.get(row.user_id!);
    if (!tally) continue;
    const event = { title: row.title, date: row.date, deleted: toBool(row.event_deleted), archived: toBool(row.event_archived) };
    const attendee = {
      user_id: row.user_id,
      guest_name: row.guest_name,
      status: row.status,
      has_ticket: toBool(row.has_ticket),
      bought: toBool(row.bought),
      deleted: toBool(row.deleted),
    };
    if (!isCountedAwayMatch(event, today) || !attendedWithTicket(attendee)) continue;
    const season = seasonOf(row.date);
    // One match counts once, however many rows of the member's own it has.
    const key = `${row.user_id}\u0000${row.event_id}`;
    if (!window.has(season) || counted.has(key)) continue;
    counted.add(key);
    tally.bySeason.set(season, (tally.bySeason.get(season) ?? 0) + 1);
  }
  return result;
}

function rankingRowOf(tally: Tally, counted: readonly string[]): RankingRow {
  const awayMatches = counted.reduce((sum, season) => sum + (tally.bySeason.get(season) ?? 0), 0);
  return {
    user_id: tally.user_id,
    username: tally.username,
    username_key: tally.username_key,
    points: loyaltyPoints(awayMatches, tally.adjustment),
    away_matches: awayMatches,
  };
}

/**
 * Loyalty points per active, live member: the away matches counted in the last `loyalty_seasons`
 * seasons up to `today` (club time) plus the member's adjustment.
 */
export async function loyaltyPointsOf(db: Kysely<Database>, today: string): Promise<Map<string, number>> {
  const counted = lastSeasons(today, await loyaltySeasons(db));
  const all = await tallies(db, today, counted);
  return new Map([...all.values()].map((tally) => [tally.user_id, rankingRowOf(tally, counted).points]));
}

/**
 * Loyalty points with their breakdown per active, live member (the contingent's explanation,
 * docs/architecture.md, "Ticket contingents"): the away matches of each counted season (newest
 * first) and the adjustment; `points` is what `loyaltyPointsOf` answers. `empty` is the breakdown of
 * anyone without points (the window's seasons, all 0).
 */
export async function loyaltyBreakdownOf(
  db: Kysely<Database>,
  today: string,
): Promise<{ members: Map<string, LoyaltyBreakdown>; empty: LoyaltyBreakdown }> {
  const counted = lastSeasons(today, await loyaltySeasons(db));
  const all = await tallies(db, today, counted);
  const breakdown = (tally: Tally | undefined): LoyaltyBreakdown => ({
    points: tally ? rankingRowOf(tally, counted).points : 0,
    adjustment: tally?.adjustment ?? 0,
    seasons: counted.map((season) => ({ season, away_matches: tally?.bySeason.get(season) ?? 0 })),
  });
  return {
    members: new Map([...all.values()].map((tally) => [tally.user_id, breakdown(tally)])),
    empty: breakdown(undefined),
  };
}

/** One row of GET /api/loyalty, with its place (equal points and away matches share a place). */
export interface RankedRow extends RankingRow {
  place: number;
}

function ranked(rows: RankingRow[]): RankedRow[] {
  const sorted = [...rows].sort(compareRanking);
  const places = placesOf(sorted);
  return sorted.map((row, index) => ({ ...row, place: places[index]! }));
}

async function rankingAt(db: Kysely<Database>, today: string): Promise<RankedRow[]> {
  const counted = lastSeasons(today, await loyaltySeasons(db));
  const all = await tallies(db, today, counted);
  return ranked([...all.values()].map((tally) => rankingRowOf(tally, counted)));
}

/** The ranking (every signed-in member reads it): every active member, highest points first. */
export async function listRanking(db: Kysely<Database>, _actor: Actor, today: string): Promise<RankedRow[]> {
  return rankingAt(db, today);
}

export interface MyLoyalty {
  points: number;
  /** Null when the actor is no active member (nobody to rank). */
  place: number | null;
  /** Newest first: the counted seasons (`counted`), then older ones up to CHART_SEASONS in all. */
  seasons: { season: string; away_matches: number; counted: boolean }[];
}

/** The signed-in member's points, place and away matches per season (the ranking page's chart). */
export async function myLoyalty(db: Kysely<Database>, actor: Actor, today: string): Promise<MyLoyalty> {
  const windowSize = await loyaltySeasons(db);
  const counted = lastSeasons(today, windowSize);
  const shown = lastSeasons(today, Math.max(windowSize, CHART_SEASONS));
  const all = await tallies(db, today, shown);
  const rows = ranked([...all.values()].map((tally) => rankingRowOf(tally, counted)));
  const mine = rows.find((row) => row.user_id === actor.id);
  const tally = all.get(actor.id);
  const window = new Set(counted);
  return {
    points: mine?.points ?? 0,
    place: mine?.place ?? null,
    seasons: shown.map((season) => ({
      season,
      away_matches: tally?.bySeason.get(season) ?? 0,
      counted: window.has(season),
    })),
  };
}

/**
 * Sets a member's adjustment (admin): a whole number of points within the limits and a one-line
 * note (rules/loyalty.ts checkLoyaltyAdjustment); 404 for an unknown or deleted user. Answers the
 * member's ranking row as it is now (a pending member has none: 404 too, as they are not ranked).
 */
export async function setLoyaltyAdjustment(
  w: WriteContext,
  actor: Actor,
  userId: string,
  input: { points: unknown; note?: unknown },
): Promise<RankedRow> {
  requireAdmin(actor);
  const checked = checkLoyaltyAdjustment(input);
  if (!checked.ok) throw badInput(checked.code);
  const user = await findLiveUser(w.db, userId);
  if (!user || user.status !== 'active') throw notFound('userNotFound');
  const values = { points: checked.value.points, note: checked.value.note, updated_by: actor.id, updated_at: w.now };
  const before = await w.db
    .selectFrom('loyalty_adjustments')
    .select(['points', 'note'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  await audit(w, actor, {
    kind: 'tickets',
    action: 'loyalty.adjust',
    userId,
    before: before ? { points: Number(before.points), note: before.note } : null,
    after: { points: values.points, note: values.note },
  });
  await w.db
    .insertInto('loyalty_adjustments')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  const row = (await rankingAt(w.db, w.today())).find((r) => r.user_id === userId);
  if (!row) throw notFound('userNotFound');
  return row;
}

/**
 * Writes the adjustment of a member just created by the member import (docs/architecture.md, Member
 * import), checked already by checkLoyaltyAdjustment: the row the admin's PUT writes.
 */
export async function storeImportedAdjustment(
  w: WriteContext,
  actor: Actor,
  userId: string,
  adjustment: { points: number; note: string },
): Promise<void> {
  requireAdmin(actor);
  await w.db
    .insertInto('loyalty_adjustments')
    .values({ user_id: userId, points: adjustment.points, note: adjustment.note, updated_by: actor.id, updated_at: w.now })
    .execute();
}

export interface LoyaltyAdjustment {
  user_id: string;
  points: number;
  note: string;
  updated_at: string;
}

/** Every adjustment admins set (admin): the adjust dialog starts from the member's current one. */
export async function listLoyaltyAdjustments(db: Kysely<Database>, actor: Actor): Promise<LoyaltyAdjustment[]> {
  requireAdmin(actor);
  return db
    .selectFrom('loyalty_adjustments as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.user_id', 'l.points', 'l.note', 'l.updated_at'])
    .where('u.deleted', '=', 0)
    .orderBy('l.user_id')
    .execute();
}
