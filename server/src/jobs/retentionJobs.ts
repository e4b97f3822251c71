import { write, type Store } from '../db/store.js';
import { nextRetentionDue, removeExpiredRecords, RETENTION_JOB, retentionYears } from '../domain/people/retention.js';
import type { JobRunner } from './runner.js';
import { startTimedJob } from './timedJob.js';

/*
 * The retention job (docs/architecture.md, "Erasure and retention" and "Jobs"), claimed once however
 * many instances run: once a day it removes what the books kept of erased members once its retention
 * has ended; a change of the retention in the team configuration makes it look at once.
 */
export function startRetentionJob(store: Store, jobs: JobRunner): void {
  startTimedJob(store, jobs, {
    name: RETENTION_JOB,
    run: () => write(store, async (w) => removeExpiredRecords(w, await retentionYears(w.db))),
    nextDue: async (_trx, now) => nextRetentionDue(now),
    wakeTimes: (commit) => (commit.collections.has('config') ? [new Date()] : []),
  });
}
