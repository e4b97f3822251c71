import { clubTimeToInstant } from '@fankurve/shared';
import type { Config } from '../config.js';
import { write, type Store } from '../db/store.js';
import { allocateAtDeadline, pendingDeadlines } from '../domain/tickets/contingentAllocation.js';
import { CONTINGENT_JOB } from '../domain/tickets/contingentRequests.js';
import { expireOffers, nextOfferExpiry } from '../domain/tickets/offers.js';
import type { JobRunner } from './runner.js';
import { startTimedJob } from './timedJob.js';

/*
 * The ticket contingents' scheduled work (docs/architecture.md, "Ticket contingents" and "Jobs"),
 * one job claimed once however many instances run: it allocates every contingent whose request
 * deadline has come and closes every offer whose window ran out (the ticket goes to the next in
 * line). Its next due time is the earliest deadline or window still ahead, decided when a run ends;
 * a write that sets a deadline or makes an offer moves it up (`scheduleJobBy`), and this instance
 * also wakes at that time instead of waiting for its next look.
 */

/** Registers the contingents' job with the instance's runner. */
export function startContingentJob(store: Store, config: Pick<Config, 'clubTimeZone'>, jobs: JobRunner): void {
  const timeZone = config.clubTimeZone;
  startTimedJob(store, jobs, {
    name: CONTINGENT_JOB,
    // Each contingent whose deadline has come in its own write; then the offers run out.
    run: async (now) => {
      for (const row of await pendingDeadlines(store.db)) {
        if (clubTimeToInstant(row.request_deadline, timeZone).getTime() > now.getTime()) continue;
        await write(store, (w) => allocateAtDeadline(w, row.event_id));
      }
      await write(store, (w) => expireOffers(w));
    },
    nextDue: async (trx) => {
      const times = (await pendingDeadlines(trx)).map((row) => clubTimeToInstant(row.request_deadline, timeZone).getTime());
      const expiry = await nextOfferExpiry(trx);
      if (expiry) times.push(Date.parse(expiry));
      return times.length === 0 ? null : new Date(Math.min(...times));
    },
    wakeTimes: (commit) =>
      commit.events.flatMap((event) =>
        event.type === 'offer.made' ? [new Date(event.expiresAt)] : event.type === 'contingent.set' ? [new Date()] : [],
      ),
  });
}
