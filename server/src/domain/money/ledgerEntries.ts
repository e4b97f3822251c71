import { debtorOf, ticketChargeCents, owedFiguresOf, newId, type OwedFigures } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, LedgerRow, LedgerTable } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { type Actor } from '../actor.js';

/*
 * The club's money in one ledger (docs/architecture.md, "Ledger"; docs/product.md, Tickets and
 * money): its entries and what a member owes. Entries are signed cents (positive raises what the
 * member owes) and are never changed or deleted; a correction is a reversal naming the entry. The
 * pure rules (sign, balance, statement, allocation) are shared/src/rules/ledger.ts; the statements
 * are in ledgerStatements.ts, an admin's bookings in ledgerBookings.ts, the tickets' own entries in
 * ledgerTickets.ts.
 */

export type Db = Kysely<Database>;

/** Rows of one query's `in` list at a time: far below SQLite's and PostgreSQL's limits on parameters. */
const CHUNK = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export const toEntry = (row: LedgerRow) => ({ ...row, amount_cents: Number(row.amount_cents), seq: Number(row.seq) });

export type LedgerEntry = ReturnType<typeof toEntry>;

export async function entriesOf(db: Db, userId: string): Promise<LedgerEntry[]> {
  const rows = await db.selectFrom('ledger').selectAll().where('user_id', '=', userId).orderBy('seq').execute();
  return rows.map(toEntry);
}

/** The member's bought, unpaid live tickets with their event, oldest event first. */
export async function unpaidTicketsOf(db: Db, userId: string) {
  return (await unpaidTicketsOfMembers(db, [userId])).get(userId) ?? [];
}

export type UnpaidTicket = Awaited<ReturnType<typeof unpaidTicketsQuery>>[number];

/** Each member's bought, unpaid live tickets (their own and their guests'), oldest event first: one query per chunk of members. */
export async function unpaidTicketsOfMembers(db: Db, userIds: readonly string[]): Promise<Map<string, UnpaidTicket[]>> {
  const byMember = new Map<string, UnpaidTicket[]>();
  for (const part of chunks(userIds)) {
    for (const row of await unpaidTicketsQuery(db, part)) {
      const owner = row.user_id ?? row.brought_by!;
      const tickets = byMember.get(owner);
      if (tickets) tickets.push(row);
      else byMember.set(owner, [row]);
    }
  }
  return byMember;
}

function unpaidTicketsQuery(db: Db, userIds: readonly string[]) {
  return db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select([
      'a.id as id',
      'a.user_id as user_id',
      'a.brought_by as brought_by',
      'a.guest_name as guest_name',
      'a.price_cents as price_cents',
      'a.is_free as is_free',
      'a.is_price_tbd as is_price_tbd',
      'a.created_at as created_at',
      'e.title as event_title',
      'e.date as event_date',
    ])
    .where('a.deleted', '=', 0)
    .where('e.deleted', '=', 0)
    .where('a.bought', '=', 1)
    .where('a.paid', '=', 0)
    .where((eb) =>
      eb.or([eb('a.user_id', 'in', userIds), eb.and([eb('a.user_id', 'is', null), eb('a.brought_by', 'in', userIds)])]),
    )
    .orderBy('e.date')
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
}

const ticketRowOfPrice = (row: { price_cents: number | null; is_free: number; is_price_tbd: number }) => ({
  price_cents: row.price_cents === null ? null : Number(row.price_cents),
  is_free: toBool(row.is_free),
  is_price_tbd: toBool(row.is_price_tbd),
});

export const chargeOf = (row: { price_cents: number | null; is_free: number; is_price_tbd: number }) =>
  ticketChargeCents({ bought: true, ...ticketRowOfPrice(row) });

/**
 * What a member owes (positive) or has in credit (negative), and their unpaid bought tickets with a
 * known price (for the transfer's reference). Other parts of the server read the balance here.
 */
export async function ledgerBalanceOf(
  db: Db,
  userId: string,
): Promise<{ balanceCents: number; unpaidTickets: { event_title: string; event_date: string; guest_name: string | null }[] }> {
  const [sum, unpaid] = await Promise.all([
    db
      .selectFrom('ledger')
      .select((eb) => eb.fn.sum<number | string | null>('amount_cents').as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    unpaidTicketsOf(db, userId),
  ]);
  return {
    balanceCents: Number(sum?.total ?? 0),
    unpaidTickets: unpaid
      .filter((row) => chargeOf(row) > 0)
      .map((row) => ({ event_title: row.event_title, event_date: row.event_date, guest_name: row.guest_name })),
  };
}

/**
 * What members owe, by the one rule (`owedFiguresOf`; docs/architecture.md, Ledger, "One figure"):
 * each member's ledger balance with their unpaid bought tickets (their own and their guests', archived
 * events' too). Every member with entries or an unpaid ticket has figures; `userIds` narrows the
 * query to those members. /my-tickets, /debts, the debts CSV, the user table, the payment request
 * and the paid requests on /admin/tasks all read them here.
 */
export async function owedFiguresByMember(db: Db, userIds?: readonly string[]): Promise<Map<string, OwedFigures>> {
  if (userIds !== undefined && userIds.length === 0) return new Map();
  const parts = userIds === undefined ? [undefined] : chunks(userIds);
  const balances = new Map<string, number>();
  const unpaid = new Map<
    string,
    { id: string; event_date: string; created_at: string; price_cents: number | null; is_free: boolean; is_price_tbd: boolean }[]
  >();
  for (const part of parts) {
    let sums = db.selectFrom('ledger').select(['user_id', (eb) => eb.fn.sum<number | string>('amount_cents').as('total')]);
    let rows = db
      .selectFrom('attendees as a')
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .select([
        'a.id',
        'a.user_id',
        'a.brought_by',
        'a.price_cents',
        'a.is_free',
        'a.is_price_tbd',
        'a.created_at',
        'e.date as event_date',
      ])
      .where('a.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('a.bought', '=', 1)
      .where('a.paid', '=', 0);
    if (part !== undefined) {
      sums = sums.where('user_id', 'in', part);
      rows = rows.where((eb) =>
        eb.or([eb('a.user_id', 'in', part), eb.and([eb('a.user_id', 'is', null), eb('a.brought_by', 'in', part)])]),
      );
    }
    const [sumRows, ticketRows] = await Promise.all([sums.groupBy('user_id').execute(), rows.execute()]);
    for (const row of sumRows) balances.set(row.user_id, Number(row.total));
    for (const row of ticketRows) {
      const debtor = debtorOf(row);
      if (debtor === null) continue;
      const list = unpaid.get(debtor) ?? [];
      list.push({ id: row.id, event_date: row.event_date, created_at: row.created_at, ...ticketRowOfPrice(row) });
      unpaid.set(debtor, list);
    }
  }
  const figures = new Map<string, OwedFigures>();
  for (const id of new Set([...balances.keys(), ...unpaid.keys()])) {
    figures.set(id, owedFiguresOf(balances.get(id) ?? 0, unpaid.get(id) ?? []));
  }
  return figures;
}

/** One member's figures (nothing owed, no tickets, when they have neither entries nor unpaid tickets). */
export async function owedFiguresOfMember(db: Db, userId: string): Promise<OwedFigures> {
  return (await owedFiguresByMember(db, [userId])).get(userId) ?? owedFiguresOf(0, []);
}

/* ── Writing ── */

type NewEntry = Omit<LedgerTable, 'id' | 'seq' | 'deleted' | 'created_at'>;

export async function insertEntry(w: WriteContext, entry: NewEntry): Promise<LedgerEntry> {
  const row = { ...entry, id: newId(), created_at: w.now, seq: await w.nextSeq('ledger'), deleted: 0 };
  await w.db.insertInto('ledger').values(row).execute();
  return toEntry(row);
}

/** The reversal of an entry: the negated amount, today, the same member, text, event and ticket. */
export function reverse(w: WriteContext, entry: LedgerEntry, actor: Actor): Promise<LedgerEntry> {
  return insertEntry(w, {
    user_id: entry.user_id,
    kind: 'reversal',
    amount_cents: -entry.amount_cents,
    date: w.today(),
    description: entry.description,
    event_id: entry.event_id,
    attendee_id: entry.attendee_id,
    reverses_id: entry.id,
    created_by: actor.system ? null : actor.id,
  });
}
