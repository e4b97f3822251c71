import { write, type Store } from '../db/store.js';
import { closeDuePolls, nextPollClose, POLL_JOB } from '../domain/news/polls.js';
import type { JobRunner } from './runner.js';
import { startTimedJob } from './timedJob.js';

/*
 * The polls' scheduled work (docs/architecture.md, "Polls" and "Jobs"): one job, claimed once however
 * many instances run, that publishes the close of every poll whose closing time has come, so the
 * counts a close makes visible reach every device. Votes are refused from the closing time on
 * whether or not it has run (the server decides by arrival). Its next due time is the earliest
 * closing time still ahead; a poll asked or changed with a closing time moves it up (`scheduleJobBy`
 * in domain/news/polls.ts), and this instance also wakes at that time.
 */
export function startPollJob(store: Store, jobs: JobRunner): void {
  startTimedJob(store, jobs, {
    name: POLL_JOB,
    run: () => write(store, (w) => closeDuePolls(w)),
    nextDue: async (trx) => {
      const next = await nextPollClose(trx);
      return next === null ? null : new Date(next);
    },
    wakeTimes: (commit) =>
      commit.events.flatMap((event) =>
        (event.type === 'poll.created' || event.type === 'poll.changed') && event.closesAtUtc
          ? [new Date(event.closesAtUtc)]
          : [],
      ),
  });
}
