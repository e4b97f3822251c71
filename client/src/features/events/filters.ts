import { locationOfTitle, seasonOf } from '@fankurve/shared/dates';

/** The location filter of the events list (docs/product.md, Screens): away is the default. */
export const WHERE_VALUES = ['away', 'home', 'all'] as const;
export type Where = (typeof WHERE_VALUES)[number];
export const DEFAULT_WHERE: Where = 'away';

export interface EventFilters {
  /** `2025/26`; null when no event exists yet (nothing to filter). */
  season: string | null;
  where: Where;
}

interface Filterable {
  title: string;
  date: string;
  season?: string | null;
}

const SEASON_LABEL = /^(\d{4})\/(\d{2})$/;

/** A season label like `2025/26` whose second year follows the first. */
export function isSeasonLabel(value: string): boolean {
  const match = SEASON_LABEL.exec(value);
  return match !== null && (Number(match[1]) + 1) % 100 === Number(match[2]);
}

/** The event's season: the server's `season` field, else derived from the date (July to June). */
export function seasonOfEvent(event: Filterable): string {
  return event.season && isSeasonLabel(event.season) ? event.season : seasonOf(event.date);
}

/** The seasons that have events, newest first. */
export function seasonsOf(events: readonly Filterable[]): string[] {
  return [...new Set(events.map(seasonOfEvent))].sort((a, b) => b.localeCompare(a));
}

/**
 * The season shown when the URL names none: the current season (of today in the club's time zone),
 * or, when that has no events, the newest season that has; null without events.
 */
export function defaultSeason(seasons: readonly string[], today: string): string | null {
  const current = seasonOf(today);
  if (seasons.includes(current)) return current;
  return seasons[0] ?? null;
}

/**
 * Only the suffix decides: '(H)' home, '(A)' away. An event with neither is no match (a Stammtisch, the
 * Christmas party) and shows under every filter: it concerns home and away fans alike.
 */
export function matchesWhere(title: string, where: Where): boolean {
  const location = locationOfTitle(title);
  return where === 'all' || location === 'other' || location === where;
}

/**
 * The filters as the URL query says them (`?season=2025/26&where=home`), falling back to the defaults
 * for missing or unknown values; a season without events falls back too.
 */
export function readFilters(query: URLSearchParams, seasons: readonly string[], today: string): EventFilters {
  const whereParam = query.get('where');
  const where = WHERE_VALUES.includes(whereParam as Where) ? (whereParam as Where) : DEFAULT_WHERE;
  const seasonParam = query.get('season');
  const season = seasonParam !== null && seasons.includes(seasonParam) ? seasonParam : defaultSeason(seasons, today);
  return { season, where };
}

/**
 * The URL query for the filters: only the values that differ from the defaults, so the plain /events
 * keeps following the current season. Other query parameters stay as they are.
 */
export function writeFilters(
  query: URLSearchParams,
  filters: EventFilters,
  seasons: readonly string[],
  today: string,
): URLSearchParams {
  const next = new URLSearchParams(query);
  if (filters.season === null || filters.season === defaultSeason(seasons, today)) next.delete('season');
  else next.set('season', filters.season);
  if (filters.where === DEFAULT_WHERE) next.delete('where');
  else next.set('where', filters.where);
  return next;
}

/** The events of the chosen season and location (order unchanged). */
export function filterEvents<E extends Filterable>(events: readonly E[], filters: EventFilters): E[] {
  return events.filter(
    (event) => (filters.season === null || seasonOfEvent(event) === filters.season) && matchesWhere(event.title, filters.where),
  );
}
