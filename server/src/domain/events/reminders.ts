import {
  checkAnswerDeadlineOpen,
  clubTimeToInstant,
  DEFAULT_DEADLINE_REMINDER_HOURS,
  DEFAULT_REMINDER_DAYS_BEFORE,
  type EventReminder,
  type Language,
  type RemindedMember,
  type RemindNowInput,
  type SkippedMember,
  type UnansweredMember,
} from '@fankurve/shared';
import { checkDeadlineReminderHours, checkReminderDaysBefore } from '@fankurve/shared/rules/siteConfig';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { scheduleJobBy } from '../../db/jobs.js';
import { requireAdmin, SYSTEM_ACTOR, type Actor } from '../actor.js';
import { requireLiveEvent, requireOpenForAnswers } from '../attendance/attendance.js';
import { conflict, notFound } from '../errors.js';
import { pushReaches } from '../people/pushReach.js';

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

/** The job's reminders: before the event and before its deadline (an admin's by hand is `manual`). */
export type ReminderKind = Exclude<EventReminder['kind'], 'manual'>;

/** The team configuration's reminder times; 0 switches one off. */
export interface ReminderSettings {
  daysBefore: number;
  deadlineHours: number;
}

/** Their `settings` keys (the team configuration writes them: domain/club/settings.ts). */
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
    .where(pushReaches('reminders'))
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

/** Who was reminded of an event and when, newest first (admin; 404 for an event that is gone; a reminder by hand: the latest). */
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

/** How often an admin may remind one member of one event by hand (docs/product.md, Answer deadlines and reminders). */
export const MANUAL_REMINDER_INTERVAL_MS = HOUR_MS;

/** A member who has not answered an event, as the admin's list and "remind now" read them. */
interface UnansweredRow {
  user_id: string;
  username: string;
  email: string;
  language: Language;
  reminded_at: string | null;
  /** A device subscribed to push with the topic `reminders` on. */
  push: boolean;
}

/**
 * The active members without an own attendee row on the event, live or removed (the same rule the
 * job reminds by: `membersToRemind`), with their last reminder by hand and whether push reaches them.
 */
async function unansweredMembers(db: Db, eventId: string): Promise<UnansweredRow[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('event_reminders as r', (join) =>
      join.onRef('r.user_id', '=', 'u.id').on('r.event_id', '=', eventId).on('r.kind', '=', 'manual'),
    )
    .select(['u.id as user_id', 'u.username', 'u.email', 'u.language', 'r.sent_at as reminded_at'])
    .select((eb) => pushReaches('reminders')(eb).as('push'))
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(selectFrom('attendees as a').select('a.id').whereRef('a.user_id', '=', 'u.id').where('a.event_id', '=', eventId)),
      ),
    )
    .orderBy('u.username')
    .execute();
  return rows.map((row) => ({ ...row, push: Boolean(Number(row.push)) }));
}

/** From when a member reminded by hand at `remindedAt` may be reminded again; null when now. */
function remindAgainAt(remindedAt: string | null, now: string): string | null {
  if (remindedAt === null) return null;
  const again = Date.parse(remindedAt) + MANUAL_REMINDER_INTERVAL_MS;
  return again > Date.parse(now) ? new Date(again).toISOString() : null;
}

/** The event as "remind now" needs it: live, not archived, not past, answers still open. */
async function requireRemindableEvent(w: WriteContext, eventId: string) {
  const event = await requireLiveEvent(w.db, eventId);
  requireOpenForAnswers(w, event);
  const open = checkAnswerDeadlineOpen(event.answer_deadline, w.clubNow(), false);
  if (!open.ok) throw conflict(open.code);
  return event;
}

/** Who has not answered the event yet, by name, with when each can be reminded by hand again (admin). */
export async function listUnanswered(
  db: Kysely<Database>,
  actor: Actor,
  eventId: string,
  now: string,
): Promise<UnansweredMember[]> {
  requireAdmin(actor);
  await requireLiveEvent(db, eventId);
  return (await unansweredMembers(db, eventId)).map((row) => ({
    user_id: row.user_id,
    username: row.username,
    reminded_at: row.reminded_at,
    remind_again_at: remindAgainAt(row.reminded_at, now),
  }));
}

/** The channels that work on this server: web push configured, SMTP set. */
export interface ReminderChannels {
  push: boolean;
  mail: boolean;
}

/** A reminder by hand to send by e-mail after the commit. */
export interface ReminderMailTo {
  email: string;
  username: string;
  language: Language;
}

export interface RemindNowResult {
  reminded: RemindedMember[];
  skipped: SkippedMember[];
  /** The members to e-mail (those push does not reach), sent after the commit by the caller. */
  mails: ReminderMailTo[];
  event: { id: string; title: string; date: string; answer_deadline: string | null };
}

/**
 * An admin reminds the members who have not answered now (all, or the `user_ids` among them): each
 * at most once an hour per event (`event_reminders` kind `manual`, its `sent_at` the last time; the
 * upsert decides, so two admins at once remind a member once). Push reaches a member with a device
 * subscribed and the topic `reminders` on (`reminder.sent`, kind `manual`, after the commit); the
 * others get an e-mail when SMTP is set, else they are skipped as unreachable. A named id that is
 * no active member is 404 `userNotFound`, nothing sent.
 */
export async function remindNow(
  w: WriteContext,
  actor: Actor,
  eventId: string,
  input: RemindNowInput,
  channels: ReminderChannels,
): Promise<RemindNowResult> {
  requireAdmin(actor);
  const event = await requireRemindableEvent(w, eventId);
  const unanswered = await unansweredMembers(w.db, eventId);
  const byId = new Map(unanswered.map((row) => [row.user_id, row]));
  const skipped: SkippedMember[] = [];
  let candidates = unanswered;
  if (input.user_ids !== undefined) {
    const wanted = [...new Set(input.user_ids)];
    const users = wanted.length
      ? await w.db
          .selectFrom('users')
          .select(['id', 'username'])
          .where('id', 'in', wanted)
          .where('deleted', '=', 0)
          .where('status', '=', 'active')
          .execute()
      : [];
    if (users.length !== wanted.length) throw notFound('userNotFound');
    for (const user of users) {
      if (!byId.has(user.id)) skipped.push({ user_id: user.id, username: user.username, reason: 'answered' });
    }
    candidates = unanswered.filter((row) => wanted.includes(row.user_id));
  }
  const cutoff = new Date(Date.parse(w.now) - MANUAL_REMINDER_INTERVAL_MS).toISOString();
  const reachable: Array<UnansweredRow & { channel: 'push' | 'mail' }> = [];
  for (const row of candidates) {
    const skip = (reason: SkippedMember['reason']) => skipped.push({ user_id: row.user_id, username: row.username, reason });
    if (row.user_id === actor.id) skip('self');
    else if (row.reminded_at !== null && row.reminded_at > cutoff) skip('recentlyReminded');
    else if (channels.push && row.push) reachable.push({ ...row, channel: 'push' });
    else if (channels.mail && row.email) reachable.push({ ...row, channel: 'mail' });
    else skip('unreachable');
  }
  const taken = new Set<string>();
  if (reachable.length > 0) {
    const rows = await w.db
      .insertInto('event_reminders')
      .values(reachable.map((row) => ({ event_id: eventId, user_id: row.user_id, kind: 'manual', sent_at: w.now })))
      .onConflict((oc) =>
        oc
          .columns(['event_id', 'user_id', 'kind'])
          .doUpdateSet({ sent_at: (eb) => eb.ref('excluded.sent_at') })
          .where('event_reminders.sent_at', '<=', cutoff),
      )
      .returning('user_id')
      .execute();
    for (const row of rows) taken.add(row.user_id);
  }
  const reminded: RemindedMember[] = [];
  const mails: ReminderMailTo[] = [];
  for (const row of reachable) {
    if (!taken.has(row.user_id)) {
      skipped.push({ user_id: row.user_id, username: row.username, reason: 'recentlyReminded' });
      continue;
    }
    reminded.push({ user_id: row.user_id, username: row.username, channel: row.channel });
    if (row.channel === 'mail') mails.push({ email: row.email, username: row.username, language: row.language });
  }
  const pushed = reminded.filter((row) => row.channel === 'push').map((row) => row.user_id);
  if (pushed.length > 0) {
    w.record({
      type: 'reminder.sent',
      eventId,
      kind: 'manual',
      userIds: pushed,
      deadline: event.answer_deadline,
      actorId: actor.id,
    });
  }
  skipped.sort((a, b) => a.username.localeCompare(b.username));
  return { reminded, skipped, mails, event };
}
