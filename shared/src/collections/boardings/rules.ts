import type { CoreMessageCode } from '../../messages.js';
import type { TransportDoc, TransportSeat } from '../../docs/transports.js';
import type { RuleResult } from '../../rules/result.js';
import {
  CAPTAINS_MAX,
  SEAT_PLAN_ROWS_MAX,
  SEAT_PLAN_SEATS_MAX,
  SEAT_PLAN_SEATS_PER_ROW_MAX,
  type BoardingDoc,
  type BoardingMessageCode,
} from './collection.js';

/*
 * The bus's rules (docs/product.md, Bus), checked on the device before it writes and on the server
 * when the write arrives (docs/architecture.md, Rules once): the seat plan, who is a passenger, who
 * may take or free a seat and who ticks passengers on board, and the boarding list a captain sees.
 */

type Code = BoardingMessageCode | CoreMessageCode;
const fail = (code: Code): { ok: false; code: Code } => ({ ok: false, code });

/** A stored seat plan: the number of seats, and its rows when it was given as rows. */
export interface SeatPlan {
  seat_count: number;
  seat_rows: number | null;
  seats_per_row: number | null;
}

const wholeIn = (value: unknown, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;

/**
 * A seat plan as sent: `{ seats }` (1 to 100), `{ rows, seats_per_row }` (1 to 30 rows of 1 to 6),
 * or `{ seats: null }` to remove the plan (the answer null). Anything else is `seatPlanInvalid`.
 */
export function checkSeatPlan(input: Record<string, unknown>): RuleResult<SeatPlan | null, Code> {
  const { seats, rows, seats_per_row: perRow } = input;
  if (rows !== undefined || perRow !== undefined) {
    if (seats !== undefined && seats !== null) return fail('seatPlanInvalid');
    if (!wholeIn(rows, SEAT_PLAN_ROWS_MAX) || !wholeIn(perRow, SEAT_PLAN_SEATS_PER_ROW_MAX)) return fail('seatPlanInvalid');
    return { ok: true, value: { seat_count: rows * perRow, seat_rows: rows, seats_per_row: perRow } };
  }
  if (seats === null) return { ok: true, value: null };
  if (!wholeIn(seats, SEAT_PLAN_SEATS_MAX)) return fail('seatPlanInvalid');
  return { ok: true, value: { seat_count: seats, seat_rows: null, seats_per_row: null } };
}

/** Whether seat `seat` lies in the option's plan (none: no seat does). */
export const isSeatInPlan = (transport: Pick<TransportDoc, 'seat_count'>, seat: number): boolean =>
  transport.seat_count !== null && Number.isInteger(seat) && seat >= 1 && seat <= transport.seat_count;

/**
 * The plan for display: rows of seat numbers, each row split at its middle by the aisle (`left`,
 * `right`). A plain count shows as rows of four (two and two).
 */
export function seatRows(transport: Pick<TransportDoc, 'seat_count' | 'seats_per_row'>): { left: number[]; right: number[] }[] {
  if (transport.seat_count === null) return [];
  const perRow = transport.seats_per_row ?? 4;
  const rows: { left: number[]; right: number[] }[] = [];
  for (let first = 1; first <= transport.seat_count; first += perRow) {
    const seats = Array.from({ length: Math.min(perRow, transport.seat_count - first + 1) }, (_, i) => first + i);
    const aisle = Math.ceil(perRow / 2);
    rows.push({ left: seats.slice(0, aisle), right: seats.slice(aisle) });
  }
  return rows;
}

/** Seat choice: 'admin' or 'members'. */
export function checkSeatChoice(input: unknown): RuleResult<'admin' | 'members', Code> {
  return input === 'admin' || input === 'members' ? { ok: true, value: input } : fail('seatChoiceInvalid');
}

/** The captains as sent: member ids, at most ten, none twice (duplicates dropped). */
export function checkCaptainIds(input: unknown): RuleResult<string[], Code> {
  if (!Array.isArray(input) || !input.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64))
    return fail('captainsInvalid');
  const ids = [...new Set(input as string[])];
  if (ids.length > CAPTAINS_MAX) return fail('captainsInvalid');
  return { ok: true, value: ids };
}

/** The part of an attendee row (server row or device document) the bus reads. */
export interface BusRow {
  id: string;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
  status: string;
  needs_transport: boolean;
  transfer_status: string | null;
  deleted?: boolean;
}

/** Whether a row travels with the club's transport now: live, going, needing a seat. */
export const isTravelling = (row: BusRow | undefined): boolean =>
  row !== undefined && !row.deleted && row.status === 'going' && row.needs_transport;

/**
 * Whether a seat is free to be given: nobody holds it, or its holder no longer travels (cancelled
 * late: they keep showing, struck through, until someone takes the seat).
 */
export function isSeatFree(transport: Pick<TransportDoc, 'seats'>, seat: number, rows: ReadonlyMap<string, BusRow>): boolean {
  const holder = transport.seats.find((taken) => taken.seat === seat);
  return holder === undefined || !isTravelling(rows.get(holder.attendee_id));
}

/** The seat a row holds on the option, if any. */
export const seatOf = (transport: Pick<TransportDoc, 'seats'>, attendeeId: string): number | null =>
  transport.seats.find((taken) => taken.attendee_id === attendeeId)?.seat ?? null;

/** Whether a member may take or free seats on the option for the row: members choose, and it is their own row or their guest's. */
export const mayChooseSeatFor = (transport: Pick<TransportDoc, 'seat_choice'>, userId: string, row: BusRow): boolean =>
  transport.seat_choice === 'members' && (row.user_id === userId || (row.user_id === null && row.brought_by === userId));

/** Whether the user ticks passengers of the option on board: one of its captains, or an admin. */
export const mayTick = (transport: Pick<TransportDoc, 'captain_ids'>, user: { id: string; isAdmin: boolean }): boolean =>
  user.isAdmin || transport.captain_ids.includes(user.id);

/**
 * A passenger of the option: a row with a seat on it, or — when the event has exactly this one option
 * — a row travelling with its seat reserved (docs/product.md, Bus: the fare charges them).
 */
export function isPassengerOf(transport: Pick<TransportDoc, 'seats'>, onlyOption: boolean, row: BusRow): boolean {
  if (!isTravelling(row)) return false;
  return seatOf(transport, row.id) !== null || (onlyOption && row.transfer_status === 'reserved');
}

/** One line of the boarding list: the row (or, for one gone since, its seat's record), its seat, and its tick. */
export interface BoardingLine {
  attendee_id: string;
  seat: number | null;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
  /** Had a seat but no longer travels (not going, no seat needed, or the answer removed). */
  cancelled: boolean;
  on_board: boolean;
}

/**
 * The boarding list of an option: every row with a seat on it (those who cancelled since too, struck
 * through) and, when the event has only this option, every travelling row reserved without a seat;
 * by seat (those without one last), each with its tick.
 */
export function boardingList(
  transport: Pick<TransportDoc, 'id' | 'seats'>,
  onlyOption: boolean,
  rows: readonly BusRow[],
  boardings: readonly Pick<BoardingDoc, 'transport_id' | 'attendee_id' | 'on_board'>[],
): BoardingLine[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ticked = new Set(boardings.filter((b) => b.transport_id === transport.id && b.on_board).map((b) => b.attendee_id));
  const lines: BoardingLine[] = transport.seats.map((taken: TransportSeat) => {
    const row = byId.get(taken.attendee_id);
    return {
      attendee_id: taken.attendee_id,
      seat: taken.seat,
      user_id: row ? row.user_id : taken.user_id,
      guest_name: row ? row.guest_name : taken.guest_name,
      brought_by: row ? row.brought_by : taken.brought_by,
      cancelled: !isTravelling(row),
      on_board: ticked.has(taken.attendee_id),
    };
  });
  if (onlyOption) {
    const seated = new Set(transport.seats.map((taken) => taken.attendee_id));
    for (const row of rows)
      if (!seated.has(row.id) && isTravelling(row) && row.transfer_status === 'reserved')
        lines.push({
          attendee_id: row.id,
          seat: null,
          user_id: row.user_id,
          guest_name: row.guest_name,
          brought_by: row.brought_by,
          cancelled: false,
          on_board: ticked.has(row.id),
        });
  }
  return lines.sort(
    (a, b) =>
      (a.seat ?? Number.MAX_SAFE_INTEGER) - (b.seat ?? Number.MAX_SAFE_INTEGER) || a.attendee_id.localeCompare(b.attendee_id),
  );
}

/** "32 von 50 an Bord": the passengers on board and all passengers (those who cancelled not counted). */
export function boardingCounts(lines: readonly BoardingLine[]): { onBoard: number; total: number } {
  const travelling = lines.filter((line) => !line.cancelled);
  return { onBoard: travelling.filter((line) => line.on_board).length, total: travelling.length };
}

/**
 * The id of the boarding document of a passenger on an option: derived from the pair, so every
 * device writes the same document (a 128-bit hash, shaped as a UUIDv7 as the sync expects of ids a
 * device makes).
 */
export function boardingIdOf(transportId: string, attendeeId: string): string {
  const key = `${transportId}|${attendeeId}`;
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < key.length; i++) {
    const k = key.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const hex = [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
