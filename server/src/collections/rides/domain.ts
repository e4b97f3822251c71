import { isUpcoming, newId, type MessageCode } from '@fankurve/shared';
import { RIDE_FIELDS } from '@fankurve/shared/collections/rides/collection';
import {
  checkMayAsk,
  checkRide,
  checkSeatAnswer,
  checkSeatAsk,
  checkSeatsKeepTaken,
  isRideDriver,
  type RideFields,
} from '@fankurve/shared/collections/rides/rules';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool, toInt, type WriteContext, type Written } from '../../db/store.js';
import { isAdmin, type Actor } from '../../domain/actor.js';
import { requireLiveEvent } from '../../domain/attendance/attendance.js';
import { badInput, conflict, type DomainError, forbidden, notFound } from '../../domain/errors.js';
import './events.js';
import type { RideSeatsTable, RidesTable } from './tables.js';

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
  if (!isUpcoming(event.date, w.today())) throw conflict('eventIsPast');
  const fields = checked({ drives_back: false, ...input }, event.date);
  const row: RideRow = {
    id: made.id ?? newId(),
    event_id: eventId,
    driver_id: actor.id,
    ...columnsOf(fields),
    created_at: made.createdAt ?? w.now,
    updated_at: w.now,
    seats_taken: 0,
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
  if (!isUpcoming(event.date, w.today())) throw conflict('eventIsPast');
  const now: Record<string, unknown> = { ...current, drives_back: toBool(current.drives_back) };
  const fields = columnsOf(checked({ ...now, ...definedOnly(input) }, event.date));
  const changed = RIDE_FIELDS.filter((key) => fields[key] !== current[key]);
  if (changed.length === 0) return current;
  if (fields.seats < current.seats) {
    const kept = checkSeatsKeepTaken(fields.seats, await heldSeats(w.db, id));
    if (!kept.ok) throw conflict(kept.code);
  }
  const update = { ...fields, updated_at: w.now, seq: await w.nextSeq('rides') };
  await w.db.updateTable('rides').set(update).where('id', '=', id).execute();
  w.record({ type: 'ride.changed', rideId: id, eventId: current.event_id, fields: [...changed], actorId: actor.id });
  return { ...current, ...update };
}

/**
 * Its driver cancels a ride, or an admin removes it: a tombstone, so every device drops it; its asks
 * go with it, and the passengers they held seats for are told (notify.ts).
 */
export async function cancelRide(w: WriteContext, actor: Actor, id: string): Promise<RideRow> {
  const current = await findLiveRide(w.db, id);
  const byDriver = current.driver_id === actor.id;
  if (!byDriver && !isAdmin(actor)) throw forbidden();
  await w.db
    .updateTable('rides')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('rides') })
    .where('id', '=', id)
    .execute();
  const asks = await liveSeatsOf(w.db, id);
  for (const ask of asks) await tombstoneSeat(w, ask.id);
  w.record({
    type: 'ride.cancelled',
    rideId: id,
    eventId: current.event_id,
    by: byDriver ? 'driver' : 'admin',
    passengerIds: asks.filter((ask) => ask.state !== 'declined').map((ask) => ask.passenger_id),
    actorId: actor.id,
  });
  return current;
}

/** A partial body leaves out what it does not change (undefined); null is a value (no note, no cost share). */
const definedOnly = (input: RideInput): RideInput =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

/*
 * Seats in rides (docs/product.md, Rides; docs/architecture.md, Seats in rides): a member asks
 * another member's ride for seats, which the ask holds at once; the driver accepts or declines; the
 * passenger cancels; an admin may remove any ask. The rules are shared (rules.ts), checked here.
 */

export type RideSeatRow = Selectable<RideSeatsTable>;

/** A code of the seat rules with the status it answers: asking one's own ride is bad input, the rest a conflict. */
const seatRefusal = (code: MessageCode): DomainError =>
  code === 'rideOwnSeat' || code === 'rideSeatsAskedInvalid' || code === 'invalidInput' || code === 'textHasControlCharacters'
    ? badInput(code)
    : conflict(code);

/** The seats a ride's live asks hold (asked or accepted), read in the transaction. */
export async function heldSeats(db: Kysely<Database>, rideId: string): Promise<number> {
  const row = await db
    .selectFrom('ride_seats')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seats'), eb.lit(0)).as('held'))
    .where('ride_id', '=', rideId)
    .where('deleted', '=', 0)
    .where('state', 'in', ['asked', 'accepted'])
    .executeTakeFirst();
  return Number(row?.held ?? 0);
}

const liveSeatsOf = (db: Kysely<Database>, rideId: string) =>
  db.selectFrom('ride_seats').selectAll().where('ride_id', '=', rideId).where('deleted', '=', 0).orderBy('id').execute();

/** A live ask; with `rideId`, only of that ride (the REST path names both). */
export async function findLiveSeat(db: Kysely<Database>, seatId: string, rideId?: string): Promise<RideSeatRow> {
  let query = db.selectFrom('ride_seats').selectAll().where('id', '=', seatId).where('deleted', '=', 0);
  if (rideId !== undefined) query = query.where('ride_id', '=', rideId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('rideSeatNotFound');
  return row;
}

async function tombstoneSeat(w: WriteContext, seatId: string): Promise<void> {
  await w.db
    .updateTable('ride_seats')
    .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('ride_seats') })
    .where('id', '=', seatId)
    .execute();
}

/**
 * Accepted passengers see each other (docs/architecture.md, Seats in rides): when an ask becomes or
 * stops being accepted, the other accepted asks of the ride get new seqs, so a passenger's next pull
 * brings them, or their tombstones once the passenger no longer may see them.
 */
async function refreshAccepted(w: WriteContext, rideId: string, changedId: string): Promise<void> {
  const others = await w.db
    .selectFrom('ride_seats')
    .select('id')
    .where('ride_id', '=', rideId)
    .where('deleted', '=', 0)
    .where('state', '=', 'accepted')
    .where('id', '!=', changedId)
    .orderBy('id')
    .execute();
  for (const other of others)
    await w.db
      .updateTable('ride_seats')
      .set({ seq: await w.nextSeq('ride_seats') })
      .where('id', '=', other.id)
      .execute();
}

/** What a caller sends for an ask: the seats and a note as typed; checkSeatAsk decides. */
export interface SeatAskInput {
  seats?: unknown;
  note?: unknown;
}

/**
 * The actor asks a live ride of a live, upcoming event for seats; `id` and `createdAt` as the device
 * made them (a push). Refused: their own ride (400 rideOwnSeat), bad seats or note (400), a past
 * event (409 eventIsPast), a second live ask (409 rideSeatAlreadyAsked), more seats than are free
 * (409 rideFull). The server decides by arrival: writers serialise on the seq counter, so of two
 * asks for the last seat the first to arrive gets it.
 */
export async function askSeat(
  w: WriteContext,
  actor: Actor,
  rideId: string,
  input: SeatAskInput,
  made: { id?: string; createdAt?: string } = {},
): Promise<RideSeatRow> {
  const ride = await findLiveRide(w.db, rideId);
  const event = await requireLiveEvent(w.db, ride.event_id);
  if (isRideDriver(ride, actor.id)) throw badInput('rideOwnSeat');
  const asked = checkSeatAsk({ ...input }, ride);
  if (!asked.ok) throw seatRefusal(asked.code);
  if (!isUpcoming(event.date, w.today())) throw conflict('eventIsPast');
  if (made.id !== undefined) {
    const taken = await w.db.selectFrom('ride_seats').select('id').where('id', '=', made.id).executeTakeFirst();
    if (taken) throw badInput();
  }
  const own =
    (await w.db
      .selectFrom('ride_seats')
      .select('state')
      .where('ride_id', '=', rideId)
      .where('passenger_id', '=', actor.id)
      .where('deleted', '=', 0)
      .executeTakeFirst()) ?? null;
  const may = checkMayAsk(ride, actor.id, own, asked.value.seats, await heldSeats(w.db, rideId));
  if (!may.ok) throw seatRefusal(may.code);
  const row: RideSeatRow = {
    id: made.id ?? newId(),
    ride_id: rideId,
    event_id: ride.event_id,
    passenger_id: actor.id,
    ...asked.value,
    state: 'asked',
    created_at: made.createdAt ?? w.now,
    updated_at: w.now,
    seq: await w.nextSeq('ride_seats'),
    deleted: 0,
  };
  await w.db.insertInto('ride_seats').values(row).execute();
  w.record({
    type: 'rideSeat.asked',
    seatId: row.id,
    rideId,
    eventId: ride.event_id,
    passengerId: actor.id,
    driverId: ride.driver_id,
    actorId: actor.id,
  });
  return row;
}

/** Which ask a call names (`rideId`: the REST path's ride), and whether an admin may act (not over sync). */
export interface SeatCall {
  rideId?: string;
  adminToo?: boolean;
}

/**
 * The driver (or over REST an admin) accepts or declines an ask; an accepted one may still be
 * declined, a declined one stays so (409 rideSeatDeclined). The same answer again changes nothing.
 */
export async function answerSeat(
  w: WriteContext,
  actor: Actor,
  seatId: string,
  answer: unknown,
  call: SeatCall = {},
): Promise<RideSeatRow> {
  const seat = await findLiveSeat(w.db, seatId, call.rideId);
  const ride = await findLiveRide(w.db, seat.ride_id);
  if (!isRideDriver(ride, actor.id) && !(call.adminToo && isAdmin(actor))) throw forbidden();
  await requireLiveEvent(w.db, ride.event_id);
  const result = checkSeatAnswer(seat.state, answer);
  if (!result.ok) throw seatRefusal(result.code);
  const state = result.value;
  if (state === seat.state) return seat;
  const update = { state, updated_at: w.now, seq: await w.nextSeq('ride_seats') };
  await w.db.updateTable('ride_seats').set(update).where('id', '=', seatId).execute();
  await refreshAccepted(w, ride.id, seatId);
  w.record({
    type: 'rideSeat.answered',
    seatId,
    rideId: ride.id,
    eventId: ride.event_id,
    passengerId: seat.passenger_id,
    state,
    actorId: actor.id,
  });
  return { ...seat, ...update };
}

/**
 * The passenger cancels their ask, or (over REST) an admin removes it: a tombstone; its seats are
 * free again. The driver declines instead.
 */
export async function cancelSeat(w: WriteContext, actor: Actor, seatId: string, call: SeatCall = {}): Promise<RideSeatRow> {
  const seat = await findLiveSeat(w.db, seatId, call.rideId);
  const byPassenger = seat.passenger_id === actor.id;
  if (!byPassenger && !(call.adminToo && isAdmin(actor))) throw forbidden();
  const ride = await w.db.selectFrom('rides').select('driver_id').where('id', '=', seat.ride_id).executeTakeFirstOrThrow();
  await tombstoneSeat(w, seatId);
  if (seat.state === 'accepted') await refreshAccepted(w, seat.ride_id, seatId);
  w.record({
    type: 'rideSeat.cancelled',
    seatId,
    rideId: seat.ride_id,
    eventId: seat.event_id,
    passengerId: seat.passenger_id,
    driverId: ride.driver_id,
    by: byPassenger ? 'passenger' : 'admin',
    actorId: actor.id,
  });
  return seat;
}

/** An ask as the actor's pull and push see it: with its ride's driver and whether it or its event is gone. */
export type SeatSource = RideSeatRow & {
  driver_id: string;
  ride_deleted: number;
  event_deleted: number | null;
  event_archived: number | null;
  /** Whether the actor holds an accepted ask of the same ride. */
  viewer_accepted: unknown;
};

/**
 * The asks an actor's devices hear of (docs/architecture.md, Seats in rides): those of the rides the
 * actor drives, their own, and every ask of a ride they have asked (the ones they may not see go as
 * tombstones: `seesSeat`), ascending by seq.
 */
export function seatsHeardBy(db: Kysely<Database>, actor: Actor) {
  return db
    .selectFrom('ride_seats as s')
    .innerJoin('rides as r', 'r.id', 's.ride_id')
    .leftJoin('events as e', 'e.id', 's.event_id')
    .selectAll('s')
    .select(['r.driver_id', 'r.deleted as ride_deleted', 'e.deleted as event_deleted', 'e.archived as event_archived'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('ride_seats as m')
            .select('m.id')
            .whereRef('m.ride_id', '=', 's.ride_id')
            .where('m.passenger_id', '=', actor.id)
            .where('m.deleted', '=', 0)
            .where('m.state', '=', 'accepted'),
        )
        .as('viewer_accepted'),
    )
    .where((eb) =>
      eb.or([
        eb('r.driver_id', '=', actor.id),
        eb('s.passenger_id', '=', actor.id),
        eb.exists(
          eb
            .selectFrom('ride_seats as o')
            .select('o.id')
            .whereRef('o.ride_id', '=', 's.ride_id')
            .where('o.passenger_id', '=', actor.id),
        ),
      ]),
    );
}

/**
 * Who sees an ask (docs/product.md, Rides): the ride's driver, its passenger, and the other accepted
 * passengers of the ride once it is accepted. Nobody else learns who asked.
 */
export function seesSeat(row: SeatSource, actorId: string): boolean {
  if (row.driver_id === actorId || row.passenger_id === actorId) return true;
  return row.state === 'accepted' && Boolean(Number(row.viewer_accepted));
}

/**
 * Before a commit (deps.ts, docs/architecture.md, One write convention): the asks of rides this
 * transaction deleted go too (an account's rides end with it), and every live ride whose asks
 * changed carries the seats they hold (`seats_taken`) with a new seq, so every device shows its free seats.
 */
export async function followRideSeats(w: WriteContext, written: Written): Promise<void> {
  let seatsWritten = written.collections.has('ride_seats');
  if (written.collections.has('rides')) {
    const orphans = await w.db
      .selectFrom('ride_seats as s')
      .innerJoin('rides as r', 'r.id', 's.ride_id')
      .select('s.id')
      .where('s.deleted', '=', 0)
      .where('r.deleted', '=', 1)
      .where('r.seq', '>=', written.firstSeq)
      .orderBy('s.id')
      .execute();
    for (const orphan of orphans) await tombstoneSeat(w, orphan.id);
    seatsWritten ||= orphans.length > 0;
  }
  if (!seatsWritten) return;
  const rides = await w.db
    .selectFrom('rides')
    .select(['id', 'seats_taken'])
    .where('deleted', '=', 0)
    .where('id', 'in', w.db.selectFrom('ride_seats').select('ride_id').where('seq', '>=', written.firstSeq))
    .orderBy('id')
    .execute();
  for (const ride of rides) {
    const held = await heldSeats(w.db, ride.id);
    if (held === Number(ride.seats_taken)) continue;
    await w.db
      .updateTable('rides')
      .set({ seats_taken: held, seq: await w.nextSeq('rides') })
      .where('id', '=', ride.id)
      .execute();
  }
}
