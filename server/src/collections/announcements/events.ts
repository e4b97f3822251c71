import type { Base } from '../../domain/domainEvents.js';
import './tables.js';

/* The announcements' domain events (docs/architecture.md, domain events), added to every other's. */
declare module '../../domain/domainEvents.js' {
  interface DomainEventTypes {
    /** Club news posted, changed (`fields`: what changed) or deleted by an admin; `eventId` the event it names, or null. */
    'announcement.created': { announcementId: string; eventId: string | null; pinned: boolean } & Base;
    'announcement.changed': { announcementId: string; eventId: string | null; fields: string[] } & Base;
    'announcement.deleted': { announcementId: string; eventId: string | null } & Base;
  }
}
