import {
  eurosToCents,
  newId,
  normaliseEventDate,
  seasonOf,
  type CreateEventInput,
  type TicketPriceOption,
} from '@fankurve/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { toBool, write, type Store } from '../db/store.js';
import type { Actor } from './actor.js';
import { badInput, notFound } from './errors.js';

/** An event as both the REST API and the sync mapper show it (money in cents). */
export interface EventView {
  id: string;
  title: string;
  description: string | null;
  date: string;
  location: string;
  stadium_id: string | null;
  stadium_name: string | null;
  stadium_address: string | null;
  ticket_price_cents: number;
  ticket_buyer: string | null;
  season: string;
  is_updated: boolean;
  created_by: string | null;
  creator_name: string | null;
  image_filename: string | null;
  guest_block_capacity: number | null;
  created_at: string;
  seq: number;
  deleted: boolean;
}

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
      'e.seq',
      'e.deleted',
    ]);
}

type EventViewRow = Awaited<ReturnType<ReturnType<typeof selectEventViews>['execute']>>[number];

export function toEventView(row: EventViewRow): EventView {
  return {
    ...row,
    stadium_name: row.stadium_name ?? null,
    stadium_address: row.stadium_address ?? null,
    guest_block_capacity: row.guest_block_capacity ?? null,
    creator_name: row.creator_name ?? null,
    ticket_price_cents: Number(row.ticket_price_cents),
    season: seasonOf(row.date),
    is_updated: toBool(row.is_updated),
    seq: Number(row.seq),
    deleted: toBool(row.deleted),
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
export async function listEvents(store: Store): Promise<EventWithCounts[]> {
  const rows = await selectEventViews(store.db)
    .select((eb) => [
      eb
        .selectFrom('attendees as a')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('a.event_id', '=', 'e.id')
        .where('a.deleted', '=', 0)
        .where('a.status', '=', 'going')
        .as('going_count'),
      eb
        .selectFrom('attendees as a')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('a.event_id', '=', 'e.id')
        .where('a.deleted', '=', 0)
        .where('a.status', '=', 'maybe')
        .as('maybe_count'),
    ])
    .where('e.deleted', '=', 0)
    .orderBy('e.date')
    .execute();
  return rows.map((row) => ({
    ...toEventView(row),
    going_count: Number(row.going_count ?? 0),
    maybe_count: Number(row.maybe_count ?? 0),
  }));
}

export async function getEventView(db: Kysely<Database>, eventId: string): Promise<EventView> {
  const row = await selectEventViews(db).where('e.id', '=', eventId).where('e.deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound('eventNotFound');
  return toEventView(row);
}

/** Members and admins create events (SPEC 6); title, date and location are required, time rounded to 15 minutes. */
export async function createEvent(store: Store, actor: Actor, input: CreateEventInput): Promise<EventView> {
  const date = normaliseEventDate(input.date);
  if (!date) throw badInput('dateRequired');
  const id = newId();
  await write(store, async (w) => {
    if (input.stadium_id) {
      const stadium = await w.db.selectFrom('stadiums').select('id').where('id', '=', input.stadium_id).executeTakeFirst();
      if (!stadium) throw notFound('stadiumNotFound');
    }
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
        created_by: actor.id,
        image_filename: null,
        external_match_id: null,
        created_at: w.now,
        updated_at: w.now,
        seq: await w.nextSeq('events'),
      })
      .execute();
  });
  return getEventView(store.db, id);
}
