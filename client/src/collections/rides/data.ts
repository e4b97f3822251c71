import { RIDE_FIELDS, type RideDoc } from '@fankurve/shared/collections/rides/collection';
import { checkRide, isRideDriver, type RideFields } from '@fankurve/shared/collections/rides/rules';
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

/** A ride as the screen shows it: with its driver's name (null while unknown on the device) and whether it is the member's own. */
export interface RideView extends RideDoc {
  driver_name: string | null;
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
  const userId = user.id;
  return combineLatest([kindOf(db, 'rides').find({ selector: { event_id: eventId } }).$, docs.all('members')]).pipe(
    map(([rides, members]) => {
      const names = new Map(members.map((member) => [member.id, member.username]));
      if (!names.has(userId)) names.set(userId, user.username);
      return rides
        .map((doc) => doc.toJSON() as RideDoc)
        .sort(soonestFirst)
        .map((ride) => ({ ...ride, driver_name: names.get(ride.driver_id) ?? null, own: isRideDriver(ride, userId) }));
    }),
  );
}

/** The event's rides for the signed-in member; undefined while the device reads. */
export function useRides(eventId: string, user: { id: string; username: string }): RideView[] | undefined {
  const { id, username } = user;
  return useQuery((db, docs) => rides$(db, docs, eventId, { id, username }), [eventId, id, username]);
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
  outbox.add(doc.id);
  await doc.incrementalPatch({ ...fields, updated_at: new Date().toISOString() });
}

/** The driver cancels their ride: it goes for every member once the server has it. */
async function cancel({ db, outbox }: Device, driverId: string, rideId: string): Promise<void> {
  const doc = await ownRide(db, driverId, rideId);
  outbox.add(doc.id);
  await doc.incrementalRemove();
}

/** The writes on a given device (tests call them with theirs). */
export const writes = { offerRide: offer, changeRide: change, cancelRide: cancel };

/** The screens' writes, on this device's database (docs/architecture.md, Client data layer). */
export const { offerRide, changeRide, cancelRide } = onDevice(writes);
