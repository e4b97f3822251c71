import {
  clubTimeToInstant,
  DEFAULT_DEADLINE_REMINDER_HOURS,
  DEFAULT_REMINDER_DAYS_BEFORE,
  type EventReminder,
} from '@fankurve/shared';
import { checkDeadlineReminderHours, checkReminderDaysBefore } from '@fankurve/shared/rules/siteConfig';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WriteContext } from '../db/store.js';
import { scheduleJobBy } from '../jobs/claim.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from './actor.js';
import { requireLiveEvent } from './attendance.js';

/*
 * Reminders to answer (docs/product.md, Answer deadlines and reminders; docs/architecture.md, the
 * same section): every active member who has not answered an event hears of it once before the
 * event (`reminder_days_before` days) and, when it has an answer deadline, once before the deadline
 * (`deadline_reminder_hours` hours), by web push (topic `reminders`). The job `answer-reminders`
 * (jobs/reminderJobs.ts) decides in one transaction whom to remind, records each reminder in
 * `event_reminders` (one row per event, member and kind: never twice, across restarts and instances)
 * and records `reminder.sent`; the push goes out after the commit (notify/recipients.ts).
 *
 * A member has answered when they have an attendee row of their own on the event, live (going or
 * maybe) or removed (they said not going, or an admin took them off): only members without any own
 * row are reminded. Guests they bring are not their answer.
 *
 * A reminder is due from its time on while the event has not begun, is live and not archived, and
 * its answers are still open (no deadline, or the deadline not passed). An event created inside a
 * reminder's time sends none (its announcement is enough): its creation records a waiver of that
 * reminder (`reminder_waivers`). An event moved closer, or a deadline set, so that the time has
 * passed reminds at once: the write makes the job due now (`noteReminderTimes`); a move that puts a
 * waived reminder's time ahead again lifts the waiver. Only members a push can reach are reminded (a
 * device subscribed, the topic on); one who subscribes later is reminded at the job's next run while
 * the reminder is still due.
 */

/** The job that sends the reminders (jobs/reminderJobs.ts). */
export const REMINDER_JOB = 'answer-reminders';

export type ReminderKind = EventReminder['kind'];

/** The team configuration's reminder times; 0 switches one off. */
export interface ReminderSettings {
  daysBefore: number;
  deadlineHours: number;
}

/** Their `settings` keys (the team configuration writes them: domain/settings.ts). */
export const REMINDER_SETTING_KEYS = { daysBefore: 'reminder_days_before', deadlineHours: 'deadline_reminder_hours' } as const;

type Db = Kysely<Database> | Transaction<Database>;

const HOUR_MS = 60 * 60 * 1000;

/** The stored reminder times (as text), each its default when unset or unreadable. */
export function reminderSettingsOf(stored: { daysBefore?: string; deadlineHours?: string }): ReminderSettings {
  const days = checkReminderDaysBefore(stored.daysBefore);
  const hours = checkDeadlineReminderHours(stored.deadlineHours);
  return {
    daysBefore: days.ok ? days.value : DEFAULT_REMINDER_DAYS_BEFORE,
    deadlineHours: hours.ok ? hours.value : DEFAULT_DEADLINE_REMINDER_HOURS,
  };
}

/** The reminder times of the team configuration. */
export async function reminderSettings(db: Db): Promise<ReminderSettings> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', [REMINDER_SETTING_KEYS.daysBefore, REMINDER_SETTING_KEYS.deadlineHours])
    .execute();
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return reminderSettingsOf({
    daysBefore: stored.get(REMINDER_SETTING_KEYS.daysBefore),
    deadlineHours: stored.get(REMINDER_SETTING_KEYS.deadlineHours),
  });
}

/** Makes the reminders' job look now (its next due time is worked out again when it has run). */
export async function scheduleReminders(w: WriteContext): Promise<void> {
  await scheduleJobBy(w.db, REMINDER_JOB, w.now);
}

/**
 * After an event was created, moved or given another deadline: a new event waives the reminders
 * whose time has already passed (created inside them: none is sent); a changed one lifts the waiver
 * of a reminder whose time now lies ahead. Then the job looks at once, so a reminder whose time a
 * change has put behind us goes out now.
 */
export async function noteReminderTimes(w: WriteContext, eventId: string, change: 'created' | 'changed'): Promise<void> {
  const event = await w.db
    .selectFrom('events')
    .select(['id', 'title', 'date', 'answer_deadline', 'created_at'])
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const now = Date.parse(w.now);
  for (const reminder of remindersOf(event, await reminderSettings(w.db), w.timeZone)) {
    if (change === 'created' && reminder.at <= now) {
      await w.db
        .insertInto('reminder_waivers')
        .values({ event_id: eventId, kind: reminder.kind, created_at: w.now })
        .onConflict((oc) => oc.columns(['event_id', 'kind']).doNothing())
        .execute();
    }
    if (change === 'changed' && reminder.at > now) {
      await w.db.deleteFrom('reminder_waivers').where('event_id', '=', eventId).where('kind', '=', reminder.kind).execute();
    }
  }
  await scheduleReminders(w);
}

interface EventTimes {
  id: string;
  title: string;
  date: string;
  answer_deadline: string | null;
  created_at: string;
}

/** A reminder of an event: due from `at` until `until` (the event begins or its answers close). */
interface Reminder {
  event: EventTimes;
  kind: ReminderKind;
  at: number;
  until: number;
}

/** The wall-clock time `days` days earlier (same time of day, whatever the clocks did in between). */
function daysEarlier(wallClock: string, days: number): string {
  const [date = '', time = '00:00:00'] = wallClock.split(' ');
  const [y, m, d] = date.split('-').map(Number);
  const earlier = new Date(Date.UTC(y!, m! - 1, d! - days));
  return `${earlier.toISOString().slice(0, 10)} ${time}`;
}

/**
 * The reminders of an event that can still matter: with their time before the event begins and
 * before its deadline passes. Each is due from its time on.
 */
function remindersOf(event: EventTimes, settings: ReminderSettings, timeZone: string): Reminder[] {
  const begins = clubTimeToInstant(event.date, timeZone).getTime();
  const closes = event.answer_deadline ? clubTimeToInstant(event.answer_deadline, timeZone).getTime() : begins;
  const until = Math.min(begins, closes);
  const reminders: Reminder[] = [];
  if (settings.daysBefore > 0) {
    const at = clubTimeToInstant(daysEarlier(event.date, settings.daysBefore), timeZone).getTime();
    reminders.push({ event, kind: 'event', at, until });
  }
  if (settings.deadlineHours > 0 && event.answer_deadline) {
    reminders.push({ event, kind: 'deadline', at: closes - settings.deadlineHours * HOUR_MS, until });
  }
  return reminders.filter((reminder) => reminder.at < until);
}

/** The live, not archived events that have not begun (from the day before `today` on: the times decide). */
async function upcomingEvents(db: Db, today: string): Promise<EventTimes[]> {
  return db
    .selectFrom('events')
    .select(['id', 'title', 'date', 'answer_deadline', 'created_at'])
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .where('date', '>=', today)
    .orderBy('date')
    .execute();
}

/** The reminders of the upcoming events that are not waived (created inside them), with their times. */
async function upcomingReminders(db: Db, now: Date, timeZone: string, settings: ReminderSettings): Promise<Reminder[]> {
  const events = await upcomingEvents(db, dayBefore(now));
  if (events.length === 0) return [];
  const waived = new Set(
    (
      await db
        .selectFrom('reminder_waivers')
        .select(['event_id', 'kind'])
        .where(
          'event_id',
          'in',
          events.map((event) => event.id),
        )
        .execute()
    ).map((row) => `${row.event_id}|${row.kind}`),
  );
  // A waiver holds while the reminder's time lies before the event's creation: other reminder times
  // in the team configuration that put it after the creation make it an ordinary reminder again.
  const isWaived = (reminder: Reminder) =>
    waived.has(`${reminder.event.id}|${reminder.kind}`) && reminder.at <= Date.parse(reminder.event.created_at);
  return events.flatMap((event) => remindersOf(event, settings, timeZone)).filter((reminder) => !isWaived(reminder));
}

/** The club's calendar day of an instant, a day early: a cheap lower bound for the query (the times decide). */
const dayBefore = (now: Date) => new Date(now.getTime() - 24 * HOUR_MS).toISOString().slice(0, 10);

/**
 * The members a reminder reaches: active accounts without an own attendee row on the event (live or
 * removed), not yet reminded of this kind, with a device subscribed to push and the topic `reminders` on.
 */
async function membersToRemind(db: Db, eventId: string, kind: ReminderKind): Promise<string[]> {
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(selectFrom('attendees as a').select('a.id').whereRef('a.user_id', '=', 'u.id').where('a.event_id', '=', eventId)),
      ),
    )
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('event_reminders as r')
            .select('r.user_id')
            .whereRef('r.user_id', '=', 'u.id')
            .where('r.event_id', '=', eventId)
            .where('r.kind', '=', kind),
        ),
      ),
    )
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('push_subscriptions as s').select('s.id').whereRef('s.user_id', '=', 'u.id')),
    )
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('push_topics_off as o')
            .select('o.user_id')
            .whereRef('o.user_id', '=', 'u.id')
            .where('o.topic', '=', 'reminders'),
        ),
      ),
    )
    .orderBy('u.id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Reminds of every reminder due at `now` (the system acts): records a row per member reminded and
 * one `reminder.sent` per event and kind. Run again it finds nothing new: the rows are the record.
 * Answers how many members were reminded.
 */
export async function sendDueReminders(
  w: WriteContext,
  now: Date,
  timeZone: string,
  settings: ReminderSettings,
): Promise<number> {
  let reminded = 0;
  for (const { event, kind, at, until } of await upcomingReminders(w.db, now, timeZone, settings)) {
    if (at > now.getTime() || now.getTime() > until) continue;
    const userIds = await membersToRemind(w.db, event.id, kind);
    if (userIds.length === 0) continue;
    const inserted = await w.db
      .insertInto('event_reminders')
      .values(userIds.map((userId) => ({ event_id: event.id, user_id: userId, kind, sent_at: w.now })))
      .onConflict((oc) => oc.columns(['event_id', 'user_id', 'kind']).doNothing())
      .returning('user_id')
      .execute();
    if (inserted.length === 0) continue;
    reminded += inserted.length;
    w.record({
      type: 'reminder.sent',
      eventId: event.id,
      kind,
      userIds: inserted.map((row) => row.user_id),
      deadline: event.answer_deadline,
      actorId: SYSTEM_ACTOR.id,
    });
  }
  return reminded;
}

/** The earliest reminder time after `now`, or null when none is ahead (the job's next due time). */
export async function nextReminderDue(db: Db, now: Date, timeZone: string, settings: ReminderSettings): Promise<Date | null> {
  let next: number | null = null;
  for (const reminder of await upcomingReminders(db, now, timeZone, settings)) {
    if (reminder.at > now.getTime() && (next === null || reminder.at < next)) next = reminder.at;
  }
  return next === null ? null : new Date(next);
}

/** Who was reminded of an event and when, newest first (admin; 404 for an event that is gone). */
export async function listEventReminders(db: Kysely<Database>, actor: Actor, eventId: string): Promise<EventReminder[]> {
  requireAdmin(actor);
  await requireLiveEvent(db, eventId);
  const rows = await db
    .selectFrom('event_reminders as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.user_id', 'u.username', 'r.kind', 'r.sent_at'])
    .where('r.event_id', '=', eventId)
    .orderBy('r.sent_at', 'desc')
    .orderBy('u.username')
    .orderBy('r.kind')
    .execute();
  return rows;
}
