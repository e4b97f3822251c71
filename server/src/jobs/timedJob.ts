import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Commit, Store } from '../db/store.js';
import type { JobRunner } from './runner.js';

/*
 * The shape every time-driven job shares (docs/architecture.md, "Jobs"): due at the first start, so
 * what came due while no instance ran is done then; due next at the earliest time its work still
 * lies ahead, decided when a run ends; and this instance wakes at the times its own writes set
 * (offers made, deadlines set, events moved) instead of waiting for its next look.
 */

/** Wake timers only for what is due within a day; the runner's regular look finds the rest. */
const WAKE_WITHIN_MS = 24 * 60 * 60 * 1000;

export interface TimedJob {
  name: string;
  /** Does the due work (each part in its own `write`). */
  run(now: Date): Promise<unknown>;
  /** The earliest time work lies ahead, or null: idle until a write schedules the job. */
  nextDue(trx: Transaction<Database>, now: Date): Promise<Date | null>;
  /** The times a commit of this instance makes work due at (now, an offer's expiry, a closing time). */
  wakeTimes(commit: Commit): Date[];
}

/** Registers the job with the instance's runner and wakes it for the times this instance's writes set. */
export function startTimedJob(store: Store, jobs: JobRunner, job: TimedJob): void {
  const wakeAt = (at: Date) => {
    if (at.getTime() - Date.now() < WAKE_WITHIN_MS) jobs.wake(at);
  };
  jobs.register({
    name: job.name,
    firstDue: (now) => now,
    run: async (now) => {
      await job.run(now);
      return null;
    },
    nextDue: async (trx, now) => {
      const next = await job.nextDue(trx, now);
      if (next) wakeAt(next);
      return next;
    },
  });
  const unsubscribe = store.commits.subscribe((commit) => {
    for (const at of job.wakeTimes(commit)) wakeAt(at);
  });
  store.commits.onClose(unsubscribe);
}
