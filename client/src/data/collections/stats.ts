import type { AttendeeDoc } from '@fankurve/shared';
import { seasonDateRange, seasonStats, type SeasonStats } from '@fankurve/shared/rules/stats';
import { asyncScheduler, combineLatest, map, of, switchMap, throttleTime, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import type { DocStore } from '../docStore.js';
import { useQuery } from '../query.js';
import { kindOf } from '../pushedGroup.js';
import { rowsOfEvents$ } from './attendees.js';

/*
 * A season in numbers from the device's own copy (docs/product.md, Statistics), offline too: the
 * same rule as GET /api/stats (rules/stats.ts) over the season's events, their attendee rows and the
 * members. Complete only for a season whose every attendee row the device keeps, the current one
 * (docs/architecture.md, What a device keeps); older seasons come from the server.
 */

/** How often the season's rows are counted again at most while a sync writes them in batches. */
const ROWS_THROTTLE_MS = 250;

function deviceSeasonStats(db: FankurveDatabase, docs: DocStore, season: number, today: string): Observable<SeasonStats> {
  const { from, until } = seasonDateRange(season);
  const events$ = docs.live(() => docs.table('events').where('date').between(from, until, true, false).toArray());
  const rows$ = events$.pipe(
    switchMap((events) => {
      if (events.length === 0) return of([] as AttendeeDoc[]);
      return rowsOfEvents$(
        db,
        docs,
        events.map((event) => event.id),
      ).pipe(throttleTime(ROWS_THROTTLE_MS, asyncScheduler, { leading: true, trailing: true }));
    }),
  );
  const members$ = docs.all('members');
  // The rows ticked on board of a club bus (docs/product.md, Bus), for "mitgefahren".
  const onBoard$ = kindOf(db, 'boardings')
    .find({ selector: { on_board: true } })
    .$.pipe(map((docs) => new Set(docs.map((doc) => doc.attendee_id))));
  return combineLatest([events$, rows$, members$, onBoard$]).pipe(
    map(([events, rows, members, onBoard]) =>
      seasonStats({
        season,
        today,
        // The device holds no deleted documents; archived ones the rule leaves out.
        events: events.map((event) => ({ ...event, deleted: false })),
        attendees: rows.map((row) => ({ ...row, deleted: false })),
        members,
        onBoard,
      }),
    ),
  );
}

/** The statistic of the season starting in July of `season`, counted on the device; undefined while it loads. */
export function useDeviceSeasonStats(season: number, today: string): SeasonStats | undefined {
  return useQuery((db, docs) => deviceSeasonStats(db, docs, season, today), [season, today]);
}
