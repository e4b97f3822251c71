/*
 * The season of the fixture import (docs/architecture.md, "Fixture import"): the club's date decides
 * it, July to June; OpenLigaDB's `leagueSeason` is the year it starts.
 */

/** The year a season starts (OpenLigaDB's leagueSeason): July to June, from the club's date `YYYY-MM-DD`. */
export function seasonStartYear(today: string): number {
  const year = Number(today.slice(0, 4));
  return Number(today.slice(5, 7)) >= 7 ? year : year - 1;
}

/** Weeks before and after `today` that cover the season from 1 July to 30 June. */
export function seasonWindow(today: string, season: number): { weeksPast: number; weeksFuture: number } {
  const day = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  const week = 7 * 86_400_000;
  const past = Math.ceil((day(today) - day(`${season}-07-01`)) / week);
  const future = Math.ceil((day(`${season + 1}-06-30`) - day(today)) / week);
  return { weeksPast: Math.max(0, past), weeksFuture: Math.max(0, future) };
}
