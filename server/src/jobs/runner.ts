import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { claimJob, dueJobs, ensureJob, finishJob, releaseClaims, renewClaim } from '../db/jobs.js';

/** A piece of scheduled work (docs/architecture.md, "Jobs"). */
export interface Job {
  name: string;
  /** The due time of a new row (the first start on a database); null: idle until scheduled. */
  firstDue(now: Date): Date | null;
  /** Does the work. Answers null, or the text of a failure it has already logged; a thrown error is logged here. */
  run(now: Date): Promise<string | null>;
  /** When it is due next, decided in the transaction that releases the claim (the row is locked). */
  nextDue(trx: Transaction<Database>, now: Date, failed: boolean): Promise<Date | null>;
}

export interface JobRunnerOptions {
  /** How often the instance looks for due jobs (JOB_INTERVAL_SECONDS). */
  intervalMs: number;
  /** How long a claim holds without renewal: the time another instance waits for one that died. */
  leaseMs?: number;
  /** How long stop() waits for a running job before it releases the claim anyway. */
  stopWaitMs?: number;
  clock?: () => Date;
}

const DEFAULT_LEASE_MS = 5 * 60 * 1000;
const DEFAULT_STOP_WAIT_MS = 10 * 1000;

/**
 * Runs the due jobs of this instance: every interval (and at a time a job was scheduled for here)
 * it claims each due job in the database and runs it, one at a time. A running job's lease is
 * renewed every third of it, so only an instance that died lets it run out. stop() waits for the
 * running job, then releases the claims.
 */
export class JobRunner {
  /** This instance's name in `claimed_by`. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly jobs = new Map<string, Job>();
  private readonly rows = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The times wake() has a timer for (a busy window asks for the same one many times). */
  private readonly wakes = new Set<number>();
  private current: Promise<unknown> = Promise.resolve();
  private queued: Promise<string[]> | null = null;
  private claimed = false;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: JobRunnerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.clock = options.clock ?? (() => new Date());
  }

  /** Adds a job (a job of the same name is replaced) and creates its row unless it exists. */
  register(job: Job): void {
    this.jobs.set(job.name, job);
    const first = job.firstDue(this.clock());
    const row = ensureJob(this.db, job.name, first ? first.toISOString() : null).catch((error: unknown) => {
      if (!this.stopped) console.warn(`Job ${job.name}: could not create its row:`, message(error));
    });
    this.rows.add(row);
    void row.finally(() => this.rows.delete(row));
  }

  /** Starts looking every interval (timers that keep no process alive). */
  start(): void {
    if (this.stopped) return;
    const timer = setInterval(() => void this.tick(), this.options.intervalMs).unref();
    this.timers.add(timer);
  }

  /** Looks again at `at` as well (a job this instance just scheduled), without waiting for the interval. */
  wake(at: Date): void {
    if (this.stopped || this.wakes.has(at.getTime())) return;
    this.wakes.add(at.getTime());
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.wakes.delete(at.getTime());
        void this.tick();
      },
      Math.max(0, at.getTime() - this.clock().getTime()) + 5,
    ).unref();
    this.timers.add(timer);
  }

  /** Claims and runs what is due now; answers the names it ran. Looks run one after another. */
  tick(): Promise<string[]> {
    if (this.queued) return this.queued;
    const next = this.current.then(() => {
      this.queued = null;
      return this.runDue();
    });
    this.queued = next;
    this.current = next.catch(() => undefined);
    return next;
  }

  /** Stops looking, waits for the running job (a bounded time), then releases this instance's claims. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.wakes.clear();
    const waitMs = this.options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([this.current, new Promise((resolve) => (timeout = setTimeout(resolve, waitMs)))]);
    clearTimeout(timeout);
    if (this.claimed) await releaseClaims(this.db, this.owner).catch(() => undefined);
  }

  private async runDue(): Promise<string[]> {
    if (this.stopped) return [];
    const ran: string[] = [];
    try {
      await Promise.all(this.rows);
      const due = await dueJobs(this.db, this.clock().toISOString());
      for (const name of due) {
        const job = this.jobs.get(name);
        if (!job || this.stopped) continue;
        const now = this.clock();
        this.claimed = true;
        if (!(await claimJob(this.db, name, this.owner, now.toISOString(), this.leaseEnd(now)))) continue;
        await this.runClaimed(job, now);
        ran.push(name);
      }
    } catch (error) {
      if (!this.stopped) console.warn('Jobs: looking for due work failed:', message(error));
    }
    return ran;
  }

  private async runClaimed(job: Job, now: Date): Promise<void> {
    const renew = setInterval(
      () => void renewClaim(this.db, job.name, this.owner, this.leaseEnd(this.clock())).catch(() => undefined),
      this.leaseMs / 3,
    ).unref();
    let error: string | null;
    try {
      error = await job.run(now);
    } catch (thrown) {
      error = message(thrown);
      // Stopping closes the database under a job that outlived the wait: not the job's failure.
      if (!this.stopped) console.warn(`Job ${job.name} failed:`, error);
    } finally {
      clearInterval(renew);
    }
    const finished = this.clock();
    const kept = await finishJob(this.db, job.name, this.owner, { at: finished.toISOString(), error }, async (trx) => {
      const next = await job.nextDue(trx, finished, error !== null);
      return next ? next.toISOString() : null;
    });
    if (!kept) console.warn(`Job ${job.name}: its claim ran out while it ran; another instance has taken it over.`);
  }

  private leaseEnd(now: Date): string {
    return new Date(now.getTime() + this.leaseMs).toISOString();
  }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
