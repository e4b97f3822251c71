import { isUpcoming, seasonOf } from '../dates.js';

/**
 * Whether a device keeps the event's attendee rows and comments in full: every upcoming event and
 * every event of the season of today. Of other events it keeps the member's own rows and pulls the
 * rest when the member opens the event online (docs/architecture.md, What a device keeps).
 */
export function isKeptOnDevice(event: { date: string; season: string }, today: string): boolean {
  return isUpcoming(event.date, today) || event.season === seasonOf(today);
}

/**
 * The first day (`YYYY-MM-DD`) of the season of today: an event is kept on the device exactly when
 * its date is on or after it (`isKeptOnDevice`; an upcoming event is never before it), so a query
 * can ask one comparison on the event's date.
 */
export function keptOnDeviceSince(today: string): string {
  return `${seasonOf(today).slice(0, 4)}-07-01`;
}
