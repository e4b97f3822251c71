import {
  canManageEvent,
  checkAnswerDeadline,
  checkPriceChange,
  checkEventDate,
  EVENT_PART_COLLECTIONS,
  eurosToCents,
  keptOnDeviceSince,
  KEPT_BY_EVENT_COLLECTIONS,
  mayDeleteEvent,
  newId,
  seasonOf,
  type CreateEventInput,
  type EventDoc,
  type TicketPriceOption,
  type UpdateEventInput,
} from '@fankurve/shared';
import { sql, type Kysely } from 'kysely';
import type { Database, EventRow } from '../../db/schema.js';
import { toBool, type WriteContext, type Written } from '../../db/store.js';
import { isAdmin, requireAdmin, type Actor } from '../actor.js';
import { badInput, conflict, forbidden, notFound } from '../errors.js';
import { noteReminderTimes } from './reminders.js';
import { checkImage, type UploadStore } from '../uploads.js';
import { audit } from '../club/auditLog.js';

/**
 * An event as both the REST API and the sync mapper show it (money in cents): the device's event
 * document (`EventDoc`, shared/src/docs/events.ts) without its price options, which the sync
 * mapper adds, and with the tombstone flag. The REST shape is `toRestEvent` (http/events.ts).
 */
export type EventView = Omit<EventDoc, 'ticket_prices' | 'going_count' | 'maybe_count'> & { deleted: boolean };

export interface EventWithCounts extends EventView {
  going_count: number;
  maybe_count: number;
}

/** Events joined with their stadium and creator; shared by the REST list and the sync pull. */
export function selectEventViews(db: Kysely<Database>) {
  return db
    .selectFrom('events as e')
    .leftJoin('stadiums as s', 's.id', 'e.stadium_id')
    .leftJoin('users as u', 'u.id', 'e.created_by')
    .select([
      'e.id',
      'e.title',
      'e.description',
      'e.date',
      'e.location',
      'e.stadium_id',
      's.stadium_name',
      's.address as stadium_address',
      's.guest_block_capacity',
      'e.ticket_price_cents',
      'e.ticket_buyer',
      'e.is_updated',
      'e.created_by',
      'u.username as creator_name',
      'e.image_filename',
      'e.created_at',
      'e.answer_deadline',
      'e.seq',
      'e.deleted',
      'e.archived',
    ]);
}

type EventViewRow = Awaited<ReturnType<ReturnType<typeof selectEventViews>['execute']>>[number];

/**
 * Events as `selectEventViews`, with their going and maybe counts: live attendee rows, guests
 * included, with that status. Shared by the REST list and the events pull.
 */
export function selectEventsWithCounts(db: Kysely<Database>) {
  return selectEventViews(db).select((eb) => {
    const count = (status: 'going' | 'maybe') =>
      eb
        .selectFrom('attendees as a')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('a.event_id', '=', 'e.id')
        .where('a.deleted', '=', 0)
        .where('a.status', '=', status);
    return [count('going').as('going_count'), count('maybe').as('maybe_count')];
  });
}

type EventWithCountsRow = Awaited<ReturnType<ReturnType<typeof selectEventsWithCounts>['execute']>>[number];

export function toEventWithCounts(row: EventWithCountsRow): EventWithCounts {
  return { ...toEventView(row), going_count: Number(row.going_count ?? 0), maybe_count: Number(row.maybe_count ?? 0) };
}

export function toEventView(row: EventViewRow): EventView {
  return {
    ...row,
    stadium_name: row.stadium_name ?? null,
    stadium_address: row.stadium_address ?? null,
    guest_block_capacity: row.guest_block_capacity ?? null,
    creator_name: row.creator_name ?? null,
    answer_deadline: row.answer_deadline ?? null,
    ticket_price_cents: Number(row.ticket_price_cents),
    season: seasonOf(row.date),
    is_updated: toBool(row.is_updated),
    seq: Number(row.seq),
    deleted: toBool(row.deleted),
    archived: toBool(row.archived),
  };
}

/** The ticket price options of each stadium, for a batch of events (one query). */
export async function ticketPricesByStadium(
  db: Kysely<Database>,
  stadiumIds: (string | null)[],
): Promise<Map<string, TicketPriceOption[]>> {
  const ids = [...new Set(stadiumIds.filter((id): id is string => id !== null))];
  const byStadium = new Map<string, TicketPriceOption[]>();
  if (ids.length === 0) return byStadium;
  const rows = await db
    .selectFrom('stadium_ticket_prices')
    .select(['id', 'stadium_id', 'price_cents', 'ticket_type'])
    .where('stadium_id', 'in', ids)
    .orderBy('price_cents')
    .execute();
  for (const row of rows) {
    const list = byStadium.get(row.stadium_id) ?? [];
    list.push({ id: row.id, price_cents: Number(row.price_cents), ticket_type: row.ticket_type });
    byStadium.set(row.stadium_id, list);
  }
  return byStadium;
}

/** All live events with their going and maybe counts, in one query. */
export async function listEvents(db: Kysely<Database>): Promise<EventWithCounts[]> {
  const rows = await selectEventsWithCounts(db)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .orderBy('e.date')
    .execute();
  return rows.map(toEventWithCounts);
}

export async function getEventView(db: Kysely<Database>, eventId: string): Promise<EventView> {
  const row = await selectEventViews(db)
    .where('e.id', '=', eventId)
    .where('e.deleted', '=', 0)
    .where('e.archived', '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound('eventNotFound');
  return toEventView(row);
}

/** 404 'Event not found' unless an event of that id exists, deleted and archived ones included (their rows are tombstones or tickets). */
export async function requireEventRecord(db: Kysely<Database>, eventId: string): Promise<void> {
  const row = await db.selectFrom('events').select('id').where('id', '=', eventId).executeTakeFirst();
  if (!row) throw notFound('eventNotFound');
}

/**
 * The answer deadline as given (`checkAnswerDeadline`: before the event's date, 400
 * answerDeadlineInvalid or answerDeadlineAfterEvent), or null for none.
 */
function answerDeadlineOf(input: unknown, eventDate: string): string | null {
  const checked = checkAnswerDeadline(input, eventDate);
  if (!checked.ok) throw badInput(checked.code);
  return checked.value;
}

/**
 * Members and admins create events (docs/product.md, Roles and permissions); title, date and location are required, time rounded to 15 minutes;
 * an answer deadline is optional.
 */
export async function createEvent(w: WriteContext, actor: Actor, input: CreateEventInput): Promise<EventView> {
  const checked = checkEventDate(input.date);
  if (!checked.ok) throw badInput(checked.code);
  const date = checked.value;
  const answerDeadline = answerDeadlineOf(input.answer_deadline, date);
  if (input.stadium_id) await requireStadium(w, input.stadium_id);
  const id = newId();
  await w.db
    .insertInto('events')
    .values({
      id,
      title: input.title,
      description: input.description?.trim() || null,
      date,
      location: input.location,
      stadium_id: input.stadium_id || null,
      ticket_price_cents: eurosToCents(input.ticket_price ?? 0),
      ticket_buyer: input.ticket_buyer?.trim() || null,
      is_updated: 0,
      created_by: actor.system ? null : actor.id,
      image_filename: null,
      external_match_id: null,
      answer_deadline: answerDeadline,
      created_at: w.now,
      updated_at: w.now,
      seq: await w.nextSeq('events'),
    })
    .execute();
  w.record({ type: 'event.created', eventId: id, actorId: actor.id });
  // Its reminders' times (docs/architecture.md, Answer deadlines and reminders).
  await noteReminderTimes(w, id, 'created');
  return getEventView(w.db, id);
}

async function requireStadium(w: WriteContext, stadiumId: string): Promise<void> {
  const stadium = await w.db.selectFrom('stadiums').select('id').where('id', '=', stadiumId).executeTakeFirst();
  if (!stadium) throw notFound('stadiumNotFound');
}

/** The live, not archived event (404 'Event not found') that the actor may edit: its creator or an admin (403). */
async function requireEditableEvent(w: WriteContext, actor: Actor, eventId: string): Promise<EventRow> {
  const event = await w.db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', eventId)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .executeTakeFirst();
  if (!event) throw notFound('eventNotFound');
  if (!canManageEvent(actor, event)) throw forbidden();
  return event;
}

async function hasLiveAttendees(w: WriteContext, eventId: string): Promise<boolean> {
  const row = await w.db
    .selectFrom('attendees')
    .select('id')
    .where('event_id', '=', eventId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Edits an event (its creator or an admin); any subset of the fields, validated like on create.
 * When an admin changes the date or time, the location or the ticket price of an event that members
 * already answered, the event is marked updated (the UPDATED badge). A change that changes
 * nothing writes nothing.
 */
export async function updateEvent(w: WriteContext, actor: Actor, eventId: string, input: UpdateEventInput): Promise<EventView> {
  let date: string | undefined;
  if (input.date !== undefined) {
    const checked = checkEventDate(input.date);
    if (!checked.ok) throw badInput(checked.code);
    date = checked.value;
  }
  const event = await requireEditableEvent(w, actor, eventId);
  if (input.stadium_id) await requireStadium(w, input.stadium_id);
  const fields: Partial<EventRow> = {};
  if (input.title !== undefined) fields.title = input.title;
  if (input.description !== undefined) fields.description = input.description?.trim() || null;
  if (date !== undefined) fields.date = date;
  if (input.location !== undefined) fields.location = input.location;
  if (input.stadium_id !== undefined) fields.stadium_id = input.stadium_id || null;
  if (input.ticket_price !== undefined) fields.ticket_price_cents = eurosToCents(input.ticket_price ?? 0);
  if (input.ticket_buyer !== undefined) fields.ticket_buyer = input.ticket_buyer?.trim() || null;
  // The deadline stays before the event: a new one is checked against the new date, and a person's
  // move of the event to or before the kept deadline is refused (answerDeadlineAfterEvent), never
  // cleared behind their back. The fixture import cannot be asked: a kick-off the feed moved there
  // clears the deadline (docs/product.md, Answer deadlines and reminders).
  if (input.answer_deadline !== undefined) fields.answer_deadline = answerDeadlineOf(input.answer_deadline, date ?? event.date);
  else if (date !== undefined && event.answer_deadline !== null && event.answer_deadline >= date) {
    if (!actor.system) throw badInput('answerDeadlineAfterEvent');
    fields.answer_deadline = null;
  }
  const changed = (Object.keys(fields) as (keyof EventRow)[]).filter((key) => fields[key] !== event[key]);
  if (changed.length === 0) return getEventView(w.db, eventId);
  if (changed.includes('ticket_price_cents') || changed.includes('stadium_id')) {
    const rule = checkPriceChange(actor, await hasContingentOrBoughtTicket(w, eventId));
    if (!rule.ok) throw conflict(rule.code);
  }
  const significant = changed.some((key) => key === 'date' || key === 'location' || key === 'ticket_price_cents');
  const markedUpdated = isAdmin(actor) && significant && (await hasLiveAttendees(w, eventId));
  if (markedUpdated) fields.is_updated = 1;
  // The calendar feed's SEQUENCE (docs/architecture.md, Calendar feed).
  if (changed.some((key) => key === 'date' || key === 'location' || key === 'stadium_id')) {
    fields.schedule_version = event.schedule_version + 1;
  }
  await w.db
    .updateTable('events')
    .set({ ...fields, updated_at: w.now, seq: await w.nextSeq('events') })
    .where('id', '=', eventId)
    .execute();
  if (date !== undefined) await bringIntoKeptRange(w, eventId, event.date, date);
  w.record({ type: 'event.changed', eventId, fields: changed, markedUpdated, actorId: actor.id });
  const priced = changed.filter((key) => key === 'ticket_price_cents' || key === 'stadium_id');
  if (priced.length > 0) {
    await audit(w, actor, {
      kind: 'money',
      action: 'event.price',
      eventId,
      before: Object.fromEntries(priced.map((key) => [key, event[key]])),
      after: Object.fromEntries(priced.map((key) => [key, fields[key]])),
    });
  }
  if (changed.some((key) => key === 'date' || key === 'answer_deadline')) await noteReminderTimes(w, eventId, 'changed');
  return getEventView(w.db, eventId);
}

/**
 * An event moved from an older season into the range devices keep (a corrected date): its rows get
 * new seqs, so devices whose pulls have passed them take them now (docs/architecture.md, What a device keeps).
 */
async function bringIntoKeptRange(w: WriteContext, eventId: string, before: string, after: string): Promise<void> {
  const since = keptOnDeviceSince(w.today());
  if (before >= since || after < since) return;
  for (const name of KEPT_BY_EVENT_COLLECTIONS) {
    const table = sql.table(name);
    const { rows } = await sql<{ id: string }>`SELECT id FROM ${table} WHERE event_id = ${eventId} AND deleted = 0`.execute(w.db);
    for (const row of rows) {
      await sql`UPDATE ${table} SET seq = ${await w.nextSeq(name)} WHERE id = ${row.id}`.execute(w.db);
    }
  }
}

/**
 * Tombstones every live row of the event's parts (the collections declared `partOfEvent`, each in a
 * table of its name with `event_id`, `deleted`, `seq` and `updated_at`), each with its own new seq;
 * with `keepBoughtTickets`, attendee rows with a bought ticket stay live as they are.
 */
async function tombstoneEventParts(w: WriteContext, eventId: string, options: { keepBoughtTickets: boolean }): Promise<void> {
  const kept = options.keepBoughtTickets ? await boughtTicketIds(w, eventId) : new Set<string>();
  for (const name of EVENT_PART_COLLECTIONS) {
    const table = sql.table(name);
    const { rows } = await sql<{ id: string }>`SELECT id FROM ${table} WHERE event_id = ${eventId} AND deleted = 0`.execute(w.db);
    for (const row of rows.filter((r) => !kept.has(r.id))) {
      const seq = await w.nextSeq(name);
      await sql`UPDATE ${table} SET deleted = 1, seq = ${seq}, updated_at = ${w.now} WHERE id = ${row.id}`.execute(w.db);
    }
  }
}

/** Whether what the event's members are charged is already set: a ticket contingent or a bought ticket. */
async function hasContingentOrBoughtTicket(w: WriteContext, eventId: string): Promise<boolean> {
  const contingent = await w.db.selectFrom('contingents').select('event_id').where('event_id', '=', eventId).executeTakeFirst();
  return contingent !== undefined || (await boughtTicketIds(w, eventId)).size > 0;
}

async function boughtTicketIds(w: WriteContext, eventId: string): Promise<Set<string>> {
  const rows = await w.db
    .selectFrom('attendees')
    .select('id')
    .where('event_id', '=', eventId)
    .where('deleted', '=', 0)
    .where('bought', '=', 1)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Deletes an event (its creator or an admin): the event, its attendees, its transport options,
 * comments and mentions become tombstones; its image file is removed after the commit.
 *
 * Bought tickets are debts and records that must survive (docs/product.md, Tickets and money): while any live attendee row of
 * the event has a bought ticket, only an admin may delete it (409 'eventHasTickets' for the
 * creator), and then the event is archived instead: it keeps its row with a new seq (devices keep
 * title, date and location for the tickets) and is shown nowhere; the ticket rows stay live as they
 * are, everything else of the event is tombstoned as above.
 */
export async function deleteEvent(w: WriteContext, uploads: UploadStore, actor: Actor, eventId: string): Promise<void> {
  const event = await requireEditableEvent(w, actor, eventId);
  const archived = (await boughtTicketIds(w, eventId)).size > 0;
  if (!mayDeleteEvent(actor, archived)) throw conflict('eventHasTickets');
  // An archived event keeps no image: its file goes below either way.
  const gone = archived ? { archived: 1, image_filename: null } : { deleted: 1 };
  await w.db
    .updateTable('events')
    .set({ ...gone, updated_at: w.now, seq: await w.nextSeq('events') })
    .where('id', '=', eventId)
    .execute();
  await tombstoneEventParts(w, eventId, { keepBoughtTickets: archived });
  w.record({ type: 'event.deleted', eventId, archived, actorId: actor.id });
  w.onCommit(() => uploads.remove(event.image_filename));
}

/**
 * Sets the event's image (its creator or an admin): the file is checked (present, at most 5 MB, an
 * image by content), stored under a random name (removed again if the write rolls back), and the
 * previous image file is removed after the commit.
 */
export async function setEventImage(
  w: WriteContext,
  uploads: UploadStore,
  actor: Actor,
  eventId: string,
  file: Uint8Array | null,
): Promise<EventView> {
  const event = await requireEditableEvent(w, actor, eventId);
  const extension = checkImage(file);
  const saved = await uploads.save(file!, extension, 'event');
  w.onRollback(() => uploads.remove(saved));
  await w.db
    .updateTable('events')
    .set({ image_filename: saved, updated_at: w.now, seq: await w.nextSeq('events') })
    .where('id', '=', eventId)
    .execute();
  w.record({ type: 'event.changed', eventId, fields: ['image_filename'], markedUpdated: false, actorId: actor.id });
  w.onCommit(() => uploads.remove(event.image_filename));
  return getEventView(w.db, eventId);
}

/** Removes the event's image (its creator or an admin); an event without an image stays as it is. */
export async function deleteEventImage(w: WriteContext, uploads: UploadStore, actor: Actor, eventId: string): Promise<EventView> {
  const event = await requireEditableEvent(w, actor, eventId);
  if (event.image_filename) {
    await w.db
      .updateTable('events')
      .set({ image_filename: null, updated_at: w.now, seq: await w.nextSeq('events') })
      .where('id', '=', eventId)
      .execute();
    w.record({ type: 'event.changed', eventId, fields: ['image_filename'], markedUpdated: false, actorId: actor.id });
    w.onCommit(() => uploads.remove(event.image_filename));
  }
  return getEventView(w.db, eventId);
}

/** Clears the UPDATED badge (admin). */
export async function clearUpdated(w: WriteContext, actor: Actor, eventId: string): Promise<EventView> {
  requireAdmin(actor);
  const event = await requireEditableEvent(w, actor, eventId);
  if (toBool(event.is_updated)) {
    await w.db
      .updateTable('events')
      .set({ is_updated: 0, updated_at: w.now, seq: await w.nextSeq('events') })
      .where('id', '=', eventId)
      .execute();
    w.record({ type: 'event.changed', eventId, fields: ['is_updated'], markedUpdated: false, actorId: actor.id });
  }
  return getEventView(w.db, eventId);
}

/**
 * Gives every live event of a stadium a new seq: the events document shows the stadium's name,
 * address, guest block and ticket price options, so a change to those must reach every device.
 */
export async function bumpEventsOfStadium(w: WriteContext, stadiumId: string): Promise<void> {
  const events = await w.db
    .selectFrom('events')
    .select('id')
    .where('stadium_id', '=', stadiumId)
    .where('deleted', '=', 0)
    .execute();
  await giveNewSeqs(w, events);
}

/**
 * Gives the live events of the attendee rows the transaction wrote a new seq: the event document
 * carries their going and maybe counts, which devices that do not keep the event's rows show
 * (docs/architecture.md, What a device keeps). `write()` runs it before every commit (deps.ts); a
 * transaction that wrote no attendee row costs nothing.
 */
export async function bumpEventsOfAttendeeRows(w: WriteContext, written: Written): Promise<void> {
  if (!written.collections.has('attendees')) return;
  const events = await w.db
    .selectFrom('events')
    .select('id')
    .where('deleted', '=', 0)
    .where('id', 'in', w.db.selectFrom('attendees').select('event_id').where('seq', '>=', written.firstSeq))
    .orderBy('id')
    .execute();
  await giveNewSeqs(w, events);
}

/** Each its own seq: pulls page by seq, so two documents never share one. */
async function giveNewSeqs(w: WriteContext, events: { id: string }[]): Promise<void> {
  for (const event of events) {
    await w.db
      .updateTable('events')
      .set({ seq: await w.nextSeq('events') })
      .where('id', '=', event.id)
      .execute();
  }
}
