import { orderEvents } from '../events/index.js';

/** How many events the stadium detail shows on each side of today. */
export const STADIUM_EVENTS_LIMIT = 5;

interface StadiumEvent {
  id: string;
  date: string;
  title: string;
  stadium_id: string | null;
}

/**
 * The events at a stadium for its detail page: the next five upcoming (soonest first) and the five most
 * recent past ones (latest first). `today` is `YYYY-MM-DD` in the club's time zone.
 */
export function eventsAtStadium<E extends StadiumEvent>(
  events: readonly E[],
  stadiumId: string,
  today: string,
  limit: number = STADIUM_EVENTS_LIMIT,
): { upcoming: E[]; recent: E[] } {
  const { upcoming, past } = orderEvents(
    events.filter((event) => event.stadium_id === stadiumId),
    today,
  );
  return { upcoming: upcoming.slice(0, limit), recent: past.slice(0, limit) };
}
