import type { Config } from '../config.js';
import { write, type Store } from '../db/store.js';
import { nextReminderDue, REMINDER_JOB, reminderSettings, sendDueReminders } from '../domain/events/reminders.js';
import type { JobRunner } from './runner.js';
import { startTimedJob } from './timedJob.js';

/*
 * The answer reminders' scheduled work (docs/architecture.md, "Answer deadlines and reminders" and
 * "Jobs"), one job claimed once however many instances run: it reminds every member due a reminder
 * (domain/events/reminders.ts) in one write. Its next due time is the earliest reminder time still ahead;
 * creating or moving an event, changing its deadline or the reminder times makes it due at once
 * (`scheduleReminders`, in the same transaction), and this instance also wakes then.
 */
export function startReminderJob(store: Store, config: Pick<Config, 'clubTimeZone'>, jobs: JobRunner): void {
  const timeZone = config.clubTimeZone;
  startTimedJob(store, jobs, {
    name: REMINDER_JOB,
    run: (now) => write(store, async (w) => sendDueReminders(w, now, timeZone, await reminderSettings(w.db))),
    nextDue: async (trx, now) => nextReminderDue(trx, now, timeZone, await reminderSettings(trx)),
    wakeTimes: (commit) => {
      const schedules =
        commit.collections.has('config') ||
        commit.events.some(
          (event) =>
            event.type === 'event.created' ||
            (event.type === 'event.changed' && event.fields.some((field) => field === 'date' || field === 'answer_deadline')),
        );
      return schedules ? [new Date()] : [];
    },
  });
}
