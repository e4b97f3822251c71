import { isUpcoming, type TransportSeat } from '@fankurve/shared';
import {
  checkCaptainIds,
  checkSeatPlan,
  isPassengerOf,
  isSeatFree,
  isSeatInPlan,
  isTravelling,
  mayChooseSeatFor,
  mayTick,
  type BusRow,
} from '@fankurve/shared/collections/boardings/rules';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { isAdmin, requireAdmin, type Actor } from '../actor.js';
import { requireLiveEvent } from '../attendance/attendance.js';
import { attendeeRef } from '../attendance/attendeeRows.js';
import { badInput, conflict, forbidden, notFound } from '../errors.js';
import { findLiveTransport, type TransportRow } from './transports.js';

/*
 * The bus (docs/product.md, Bus; docs/architecture.md, The bus): a transport option's seat plan, its
 * seats and captains. The rules are shared (collections/boardings/rules.ts, the device checks them
 * too); the option's document carries the plan, the seats and the captains, so every change here gives
 * the option a new seq.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** What the option's document and REST answer carry beside its row: captains and assigned seats. */
export interface BusParts {
  captain_ids: string[];
  seats: TransportSeat[];
}

/** The captains and seats of the given options (each with none when it has none). */
export async function busPartsOf(db: Db, transportIds: readonly string[]): Promise<Map<string, BusParts>> {
  const parts = new Map<string, BusParts>(transportIds.map((id) => [id, { captain_ids: [], seats: [] }]));
  if (transportIds.length === 0) return parts;
  // A captain whose account was deleted since is no captain any more.
  const captains = await db
    .selectFrom('transport_captains as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.transport_id', 'c.user_id'])
    .where('c.transport_id', 'in', [...transportIds])
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .orderBy('c.user_id')
    .execute();
  for (const captain of captains) parts.get(captain.transport_id)?.captain_ids.push(captain.user_id);
  const seats = await db
    .selectFrom('transport_seats as s')
    .leftJoin('attendees as a', 'a.id', 's.attendee_id')
    .select(['s.transport_id', 's.seat', 's.attendee_id', 'a.user_id', 'a.guest_name', 'a.brought_by'])
    .where('s.transport_id', 'in', [...transportIds])
    .orderBy('s.seat')
    .execute();
  for (const seat of seats)
    parts.get(seat.transport_id)?.seats.push({
      seat: Number(seat.seat),
      attendee_id: seat.attendee_id,
      user_id: seat.user_id ?? null,
      guest_name: seat.guest_name ?? null,
      brought_by: seat.brought_by ?? null,
    });
  return parts;
}

/** The option as the shared bus rules read it. */
export function busViewOf(row: TransportRow, parts: BusParts) {
  return {
    id: row.id,
    seat_count: row.seat_count === null ? null : Number(row.seat_count),
    seat_rows: row.seat_rows === null ? null : Number(row.seat_rows),
    seats_per_row: row.seats_per_row === null ? null : Number(row.seats_per_row),
    seat_choice: row.seat_choice,
    charge_at_departure: toBool(row.charge_at_departure),
    ...parts,
  };
}

async function busOf(db: Db, row: TransportRow) {
  return busViewOf(row, (await busPartsOf(db, [row.id])).get(row.id)!);
}

/** An attendee row as the bus rules read it (its tombstone too: `deleted`). */
export async function busRowsOf(db: Db, eventId: string): Promise<Map<string, BusRow & { event_id: string }>> {
  const rows = await db
    .selectFrom('attendees')
    .select(['id', 'event_id', 'user_id', 'guest_name', 'brought_by', 'status', 'needs_transport', 'transfer_status', 'deleted'])
    .where('event_id', '=', eventId)
    .execute();
  return new Map(
    rows.map((row) => [row.id, { ...row, needs_transport: toBool(row.needs_transport), deleted: toBool(row.deleted) }]),
  );
}

/** Whether the option is the only live one of its event (then its passengers need no seat plan). */
export async function isOnlyOption(db: Db, transport: Pick<TransportRow, 'event_id'>): Promise<boolean> {
  const row = await db
    .selectFrom('transports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_id', '=', transport.event_id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0) === 1;
}

/** The option's passengers now (docs/product.md, Bus): a seat on it, or the only option and reserved. */
export async function passengersOf(db: Db, transport: TransportRow): Promise<(BusRow & { event_id: string })[]> {
  const bus = await busOf(db, transport);
  const only = await isOnlyOption(db, transport);
  const rows = await busRowsOf(db, transport.event_id);
  return [...rows.values()].filter((row) => isPassengerOf(bus, only, row));
}

/** A new seq for the option: its document changed (plan, seats or captains). */
async function touch(w: WriteContext, id: string): Promise<void> {
  await w.db
    .updateTable('transports')
    .set({ updated_at: w.now, seq: await w.nextSeq('transports') })
    .where('id', '=', id)
    .execute();
}

/**
 * PUT /api/transports/{id}/seat-plan (admin): `{ seats }`, `{ rows, seats_per_row }` or `{ seats: null }`.
 * A plan that leaves an assigned seat out (or removing it while seats are assigned) is 409 `seatPlanInUse`.
 */
export async function setSeatPlan(
  w: WriteContext,
  actor: Actor,
  id: string,
  input: Record<string, unknown>,
): Promise<TransportRow> {
  requireAdmin(actor);
  const current = await findLiveTransport(w.db, id);
  await requireLiveEvent(w.db, current.event_id);
  const checked = checkSeatPlan(input);
  if (!checked.ok) throw badInput(checked.code);
  const plan = checked.value ?? { seat_count: null, seat_rows: null, seats_per_row: null };
  const highest = await w.db
    .selectFrom('transport_seats')
    .select((eb) => eb.fn.max('seat').as('seat'))
    .where('transport_id', '=', id)
    .executeTakeFirst();
  const highestSeat = highest?.seat === null || highest?.seat === undefined ? 0 : Number(highest.seat);
  if (highestSeat > (plan.seat_count ?? 0)) throw conflict('seatPlanInUse');
  if (
    plan.seat_count === current.seat_count &&
    plan.seat_rows === current.seat_rows &&
    plan.seats_per_row === current.seats_per_row
  )
    return current;
  const update = { ...plan, updated_at: w.now, seq: await w.nextSeq('transports') };
  await w.db.updateTable('transports').set(update).where('id', '=', id).execute();
  return { ...current, ...update };
}

/** Sets a row's seat status to reserved (its seat is on an option) or back to outstanding (its last seat freed). */
async function followSeat(w: WriteContext, actor: Actor, attendeeId: string, to: 'reserved' | 'outstanding'): Promise<void> {
  const row = await w.db.selectFrom('attendees').selectAll().where('id', '=', attendeeId).executeTakeFirst();
  if (!row || toBool(row.deleted) || !toBool(row.needs_transport) || row.transfer_status === to) return;
  if (to === 'outstanding') {
    const other = await w.db
      .selectFrom('transport_seats')
      .select('seat')
      .where('attendee_id', '=', attendeeId)
      .executeTakeFirst();
    if (other) return;
  }
  await w.db
    .updateTable('attendees')
    .set({ transfer_status: to, updated_at: w.now, seq: await w.nextSeq('attendees') })
    .where('id', '=', attendeeId)
    .execute();
  w.record({ type: 'transferStatus.changed', from: row.transfer_status, to, ...attendeeRef(row, actor) });
}

/** The seat number of the path: a whole number in the option's plan, else 400 `seatOutsidePlan`. */
function seatNumberOf(transport: { seat_count: number | null }, value: string): number {
  if (!/^\d{1,4}$/.test(value)) throw badInput('seatOutsidePlan');
  const seat = Number(value);
  if (!isSeatInPlan(transport, seat)) throw badInput('seatOutsidePlan');
  return seat;
}

/**
 * PUT /api/transports/{id}/seats/{number}: gives the seat to a passenger of the event (moving them from
 * another seat of the option) or frees it (`attendeeId` null). An admin assigns anyone going who needs
 * a seat; with seat choice by the members, a member takes a free seat for themselves or their guest
 * and frees it again (403 otherwise). A seat held by someone travelling is 409 `seatTaken`.
 */
export async function assignSeat(
  w: WriteContext,
  actor: Actor,
  id: string,
  seatParam: string,
  attendeeId: string | null,
): Promise<TransportRow> {
  const current = await findLiveTransport(w.db, id);
  const event = await requireLiveEvent(w.db, current.event_id);
  const bus = await busOf(w.db, current);
  const seat = seatNumberOf(bus, seatParam);
  const rows = await busRowsOf(w.db, current.event_id);
  const admin = isAdmin(actor);
  if (!admin && bus.seat_choice !== 'members') throw forbidden();
  if (!admin && !isUpcoming(event.date, w.today())) throw conflict('eventIsPast');
  const holder = bus.seats.find((taken) => taken.seat === seat);
  if (attendeeId === null) {
    if (!holder) return current;
    const row = rows.get(holder.attendee_id);
    if (!admin && !(row && mayChooseSeatFor(bus, actor.id, row))) throw forbidden();
    await w.db.deleteFrom('transport_seats').where('transport_id', '=', id).where('seat', '=', seat).execute();
    await followSeat(w, actor, holder.attendee_id, 'outstanding');
    await touch(w, id);
    return findLiveTransport(w.db, id);
  }
  const row = rows.get(attendeeId);
  if (!row || row.deleted) throw notFound('attendanceNotFound');
  if (!admin && !mayChooseSeatFor(bus, actor.id, row)) throw forbidden();
  if (!isTravelling(row)) throw conflict('seatNotPassenger');
  if (holder?.attendee_id === attendeeId) return current;
  if (!isSeatFree(bus, seat, rows)) throw conflict('seatTaken');
  // A seat whose holder cancelled since is given anew; the passenger's seat before on this option is freed.
  await w.db
    .deleteFrom('transport_seats')
    .where('transport_id', '=', id)
    .where((eb) => eb.or([eb('seat', '=', seat), eb('attendee_id', '=', attendeeId)]))
    .execute();
  await w.db
    .insertInto('transport_seats')
    .values({ transport_id: id, seat, attendee_id: attendeeId, event_id: current.event_id, assigned_at: w.now })
    .execute();
  await followSeat(w, actor, attendeeId, 'reserved');
  await touch(w, id);
  return findLiveTransport(w.db, id);
}

/** PUT /api/transports/{id}/captains (admin): the option's captains, active members only (400 `captainsInvalid`). */
export async function setCaptains(w: WriteContext, actor: Actor, id: string, input: unknown): Promise<TransportRow> {
  requireAdmin(actor);
  const current = await findLiveTransport(w.db, id);
  await requireLiveEvent(w.db, current.event_id);
  const checked = checkCaptainIds(input);
  if (!checked.ok) throw badInput(checked.code);
  const ids = checked.value;
  if (ids.length > 0) {
    const active = await w.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids)
      .where('status', '=', 'active')
      .where('deleted', '=', 0)
      .execute();
    if (active.length !== ids.length) throw badInput('captainsInvalid');
  }
  const before = (await busPartsOf(w.db, [id])).get(id)!.captain_ids;
  if (before.length === ids.length && [...ids].sort().every((captain, i) => captain === before[i])) return current;
  await w.db.deleteFrom('transport_captains').where('transport_id', '=', id).execute();
  if (ids.length > 0)
    await w.db
      .insertInto('transport_captains')
      .values(ids.map((userId) => ({ transport_id: id, user_id: userId })))
      .execute();
  await touch(w, id);
  return findLiveTransport(w.db, id);
}

/** Whether the actor ticks passengers of the option on board (a captain of it, or an admin). */
export async function requireTicker(db: Db, actor: Actor, transport: TransportRow): Promise<void> {
  const bus = await busOf(db, transport);
  if (!mayTick(bus, { id: actor.id, isAdmin: isAdmin(actor) })) throw forbidden('boardingNotAllowed');
}
