import type { EventDoc } from '@fankurve/shared';
import { seasonOfEvent } from './filters.js';
import type { EventAttendance } from './summary.js';

/*
 * What the events list remembers for a warm start (data/snapshots.ts): the season it showed, with
 * its events and their counts, and the list of seasons for the selector. Only one season: the
 * browser reads all of localStorage at a page's first access to it, on every page, before the first
 * paint (docs/architecture.md, Loading), and five seasons of events made that 239 K characters.
 */
export interface EventsSnapshot {
  season: string | null;
  seasons: string[];
  events: EventDoc[];
  attendance: [string, EventAttendance][];
}

export function eventsSnapshot(
  events: readonly EventDoc[],
  season: string | null,
  seasons: string[],
  attendance: ReadonlyMap<string, EventAttendance>,
): EventsSnapshot {
  return { season, seasons, events: events.filter((event) => seasonOfEvent(event) === season), attendance: [...attendance] };
}

/** The remembered events when they are of the season asked for; another season waits for the database. */
export function rememberedEventsOf(remembered: EventsSnapshot | undefined, season: string | null): EventDoc[] | undefined {
  // A snapshot of the older shape (every season, none named) has no season: it matches none.
  return remembered?.season === season ? remembered.events : undefined;
}
