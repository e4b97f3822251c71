import {
  centsToEuros,
  checkDepartureDate,
  checkPriceChoice,
  eurosToCents,
  newId,
  type CreateTransportInput,
  type UpdateTransportInput,
} from '@fankurve/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database, TransportsTable } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { badInput, notFound } from '../errors.js';
import { checkSeatChoice } from '@fankurve/shared/collections/boardings/rules';
import { scheduleFareJob } from './fareSchedule.js';

/*
 * Transport options of an event (docs/product.md, Input rules): admins write them, every member reads them (REST and
 * the transports sync collection). Name and departure location are required; the price per seat is
 * a number, free, or to be announced (free and TBD exclude each other); the departure time is
 * optional (null = to be announced) and kept to the minute as entered (a bus leaving at 07:40 is
 * not moved to 07:45).
 */

export type TransportRow = Selectable<TransportsTable>;

const text = (value: string | undefined, code: 'transportNameRequired' | 'departureLocationRequired') => {
  const trimmed = value?.trim() ?? '';
  if (!trimmed) throw badInput(code);
  return trimmed;
};

/** The stored departure: null for none / blank, else the club wall-clock time as entered (400 when no date, dateOutOfRange outside 2000–2100). */
function departureOf(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const checked = checkDepartureDate(value);
  if (!checked.ok) throw badInput(checked.code);
  return checked.value;
}

/** Price fields of the merged transport: free and TBD store 0; otherwise a price is required. */
function priceFields(price: number | null, isFree: boolean, isTbd: boolean) {
  const cents = price === null ? null : eurosToCents(price);
  const problem = checkPriceChoice({ price_cents: cents, is_free: isFree, is_price_tbd: isTbd });
  if (problem) throw badInput(problem);
  return { price_per_seat_cents: isFree || isTbd ? 0 : cents!, is_free: toInt(isFree), is_price_tbd: toInt(isTbd) };
}

export async function findLiveTransport(db: Kysely<Database>, id: string): Promise<TransportRow> {
  const row = await db.selectFrom('transports').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound('transportNotFound');
  return row;
}

/** Who chooses the seats, as sent (400 `seatChoiceInvalid`); undefined: left as it is. */
function seatChoiceOf(value: string | undefined): 'admin' | 'members' | undefined {
  if (value === undefined) return undefined;
  const checked = checkSeatChoice(value);
  if (!checked.ok) throw badInput(checked.code);
  return checked.value;
}

/** The live transport options of a live event (404 'Event not found'), oldest first. */
export async function listTransports(db: Kysely<Database>, eventId: string): Promise<TransportRow[]> {
  await requireLiveEvent(db, eventId);
  return db
    .selectFrom('transports')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function createTransport(w: WriteContext, actor: Actor, input: CreateTransportInput): Promise<TransportRow> {
  requireAdmin(actor);
  const name = text(input.name, 'transportNameRequired');
  const departureLocation = text(input.departure_location, 'departureLocationRequired');
  const price = priceFields(input.price_per_seat ?? null, input.is_free ?? false, input.is_price_tbd ?? false);
  const departure = departureOf(input.departure_datetime);
  const seatChoice = seatChoiceOf(input.seat_choice) ?? 'admin';
  await requireLiveEvent(w.db, input.event_id);
  const row: TransportRow = {
    id: newId(),
    event_id: input.event_id,
    name,
    ...price,
    departure_datetime: departure,
    departure_location: departureLocation,
    seat_count: null,
    seat_rows: null,
    seats_per_row: null,
    seat_choice: seatChoice,
    charge_at_departure: toInt(input.charge_at_departure ?? false),
    departure_charged_at: null,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('transports'),
    deleted: 0,
  };
  await w.db.insertInto('transports').values(row).execute();
  await scheduleFareJob(w, row);
  return row;
}

/** Changes any of the fields; the merged option must be valid as a whole. */
export async function updateTransport(
  w: WriteContext,
  actor: Actor,
  id: string,
  input: UpdateTransportInput,
): Promise<TransportRow> {
  requireAdmin(actor);
  const current = await findLiveTransport(w.db, id);
  await requireLiveEvent(w.db, current.event_id);
  const isFree = input.is_free ?? toBool(current.is_free);
  const isTbd = input.is_price_tbd ?? toBool(current.is_price_tbd);
  // A stored price counts only while it was a real price: turning free or TBD off needs a new one.
  const storedPrice =
    toBool(current.is_free) || toBool(current.is_price_tbd) ? null : centsToEuros(Number(current.price_per_seat_cents));
  const price = input.price_per_seat !== undefined ? input.price_per_seat : storedPrice;
  const fields = {
    ...(input.name !== undefined ? { name: text(input.name, 'transportNameRequired') } : {}),
    ...(input.departure_location !== undefined
      ? { departure_location: text(input.departure_location, 'departureLocationRequired') }
      : {}),
    ...(input.departure_datetime !== undefined ? { departure_datetime: departureOf(input.departure_datetime) } : {}),
    ...priceFields(price, isFree, isTbd),
    ...(input.seat_choice !== undefined ? { seat_choice: seatChoiceOf(input.seat_choice)! } : {}),
    ...(input.charge_at_departure !== undefined ? { charge_at_departure: toInt(input.charge_at_departure) } : {}),
  };
  const changed = (Object.keys(fields) as (keyof typeof fields)[]).some((key) => fields[key] !== current[key]);
  if (!changed) return current;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('transports') };
  await w.db.updateTable('transports').set(update).where('id', '=', id).execute();
  const after = { ...current, ...update };
  await scheduleFareJob(w, after);
  return after;
}

/** Removes a transport option (a tombstone, so every device drops it). */
export async function deleteTransport(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const current = await findLiveTransport(w.db, id);
  await w.db
    .updateTable('transports')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('transports') })
    .where('id', '=', current.id)
    .execute();
}
