import { PAYMENT_REMINDERS_MAX, DEFAULT_PAYMENT_REMINDER_DAYS } from '@fankurve/shared';
import { checkPaymentReminderDays } from '@fankurve/shared/rules/siteConfig';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { scheduleJobBy } from '../../db/jobs.js';
import { SYSTEM_ACTOR } from '../actor.js';
import { pushReaches } from '../people/pushReach.js';
import { chunks } from './ledgerEntries.js';

/*
 * Reminders to pay (docs/product.md, Tickets and money, "Reminders to pay"; docs/architecture.md,
 * Ledger, the same heading): a member whose balance has stayed above zero for `payment_reminder_days`
 * days hears of it by web push (topic `payments`, opening /my-tickets and its GiroCode), again every as
 * many days, at most PAYMENT_REMINDERS_MAX times for one debt. A debt is named by the time the balance
 * last rose above zero (`owing_since`): paying part of it changes nothing, paying all of it ends it,
 * and a new charge after that is a new debt with reminders of its own.
 *
 * The job `payment-reminders` (jobs/paymentReminderJobs.ts) decides in one transaction whom to remind,
 * records each reminder in `payment_reminders` (a row per member, debt and round: never twice, across
 * restarts and instances) and records `payment.reminded`; the push goes out after the commit. Only
 * active members a push can reach are reminded (a device subscribed, the topic on); one who subscribes
 * later is reminded at the job's next look.
 */

export const PAYMENT_REMINDER_JOB = 'payment-reminders';

/** Its `settings` key (the team configuration writes it: domain/club/settings.ts). */
export const PAYMENT_REMINDER_SETTING_KEY = 'payment_reminder_days';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The job looks at least this often: a debt that arose since its last look is due days later, never before it. */
const LOOK_AT_LEAST_EVERY_MS = DAY_MS;

type Db = Kysely<Database> | Transaction<Database>;

/** The stored setting (as text), its default when unset or unreadable. */
export function paymentReminderDaysOf(stored: string | undefined): number {
  const checked = checkPaymentReminderDays(stored);
  return checked.ok ? checked.value : DEFAULT_PAYMENT_REMINDER_DAYS;
}

/** The team configuration's days before (and between) reminders to pay; 0 off. */
export async function paymentReminderDays(db: Db): Promise<number> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', PAYMENT_REMINDER_SETTING_KEY).executeTakeFirst();
  return paymentReminderDaysOf(row?.value);
}

/** Makes the job look now (another reminder time: its next due time is worked out again). */
export async function schedulePaymentReminders(w: WriteContext): Promise<void> {
  await scheduleJobBy(w.db, PAYMENT_REMINDER_JOB, w.now);
}

/**
 * When the balance last rose above zero and has stayed there since (the entries in the order they were
 * written); null when it is not above zero.
 */
export function owingSince(entries: readonly { amount_cents: number; created_at: string }[]): string | null {
  let balance = 0;
  let since: string | null = null;
  for (const entry of entries) {
    const before = balance;
    balance += entry.amount_cents;
    if (balance > 0 && before <= 0) since = entry.created_at;
    if (balance <= 0) since = null;
  }
  return since;
}

/** The reminders a debt has had. */
export interface RemindersSent {
  count: number;
  /** ISO 8601 UTC of the latest, null when none. */
  lastAt: string | null;
}

/**
 * When the next reminder of a debt is due (ms since the epoch): `days` after it arose, then `days`
 * after the latest reminder; null when reminders are off or PAYMENT_REMINDERS_MAX went out.
 */
export function nextPaymentReminderAt(since: string, sent: RemindersSent, days: number): number | null {
  if (days <= 0 || sent.count >= PAYMENT_REMINDERS_MAX) return null;
  const from = sent.count === 0 || sent.lastAt === null ? since : sent.lastAt;
  return Date.parse(from) + days * DAY_MS;
}

/** A member who owes money now, the debt's start and its reminders so far. */
export interface Debt {
  userId: string;
  owedCents: number;
  since: string;
  sent: RemindersSent;
}

/**
 * The debts of active members (balance above zero), each with its start and reminders;
 * `reachable` narrows them to members a push of topic `payments` reaches.
 */
export async function currentDebts(db: Db, options: { reachable: boolean }): Promise<Debt[]> {
  let owing = db
    .selectFrom('ledger as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.user_id', (eb) => eb.fn.sum<number | string>('l.amount_cents').as('total')])
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .groupBy('l.user_id')
    .having(sql`sum(l.amount_cents)`, '>', 0);
  if (options.reachable) owing = owing.where(pushReaches('payments'));
  const owed = new Map((await owing.execute()).map((row) => [row.user_id, Number(row.total)]));
  const debts: Debt[] = [];
  for (const part of chunks([...owed.keys()])) {
    const [entries, reminders] = await Promise.all([
      db
        .selectFrom('ledger')
        .select(['user_id', 'amount_cents', 'created_at'])
        .where('user_id', 'in', part)
        .orderBy('user_id')
        .orderBy('seq')
        .execute(),
      db
        .selectFrom('payment_reminders')
        .select([
          'user_id',
          'owing_since',
          (eb) => eb.fn.countAll<number | string>().as('count'),
          (eb) => eb.fn.max('sent_at').as('last_at'),
        ])
        .where('user_id', 'in', part)
        .groupBy(['user_id', 'owing_since'])
        .execute(),
    ]);
    const byUser = new Map<string, { amount_cents: number; created_at: string }[]>();
    for (const entry of entries) {
      const list = byUser.get(entry.user_id) ?? [];
      list.push({ amount_cents: Number(entry.amount_cents), created_at: entry.created_at });
      byUser.set(entry.user_id, list);
    }
    const sentOf = new Map(
      reminders.map((row) => [`${row.user_id}|${row.owing_since}`, { count: Number(row.count), lastAt: row.last_at }]),
    );
    for (const userId of part) {
      const since = owingSince(byUser.get(userId) ?? []);
      if (since === null) continue;
      debts.push({
        userId,
        owedCents: owed.get(userId)!,
        since,
        sent: sentOf.get(`${userId}|${since}`) ?? { count: 0, lastAt: null },
      });
    }
  }
  return debts;
}

/**
 * Reminds every member whose reminder to pay is due at `now` (the system acts): a row per reminder and
 * one `payment.reminded`. Run again it finds nothing new: the rows are the record. Answers how many
 * members were reminded.
 */
export async function sendDuePaymentReminders(w: WriteContext, now: Date, days: number): Promise<number> {
  if (days <= 0) return 0;
  const due = (await currentDebts(w.db, { reachable: true })).filter((debt) => {
    const at = nextPaymentReminderAt(debt.since, debt.sent, days);
    return at !== null && at <= now.getTime();
  });
  if (due.length === 0) return 0;
  const reminded: { userId: string; owedCents: number; round: number }[] = [];
  for (const part of chunks(due)) {
    const inserted = await w.db
      .insertInto('payment_reminders')
      .values(
        part.map((debt) => ({
          user_id: debt.userId,
          owing_since: debt.since,
          round: debt.sent.count + 1,
          amount_cents: debt.owedCents,
          sent_at: w.now,
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'owing_since', 'round']).doNothing())
      .returning(['user_id', 'round', 'amount_cents'])
      .execute();
    for (const row of inserted)
      reminded.push({ userId: row.user_id, owedCents: Number(row.amount_cents), round: Number(row.round) });
  }
  if (reminded.length > 0) w.record({ type: 'payment.reminded', reminders: reminded, actorId: SYSTEM_ACTOR.id });
  return reminded.length;
}

/**
 * The job's next due time: the earliest reminder ahead of `now`, and at the latest a day from now
 * (a debt that arises meanwhile is due `days` after it, so the next look comes before it); null when off.
 */
export async function nextPaymentReminderDue(db: Db, now: Date, days: number): Promise<Date | null> {
  if (days <= 0) return null;
  let next = now.getTime() + LOOK_AT_LEAST_EVERY_MS;
  for (const debt of await currentDebts(db, { reachable: true })) {
    const at = nextPaymentReminderAt(debt.since, debt.sent, days);
    if (at !== null && at > now.getTime() && at < next) next = at;
  }
  return new Date(next);
}

/** The reminders of each member's current debt (for /debts): how many, and the latest. */
export async function remindersOfDebts(db: Db): Promise<Map<string, RemindersSent>> {
  const debts = await currentDebts(db, { reachable: false });
  return new Map(debts.filter((debt) => debt.sent.count > 0).map((debt) => [debt.userId, debt.sent]));
}
