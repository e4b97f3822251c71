import type { AllocationRequest, TicketRequestState } from './allocation.js';
import { checkFreeText } from './freeText.js';
import { LOYALTY_NOTE_MAX_LENGTH } from './loyalty.js';
import type { RuleResult } from './result.js';

/*
 * Why a ticket request stands where it does (docs/product.md, Ticket contingents, "Allocations
 * anyone can follow"; docs/architecture.md, "Ticket contingents", Explanation): the reason of each
 * place in the allocation order (`allocationOrder`) and the parts of the sentence a member reads
 * ("Platz 7 von 12 Anfragen, 5 Karten: du stehst auf der Warteliste an Platz 2"). The server's
 * contingent view (server/src/domain/tickets/contingentView.ts) works them out and decides who sees
 * what; the event page and the admin's queue (client/src/features/contingents) show them.
 */

/** Requests that take part: gathering, holding a ticket, in line, offered one. */
export const CURRENT_REQUEST_STATES: readonly TicketRequestState[] = ['requested', 'allocated', 'waiting', 'offered'];

/**
 * What decided a request's place: `pinned` (an admin pinned it: pinned requests come first, by
 * request time), `points` (a member, by loyalty points), `guest` (after all members, in their host's
 * order), `excluded` (an admin excluded it: last, never a ticket).
 */
export const RANK_REASONS = ['pinned', 'points', 'guest', 'excluded'] as const;
export type RankReasonKind = (typeof RANK_REASONS)[number];

export interface RankReason {
  kind: RankReasonKind;
  /** The points the order compared: the member's own, a guest's host's; null for a pinned or excluded request. */
  points: number | null;
  /**
   * Another request of the order ranks on the same key (two pinned ones; equal points; guests whose
   * hosts have equal points), so the earlier request time decided between them.
   */
  tie: boolean;
}

/**
 * The reason of each request's place, by attendee id, for requests as `allocationOrder` orders them
 * with the same `pointsOf`. A tie is counted only among the requests given.
 */
export function rankReasons<R extends AllocationRequest>(
  requests: readonly R[],
  pointsOf: (userId: string) => number,
): Map<string, RankReason> {
  const kindOf = (request: R): RankReasonKind =>
    request.excluded ? 'excluded' : request.pinned ? 'pinned' : request.user_id !== null ? 'points' : 'guest';
  const pointsFor = (request: R, kind: RankReasonKind): number | null =>
    kind === 'points' ? pointsOf(request.user_id!) : kind === 'guest' ? pointsOf(request.brought_by ?? '') : null;
  const keyed = requests.map((request) => {
    const kind = kindOf(request);
    return { request, kind, points: pointsFor(request, kind) };
  });
  const count = new Map<string, number>();
  const keyOf = ({ kind, points }: { kind: RankReasonKind; points: number | null }) => `${kind}:${points ?? ''}`;
  for (const entry of keyed) if (entry.kind !== 'excluded') count.set(keyOf(entry), (count.get(keyOf(entry)) ?? 0) + 1);
  return new Map(
    keyed.map((entry) => [
      entry.request.attendee_id,
      { kind: entry.kind, points: entry.points, tie: entry.kind !== 'excluded' && (count.get(keyOf(entry)) ?? 0) > 1 },
    ]),
  );
}

/** A request as the place's sentence reads it: its state, and whether its attendee row is live (default yes). */
export interface PlacedRequest extends AllocationRequest {
  state: TicketRequestState;
  live?: boolean;
}

/**
 * The parts of the sentence "Platz 7 von 12 Anfragen, 5 Karten: du stehst auf der Warteliste an
 * Platz 2" / "7th of 12 requests for 5 tickets: you are 2nd on the waiting list".
 */
export interface PlaceInAllocation {
  /**
   * While requests gather: the place in the allocation order. After the allocation: the place in
   * the line to a ticket — those holding one first (in allocation order), then those offered a
   * returned one, then those waiting — so a waiting request's place is the tickets held and
   * offered plus its place on the waiting list.
   */
  place: number;
  /** The current requests (as the figures' `requested` counts them, excluded ones too). */
  requests: number;
  /** The contingent's tickets. */
  tickets: number;
  /** `gathering` before the allocation; then `ticket`, `offered` (a returned ticket) or `waiting`. */
  outcome: 'gathering' | 'ticket' | 'offered' | 'waiting';
  /** For `waiting`: the place on the waiting list (1: the next returned ticket is offered to them). */
  waiting_place: number | null;
}

const isCurrent = (request: PlacedRequest) => request.live !== false && CURRENT_REQUEST_STATES.includes(request.state);

/**
 * Where one request stands (see `PlaceInAllocation`), of requests in allocation order; null for a
 * request not taking part (none, withdrawn, declined, returned) or excluded (it has no place).
 * `allocated`: the contingent's allocation has run (its `allocated_at`).
 */
export function placeInAllocation<R extends PlacedRequest>(
  ordered: readonly R[],
  attendeeId: string,
  contingent: { tickets: number; allocated: boolean },
): PlaceInAllocation | null {
  const current = ordered.filter(isCurrent);
  const request = current.find((entry) => entry.attendee_id === attendeeId);
  if (!request || request.excluded) return null;
  const ranked = current.filter((entry) => !entry.excluded);
  const base = { requests: current.length, tickets: contingent.tickets };
  if (!contingent.allocated) {
    return { ...base, place: ranked.indexOf(request) + 1, outcome: 'gathering', waiting_place: null };
  }
  const holding = ranked.filter((entry) => entry.state === 'allocated');
  const offered = ranked.filter((entry) => entry.state === 'offered');
  const waiting = ranked.filter((entry) => entry.state === 'waiting' || entry.state === 'requested');
  const line = [...holding, ...offered, ...waiting];
  const place = line.indexOf(request) + 1;
  if (request.state === 'allocated') return { ...base, place, outcome: 'ticket', waiting_place: null };
  if (request.state === 'offered') return { ...base, place, outcome: 'offered', waiting_place: null };
  return { ...base, place, outcome: 'waiting', waiting_place: waiting.indexOf(request) + 1 };
}

/** A member's loyalty points as the order counts them: away matches per counted season (newest first) plus the adjustment. */
export interface LoyaltyBreakdown {
  points: number;
  adjustment: number;
  seasons: { season: string; away_matches: number }[];
}

/**
 * The admin's note on a pin or an exclusion (docs/product.md, Input rules): one line of free text,
 * trimmed, at most LOYALTY_NOTE_MAX_LENGTH characters ('loyaltyNoteTooLong', the notes' shared
 * text); an empty one is none (null).
 */
export function checkRequestNote(note: string): RuleResult<string | null> {
  const text = checkFreeText(note, 'line');
  if (!text.ok) return text;
  const trimmed = text.value.trim();
  if (trimmed.length > LOYALTY_NOTE_MAX_LENGTH) return { ok: false, code: 'loyaltyNoteTooLong' };
  return { ok: true, value: trimmed === '' ? null : trimmed };
}
