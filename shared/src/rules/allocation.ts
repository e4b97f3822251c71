import { checkDepartureDate, seasonOf } from '../dates.js';
import type { RuleResult } from './result.js';

/*
 * The order in which a ticket contingent is handed out (docs/product.md, Ticket contingents): the
 * server's allocation, offers and queue (server/src/domain/tickets/) and the admin's queue on the device
 * (features/contingents) order with this one function.
 *
 * 1. Pinned requests first, member or guest, by request time.
 * 2. Members by loyalty points, highest first, then by request time.
 * 3. Guests after all members, in their hosts' order (a host without a request of their own ranks
 *    by their points and their guests' earliest request time), then by request time.
 * Ties end with the attendee row's id, so the order is the same everywhere. Excluded requests never
 * get a ticket: they come last, in the same order among themselves.
 */

/** A request as the order reads it (a ticket request of one event). */
export interface AllocationRequest {
  /** The attendee row of the member or guest who needs the ticket. */
  attendee_id: string;
  /** The member; null for a guest. */
  user_id: string | null;
  /** For a guest: the member who brought them. */
  brought_by: string | null;
  /** When the server first stored the "needs a ticket" answer (ISO 8601 UTC). */
  requested_at: string;
  pinned: boolean;
  excluded: boolean;
}

/** What a member (or a host without a request) is ranked by. */
interface MemberKey {
  pinned: boolean;
  points: number;
  requested_at: string;
  id: string;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareMembers(a: MemberKey, b: MemberKey): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (!a.pinned && a.points !== b.points) return b.points - a.points;
  return byText(a.requested_at, b.requested_at) || byText(a.id, b.id);
}

/**
 * The requests in allocation order, excluded ones last. `pointsOf` gives a member's loyalty points
 * (0 for anyone it does not know).
 */
export function allocationOrder<R extends AllocationRequest>(requests: readonly R[], pointsOf: (userId: string) => number): R[] {
  const keyOf = (request: R, pinned = request.pinned): MemberKey => ({
    pinned,
    points: pointsOf(request.user_id ?? ''),
    requested_at: request.requested_at,
    id: request.attendee_id,
  });
  // Each host's rank among the members: their own request, or their points and their guests' first request.
  const hosts = new Map<string, MemberKey>();
  for (const request of requests) if (request.user_id !== null) hosts.set(request.user_id, keyOf(request));
  for (const request of requests) {
    const host = request.user_id === null ? request.brought_by : null;
    if (host === null) continue;
    const known = hosts.get(host);
    if (known && known.id !== host) continue;
    if (!known || byText(request.requested_at, known.requested_at) < 0) {
      hosts.set(host, { pinned: false, points: pointsOf(host), requested_at: request.requested_at, id: host });
    }
  }
  const ranked = [...hosts.entries()].sort(([, a], [, b]) => compareMembers(a, b));
  const hostRank = new Map(ranked.map(([userId], index) => [userId, index]));
  const rankOfHost = (request: R) => hostRank.get(request.brought_by ?? '') ?? Number.MAX_SAFE_INTEGER;

  const tier = (request: R): number => (request.pinned ? 0 : request.user_id !== null ? 1 : 2);
  const compare = (a: R, b: R): number => {
    if (a.excluded !== b.excluded) return a.excluded ? 1 : -1;
    const tiers = tier(a) - tier(b);
    if (tiers !== 0) return tiers;
    if (tier(a) === 1) return compareMembers(keyOf(a, false), keyOf(b, false));
    if (tier(a) === 2 && rankOfHost(a) !== rankOfHost(b)) return rankOfHost(a) - rankOfHost(b);
    return byText(a.requested_at, b.requested_at) || byText(a.attendee_id, b.attendee_id);
  };
  return [...requests].sort(compare);
}

/**
 * The 1-based place of a request among those of `order` that `inLine` keeps (excluded requests have
 * none), or null when it is not among them.
 */
export function placeInLine<R extends AllocationRequest>(
  order: readonly R[],
  attendeeId: string,
  inLine: (request: R) => boolean,
): number | null {
  let place = 0;
  for (const request of order) {
    if (request.excluded || !inLine(request)) continue;
    place += 1;
    if (request.attendee_id === attendeeId) return place;
  }
  return null;
}

/**
 * A contingent's request deadline (docs/product.md, Input rules): the club's wall-clock time as
 * `YYYY-MM-DD HH:MM` (or ISO 8601), kept to the minute, within the event's season (1 July to 30 June)
 * and not after the event. `eventDate` is the event's stored date.
 */
export function checkRequestDeadline(input: string, eventDate: string): RuleResult<string> {
  const checked = checkDepartureDate(input);
  if (!checked.ok) return { ok: false, code: 'contingentDeadlineInvalid' };
  const season = seasonOf(eventDate);
  const start = Number(season.slice(0, 4));
  const deadline = checked.value;
  if (deadline < `${start}-07-01 00:00:00` || deadline > eventDate) return { ok: false, code: 'contingentDeadlineOutsideSeason' };
  return checked;
}

/**
 * A ticket request's way (docs/product.md, States and transitions): requested (gathering until the
 * deadline), allocated (holds a ticket), waiting (in line), offered (a returned ticket is offered),
 * declined (declined or let an offer run out), returned (gave the ticket back), withdrawn (no longer
 * needs one before getting it).
 */
export const TICKET_REQUEST_STATES = [
  'requested',
  'allocated',
  'waiting',
  'offered',
  'declined',
  'returned',
  'withdrawn',
] as const;
export type TicketRequestState = (typeof TICKET_REQUEST_STATES)[number];

/** What a member sees of their own request (GET /api/events/{id}/contingent `mine.state`). */
export const MY_REQUEST_STATES = ['none', 'requested', 'allocated', 'waiting', 'offered', 'declined'] as const;
export type MyRequestState = (typeof MY_REQUEST_STATES)[number];

/** A request's state as its member sees it: no request, a withdrawn one and a returned ticket are none. */
export function myRequestState(state: TicketRequestState | null): MyRequestState {
  return state === null || state === 'withdrawn' || state === 'returned' ? 'none' : state;
}

/**
 * Who the free tickets go to (docs/product.md, Ticket contingents): of the requests in allocation
 * order, the first `free` that are in line (requested or waiting) and not excluded. The allocation
 * buys for them; the admin's "allocate now" names them before it runs.
 */
export function nextInLine<R extends { state: TicketRequestState; excluded: boolean }>(ordered: readonly R[], free: number): R[] {
  return ordered
    .filter((request) => !request.excluded && (request.state === 'requested' || request.state === 'waiting'))
    .slice(0, Math.max(0, free));
}

/** What a contingent's tickets are doing: held by members, offered after a return, free. */
export interface ContingentTickets {
  /** The contingent's size. */
  tickets: number;
  /** Requests holding a ticket (an admin's "bought" counts too). */
  allocated: number;
  /** Tickets returned and not taken yet (their returner still holds them). */
  returned: number;
  /** Open offers, each of a returned ticket. */
  onOffer: number;
}

/**
 * How a contingent's tickets add up: `allocated + onOffer + free = tickets + beyond`. A returned
 * ticket nobody is offered counts as free; `beyond` is how many more tickets are held than the
 * contingent has (an admin ticked "bought" for more requests than it holds).
 */
export function contingentBalance({ tickets, allocated, returned, onOffer }: ContingentTickets): {
  free: number;
  beyond: number;
} {
  const held = allocated + returned;
  return { free: Math.max(0, tickets - held) + Math.max(0, returned - onOffer), beyond: Math.max(0, held - tickets) };
}

/**
 * How many tickets would be held beyond the contingent once `newlyBought` more requests are marked
 * bought: free tickets are taken first. The admin confirms before saving such a change.
 */
export function beyondAfterBuying(figures: { free: number; beyond: number }, newlyBought: number): number {
  return figures.beyond + Math.max(0, newlyBought - figures.free);
}
