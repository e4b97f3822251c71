import { debtorOf, newId, type LedgerChargeInput } from '@fankurve/shared';
import type { WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput, conflict, notFound } from '../errors.js';
import { insertEntry, reverse, toEntry, type LedgerEntry } from './ledgerEntries.js';
import { audit } from '../club/auditLog.js';
import { passengersOf } from '../events/transportSeats.js';

/*
 * Bulk charges (docs/architecture.md, Ledger, "Bulk charges"): one charge to many members at once —
 * the membership fee to every active member, a cost to everyone going to an event, the bus fare to
 * a transport option's passengers — an amount each, or a total split evenly with the cents that do
 * not divide going to the first people charged. Each person is one entry in their debtor's ledger (a
 * guest's goes to the member who brought them); reversing the charge reverses every entry of it.
 */

/** One person charged: whose ledger it lands in, the guest's name when it is a guest, and their attendee row when known. */
export interface Charged {
  userId: string;
  username: string;
  guestName: string | null;
  attendeeId?: string;
}

async function chargedBy(
  w: WriteContext,
  target: LedgerChargeInput['target'],
): Promise<{ key: string; eventId: string | null; people: Charged[] }> {
  if ('all_members' in target) {
    const users = await w.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('status', '=', 'active')
      .where('deleted', '=', 0)
      .execute();
    return {
      key: 'all_members',
      eventId: null,
      people: users.map((user) => ({ userId: user.id, username: user.username, guestName: null })),
    };
  }
  let eventId: string;
  let passengers: Set<string> | null = null;
  if ('event_id' in target) {
    eventId = target.event_id;
    const event = await w.db
      .selectFrom('events')
      .select('id')
      .where('id', '=', eventId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!event) throw notFound('eventNotFound');
  } else {
    const transport = await w.db
      .selectFrom('transports')
      .selectAll()
      .where('id', '=', target.transport_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!transport) throw notFound('transportNotFound');
    eventId = transport.event_id;
    passengers = new Set((await passengersOf(w.db, transport)).map((row) => row.id));
  }
  const going = await w.db
    .selectFrom('attendees as a')
    .select(['a.id', 'a.user_id', 'a.brought_by', 'a.guest_name'])
    .where('a.event_id', '=', eventId)
    .where('a.deleted', '=', 0)
    .where('a.status', '=', 'going')
    .execute();
  // A transport option's passengers (docs/product.md, Bus): a seat on it, or its event's only option and reserved.
  const attendees = passengers === null ? going : going.filter((row) => passengers.has(row.id));
  const debtors = [...new Set(attendees.map((row) => debtorOf(row)).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  if (debtors.length > 0)
    for (const user of await w.db.selectFrom('users').select(['id', 'username']).where('id', 'in', debtors).execute())
      names.set(user.id, user.username);
  const people = attendees.flatMap((row) => {
    const userId = debtorOf(row);
    const username = userId ? names.get(userId) : undefined;
    return userId && username !== undefined ? [{ userId, username, guestName: row.user_id ? null : row.guest_name }] : [];
  });
  return { key: 'event_id' in target ? `event:${eventId}` : `transport:${target.transport_id}`, eventId, people };
}

/** Members by name, each member before their guests: the order the odd cents of a split go in. */
const byName = (a: Charged, b: Charged) =>
  a.username.localeCompare(b.username, 'de', { sensitivity: 'base' }) ||
  a.userId.localeCompare(b.userId) ||
  (a.guestName ?? '').localeCompare(b.guestName ?? '');

/** Each person's share of `totalCents`: equal, the cents that do not divide one each to the first. */
export function splitCents(totalCents: number, count: number): number[] {
  const base = Math.floor(totalCents / count);
  const rest = totalCents - base * count;
  return Array.from({ length: count }, (_, i) => base + (i < rest ? 1 : 0));
}

/**
 * POST /api/ledger/charges (admin): one charge entry per person charged, all under one bulk charge.
 * 404 for an unknown event or transport option; 400 `chargeNobody` when the choice has nobody,
 * `chargeTotalTooSmall` when a total gives someone nothing.
 */
export async function chargeInBulk(
  w: WriteContext,
  actor: Actor,
  input: LedgerChargeInput,
): Promise<{ id: string; entries: LedgerEntry[]; totalCents: number }> {
  requireAdmin(actor);
  const { key, eventId, people } = await chargedBy(w, input.target);
  if (people.length === 0) throw badInput('chargeNobody');
  people.sort(byName);
  const shares =
    input.total !== undefined
      ? splitCents(Math.round(input.total * 100), people.length)
      : people.map(() => Math.round(input.amount! * 100));
  if (shares.some((cents) => cents <= 0)) throw badInput('chargeTotalTooSmall');
  return bookBulkCharge(w, actor, { key, eventId, people, shares, note: input.note });
}

/**
 * Books one charge entry per person (`shares[i]` cents to `people[i]`, a guest's text `note (guest)`)
 * under one bulk charge and records it in the audit log; the fare (domain/events/transportFares.ts)
 * books through it too.
 */
export async function bookBulkCharge(
  w: WriteContext,
  actor: Actor,
  charge: { key: string; eventId: string | null; people: readonly Charged[]; shares: readonly number[]; note: string },
): Promise<{ id: string; entries: LedgerEntry[]; totalCents: number }> {
  const { key, eventId, people, shares } = charge;
  const input = { note: charge.note };
  const id = newId();
  const entries: LedgerEntry[] = [];
  for (const [i, person] of people.entries()) {
    const entry = await insertEntry(w, {
      user_id: person.userId,
      kind: 'charge',
      amount_cents: shares[i]!,
      date: w.today(),
      description: person.guestName ? `${input.note} (${person.guestName})` : input.note,
      event_id: eventId,
      attendee_id: null,
      reverses_id: null,
      created_by: actor.system ? null : actor.id,
    });
    await w.db.insertInto('bulk_charge_entries').values({ ledger_id: entry.id, charge_id: id }).execute();
    w.record({ type: 'ledger.booked', entryId: entry.id, userId: entry.user_id, kind: entry.kind, actorId: actor.id });
    entries.push(entry);
  }
  const totalCents = shares.reduce((sum, cents) => sum + cents, 0);
  await w.db
    .insertInto('bulk_charges')
    .values({
      id,
      note: input.note,
      target: key,
      total_cents: totalCents,
      created_by: actor.id,
      created_at: w.now,
      reversed_at: null,
    })
    .execute();
  await audit(w, actor, {
    kind: 'money',
    action: 'ledger.bulkCharge',
    eventId,
    entityId: id,
    after: { target: key, note: input.note, total_cents: totalCents, entries: entries.length },
  });
  return { id, entries, totalCents };
}

/** POST /api/ledger/charges/{id}/reverse (admin): every entry of the charge reversed; 404 unknown, 409 reversed before. */
export async function reverseBulkCharge(w: WriteContext, actor: Actor, id: string): Promise<LedgerEntry[]> {
  requireAdmin(actor);
  const charge = await w.db.selectFrom('bulk_charges').select(['reversed_at']).where('id', '=', id).executeTakeFirst();
  if (!charge) throw notFound('chargeNotFound');
  if (charge.reversed_at !== null) throw conflict('chargeReversed');
  const rows = await w.db
    .selectFrom('ledger')
    .innerJoin('bulk_charge_entries as b', 'b.ledger_id', 'ledger.id')
    .selectAll('ledger')
    .where('b.charge_id', '=', id)
    .execute();
  // An entry an admin reversed on its own already is not reversed twice.
  const reversedAlone = new Set(
    (
      await w.db
        .selectFrom('ledger')
        .select('reverses_id')
        .where(
          'reverses_id',
          'in',
          rows.map((row) => row.id),
        )
        .execute()
    ).map((row) => row.reverses_id),
  );
  const reversals: LedgerEntry[] = [];
  for (const row of rows) {
    if (reversedAlone.has(row.id)) continue;
    const reversal = await reverse(w, toEntry(row), actor);
    w.record({ type: 'ledger.booked', entryId: reversal.id, userId: reversal.user_id, kind: reversal.kind, actorId: actor.id });
    reversals.push(reversal);
  }
  await w.db.updateTable('bulk_charges').set({ reversed_at: w.now }).where('id', '=', id).execute();
  await audit(w, actor, {
    kind: 'money',
    action: 'ledger.bulkChargeReversed',
    eventId: rows[0]?.event_id ?? null,
    entityId: id,
    after: { entries: reversals.length },
  });
  return reversals;
}
