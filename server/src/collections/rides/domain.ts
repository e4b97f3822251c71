import { newId } from '@fankurve/shared';
import { RIDE_FIELDS } from '@fankurve/shared/collections/rides/collection';
import { checkRide, type RideFields } from '@fankurve/shared/collections/rides/rules';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool, toInt, type WriteContext } from '../../db/store.js';
import { isAdmin, type Actor } from '../../domain/actor.js';
import { requireLiveEvent } from '../../domain/attendance/attendance.js';
import { badInput, forbidden, notFound } from '../../domain/errors.js';
import './events.js';
import type { RidesTable } from './tables.js';

/*
 * Rides members offer to an event (docs/product.md, Rides): any member offers one, its driver
 * changes or cancels it, an admin may remove it; every member sees them. REST and the rides sync
 * collection call the same functions; the rules are checkRide's (shared, the device checks them too).
 */

export type RideRow = Selectable<RidesTable>;
export type RideWithDriver = RideRow & { driver_username: string };

/** What a caller sends: a ride's fields as typed; checkRide decides. */
export type RideInput = Partial<Record<(typeof RIDE_FIELDS)[number], unknown>>;

export async function findLiveRide(db: Kysely<Database>, id: string): Promise<RideRow> {
  const row = await db.selectFrom('rides').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound('rideNotFound');
  return row;
}

/** The live rides of a live event with their drivers' names, soonest departure first. */
export async function listRides(db: Kysely<Database>, eventId: string): Promise<RideWithDriver[]> {
  await requireLiveEvent(db, eventId);
  return db
    .selectFrom('rides as r')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .selectAll('r')
    .select('u.username as driver_username')
    .where('r.event_id', '=', eventId)
    .where('r.deleted', '=', 0)
    .orderBy('r.departure_datetime')
    .orderBy('r.id')
    .execute();
}

/** The driver's name beside a ride (REST answers). */
export async function withDriver(db: Kysely<Database>, row: RideRow): Promise<RideWithDriver> {
  const driver = await db.selectFrom('users').select('username').where('id', '=', row.driver_id).executeTakeFirstOrThrow();
  return { ...row, driver_username: driver.username };
}

function checked(input: RideInput, eventDate: string): RideFields {
  const result = checkRide(input, eventDate);
  if (!result.ok) throw badInput(result.code);
  return result.value;
}

const columnsOf = (fields: RideFields) => ({ ...fields, drives_back: toInt(fields.drives_back) });

/** The actor offers a ride to a live event as its driver; `id` and `createdAt` as the device made them (a push). */
export async function offerRide(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  input: RideInput,
  made: { id?: string; createdAt?: string } = {},
): Promise<RideRow> {
  const event = await requireLiveEvent(w.db, eventId);
  const fields = checked({ drives_back: false, ...input }, event.date);
  const row: RideRow = {
    id: made.id ?? newId(),
    event_id: eventId,
    driver_id: actor.id,
    ...columnsOf(fields),
    created_at: made.createdAt ?? w.now,
    updated_at: w.now,
    seq: await w.nextSeq('rides'),
    deleted: 0,
  };
  await w.db.insertInto('rides').values(row).execute();
  w.record({ type: 'ride.offered', rideId: row.id, eventId, actorId: actor.id });
  return row;
}

/** Its driver changes any of a ride's fields; nothing changed takes no seq and records nothing. */
export async function changeRide(w: WriteContext, actor: Actor, id: string, input: RideInput): Promise<RideRow> {
  const current = await findLiveRide(w.db, id);
  if (current.driver_id !== actor.id) throw forbidden();
  const event = await requireLiveEvent(w.db, current.event_id);
  const now: Record<string, unknown> = { ...current, drives_back: toBool(current.drives_back) };
  const fields = columnsOf(checked({ ...now, ...definedOnly(input) }, event.date));
  const changed = RIDE_FIELDS.filter((key) => fields[key] !== current[key]);
  if (changed.length === 0) return current;
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('rides') };
  await w.db.updateTable('rides').set(update).where('id', '=', id).execute();
  w.record({ type: 'ride.changed', rideId: id, eventId: current.event_id, fields: [...changed], actorId: actor.id });
  return { ...current, ...update };
}

/** Its driver cancels a ride, or an admin removes it: a tombstone, so every device drops it. */
export async function cancelRide(w: WriteContext, actor: Actor, id: string): Promise<RideRow> {
  const current = await findLiveRide(w.db, id);
  const byDriver = current.driver_id === actor.id;
  if (!byDriver && !isAdmin(actor)) throw forbidden();
  await w.db
    .updateTable('rides')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('rides') })
    .where('id', '=', id)
    .execute();
  w.record({
    type: 'ride.cancelled',
    rideId: id,
    eventId: current.event_id,
    by: byDriver ? 'driver' : 'admin',
    actorId: actor.id,
  });
  return current;
}

/** A partial body leaves out what it does not change (undefined); null is a value (no note, no cost share). */
const definedOnly = (input: RideInput): RideInput =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
