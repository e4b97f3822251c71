import type { Base } from '../../domain/domainEvents.js';
import './tables.js';

/* The rides' domain events (docs/architecture.md, domain events), added to every other's. */
declare module '../../domain/domainEvents.js' {
  interface DomainEventTypes {
    /** A member offered a ride, changed it (`fields`: what changed), or it ended (`by`: its driver cancelled it, or an admin removed it). */
    'ride.offered': { rideId: string; eventId: string } & Base;
    'ride.changed': { rideId: string; eventId: string; fields: string[] } & Base;
    'ride.cancelled': { rideId: string; eventId: string; by: 'driver' | 'admin' } & Base;
  }
}
