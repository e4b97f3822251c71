import type { Language } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { NotifyContext, NotifyHandlers } from '../../notify/handlers.js';
import { eventPath, formatEventDate, type PushText } from '../../notify/texts.js';
import './events.js';

/*
 * Web push of seats in rides (docs/architecture.md, "Web Push" and "Seats in rides"), topic `rides`,
 * each opening the event's page: the driver hears of a new and a cancelled ask, the passenger of the
 * answer, and every passenger whose ask holds seats of a changed or cancelled ride.
 */

interface RideInfo {
  eventTitle: string;
  place: string;
  /** The club's wall clock `YYYY-MM-DD HH:MM:SS`. */
  departure: string;
}

const seatsText = (language: Language, count: number) =>
  language === 'de' ? `${count} ${count === 1 ? 'Platz' : 'Plätze'}` : `${count} ${count === 1 ? 'seat' : 'seats'}`;

export function seatAskedText(language: Language, ride: RideInfo, passenger: string, seats: number, eventId: string): PushText {
  const de = language === 'de';
  return {
    title: de ? 'Neue Platzanfrage' : 'New seat request',
    body: de
      ? `${passenger} fragt ${seatsText(language, seats)} in deiner Fahrt zu ${ride.eventTitle} an`
      : `${passenger} asks for ${seatsText(language, seats)} in your ride to ${ride.eventTitle}`,
    path: eventPath(eventId),
  };
}

export function seatCancelledText(language: Language, ride: RideInfo, passenger: string, eventId: string): PushText {
  const de = language === 'de';
  return {
    title: de ? 'Platzanfrage zurückgezogen' : 'Seat request cancelled',
    body: de
      ? `${passenger} fährt nicht mehr mit zu ${ride.eventTitle}`
      : `${passenger} no longer rides with you to ${ride.eventTitle}`,
    path: eventPath(eventId),
  };
}

export function seatAnsweredText(
  language: Language,
  ride: RideInfo,
  driver: string,
  state: 'accepted' | 'declined',
  eventId: string,
): PushText {
  const de = language === 'de';
  const when = formatEventDate(ride.departure, language);
  if (state === 'accepted')
    return {
      title: de ? 'Mitfahrt bestätigt' : 'Seat confirmed',
      body: de
        ? `${driver} nimmt dich mit zu ${ride.eventTitle}: ab ${ride.place}, ${when}`
        : `${driver} takes you to ${ride.eventTitle}: from ${ride.place}, ${when}`,
      path: eventPath(eventId),
    };
  return {
    title: de ? 'Platzanfrage abgelehnt' : 'Seat request declined',
    body: de ? `${driver} kann dich nicht mitnehmen zu ${ride.eventTitle}` : `${driver} cannot take you to ${ride.eventTitle}`,
    path: eventPath(eventId),
  };
}

export function rideChangedText(language: Language, ride: RideInfo, driver: string, eventId: string): PushText {
  const de = language === 'de';
  const when = formatEventDate(ride.departure, language);
  return {
    title: de ? 'Fahrt geändert' : 'Ride changed',
    body: de
      ? `Die Fahrt von ${driver} zu ${ride.eventTitle}: ab ${ride.place}, ${when}`
      : `${driver}'s ride to ${ride.eventTitle}: from ${ride.place}, ${when}`,
    path: eventPath(eventId),
  };
}

export function rideCancelledText(language: Language, ride: RideInfo, driver: string, eventId: string): PushText {
  const de = language === 'de';
  return {
    title: de ? 'Fahrt abgesagt' : 'Ride cancelled',
    body: de ? `Die Fahrt von ${driver} zu ${ride.eventTitle} fällt aus` : `${driver}'s ride to ${ride.eventTitle} is cancelled`,
    path: eventPath(eventId),
  };
}

/** A ride with its event's title and its driver's name, deleted or not (a cancelled ride is told too). */
async function rideInfo(db: Kysely<Database>, rideId: string): Promise<(RideInfo & { driver: string }) | undefined> {
  const row = await db
    .selectFrom('rides as r')
    .innerJoin('events as e', 'e.id', 'r.event_id')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .select(['e.title', 'r.departure_location', 'r.departure_datetime', 'u.username'])
    .where('r.id', '=', rideId)
    .executeTakeFirst();
  return row && { eventTitle: row.title, place: row.departure_location, departure: row.departure_datetime, driver: row.username };
}

const nameOf = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst())?.username ?? '';

/** One message per ride event and member. */
function tell(context: NotifyContext, userIds: readonly string[], actorId: string, key: string, text: (l: Language) => PushText) {
  for (const userId of new Set(userIds)) context.add(userId, actorId, { key, rank: 1, topic: 'rides', text });
}

export const rideNotifications: NotifyHandlers = {
  async 'rideSeat.asked'(event, context) {
    const ride = await rideInfo(context.db, event.rideId);
    const seat = await context.db.selectFrom('ride_seats').select('seats').where('id', '=', event.seatId).executeTakeFirst();
    if (!ride || !seat) return;
    const passenger = await nameOf(context.db, event.passengerId);
    tell(context, [event.driverId], event.actorId, `ride-seat:${event.seatId}:asked`, (l) =>
      seatAskedText(l, ride, passenger, Number(seat.seats), event.eventId),
    );
  },
  async 'rideSeat.cancelled'(event, context) {
    const ride = await rideInfo(context.db, event.rideId);
    if (!ride) return;
    const passenger = await nameOf(context.db, event.passengerId);
    tell(context, [event.driverId], event.actorId, `ride-seat:${event.seatId}:cancelled`, (l) =>
      seatCancelledText(l, ride, passenger, event.eventId),
    );
  },
  async 'rideSeat.answered'(event, context) {
    const ride = await rideInfo(context.db, event.rideId);
    if (!ride) return;
    tell(context, [event.passengerId], event.actorId, `ride-seat:${event.seatId}:${event.state}`, (l) =>
      seatAnsweredText(l, ride, ride.driver, event.state, event.eventId),
    );
  },
  async 'ride.changed'(event, context) {
    if (!event.fields.some((field) => field === 'departure_datetime' || field === 'departure_location')) return;
    const ride = await rideInfo(context.db, event.rideId);
    if (!ride) return;
    const passengers = await context.db
      .selectFrom('ride_seats')
      .select('passenger_id')
      .where('ride_id', '=', event.rideId)
      .where('deleted', '=', 0)
      .where('state', 'in', ['asked', 'accepted'])
      .execute();
    tell(
      context,
      passengers.map((row) => row.passenger_id),
      event.actorId,
      `ride:${event.rideId}:changed`,
      (l) => rideChangedText(l, ride, ride.driver, event.eventId),
    );
  },
  async 'ride.cancelled'(event, context) {
    const ride = await rideInfo(context.db, event.rideId);
    if (!ride) return;
    tell(context, event.passengerIds, event.actorId, `ride:${event.rideId}:cancelled`, (l) =>
      rideCancelledText(l, ride, ride.driver, event.eventId),
    );
  },
};
