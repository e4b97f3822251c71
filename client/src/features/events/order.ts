import { isUpcoming } from '@fankurve/shared/dates';

interface Dated {
  id: string;
  date: string;
  title: string;
}

/**
 * The events list order (docs/product.md, Screens): upcoming events (date today or later) ascending, then past events
 * descending. `today` is `YYYY-MM-DD` in the club's time zone.
 */
export function orderEvents<E extends Dated>(events: readonly E[], today: string): { upcoming: E[]; past: E[] } {
  const upcoming: E[] = [];
  const past: E[] = [];
  for (const event of events) (isUpcoming(event.date, today) ? upcoming : past).push(event);
  const byDate = (a: E, b: E) => a.date.localeCompare(b.date) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id);
  upcoming.sort(byDate);
  past.sort((a, b) => byDate(b, a));
  return { upcoming, past };
}
