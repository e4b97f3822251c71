import type { Config } from '../config.js';
import { write, type Commit, type Store } from '../db/store.js';
import { allocateAtDeadline, CONTINGENT_JOB, pendingDeadlines } from '../domain/contingents.js';
import { expireOffers, nextOfferExpiry } from '../domain/offers.js';
import type { Job, JobRunner } from './runner.js';

/*
 * The ticket contingents' scheduled work (docs/architecture.md, "Ticket contingents" and "Jobs"),
 * one job claimed once however many instances run: it allocates every contingent whose request
 * deadline has come and closes every offer whose window ran out (the ticket goes to the next in
 * line). Its next due time is the earliest deadline or window still ahead, decided when a run ends;
 * a write that sets a deadline or makes an offer moves it up (`scheduleJobBy`), and this instance
 * also wakes at that time instead of waiting for its next look.
 */

/** The instant of the club's wall-clock time `YYYY-MM-DD HH:MM:SS` in `timeZone` (the later one in a DST overlap is fine here). */
export function clubTimeToInstant(wallClock: string, timeZone: string): Date {
  const [date = '', time = '00:00:00'] = wallClock.split(' ');
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number);
  const naive = Date.UTC(year, month - 1, day, hour, minute, second);
  const offset = (at: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(at));
    const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - at;
  };
  const first = naive - offset(naive);
  return new Date(naive - offset(first));
}

const WAKE_WITHIN_MS = 24 * 60 * 60 * 1000;

export class ContingentJobs {
  constructor(
    private readonly store: Store,
    private readonly timeZone: string,
    private readonly jobs: JobRunner | null,
  ) {}

  /** Registers the job with the instance's runner and wakes it for the deadlines and windows this instance sets. */
  static start(store: Store, config: Pick<Config, 'clubTimeZone'>, jobs: JobRunner): ContingentJobs {
    const work = new ContingentJobs(store, config.clubTimeZone, jobs);
    jobs.register(work.job());
    const unsubscribe = store.commits.subscribe((commit) => work.wake(commit));
    store.commits.onClose(unsubscribe);
    return work;
  }

  job(): Job {
    return {
      name: CONTINGENT_JOB,
      // A first start looks once: deadlines that passed while no instance ran are allocated then.
      firstDue: (now) => now,
      run: async (now) => {
        await this.runDue(now);
        return null;
      },
      nextDue: async (trx) => {
        const times = (await pendingDeadlines(trx)).map((row) =>
          clubTimeToInstant(row.request_deadline, this.timeZone).getTime(),
        );
        const expiry = await nextOfferExpiry(trx);
        if (expiry) times.push(Date.parse(expiry));
        if (times.length === 0) return null;
        const next = new Date(Math.min(...times));
        this.wakeAt(next);
        return next;
      },
    };
  }

  /** One run: the contingents whose deadline has come, each in its own write; then the offers run out. */
  async runDue(now: Date): Promise<void> {
    for (const row of await pendingDeadlines(this.store.db)) {
      if (clubTimeToInstant(row.request_deadline, this.timeZone).getTime() > now.getTime()) continue;
      await write(this.store, (w) => allocateAtDeadline(w, row.event_id));
    }
    await write(this.store, (w) => expireOffers(w));
  }

  private wake(commit: Commit): void {
    for (const event of commit.events) {
      if (event.type === 'offer.made') this.wakeAt(new Date(event.expiresAt));
      if (event.type === 'contingent.set') this.wakeAt(new Date());
    }
  }

  /** A timer only for what is due within a day; the runner's regular look finds the rest. */
  private wakeAt(at: Date): void {
    if (at.getTime() - Date.now() < WAKE_WITHIN_MS) this.jobs?.wake(at);
  }
}
