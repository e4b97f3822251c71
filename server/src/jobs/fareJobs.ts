import { DEFAULT_TIME_ZONE } from '@fankurve/shared';
import { write, type Store } from '../db/store.js';
import { FARE_JOB } from '../domain/events/fareSchedule.js';
import { chargeDueFares, nextFareDue } from '../domain/events/transportFares.js';
import type { JobRunner } from './runner.js';
import { startTimedJob } from './timedJob.js';

/*
 * The bus fare at departure (docs/architecture.md, "The bus" and "Jobs"): one job, claimed once however
 * many instances run, that charges the fare of every transport option with `charge_at_departure`
 * whose departure time has come, once per option. Its next due time is the earliest such departure
 * still ahead; an option saved with one moves it up (`scheduleFareJob`), and this instance also wakes then.
 */
export function startFareJob(store: Store, jobs: JobRunner): void {
  startTimedJob(store, jobs, {
    name: FARE_JOB,
    run: () => write(store, (w) => chargeDueFares(w)),
    nextDue: (trx) => nextFareDue(trx, store.clubTimeZone ?? DEFAULT_TIME_ZONE),
    wakeTimes: (commit) =>
      commit.events.flatMap((event) => (event.type === 'transport.fareScheduled' ? [new Date(event.dueAtUtc)] : [])),
  });
}
