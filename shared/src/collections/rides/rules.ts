import { checkDepartureDate } from '../../dates.js';
import type { CoreMessageCode } from '../../messages.js';
import { freeTextProblem, normaliseLineBreaks } from '../../rules/freeText.js';
import type { RuleResult } from '../../rules/result.js';
import {
  RIDE_COST_SHARE_MAX_CENTS,
  RIDE_NOTE_MAX_LENGTH,
  RIDE_PLACE_MAX_LENGTH,
  RIDE_SEATS_MAX,
  RIDE_SEATS_MIN,
  type RideDoc,
  type RideMessageCode,
} from './collection.js';

/*
 * A ride's rules, checked on the device before it stores an offer and on the server when the offer
 * arrives (docs/architecture.md, Rules once).
 */

export type RideFields = Pick<
  RideDoc,
  'seats' | 'departure_location' | 'departure_datetime' | 'drives_back' | 'note' | 'cost_share_cents'
>;
type Code = RideMessageCode | CoreMessageCode;

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
