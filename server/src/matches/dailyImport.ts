import { todayIn } from '@fankurve/shared';
import type { Config } from '../config.js';
import { write, type Store } from '../db/store.js';
import { SYSTEM_ACTOR } from '../domain/actor.js';
import type { MatchImportResult } from '@fankurve/shared';
import { importMatches } from './importMatches.js';
import { OpenLigaDb } from './openLigaDb.js';
import type { Job, JobRunner } from '../jobs/runner.js';

/*
 * The optional daily fixture import (docs/architecture.md, "Fixture import"): off unless the
 * setting `auto_import_matches` is '1' (the team configuration sets it). Then, once per club day
 * from AUTO_IMPORT_HOUR on, it runs the same import as the admin's button, as the system actor.
 * The check is the job `daily-match-import` (docs/architecture.md, "Jobs"), due every 30 minutes
 * and claimed by one instance at a time; the day of the last successful run is the setting
 * `auto_import_matches_last_day`, so neither a restart nor a second instance imports twice. A
 * failed run is tried again at the next check.
 */

export const AUTO_IMPORT_SETTING = 'auto_import_matches';
export const AUTO_IMPORT_LAST_DAY = 'auto_import_matches_last_day';
/** Club-local hour from which the day's import runs (the night's fixture changes are in by then). */
export const AUTO_IMPORT_HOUR = 5;
const CHECK_EVERY_MS = 30 * 60 * 1000;
export const DAILY_IMPORT_JOB = 'daily-match-import';

export type DailyImportOutcome =
  { state: 'off' } | { state: 'notDue' } | { state: 'ran'; result: MatchImportResult } | { state: 'failed'; error: unknown };

export class DailyMatchImport {
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly config: Pick<Config, 'footballDataUrl' | 'clubTimeZone'>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Registers the check with the instance's job runner; it stops when the store's commit bus closes. */
  static start(store: Store, config: Pick<Config, 'footballDataUrl' | 'clubTimeZone'>, jobs: JobRunner): DailyMatchImport {
    const daily = new DailyMatchImport(store, config);
    jobs.register(daily.job());
    store.commits.onClose(() => daily.stop());
    return daily;
  }

  /** The check as a job: due at the first look after the first start, then every 30 minutes. */
  job(): Job {
    return {
      name: DAILY_IMPORT_JOB,
      firstDue: (now) => now,
      run: async () => {
        const outcome = await this.runIfDue();
        return outcome.state === 'failed' ? String(outcome.error instanceof Error ? outcome.error.message : outcome.error) : null;
      },
      nextDue: async (_trx, now) => new Date(now.getTime() + CHECK_EVERY_MS),
    };
  }

  stop(): void {
    this.stopped = true;
  }

  /** One check: imports when the setting is on, the hour has come and today's import has not run yet. */
  async runIfDue(): Promise<DailyImportOutcome> {
    if (this.stopped) return { state: 'notDue' };
    try {
      const settings = await this.store.db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'in', [AUTO_IMPORT_SETTING, AUTO_IMPORT_LAST_DAY])
        .execute();
      const value = (key: string) => settings.find((row) => row.key === key)?.value;
      if (value(AUTO_IMPORT_SETTING) !== '1') return { state: 'off' };
      const now = this.clock();
      const today = todayIn(this.config.clubTimeZone, now);
      if (value(AUTO_IMPORT_LAST_DAY) === today || clubHour(now, this.config.clubTimeZone) < AUTO_IMPORT_HOUR) {
        return { state: 'notDue' };
      }
      const result = await importMatches(this.store, SYSTEM_ACTOR, {
        feed: new OpenLigaDb({ baseUrl: this.config.footballDataUrl }),
        timeZone: this.config.clubTimeZone,
        now,
      });
      if (this.stopped) return { state: 'ran', result };
      await write(this.store, (w) =>
        w.db
          .insertInto('settings')
          .values({ key: AUTO_IMPORT_LAST_DAY, value: today })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: today }))
          .execute(),
      );
      console.log(
        `Daily match import: ${result.created} created, ${result.updated} updated, ${result.skipped} unchanged` +
          (result.errors.length > 0 ? `, ${result.errors.length} errors` : '') +
          (result.vanished.length > 0 ? `, ${result.vanished.length} no longer in the feed` : ''),
      );
      return { state: 'ran', result };
    } catch (error) {
      if (!this.stopped) console.warn('Daily match import failed:', error instanceof Error ? error.message : error);
      return { state: 'failed', error };
    }
  }
}

function clubHour(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now));
}
