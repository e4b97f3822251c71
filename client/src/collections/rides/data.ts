import { RIDE_FIELDS, type RideDoc, type RideSeatAnswer, type RideSeatDoc } from '@fankurve/shared/collections/rides/collection';
import {
  checkMayAsk,
  checkRide,
  checkSeatAnswer,
  checkSeatAsk,
  checkSeatsKeepTaken,
  holdsSeats,
  isRideDriver,
  type RideFields,
  type SeatAskFields,
} from '@fankurve/shared/collections/rides/rules';
import { isUpcoming } from '@fankurve/shared/dates';
import { newId } from '@fankurve/shared/ids';
import type { RxDocument } from 'rxdb';
import { combineLatest, map, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../../data/database.js';
import { kindOf } from '../../data/pushedGroup.js';
import { enforce, LocalRuleError, type Device } from '../../data/device.js';
import type { DocStore } from '../../data/docStore.js';
import { onDevice } from '../../data/local.js';
import { useQuery } from '../../data/query.js';

/*
 * The rides members offer to an event (docs/product.md, Rides) on the device, offline too: every
 * member's device pulls every ride (RxDB, a pushed collection); the driver's name comes from the
 * members in the document store. The driver offers, changes and cancels their ride on the device,
 * checked by the shared rule first (`checkRide` against the event's date); the replication pushes
 * it and the server decides again when it arrives (an event archived meanwhile, a ride an admin
 * removed: refused with a notice and undone on the device).
 */

/**
 * A ride as the screen shows it: with its driver's name (null while unknown on the device), whether it
 * is the member's own, the seats taken as the device knows them (the server's count plus the member's
 * asks it has not heard of yet, so an ask made offline counts at once) and the asks the member may see.
 */
export interface RideView extends RideDoc {
  driver_name: string | null;
  own: boolean;
  taken: number;
  asks: RideSeatView[];
}

/** An ask as the screen shows it: with its passenger's name and whether it is the member's own. */
export interface RideSeatView extends RideSeatDoc {
  passenger_name: string | null;
  own: boolean;
}

/** What the driver types: a ride's fields (checked and normalised by `checkRide`). */
export type RideInput = RideFields;

/** Soonest departure first (the server's order too). */
const soonestFirst = (a: RideDoc, b: RideDoc) =>
  a.departure_datetime.localeCompare(b.departure_datetime) || a.id.localeCompare(b.id);

/**
 * The event's rides on the device, soonest departure first, with their drivers' names. The member's
 * own name is known from the session: a member who joined since the device last pulled the members
 * is not among them yet, and their own ride must still carry their name.
 */
export function rides$(
  db: FankurveDatabase,
  docs: DocStore,
  eventId: string,
  user: { id: string; username: string },
): Observable<RideView[]> {
  return combineLatest([
    kindOf(db, 'rides').find({ selector: { event_id: eventId } }).$,
    kindOf(db, 'ride_seats').find({ selector: { event_id: eventId } }).$,
    docs.all('members'),
  ]).pipe(map(([rides, seats, members]) => viewRides(rides, seats, members, user)));
}

/** Rides with their drivers' names, seats taken and visible asks, soonest departure first. */
function viewRides(
  rideDocs: readonly RxDocument<RideDoc>[],
  seatDocs: readonly RxDocument<RideSeatDoc>[],
  members: readonly { id: string; username: string }[],
  user: { id: string; username: string },
): RideView[] {
  const userId = user.id;
  const names = new Map(members.map((member) => [member.id, member.username]));
  if (!names.has(userId)) names.set(userId, user.username);
  const asks = seatDocs
    .map((doc) => doc.toJSON() as RideSeatDoc)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((ask) => ({ ...ask, passenger_name: names.get(ask.passenger_id) ?? null, own: ask.passenger_id === userId }));
  return rideDocs
    .map((doc) => doc.toJSON() as RideDoc)
    .sort(soonestFirst)
    .map((ride) => {
      const ofRide = asks.filter((ask) => ask.ride_id === ride.id);
      const unsent = ofRide.filter((ask) => ask.own && ask.seq === 0 && holdsSeats(ask.state));
      return {
        ...ride,
        driver_name: names.get(ride.driver_id) ?? null,
        own: isRideDriver(ride, userId),
        taken: Math.min(ride.seats, ride.seats_taken + unsent.reduce((sum, ask) => sum + ask.seats, 0)),
        asks: ofRide,
      };
    });
}

/** The event's rides for the signed-in member; undefined while the device reads. */
export function useRides(eventId: string, user: { id: string; username: string }): RideView[] | undefined {
  const { id, username } = user;
  return useQuery((db, docs) => rides$(db, docs, eventId, { id, username }), [eventId, id, username]);
}

/** A ride of the member's for an upcoming event (/my-tickets): as its driver, or as a passenger with their ask. */
export interface MyRide {
  ride: RideView;
  event: { id: string; title: string; date: string };
  /** The member's own ask, when they ride along. */
  ask: RideSeatView | null;
}

/**
 * The member's rides to upcoming events (docs/product.md, Rides, "My tickets"): those they drive and
 * those they asked for (in any state), soonest event first; `today` is the club's calendar day.
 */
export function myRides$(
  db: FankurveDatabase,
  docs: DocStore,
  user: { id: string; username: string },
  today: string,
): Observable<MyRide[]> {
  return combineLatest([
    kindOf(db, 'rides').find().$,
    kindOf(db, 'ride_seats').find().$,
    docs.all('members'),
    docs.all('events'),
  ]).pipe(
    map(([rides, seats, members, events]) => {
      const upcoming = new Map(
        events.filter((event) => !event.archived && isUpcoming(event.date, today)).map((event) => [event.id, event]),
      );
      return viewRides(rides, seats, members, user)
        .filter((ride) => upcoming.has(ride.event_id))
        .map((ride) => ({ ride, ask: ride.asks.find((ask) => ask.own) ?? null }))
        .filter(({ ride, ask }) => ride.own || ask !== null)
        .map(({ ride, ask }) => {
          const event = upcoming.get(ride.event_id)!;
          return { ride, ask, event: { id: event.id, title: event.title, date: event.date } };
        })
        .sort((a, b) => a.event.date.localeCompare(b.event.date) || soonestFirst(a.ride, b.ride));
    }),
  );
}

/** The member's rides to upcoming events; undefined while the device reads. */
export function useMyRides(user: { id: string; username: string }, today: string): MyRide[] | undefined {
  const { id, username } = user;
  return useQuery((db, docs) => myRides$(db, docs, { id, username }, today), [id, username, today]);
}

/** The date of a live event on the device (what a ride must not leave after); an archived or unknown one is refused. */
async function liveEventDate(docs: DocStore, eventId: string): Promise<string> {
  const event = await docs.table('events').get(eventId);
  if (!event || event.archived) throw new LocalRuleError('eventNotFound');
  return event.date;
}

/** The driver's own ride on the device; another member's is refused like the server refuses it. */
async function ownRide(db: FankurveDatabase, driverId: string, rideId: string): Promise<RxDocument<RideDoc>> {
  const doc = (await kindOf(db, 'rides').findOne(rideId).exec()) as RxDocument<RideDoc> | null;
  if (!doc) throw new LocalRuleError('rideNotFound');
  if (!isRideDriver(doc, driverId)) throw new LocalRuleError('forbidden');
  return doc;
}

/**
 * The member `driverId` offers a ride to a live event as its driver (an id made on the device, so
 * it can be written offline). Refused by `checkRide`'s codes (seats, place, time not after the
 * event starts, note, cost share) and for an archived or unknown event. Returns the new ride's id.
 */
async function offer({ db, docs, outbox }: Device, driverId: string, eventId: string, input: RideInput): Promise<string> {
  const fields = enforce(checkRide({ ...input }, await liveEventDate(docs, eventId)));
  const now = new Date().toISOString();
  const doc: RideDoc = {
    id: newId(),
    event_id: eventId,
    driver_id: driverId,
    ...fields,
    seats_taken: 0,
    created_at: now,
    updated_at: now,
    seq: 0,
  };
  outbox.add(doc.id);
  await kindOf(db, 'rides').insert(doc);
  return doc.id;
}

/**
 * The driver changes any of their ride's fields (those left out stay); checked like an offer. A
 * change that changes nothing writes nothing.
 */
async function change({ db, docs, outbox }: Device, driverId: string, rideId: string, input: Partial<RideInput>): Promise<void> {
  const doc = await ownRide(db, driverId, rideId);
  const current = doc.toJSON() as RideDoc;
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const fields = enforce(checkRide({ ...current, ...given }, await liveEventDate(docs, current.event_id)));
  if (RIDE_FIELDS.every((key) => fields[key] === current[key])) return;
  if (fields.seats < current.seats) enforce(checkSeatsKeepTaken(fields.seats, current.seats_taken));
  outbox.add(doc.id);
  await doc.incrementalPatch({ ...fields, updated_at: new Date().toISOString() });
}

/** The driver cancels their ride: it goes for every member once the server has it. */
async function cancel({ db, outbox }: Device, driverId: string, rideId: string): Promise<void> {
  const doc = await ownRide(db, driverId, rideId);
  outbox.add(doc.id);
  await doc.incrementalRemove();
}

/*
 * Seats in rides (docs/product.md, Rides): the passenger asks and cancels, the driver accepts or
 * declines, on the device and offline too, checked by the shared rules against what the device
 * knows; the server decides again when the push arrives (the last seat taken meanwhile: refused with
 * a notice, and the ask goes from the device).
 */

/** What the passenger types: seats and a note. */
export type SeatAskInput = SeatAskFields;

async function seatOf(db: FankurveDatabase, seatId: string): Promise<RxDocument<RideSeatDoc>> {
  const doc = (await kindOf(db, 'ride_seats').findOne(seatId).exec()) as RxDocument<RideSeatDoc> | null;
  if (!doc) throw new LocalRuleError('rideSeatNotFound');
  return doc;
}

/**
 * The member asks a ride for seats (an id made on the device, so it can be written offline); `today`
 * is the club's calendar day. Refused as the server refuses: their own ride, seats outside 1 to the
 * car's, a note of more than one line, a past, archived or unknown event, a second ask, more seats
 * than are free as far as the device knows. Returns the new ask's id.
 */
async function ask(
  { db, docs, outbox }: Device,
  userId: string,
  rideId: string,
  input: SeatAskInput,
  today: string,
): Promise<string> {
  const rideDoc = (await kindOf(db, 'rides').findOne(rideId).exec()) as RxDocument<RideDoc> | null;
  if (!rideDoc) throw new LocalRuleError('rideNotFound');
  const ride = rideDoc.toJSON() as RideDoc;
  const eventDate = await liveEventDate(docs, ride.event_id);
  if (isRideDriver(ride, userId)) throw new LocalRuleError('rideOwnSeat');
  const fields = enforce(checkSeatAsk({ ...input }, ride));
  if (!isUpcoming(eventDate, today)) throw new LocalRuleError('eventIsPast');
  const asks = (
    await kindOf(db, 'ride_seats')
      .find({ selector: { ride_id: rideId } })
      .exec()
  ).map((doc) => doc.toJSON() as RideSeatDoc);
  const own = asks.find((doc) => doc.passenger_id === userId) ?? null;
  const unsent = asks.filter((doc) => doc.seq === 0 && doc.passenger_id === userId && holdsSeats(doc.state));
  const taken = ride.seats_taken + unsent.reduce((sum, doc) => sum + doc.seats, 0);
  enforce(checkMayAsk(ride, userId, own, fields.seats, taken));
  const now = new Date().toISOString();
  const doc: RideSeatDoc = {
    id: newId(),
    ride_id: rideId,
    event_id: ride.event_id,
    passenger_id: userId,
    ...fields,
    state: 'asked',
    created_at: now,
    updated_at: now,
    seq: 0,
  };
  outbox.add(doc.id);
  await kindOf(db, 'ride_seats').insert(doc);
  return doc.id;
}

/** The driver accepts or declines an ask of their ride; the same answer again writes nothing. */
async function answer({ db, outbox }: Device, userId: string, seatId: string, state: RideSeatAnswer): Promise<void> {
  const doc = await seatOf(db, seatId);
  const current = doc.toJSON() as RideSeatDoc;
  const ride = (await kindOf(db, 'rides').findOne(current.ride_id).exec()) as RxDocument<RideDoc> | null;
  if (!ride) throw new LocalRuleError('rideNotFound');
  if (!isRideDriver(ride, userId)) throw new LocalRuleError('forbidden');
  const next = enforce(checkSeatAnswer(current.state, state));
  if (next === current.state) return;
  outbox.add(doc.id);
  await doc.incrementalPatch({ state: next, updated_at: new Date().toISOString() });
}

/** The passenger cancels their ask: its seats are free again once the server has it. */
async function cancelAsk({ db, outbox }: Device, userId: string, seatId: string): Promise<void> {
  const doc = await seatOf(db, seatId);
  if (doc.passenger_id !== userId) throw new LocalRuleError('forbidden');
  outbox.add(doc.id);
  await doc.incrementalRemove();
}

/** The writes on a given device (tests call them with theirs). */
export const writes = {
  offerRide: offer,
  changeRide: change,
  cancelRide: cancel,
  askSeat: ask,
  answerSeat: answer,
  cancelSeat: cancelAsk,
};

/** The screens' writes, on this device's database (docs/architecture.md, Client data layer). */
export const { offerRide, changeRide, cancelRide, askSeat, answerSeat, cancelSeat } = onDevice(writes);
