import { centsToEuros, seasonOf, type Language } from '@fankurve/shared';
import { toCsv, type CsvCell } from '@fankurve/shared/rules/csv';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import { isAdmin, type Actor } from '../actor.js';
import { forbidden, notFound } from '../errors.js';
import { findLiveUser } from './accounts.js';

/*
 * "My data" (docs/architecture.md, Data export; docs/product.md, /profile): everything the app keeps
 * about one member, as a ZIP of JSON files (and CSV beside the tabular ones, for a spreadsheet):
 * profile, answers and guests of every season, tickets with their requests and offers, the ledger,
 * comments and mentions, poll votes, the loyalty adjustment, sessions and push devices, refusal
 * notices, rides, reminders, the invite they joined by, and what they created (events, news, polls,
 * invites). Secrets stay out: no password hash, no token or
 * its hash, no push keys or endpoint, no calendar seed. A member exports their own; an admin anyone's.
 */

/** One file of the archive. */
export interface ExportFile {
  name: string;
  text: string;
}

/** The archive as the route sends it. */
export interface DataExport {
  filename: string;
  /** fflate writes into a plain ArrayBuffer of its own. */
  bytes: Uint8Array<ArrayBuffer>;
}

const json = (name: string, value: unknown): ExportFile => ({ name, text: `${JSON.stringify(value, null, 2)}\n` });

/** A CSV file of rows whose fields are the JSON's: the header is their names (shared/src/rules/csv.ts, with its formula guard). */
function csv(name: string, rows: Record<string, unknown>[], fields: string[]): ExportFile {
  const cell = (value: unknown): CsvCell =>
    value === null || value === undefined
      ? null
      : typeof value === 'number'
        ? value
        : typeof value === 'boolean'
          ? value
            ? 'true'
            : 'false'
          : String(value);
  return {
    name,
    text: toCsv(
      fields,
      rows.map((row) => fields.map((field) => cell(row[field]))),
    ),
  };
}

const money = (cents: number | null) => (cents === null ? null : centsToEuros(cents));

/** The attendee rows of the member and of their guests, with their event. */
async function attendeeRows(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select([
      'a.id',
      'a.event_id',
      'e.title as event_title',
      'e.date as event_date',
      'a.user_id',
      'a.guest_name',
      'a.brought_by',
      'a.status',
      'a.needs_ticket',
      'a.has_ticket',
      'a.needs_transport',
      'a.transfer_status',
      'a.ticket_type',
      'a.price_cents',
      'a.is_free',
      'a.is_price_tbd',
      'a.paid_by',
      'a.bought',
      'a.paid',
      'a.received',
      'a.paid_requested',
      'a.paid_requested_at',
      'a.received_requested',
      'a.received_requested_at',
      'a.created_at',
      'a.updated_at',
      'a.deleted',
    ])
    .where((eb) =>
      eb.or([eb.and([eb('a.user_id', '=', userId), eb('a.guest_name', 'is', null)]), eb('a.brought_by', '=', userId)]),
    )
    .orderBy('e.date')
    .orderBy('a.created_at')
    .execute();
}

/** Every file of a member's data, in the order the archive lists them. */
export async function memberDataFiles(db: Kysely<Database>, userId: string): Promise<ExportFile[]> {
  const user = await findLiveUser(db, userId);
  if (!user) throw notFound('userNotFound');
  const [topicsOff, calendar, resets, attendees, ledger, comments, mentions, votes, adjustment, sessions, devices, notices] =
    await Promise.all([
      db.selectFrom('push_topics_off').select('topic').where('user_id', '=', userId).orderBy('topic').execute(),
      db.selectFrom('calendar_tokens').select('created_at').where('user_id', '=', userId).executeTakeFirst(),
      db
        .selectFrom('password_resets')
        .select(['created_at', 'expires_at', 'used'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
      attendeeRows(db, userId),
      db
        .selectFrom('ledger as l')
        .leftJoin('events as e', 'e.id', 'l.event_id')
        .select([
          'l.id',
          'l.date',
          'l.kind',
          'l.amount_cents',
          'l.description',
          'l.event_id',
          'e.title as event_title',
          'l.reverses_id',
          'l.created_at',
        ])
        .where('l.user_id', '=', userId)
        .orderBy('l.date')
        .orderBy('l.created_at')
        .execute(),
      db
        .selectFrom('comments as c')
        .innerJoin('events as e', 'e.id', 'c.event_id')
        .select([
          'c.id',
          'c.event_id',
          'e.title as event_title',
          'c.comment',
          'c.requires_answer',
          'c.is_resolved',
          'c.created_at',
          'c.updated_at',
          'c.deleted',
        ])
        .where('c.user_id', '=', userId)
        .orderBy('c.created_at')
        .execute(),
      db
        .selectFrom('mentions as m')
        .innerJoin('comments as c', 'c.id', 'm.comment_id')
        .innerJoin('events as e', 'e.id', 'm.event_id')
        .leftJoin('users as author', 'author.id', 'c.user_id')
        .select([
          'm.id',
          'm.comment_id',
          'm.event_id',
          'e.title as event_title',
          'c.comment',
          'author.username as comment_by',
          'm.is_read',
          'm.created_at',
          'm.deleted',
        ])
        .where('m.user_id', '=', userId)
        .orderBy('m.created_at')
        .execute(),
      db
        .selectFrom('poll_votes as v')
        .innerJoin('polls as p', 'p.id', 'v.poll_id')
        .select(['v.id', 'v.poll_id', 'p.question', 'v.option_ids', 'v.created_at', 'v.updated_at', 'v.deleted'])
        .where('v.user_id', '=', userId)
        .orderBy('v.created_at')
        .execute(),
      db
        .selectFrom('loyalty_adjustments')
        .select(['points', 'note', 'updated_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst(),
      db
        .selectFrom('sessions')
        .select(['device_name', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('push_subscriptions')
        .select(['device_name', 'created_at', 'updated_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('notices')
        .select(['code', 'message', 'event_title', 'action', 'is_read', 'created_at', 'deleted'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
    ]);

  const optionIds = [...new Set(votes.flatMap((vote) => JSON.parse(vote.option_ids) as string[]))];
  const options = optionIds.length
    ? await db.selectFrom('poll_options').select(['id', 'text']).where('id', 'in', optionIds).execute()
    : [];
  const optionText = new Map(options.map((option) => [option.id, option.text]));
  const [
    requests,
    offers,
    rides,
    seatsAsked,
    eventReminders,
    paymentReminders,
    events,
    announcements,
    polls,
    inviteUsed,
    invites,
  ] = await Promise.all([
    attendees.length
      ? db
          .selectFrom('ticket_requests')
          .select([
            'attendee_id',
            'event_id',
            'requested_at',
            'state',
            'allocated_at',
            'pinned',
            'excluded',
            'note',
            'updated_at',
          ])
          .where(
            'attendee_id',
            'in',
            attendees.map((row) => row.id),
          )
          .orderBy('requested_at')
          .execute()
      : [],
    db
      .selectFrom('offers as o')
      .innerJoin('events as e', 'e.id', 'o.event_id')
      .select([
        'o.id',
        'o.event_id',
        'e.title as event_title',
        'o.attendee_id',
        'o.price_cents',
        'o.expires_at',
        'o.state',
        'o.response',
        'o.created_at',
        'o.updated_at',
      ])
      .where('o.user_id', '=', userId)
      .orderBy('o.created_at')
      .execute(),
    db
      .selectFrom('rides as r')
      .innerJoin('events as e', 'e.id', 'r.event_id')
      .select([
        'r.id',
        'r.event_id',
        'e.title as event_title',
        'r.seats',
        'r.departure_location',
        'r.departure_datetime',
        'r.drives_back',
        'r.note',
        'r.cost_share_cents',
        'r.created_at',
        'r.updated_at',
        'r.deleted',
      ])
      .where('r.driver_id', '=', userId)
      .orderBy('r.created_at')
      .execute(),
    db
      .selectFrom('ride_seats as s')
      .innerJoin('rides as r', 'r.id', 's.ride_id')
      .innerJoin('events as e', 'e.id', 's.event_id')
      .innerJoin('users as u', 'u.id', 'r.driver_id')
      .select([
        's.id',
        's.ride_id',
        's.event_id',
        'e.title as event_title',
        'u.username as driver',
        's.seats',
        's.note',
        's.state',
        's.created_at',
        's.updated_at',
        's.deleted',
      ])
      .where('s.passenger_id', '=', userId)
      .orderBy('s.created_at')
      .execute(),
    db
      .selectFrom('event_reminders as r')
      .innerJoin('events as e', 'e.id', 'r.event_id')
      .select(['r.event_id', 'e.title as event_title', 'r.kind', 'r.sent_at'])
      .where('r.user_id', '=', userId)
      .orderBy('r.sent_at')
      .execute(),
    db
      .selectFrom('payment_reminders')
      .select(['owing_since', 'round', 'amount_cents', 'sent_at'])
      .where('user_id', '=', userId)
      .orderBy('sent_at')
      .execute(),
    db
      .selectFrom('events')
      .select(['id', 'title', 'date', 'created_at', 'deleted'])
      .where('created_by', '=', userId)
      .orderBy('date')
      .execute(),
    db
      .selectFrom('announcements')
      .select(['id', 'title', 'created_at', 'deleted'])
      .where('created_by', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('polls')
      .select(['id', 'question', 'created_at', 'deleted'])
      .where('created_by', '=', userId)
      .orderBy('created_at')
      .execute(),
    // The invite the member registered through (docs/architecture.md, Invites), and the ones they made; never the link's token.
    db
      .selectFrom('invite_uses as u')
      .innerJoin('invites as i', 'i.id', 'u.invite_id')
      .select(['u.invite_id', 'u.joined_at', 'i.created_at as invite_created_at'])
      .where('u.user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('invites')
      .select(['id', 'created_at', 'expires_at', 'max_uses', 'uses', 'approve', 'revoked_at'])
      .where('created_by', '=', userId)
      .orderBy('created_at')
      .execute(),
  ]);

  const event = (row: { event_id: string; event_title: string; event_date: string }) => ({
    event_id: row.event_id,
    event_title: row.event_title,
    event_date: row.event_date,
    season: seasonOf(row.event_date),
  });
  const answers = attendees
    .filter((row) => row.guest_name === null)
    .map((row) => ({
      id: row.id,
      ...event(row),
      status: row.status,
      needs_ticket: toBool(row.needs_ticket),
      has_ticket: toBool(row.has_ticket),
      needs_transport: toBool(row.needs_transport),
      transfer_status: row.transfer_status,
      created_at: row.created_at,
      updated_at: row.updated_at,
      removed: toBool(row.deleted),
    }));
  const guests = attendees
    .filter((row) => row.guest_name !== null)
    .map((row) => ({
      id: row.id,
      ...event(row),
      guest_name: row.guest_name,
      status: row.status,
      needs_ticket: toBool(row.needs_ticket),
      has_ticket: toBool(row.has_ticket),
      needs_transport: toBool(row.needs_transport),
      transfer_status: row.transfer_status,
      created_at: row.created_at,
      updated_at: row.updated_at,
      removed: toBool(row.deleted),
    }));
  const tickets = attendees
    .filter((row) => toBool(row.bought) || toBool(row.paid_requested) || toBool(row.received_requested))
    .map((row) => ({
      id: row.id,
      ...event(row),
      guest_name: row.guest_name,
      ticket_type: row.ticket_type,
      price: money(row.price_cents),
      free: toBool(row.is_free),
      price_to_be_announced: toBool(row.is_price_tbd),
      paid_by: row.paid_by,
      bought: toBool(row.bought),
      paid: toBool(row.paid),
      received: toBool(row.received),
      paid_requested_at: toBool(row.paid_requested) ? row.paid_requested_at : null,
      received_requested_at: toBool(row.received_requested) ? row.received_requested_at : null,
      removed: toBool(row.deleted),
    }));
  const ledgerRows = ledger.map(({ amount_cents, ...entry }) => ({ ...entry, amount: centsToEuros(amount_cents) }));

  const answerFields = [
    'event_title',
    'event_date',
    'season',
    'status',
    'needs_ticket',
    'has_ticket',
    'needs_transport',
    'transfer_status',
    'created_at',
    'updated_at',
    'removed',
  ];
  return [
    json('profile.json', {
      id: user.id,
      username: user.username,
      email: user.email,
      role: user.scope,
      status: user.status,
      language: user.language,
      must_change_password: toBool(user.must_change_password),
      created_at: user.created_at,
      updated_at: user.updated_at,
      notification_topics_off: topicsOff.map((row) => row.topic),
      calendar_feed_created_at: calendar?.created_at ?? null,
      password_reset_links: resets.map((row) => ({
        created_at: row.created_at,
        expires_at: row.expires_at,
        used: toBool(row.used),
      })),
      joined_through_invite: inviteUsed ?? null,
    }),
    json('answers.json', answers),
    csv('answers.csv', answers, answerFields),
    json('guests.json', guests),
    csv('guests.csv', guests, ['guest_name', ...answerFields]),
    json('tickets.json', {
      tickets,
      requests: requests.map(({ pinned, excluded, ...row }) => ({
        ...row,
        // A pin or exclusion and the admin's note on it are about the member: theirs to read.
        pinned: pinned === 1,
        excluded: excluded === 1,
        guest_name: attendees.find((a) => a.id === row.attendee_id)?.guest_name ?? null,
      })),
      offers: offers.map(({ price_cents, ...offer }) => ({ ...offer, price: money(price_cents) })),
    }),
    csv('tickets.csv', tickets, [
      'event_title',
      'event_date',
      'season',
      'guest_name',
      'ticket_type',
      'price',
      'free',
      'price_to_be_announced',
      'paid_by',
      'bought',
      'paid',
      'received',
      'paid_requested_at',
      'received_requested_at',
      'removed',
    ]),
    json('ledger.json', ledgerRows),
    csv('ledger.csv', ledgerRows, ['date', 'kind', 'amount', 'description', 'event_title', 'created_at']),
    json('comments.json', {
      comments: comments.map(({ requires_answer, is_resolved, deleted, ...row }) => ({
        ...row,
        requires_answer: toBool(requires_answer),
        resolved: toBool(is_resolved),
        removed: toBool(deleted),
      })),
      mentions: mentions.map(({ is_read, deleted, ...row }) => ({ ...row, read: toBool(is_read), removed: toBool(deleted) })),
    }),
    json(
      'poll_votes.json',
      votes.map(({ option_ids, deleted, ...vote }) => ({
        ...vote,
        options: (JSON.parse(option_ids) as string[]).map((id) => optionText.get(id) ?? id),
        removed: toBool(deleted),
      })),
    ),
    json('loyalty.json', { adjustment: adjustment ?? null }),
    json('devices.json', {
      sessions: sessions.map((row) => ({
        device_name: row.device_name,
        created_at: row.created_at,
        last_used_at: row.last_seen_at,
      })),
      push_subscriptions: devices,
    }),
    json(
      'notices.json',
      notices.map(({ is_read, deleted, ...row }) => ({ ...row, read: toBool(is_read), removed: toBool(deleted) })),
    ),
    json('rides.json', {
      offered: rides.map(({ drives_back, cost_share_cents, deleted, ...ride }) => ({
        ...ride,
        drives_back: toBool(drives_back),
        cost_share: money(cost_share_cents),
        removed: toBool(deleted),
      })),
      seats_asked: seatsAsked.map(({ deleted, ...seat }) => ({ ...seat, removed: toBool(deleted) })),
    }),
    json('reminders.json', {
      answer_reminders: eventReminders,
      payment_reminders: paymentReminders.map(({ amount_cents, ...row }) => ({ ...row, amount: centsToEuros(amount_cents) })),
    }),
    json('created.json', {
      events: events.map(({ deleted, ...row }) => ({ ...row, removed: toBool(deleted) })),
      announcements: announcements.map(({ deleted, ...row }) => ({ ...row, removed: toBool(deleted) })),
      polls: polls.map(({ deleted, ...row }) => ({ ...row, removed: toBool(deleted) })),
      invites: invites.map(({ approve, ...row }) => ({ ...row, approve: toBool(approve) })),
    }),
  ];
}

/** What each file holds, in the language of whoever downloads it. */
function readme(files: ExportFile[], username: string, language: Language, at: string): ExportFile {
  const de = language === 'de';
  const intro = de
    ? `Alles, was Fankurve über ${username} speichert, Stand ${at} (UTC). Zeiten von Änderungen sind UTC, Termine in der Ortszeit des Vereins, Beträge in Euro. "removed": true heißt gelöscht (als Löschung aufbewahrt, damit jedes Gerät sie übernimmt).`
    : `Everything Fankurve keeps about ${username}, as of ${at} (UTC). Times of changes are UTC, event dates the club's local time, amounts in euros. "removed": true means deleted (kept as a deletion so every device takes it over).`;
  return { name: 'README.txt', text: `${intro}\n\n${files.map((file) => `- ${file.name}`).join('\n')}\n` };
}

/** `anna-2030-03-01`: the archive's name, in letters and digits a file system takes anywhere. */
function fileStem(username: string, at: string): string {
  const name = username
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `fankurve-${name || 'member'}-${at.slice(0, 10)}`;
}

/**
 * The member's data as a ZIP (a member their own, an admin anyone's: 403 otherwise, 404 for no live
 * account): README.txt and the files at its top, dated `now`.
 */
export async function exportMemberData(
  db: Kysely<Database>,
  actor: Actor,
  userId: string,
  language: Language,
  now: Date = new Date(),
): Promise<DataExport> {
  if (actor.id !== userId && !isAdmin(actor)) throw forbidden();
  const user = await findLiveUser(db, userId);
  if (!user) throw notFound('userNotFound');
  const at = now.toISOString();
  const files = await memberDataFiles(db, userId);
  const all = [readme(files, user.username, language, at), ...files];
  const zippable: Zippable = Object.fromEntries(all.map((file) => [file.name, [strToU8(file.text), { mtime: now }]]));
  return { filename: `${fileStem(user.username, at)}.zip`, bytes: zipSync(zippable, { level: 6 }) as Uint8Array<ArrayBuffer> };
}
