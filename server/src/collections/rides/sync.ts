import type { NoticeAction } from '@fankurve/shared';
import { rideSeatsSync, ridesSync, type RideDoc, type RideSeatDoc } from '@fankurve/shared/collections/rides/collection';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { badInput, forbidden } from '../../domain/errors.js';
import { defineServerCollection, sameForEveryActor, type MasterDocument, type PushedChange } from '../../sync/collection.js';
import {
  answerSeat,
  askSeat,
  cancelRide,
  cancelSeat,
  changeRide,
  offerRide,
  seatsHeardBy,
  seesSeat,
  type RideRow,
  type SeatSource,
} from './domain.js';

type RideSource = RideRow & { event_deleted: number | null; event_archived: number | null };

/** A ride of an archived or deleted event is gone for the device too. */
function toRideDoc(row: RideSource): MasterDocument<RideDoc> {
  return {
    id: row.id,
    event_id: row.event_id,
    driver_id: row.driver_id,
    seats: row.seats,
    departure_location: row.departure_location,
    departure_datetime: row.departure_datetime,
    drives_back: toBool(row.drives_back),
    note: row.note,
    cost_share_cents: row.cost_share_cents === null ? null : Number(row.cost_share_cents),
    seats_taken: Number(row.seats_taken),
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted: toBool(row.deleted) || toBool(row.event_deleted) || toBool(row.event_archived),
  };
}

const ridesWithEvent = (db: Kysely<Database>) =>
  db
    .selectFrom('rides as r')
    .leftJoin('events as e', 'e.id', 'r.event_id')
    .selectAll('r')
    .select(['e.deleted as event_deleted', 'e.archived as event_archived']);

/** Every ride, for every member: a club has few, and the same list serves everyone. */
async function pullRides(
  db: Kysely<Database>,
  _actor: Actor,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<RideDoc>[]> {
  const rows = await ridesWithEvent(db).where('r.seq', '>', afterSeq).orderBy('r.seq').limit(limit).execute();
  return rows.map(toRideDoc);
}

type Change = PushedChange<RideDoc>;

function actionOf(change: Change): NoticeAction {
  if (change.kind === 'create') return 'ride.offer';
  if (change.kind === 'delete') return 'ride.cancel';
  return 'ride.change';
}

/**
 * The driver's rides as the device changed them (offline too), by the same domain calls as the
 * REST routes: an offer to an event archived or deleted meanwhile, or a change to a ride an admin
 * removed, is refused with a notice and the device gets the server's state back.
 */
export const ridesCollection = defineServerCollection<RideDoc>({
  declaration: ridesSync,
  pull: pullRides,
  shared: sameForEveryActor(pullRides),
  push: {
    async find(db, _actor, id) {
      const row = await ridesWithEvent(db).where('r.id', '=', id).executeTakeFirst();
      return row ? toRideDoc(row) : undefined;
    },
    async apply(w, actor, change) {
      if (change.kind === 'create') {
        if (change.sent.driver_id !== actor.id) throw forbidden();
        const eventId = change.sent.event_id;
        if (typeof eventId !== 'string') throw badInput();
        const createdAt = typeof change.sent.created_at === 'string' ? change.sent.created_at : undefined;
        await offerRide(w, actor, eventId, change.fields, { id: change.id, createdAt });
        return;
      }
      // Over sync only the driver changes or cancels: an admin removes another member's ride through REST.
      if (change.master?.driver_id !== actor.id) throw forbidden();
      if (change.kind === 'delete') await cancelRide(w, actor, change.id);
      else await changeRide(w, actor, change.id, change.fields);
    },
    describe: (change) => ({
      eventId: change.master?.event_id || (typeof change.sent.event_id === 'string' ? change.sent.event_id : null),
      action: actionOf(change),
    }),
  },
});

/** An ask as the actor may see it: gone with its ride or event, and a tombstone to those who may not see it. */
function toRideSeatDoc(row: SeatSource, actor: Actor): MasterDocument<RideSeatDoc> {
  return {
    id: row.id,
    ride_id: row.ride_id,
    event_id: row.event_id,
    passenger_id: row.passenger_id,
    seats: Number(row.seats),
    note: row.note,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted:
      toBool(row.deleted) ||
      toBool(row.ride_deleted) ||
      toBool(row.event_deleted) ||
      toBool(row.event_archived) ||
      !seesSeat(row, actor.id),
  };
}

function seatActionOf(change: PushedChange<RideSeatDoc>): NoticeAction {
  if (change.kind === 'create') return 'rideSeat.ask';
  if (change.kind === 'delete') return 'rideSeat.cancel';
  return 'rideSeat.answer';
}

/**
 * The seat requests (docs/architecture.md, Seats in rides), pulled per actor: their own, those of
 * the rides they drive, and their fellow accepted passengers'. The passenger asks and cancels on the
 * device, the driver accepts or declines there (`state`), offline too, by the same domain calls as
 * REST; the server decides when the push arrives (the last seat taken meanwhile: refused with a
 * notice, and the device drops the ask). An admin removes an ask through REST only.
 */
export const rideSeatsCollection = defineServerCollection<RideSeatDoc>({
  declaration: rideSeatsSync,
  async pull(db, actor, afterSeq, limit) {
    const rows = await seatsHeardBy(db, actor).where('s.seq', '>', afterSeq).orderBy('s.seq').limit(limit).execute();
    return rows.map((row) => toRideSeatDoc(row, actor));
  },
  push: {
    async find(db, actor, id) {
      const row = await seatsHeardBy(db, actor).where('s.id', '=', id).executeTakeFirst();
      return row ? toRideSeatDoc(row, actor) : undefined;
    },
    async apply(w, actor, change) {
      if (change.kind === 'create') {
        const { passenger_id: passengerId, ride_id: rideId, created_at: createdAt } = change.sent;
        if (passengerId !== actor.id) throw forbidden();
        if (typeof rideId !== 'string') throw badInput();
        await askSeat(w, actor, rideId, change.fields, {
          id: change.id,
          createdAt: typeof createdAt === 'string' ? createdAt : undefined,
        });
        return;
      }
      // Over sync only the passenger cancels and only the driver answers: an admin acts through REST.
      if (change.kind === 'delete') await cancelSeat(w, actor, change.id);
      else if (change.fields.state !== undefined) await answerSeat(w, actor, change.id, change.fields.state);
    },
    describe: (change) => ({
      eventId: change.master?.event_id || (typeof change.sent.event_id === 'string' ? change.sent.event_id : null),
      action: seatActionOf(change),
    }),
  },
});
