import { eurosToCents, newId, type StadiumInput, type TicketPriceInput, type UpdateStadiumInput } from '@fankurve/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database, StadiumsTable, StadiumTicketPricesTable } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { DomainError, notFound } from '../errors.js';
import { bumpEventsOfStadium, selectEventViews, toEventView, type EventView } from './events.js';
import { audit } from '../club/auditLog.js';

/*
 * Stadiums and their ticket price options (docs/product.md, Data and Input rules). Admins write
 * them; the stadium list is readable by every signed-in user (the create-event dialog offers it).
 * Stadiums are not replicated themselves, but the events document shows a stadium's name, address,
 * guest block and price options, so every write that changes those gives the stadium's live events
 * a new seq. A stadium that live events use cannot be deleted (409).
 */

export type StadiumRow = Selectable<StadiumsTable>;
export type TicketPriceRow = Selectable<StadiumTicketPricesTable>;

export interface StadiumView extends StadiumRow {
  ticket_prices: TicketPriceRow[];
}

const withNumbers = (row: StadiumRow): StadiumRow => ({
  ...row,
  capacity: Number(row.capacity),
  guest_block_capacity: Number(row.guest_block_capacity),
  ticket_price_cents: row.ticket_price_cents === null ? null : Number(row.ticket_price_cents),
});

async function pricesOf(db: Kysely<Database>, stadiumIds: string[]): Promise<Map<string, TicketPriceRow[]>> {
  const byStadium = new Map<string, TicketPriceRow[]>();
  if (stadiumIds.length === 0) return byStadium;
  const rows = await db
    .selectFrom('stadium_ticket_prices')
    .selectAll()
    .where('stadium_id', 'in', stadiumIds)
    .orderBy('price_cents')
    .orderBy('ticket_type')
    .execute();
  for (const row of rows) {
    const list = byStadium.get(row.stadium_id) ?? [];
    list.push({ ...row, price_cents: Number(row.price_cents) });
    byStadium.set(row.stadium_id, list);
  }
  return byStadium;
}

async function findStadium(db: Kysely<Database>, id: string): Promise<StadiumRow> {
  const row = await db.selectFrom('stadiums').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('stadiumNotFound');
  return withNumbers(row);
}

/** Every stadium with its ticket price options (two queries), by team name. Any signed-in user. */
export async function listStadiums(db: Kysely<Database>): Promise<StadiumView[]> {
  const rows = await db.selectFrom('stadiums').selectAll().orderBy('team_name').orderBy('stadium_name').execute();
  const prices = await pricesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...withNumbers(row), ticket_prices: prices.get(row.id) ?? [] }));
}

export interface StadiumDetail {
  stadium: StadiumView;
  /** At most 5 live events from today on, soonest first. */
  upcoming: EventView[];
  /** At most 5 live events before today, latest first. */
  recent: EventView[];
}

export const STADIUM_DETAIL_EVENTS = 5;

/** A stadium with its prices and events (admin); `today` is the club's date (`YYYY-MM-DD`). */
export async function getStadiumDetail(db: Kysely<Database>, actor: Actor, id: string, today: string): Promise<StadiumDetail> {
  requireAdmin(actor);
  const stadium = await findStadium(db, id);
  const events = () => selectEventViews(db).where('e.stadium_id', '=', id).where('e.deleted', '=', 0).where('e.archived', '=', 0);
  const [prices, upcoming, recent] = await Promise.all([
    pricesOf(db, [id]),
    events().where('e.date', '>=', today).orderBy('e.date').limit(STADIUM_DETAIL_EVENTS).execute(),
    events().where('e.date', '<', today).orderBy('e.date', 'desc').limit(STADIUM_DETAIL_EVENTS).execute(),
  ]);
  return {
    stadium: { ...stadium, ticket_prices: prices.get(id) ?? [] },
    upcoming: upcoming.map(toEventView),
    recent: recent.map(toEventView),
  };
}

async function stadiumView(db: Kysely<Database>, id: string): Promise<StadiumView> {
  const [stadium, prices] = await Promise.all([findStadium(db, id), pricesOf(db, [id])]);
  return { ...stadium, ticket_prices: prices.get(id) ?? [] };
}

const capacityOf = (value: number | null | undefined) => value ?? 0;
const priceCentsOf = (value: number | null | undefined) => (value === null || value === undefined ? null : eurosToCents(value));

export async function createStadium(w: WriteContext, actor: Actor, input: StadiumInput): Promise<StadiumView> {
  requireAdmin(actor);
  const id = newId();
  await w.db
    .insertInto('stadiums')
    .values({
      id,
      team_name: input.team_name,
      stadium_name: input.stadium_name,
      city: input.city,
      capacity: capacityOf(input.capacity),
      guest_block_capacity: capacityOf(input.guest_block_capacity),
      address: input.address?.trim() || null,
      ticket_price_cents: priceCentsOf(input.ticket_price),
      created_at: w.now,
      updated_at: w.now,
    })
    .execute();
  return stadiumView(w.db, id);
}

/** Changes any of the fields; events of the stadium get a new seq when their document changes. */
export async function updateStadium(w: WriteContext, actor: Actor, id: string, input: UpdateStadiumInput): Promise<StadiumView> {
  requireAdmin(actor);
  const current = await findStadium(w.db, id);
  const fields: Partial<StadiumRow> = {};
  if (input.team_name !== undefined) fields.team_name = input.team_name;
  if (input.stadium_name !== undefined) fields.stadium_name = input.stadium_name;
  if (input.city !== undefined) fields.city = input.city;
  if (input.capacity !== undefined) fields.capacity = capacityOf(input.capacity);
  if (input.guest_block_capacity !== undefined) fields.guest_block_capacity = capacityOf(input.guest_block_capacity);
  if (input.address !== undefined) fields.address = input.address?.trim() || null;
  if (input.ticket_price !== undefined) fields.ticket_price_cents = priceCentsOf(input.ticket_price);
  const changed = (Object.keys(fields) as (keyof StadiumRow)[]).filter((key) => fields[key] !== current[key]);
  if (changed.length === 0) return stadiumView(w.db, id);
  await w.db
    .updateTable('stadiums')
    .set({ ...fields, updated_at: w.now })
    .where('id', '=', id)
    .execute();
  const shownOnEvents = changed.some((key) => key === 'stadium_name' || key === 'address' || key === 'guest_block_capacity');
  if (shownOnEvents) await bumpEventsOfStadium(w, id);
  return stadiumView(w.db, id);
}

/** An event that keeps a stadium from being deleted: what the refusal names. */
export interface StadiumUse {
  id: string;
  title: string;
  date: string;
}

/** 409 'stadiumInUse' naming the live events that use the stadium (docs/product.md, Readings), so the admin knows which to change. */
export class StadiumInUseError extends DomainError {
  constructor(readonly events: StadiumUse[]) {
    super('stadiumInUse', 409);
  }
}

/** The live events at a stadium, by date (deleted ones and archived ones, whose tickets are kept, do not count). */
export async function eventsUsingStadium(db: Kysely<Database>, stadiumId: string): Promise<StadiumUse[]> {
  return db
    .selectFrom('events')
    .select(['id', 'title', 'date'])
    .where('stadium_id', '=', stadiumId)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

/** Deletes a stadium and its price options; refused (409) while live events use it. */
export async function deleteStadium(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  await findStadium(w.db, id);
  const used = await eventsUsingStadium(w.db, id);
  if (used.length > 0) throw new StadiumInUseError(used);
  // Only tombstones and archived events (deleted ones whose tickets are kept) still point at it: let them go (they are never shown again).
  await w.db.updateTable('events').set({ stadium_id: null }).where('stadium_id', '=', id).execute();
  await w.db.deleteFrom('stadium_ticket_prices').where('stadium_id', '=', id).execute();
  await w.db.deleteFrom('stadiums').where('id', '=', id).execute();
}

/** The price options of a stadium (admin), cheapest first. */
export async function listTicketPrices(db: Kysely<Database>, actor: Actor, stadiumId: string): Promise<TicketPriceRow[]> {
  requireAdmin(actor);
  await findStadium(db, stadiumId);
  return (await pricesOf(db, [stadiumId])).get(stadiumId) ?? [];
}

export async function createTicketPrice(w: WriteContext, actor: Actor, input: TicketPriceInput): Promise<TicketPriceRow> {
  requireAdmin(actor);
  await findStadium(w.db, input.stadium_id);
  const row: TicketPriceRow = {
    id: newId(),
    stadium_id: input.stadium_id,
    price_cents: eurosToCents(input.price),
    ticket_type: input.ticket_type,
    created_at: w.now,
  };
  await w.db.insertInto('stadium_ticket_prices').values(row).execute();
  await bumpEventsOfStadium(w, input.stadium_id);
  await audit(w, actor, { kind: 'money', action: 'ticketPrice.create', entityId: row.id, after: { ...row } });
  return row;
}

/**
 * Deletes a price option (not replicated itself, so a plain delete). Attendee rows that chose it
 * keep their price and ticket type but lose the link (with a new seq); the stadium's events get a
 * new seq because their price options changed.
 */
export async function deleteTicketPrice(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const price = await w.db.selectFrom('stadium_ticket_prices').selectAll().where('id', '=', id).executeTakeFirst();
  if (!price) throw notFound('ticketPriceNotFound');
  await w.db.deleteFrom('stadium_ticket_prices').where('id', '=', id).execute();
  await audit(w, actor, { kind: 'money', action: 'ticketPrice.delete', entityId: id, before: { ...price } });
  await unlinkTicketPrice(w, id);
  await bumpEventsOfStadium(w, price.stadium_id);
}

async function unlinkTicketPrice(w: WriteContext, priceId: string): Promise<void> {
  const rows = await w.db
    .selectFrom('attendees')
    .select('id')
    .where('ticket_price_id', '=', priceId)
    .where('deleted', '=', 0)
    .execute();
  for (const row of rows) {
    await w.db
      .updateTable('attendees')
      .set({ ticket_price_id: null, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', row.id)
      .execute();
  }
}
