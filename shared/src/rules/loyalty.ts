import { isUpcoming, locationOfTitle, seasonOf } from '../dates.js';
import { holdsTicket } from './tickets.js';
import { checkFreeText } from './freeText.js';
import type { RuleResult } from './result.js';

/*
 * Loyalty points (docs/product.md, Loyalty): the away matches a member went to with a ticket in the
 * last seasons, plus an admin's adjustment for the time before the app. The server counts with these
 * functions (domain/tickets/loyalty.ts); the ranking page only shows the server's figures.
 */

/** The part of an event the count reads. */
export interface LoyaltyEvent {
  title: string;
  date: string;
  deleted: boolean;
  archived: boolean;
}

/** The part of an attendee row the count reads. */
export interface LoyaltyAttendee {
  user_id: string | null;
  guest_name: string | null;
  status: 'going' | 'maybe';
  has_ticket: boolean;
  bought: boolean;
  deleted: boolean;
}

/**
 * An event counts when it is a live away match ('(A)' title) whose day lies before today (club time).
 * An archived event does not count: an admin deleted it (archiving only keeps its debts), so it is shown
 * nowhere, and a ranking must rest on matches every member can see.
 */
export function isCountedAwayMatch(event: LoyaltyEvent, today: string): boolean {
  return !event.deleted && !event.archived && locationOfTitle(event.title) === 'away' && !isUpcoming(event.date, today);
}

/** The member's own row (not a guest's) says going with a ticket: their own, or one bought for them. */
export function attendedWithTicket(row: LoyaltyAttendee): boolean {
  return !row.deleted && row.user_id !== null && row.guest_name === null && row.status === 'going' && holdsTicket(row);
}

/** The last `count` seasons up to today's: the current season first, then the ones before it (`2024/25`, `2023/24`, …). */
export function lastSeasons(today: string, count: number): string[] {
  const start = Number(seasonOf(today).slice(0, 4));
  const seasons: string[] = [];
  for (let i = 0; i < Math.max(0, count); i++) {
    const year = start - i;
    seasons.push(`${year}/${String((year + 1) % 100).padStart(2, '0')}`);
  }
  return seasons;
}

/** Points: the counted away matches plus the manual adjustment (which may be negative). */
export const loyaltyPoints = (awayMatches: number, adjustment: number): number => awayMatches + adjustment;

/** The smallest and largest manual adjustment and the longest note (docs/product.md, Limits and constants). */
export const LOYALTY_ADJUSTMENT_MIN = -1000;
export const LOYALTY_ADJUSTMENT_MAX = 1000;
export const LOYALTY_NOTE_MAX_LENGTH = 200;

/** A ranking row as the server answers it. */
export interface RankingRow {
  user_id: string;
  username: string;
  username_key: string;
  points: number;
  away_matches: number;
}

/** Highest points first; ties: more away matches first, then by username key. */
export function compareRanking(a: RankingRow, b: RankingRow): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.away_matches !== b.away_matches) return b.away_matches - a.away_matches;
  return a.username_key < b.username_key ? -1 : a.username_key > b.username_key ? 1 : 0;
}

/**
 * The places of a ranking in its order (compareRanking): equal points and equal away matches share a
 * place, and the next place counts every member before it (1, 2, 2, 4).
 */
export function placesOf(sorted: readonly Pick<RankingRow, 'points' | 'away_matches'>[]): number[] {
  const places: number[] = [];
  sorted.forEach((row, index) => {
    const before = sorted[index - 1];
    const tied = before !== undefined && before.points === row.points && before.away_matches === row.away_matches;
    places.push(tied ? places[index - 1]! : index + 1);
  });
  return places;
}

/**
 * An admin's adjustment: points a whole number from LOYALTY_ADJUSTMENT_MIN to LOYALTY_ADJUSTMENT_MAX
 * ('loyaltyPointsInvalid'), the note one line of free text (rules/freeText.ts), trimmed, at most
 * LOYALTY_NOTE_MAX_LENGTH characters ('loyaltyNoteTooLong'); a missing note is an empty one.
 */
export function checkLoyaltyAdjustment(input: { points: unknown; note?: unknown }): RuleResult<{ points: number; note: string }> {
  const { points, note } = input;
  if (
    typeof points !== 'number' ||
    !Number.isInteger(points) ||
    points < LOYALTY_ADJUSTMENT_MIN ||
    points > LOYALTY_ADJUSTMENT_MAX
  ) {
    return { ok: false, code: 'loyaltyPointsInvalid' };
  }
  if (note !== undefined && note !== null && typeof note !== 'string') return { ok: false, code: 'invalidInput' };
  const text = checkFreeText(typeof note === 'string' ? note : '', 'line');
  if (!text.ok) return text;
  const trimmed = text.value.trim();
  if (trimmed.length > LOYALTY_NOTE_MAX_LENGTH) return { ok: false, code: 'loyaltyNoteTooLong' };
  return { ok: true, value: { points, note: trimmed } };
}
