import { checkDepartureDate } from '../../dates.js';
import type { CoreMessageCode } from '../../messages.js';
import { freeTextProblem, normaliseLineBreaks } from '../../rules/freeText.js';
import type { RuleResult } from '../../rules/result.js';
import {
  RIDE_COST_SHARE_MAX_CENTS,
  RIDE_NOTE_MAX_LENGTH,
  RIDE_PLACE_MAX_LENGTH,
  RIDE_SEAT_NOTE_MAX_LENGTH,
  RIDE_SEATS_MAX,
  RIDE_SEATS_MIN,
  type RideDoc,
  type RideMessageCode,
  type RideSeatAnswer,
  type RideSeatDoc,
  type RideSeatMessageCode,
  type RideSeatState,
} from './collection.js';

/*
 * A ride's rules, checked on the device before it stores an offer and on the server when the offer
 * arrives (docs/architecture.md, Rules once).
 */

export type RideFields = Pick<
  RideDoc,
  'seats' | 'departure_location' | 'departure_datetime' | 'drives_back' | 'note' | 'cost_share_cents'
>;
type Code = RideMessageCode | RideSeatMessageCode | CoreMessageCode;

const fail = (code: Code): { ok: false; code: Code } => ({ ok: false, code });

/**
 * A ride's fields as typed (from a form, a REST body or a pushed document), checked and normalised:
 * 1 to 8 seats; a departure place of one line; a departure time (the club's wall clock, to the
 * minute) not after the event starts; a note of several lines or none; a cost share in whole cents
 * from 0 to 100 € or none.
 */
export function checkRide(input: Record<string, unknown>, eventDate: string): RuleResult<RideFields, Code> {
  const { seats, departure_location: location, departure_datetime: departure, drives_back: drivesBack } = input;
  if (typeof seats !== 'number' || !Number.isInteger(seats) || seats < RIDE_SEATS_MIN || seats > RIDE_SEATS_MAX)
    return fail('rideSeatsInvalid');
  if (typeof location !== 'string' || !location.trim()) return fail('rideLocationRequired');
  const place = location.trim();
  if (freeTextProblem(place, 'line')) return fail('textHasControlCharacters');
  if ([...place].length > RIDE_PLACE_MAX_LENGTH) return fail('invalidInput');
  if (typeof departure !== 'string') return fail('departureInvalid');
  const leaves = checkDepartureDate(departure);
  if (!leaves.ok) return leaves;
  if (leaves.value > eventDate) return fail('rideDepartsAfterEvent');
  if (typeof drivesBack !== 'boolean') return fail('invalidInput');
  const note = checkNote(input.note);
  if (!note.ok) return note;
  const share = input.cost_share_cents ?? null;
  if (share !== null && (typeof share !== 'number' || !Number.isInteger(share) || share < 0 || share > RIDE_COST_SHARE_MAX_CENTS))
    return fail('rideCostShareInvalid');
  return {
    ok: true,
    value: {
      seats,
      departure_location: place,
      departure_datetime: leaves.value,
      drives_back: drivesBack,
      note: note.value,
      cost_share_cents: share,
    },
  };
}

/** The note: several lines, blank is none. */
function checkNote(input: unknown): RuleResult<string | null, Code> {
  if (input === null || input === undefined) return { ok: true, value: null };
  if (typeof input !== 'string') return fail('invalidInput');
  const note = normaliseLineBreaks(input).trim();
  if (!note) return { ok: true, value: null };
  if (freeTextProblem(note, 'multiline')) return fail('textHasControlCharacters');
  if ([...note].length > RIDE_NOTE_MAX_LENGTH) return fail('invalidInput');
  return { ok: true, value: note };
}

/** Whether a member may change or cancel a ride: its driver, or an admin (who may only remove it). */
export const isRideDriver = (ride: Pick<RideDoc, 'driver_id'>, userId: string): boolean => ride.driver_id === userId;

/** A ride may not offer fewer seats than its asks hold (docs/product.md, Rides). */
export function checkSeatsKeepTaken(seats: number, taken: number): RuleResult<number, Code> {
  return seats < taken ? fail('rideSeatsBelowTaken') : { ok: true, value: seats };
}

/*
 * Seats in rides (docs/product.md, Rides): a member asks another member's ride for seats; the ask
 * holds them at once (asked or accepted), the driver accepts or declines, the passenger cancels.
 */

/** The seats an ask holds: while asked or accepted. */
export const holdsSeats = (state: RideSeatState): boolean => state === 'asked' || state === 'accepted';

/** The seats still free in a ride: its seats less those its asks hold. */
export const freeSeats = (ride: Pick<RideDoc, 'seats' | 'seats_taken'>): number => Math.max(0, ride.seats - ride.seats_taken);

export type SeatAskFields = Pick<RideSeatDoc, 'seats' | 'note'>;

/**
 * An ask as typed (a form, a REST body, a pushed document), checked and normalised: whole seats, at
 * least one and at most what the car has; a note of one line or none.
 */
export function checkSeatAsk(input: Record<string, unknown>, ride: Pick<RideDoc, 'seats'>): RuleResult<SeatAskFields, Code> {
  const { seats } = input;
  if (typeof seats !== 'number' || !Number.isInteger(seats) || seats < RIDE_SEATS_MIN || seats > ride.seats)
    return fail('rideSeatsAskedInvalid');
  const note = input.note ?? null;
  if (note !== null && typeof note !== 'string') return fail('invalidInput');
  const text = note?.trim() ?? '';
  if (freeTextProblem(text, 'line')) return fail('textHasControlCharacters');
  if ([...text].length > RIDE_SEAT_NOTE_MAX_LENGTH) return fail('invalidInput');
  return { ok: true, value: { seats, note: text || null } };
}

/**
 * Whether the member may ask this ride at all: not their own ride, and one live ask per member and
 * ride (`own`: the member's live ask of the ride, if any); then whether the seats fit the free ones.
 */
export function checkMayAsk(
  ride: Pick<RideDoc, 'driver_id' | 'seats'>,
  userId: string,
  own: Pick<RideSeatDoc, 'state'> | null,
  seats: number,
  taken: number,
): RuleResult<true, Code> {
  if (isRideDriver(ride, userId)) return fail('rideOwnSeat');
  if (own) return fail('rideSeatAlreadyAsked');
  if (seats > ride.seats - taken) return fail('rideFull');
  return { ok: true, value: true };
}

/**
 * The driver's answer: an ask is accepted or declined; an accepted one may still be declined; a
 * declined one stays declined. The same answer again changes nothing (ok, unchanged).
 */
export function checkSeatAnswer(current: RideSeatState, answer: unknown): RuleResult<RideSeatAnswer, Code> {
  if (answer !== 'accepted' && answer !== 'declined') return fail('invalidInput');
  if (current === 'declined' && answer === 'accepted') return fail('rideSeatDeclined');
  return { ok: true, value: answer };
}
