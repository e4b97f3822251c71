import { clubTimeToInstant, todayIn, type Language } from '@fankurve/shared';
import ical, { ICalAlarmType, ICalEventStatus } from 'ical-generator';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { forbidden, notFound } from '../errors.js';
import type { Actor } from '../actor.js';

/*
 * The members' private calendar feed (docs/architecture.md, Calendar feed). Each member has at most
 * one live feed token. The token is the HMAC of a random seed under the server's secret: the
 * database keeps the seed and the token's sha256 (for the lookup), so the member's page can show the
 * same address again while a leaked database or backup alone opens no feed. Rotating draws a new
 * seed; the old address answers 404 from then on.
 */

/** Events from this many days before today (the club's day) are in the feed. */
export const FEED_PAST_DAYS = 90;
/** Deleted events stay in the feed as cancelled for this many days. */
export const FEED_CANCELLED_DAYS = 30;
const EVENT_HOURS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

const hashFeedToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
const tokenOf = (secret: string, seed: string): string =>
  createHmac('sha256', secret).update(`calendar-feed:${seed}`, 'utf8').digest('base64url');

function requireMember(actor: Actor): void {
  if (actor.system) throw forbidden();
}

async function storeSeed(w: WriteContext, userId: string, seed: string, secret: string): Promise<string> {
  const token = tokenOf(secret, seed);
  await w.db.deleteFrom('calendar_tokens').where('user_id', '=', userId).execute();
  await w.db
    .insertInto('calendar_tokens')
    .values({ user_id: userId, token_hash: hashFeedToken(token), seed, created_at: w.now })
    .execute();
  return token;
}

/** The actor's feed token, created on the first call. */
export async function calendarToken(w: WriteContext, actor: Actor, secret: string): Promise<string> {
  requireMember(actor);
  const row = await w.db.selectFrom('calendar_tokens').selectAll().where('user_id', '=', actor.id).executeTakeFirst();
  if (!row) return storeSeed(w, actor.id, randomBytes(32).toString('base64url'), secret);
  const token = tokenOf(secret, row.seed);
  // A changed server secret: the stored hash follows the address shown now.
  if (row.token_hash !== hashFeedToken(token)) return storeSeed(w, actor.id, row.seed, secret);
  return token;
}

/** A new feed token for the actor; the previous one stops working. */
export async function rotateCalendarToken(w: WriteContext, actor: Actor, secret: string): Promise<string> {
  requireMember(actor);
  return storeSeed(w, actor.id, randomBytes(32).toString('base64url'), secret);
}

/**
 * Ends the user's feed address together with their sessions (a password changed by the member, set
 * by an admin or reset by mail; the account deleted or declined: domain/people/sessions.ts `endAllSessions`),
 * so whoever held the old password does not keep reading the calendar. The next `GET /api/calendar`
 * draws a new address; the old one answers 404.
 */
export async function endCalendarToken(w: WriteContext, userId: string): Promise<void> {
  await w.db.deleteFrom('calendar_tokens').where('user_id', '=', userId).execute();
}

/** The feed's address under the club's public address. */
export const calendarUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/api/calendar/${token}.ics`;

const WORDS = {
  de: {
    answer: 'Deine Antwort',
    answerBy: 'Antworten bis',
    answerByAlarm: 'Morgen endet die Antwortfrist',
    going: 'Ich bin dabei',
    maybe: 'Vielleicht',
    none: 'Keine Antwort',
    ticket: 'Ticket',
    needsTicket: 'braucht eins',
    hasTicket: 'hat eins',
    bought: 'gekauft',
    paid: 'bezahlt',
    noTicket: 'keins nötig',
    seat: 'Fahrt',
    needsSeat: 'braucht einen Platz',
    reserved: 'Platz reserviert',
    waitingList: 'Warteliste',
    ownTravel: 'eigene Anreise',
    cancelled: 'Abgesagt',
  },
  en: {
    answer: 'Your answer',
    answerBy: 'Answer by',
    answerByAlarm: 'Answers close tomorrow',
    going: 'Going',
    maybe: 'Maybe',
    none: 'No answer',
    ticket: 'Ticket',
    needsTicket: 'needs one',
    hasTicket: 'has one',
    bought: 'bought',
    paid: 'paid',
    noTicket: 'none needed',
    seat: 'Travel',
    needsSeat: 'needs a seat',
    reserved: 'seat reserved',
    waitingList: 'waiting list',
    ownTravel: 'own travel',
    cancelled: 'Cancelled',
  },
} as const satisfies Record<Language, Record<string, string>>;

interface FeedRow {
  id: string;
  title: string;
  date: string;
  location: string;
  deleted: number;
  archived: number;
  answer_deadline: string | null;
  schedule_version: number;
  updated_at: string;
  stadium_name: string | null;
  stadium_address: string | null;
  status: 'going' | 'maybe' | null;
  needs_ticket: number | null;
  has_ticket: number | null;
  bought: number | null;
  paid: number | null;
  needs_transport: number | null;
  transfer_status: 'outstanding' | 'reserved' | 'waiting_list' | null;
}

/** A wall-clock time as it is, `28.11.2030, 18:00` / `28 Nov 2030, 18:00` (no zone shift). */
function wallClockText(wallClock: string, language: Language): string {
  const format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return format.format(new Date(`${wallClock.slice(0, 19).replace(' ', 'T')}Z`));
}

/** A deleted event (tombstoned, or archived for its bought tickets) is cancelled in the feed. */
const isCancelled = (row: FeedRow): boolean => row.deleted === 1 || row.archived === 1;

function describe(row: FeedRow, language: Language, link: string): string {
  const words = WORDS[language];
  const lines: string[] = [];
  if (isCancelled(row)) lines.push(words.cancelled);
  lines.push(`${words.answer}: ${row.status ? words[row.status] : words.none}`);
  if (row.answer_deadline) lines.push(`${words.answerBy} ${wallClockText(row.answer_deadline, language)}`);
  if (row.status) {
    const ticket = row.paid
      ? words.paid
      : row.bought
        ? words.bought
        : row.has_ticket
          ? words.hasTicket
          : row.needs_ticket
            ? words.needsTicket
            : words.noTicket;
    lines.push(`${words.ticket}: ${ticket}`);
    const seat = !row.needs_transport
      ? words.ownTravel
      : row.transfer_status === 'reserved'
        ? words.reserved
        : row.transfer_status === 'waiting_list'
          ? words.waitingList
          : words.needsSeat;
    lines.push(`${words.seat}: ${seat}`);
  }
  lines.push(link);
  return lines.join('\n');
}

/**
 * The feed of a token (404 for an unknown or rotated token, or one of a user no longer active):
 * every live, not archived event from FEED_PAST_DAYS before today on, and events deleted (or
 * archived) in the last FEED_CANCELLED_DAYS as cancelled (title "Abgesagt: …" / "Cancelled: …",
 * STATUS:CANCELLED, SEQUENCE one higher); each with the member's own answer in their language and,
 * with an answer deadline, an alarm the day before it.
 */
export async function calendarFeed(
  db: Kysely<Database>,
  token: string,
  options: { timeZone: string; publicUrl: string; now?: Date },
): Promise<string> {
  const now = options.now ?? new Date();
  const user = await db
    .selectFrom('calendar_tokens as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['u.id as id', 'u.language as language'])
    .where('c.token_hash', '=', hashFeedToken(token))
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!user) throw notFound('calendarNotFound');
  const today = todayIn(options.timeZone, now);
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - FEED_PAST_DAYS * DAY_MS).toISOString().slice(0, 10);
  const cancelledSince = new Date(now.getTime() - FEED_CANCELLED_DAYS * DAY_MS).toISOString();
  const rows: FeedRow[] = await db
    .selectFrom('events as e')
    .leftJoin('stadiums as s', 's.id', 'e.stadium_id')
    .leftJoin('attendees as a', (join) =>
      join.onRef('a.event_id', '=', 'e.id').on('a.user_id', '=', user.id).on('a.guest_name', 'is', null).on('a.deleted', '=', 0),
    )
    .select([
      'e.id',
      'e.title',
      'e.date',
      'e.location',
      'e.deleted',
      'e.archived',
      'e.answer_deadline',
      'e.schedule_version',
      'e.updated_at',
      's.stadium_name',
      's.address as stadium_address',
      'a.status',
      'a.needs_ticket',
      'a.has_ticket',
      'a.bought',
      'a.paid',
      'a.needs_transport',
      'a.transfer_status',
    ])
    .where('e.date', '>=', since)
    .where((eb) => eb.or([eb.and([eb('e.deleted', '=', 0), eb('e.archived', '=', 0)]), eb('e.updated_at', '>=', cancelledSince)]))
    .orderBy('e.date')
    .orderBy('e.id')
    .execute();
  const base = options.publicUrl.replace(/\/+$/, '');
  const words = WORDS[user.language];
  const calendar = ical({ name: 'Fankurve', prodId: '//Fankurve//Calendar feed//EN' });
  for (const row of rows) {
    const start = clubTimeToInstant(row.date, options.timeZone);
    const place = row.stadium_name
      ? [row.stadium_name, row.stadium_address].filter((part) => part && part.trim()).join(', ')
      : row.location;
    const link = `${base}/events/${row.id}`;
    const cancelled = isCancelled(row);
    const entry = calendar.createEvent({
      id: `${row.id}@fankurve`,
      // A cancellation is a change of the event: calendar apps take it only with a higher SEQUENCE.
      sequence: row.schedule_version + (cancelled ? 1 : 0),
      stamp: now,
      start,
      end: new Date(start.getTime() + EVENT_HOURS * 60 * 60 * 1000),
      summary: cancelled ? `${words.cancelled}: ${row.title}` : row.title,
      location: place || null,
      description: describe(row, user.language, link),
      url: link,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
    // The answer deadline rings the day before it (an absolute trigger: the deadline is not the start).
    if (row.answer_deadline && !cancelled) {
      const deadline = clubTimeToInstant(row.answer_deadline, options.timeZone);
      entry.createAlarm({
        type: ICalAlarmType.display,
        trigger: new Date(deadline.getTime() - DAY_MS),
        description: `${words.answerByAlarm}: ${row.title} (${words.answerBy} ${wallClockText(row.answer_deadline, user.language)})`,
      });
    }
  }
  return calendar.toString();
}
