import type { Base } from '../../domain/domainEvents.js';
import './tables.js';

/* The boardings' domain events (docs/architecture.md, domain events), added to every other's. */
declare module '../../domain/domainEvents.js' {
  interface DomainEventTypes {
    /** A captain or an admin ticked a passenger of a transport option on board, or took the tick back. */
    'boarding.ticked': { transportId: string; attendeeId: string; eventId: string; onBoard: boolean } & Base;
  }
}
