import type { Base } from '../../domain/domainEvents.js';
import './tables.js';

/* The rides' and their seats' domain events (docs/architecture.md, domain events), added to every other's. */
declare module '../../domain/domainEvents.js' {
  interface DomainEventTypes {
    /** A member offered a ride, changed it (`fields`: what changed), or it ended (`by`: its driver cancelled it, or an admin removed it). */
    'ride.offered': { rideId: string; eventId: string } & Base;
    'ride.changed': { rideId: string; eventId: string; fields: string[] } & Base;
    /** `passengerIds`: the members whose asks it held (asked or accepted) when it ended. */
    'ride.cancelled': { rideId: string; eventId: string; by: 'driver' | 'admin'; passengerIds: string[] } & Base;
    /** A member asked a ride for seats; the driver answered; the passenger cancelled or an admin removed the ask. */
    'rideSeat.asked': { seatId: string; rideId: string; eventId: string; passengerId: string; driverId: string } & Base;
    'rideSeat.answered': {
      seatId: string;
      rideId: string;
      eventId: string;
      passengerId: string;
      state: 'accepted' | 'declined';
    } & Base;
    'rideSeat.cancelled': {
      seatId: string;
      rideId: string;
      eventId: string;
      passengerId: string;
      driverId: string;
      by: 'passenger' | 'admin';
    } & Base;
  }
}
