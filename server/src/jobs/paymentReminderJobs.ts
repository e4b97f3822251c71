import { write, type Store } from '../db/store.js';
import {
  nextPaymentReminderDue,
  PAYMENT_REMINDER_JOB,
  paymentReminderDays,
  sendDuePaymentReminders,
} from '../domain/money/paymentReminders.js';
import type { JobRunner } from './runner.js';
import { startTimedJob } from './timedJob.js';

/*
 * The reminders to pay (docs/architecture.md, Ledger, "Reminders to pay" and "Jobs"), one job claimed
 * once however many instances run: it reminds every member due a reminder in one write. Its next due
 * time is the earliest reminder ahead, a day away at the latest; a change of the reminder time in the
 * team configuration makes it due at once.
 */
export function startPaymentReminderJob(store: Store, jobs: JobRunner): void {
  startTimedJob(store, jobs, {
    name: PAYMENT_REMINDER_JOB,
    run: (now) => write(store, async (w) => sendDuePaymentReminders(w, now, await paymentReminderDays(w.db))),
    nextDue: async (trx, now) => nextPaymentReminderDue(trx, now, await paymentReminderDays(trx)),
    wakeTimes: (commit) => (commit.collections.has('config') ? [new Date()] : []),
  });
}
