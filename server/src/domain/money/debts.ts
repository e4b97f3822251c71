import { debtorOf, isOverdue, isPriceOpen, owedFiguresOf, ticketStateOf, type OwedFigures } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { findLiveUser, toPublicUser, type PublicUser } from '../people/accounts.js';
import { notFound } from '../errors.js';
import { owedFiguresByMember, owedFiguresOfMember } from './ledgerEntries.js';
import { ticketRowOf } from '../tickets/tickets.js';

/*
 * What members owe (docs/architecture.md, "Data model", "Rules once" and Ledger, "One figure"): a
 * debt is a bought, unpaid ticket, owed by its debtor (`debtorOf`: the member, or for a guest the
 * member who brought them); the amount owed is the member's ledger balance. The member's /my-tickets,
 * the admin's /debts (total, per member, CSV) and the user table all take their figures from
 * `owedFiguresByMember` (the shared rule `owedFiguresOf`), so they agree with the ledger's views
 * (server/test/balance-views.test.ts). Tickets of archived events count: the debt outlives the event.
 */

/** Live attendee rows with their (live or archived) event; narrowed further by the callers. */
function ticketRows(db: Kysely<Database>) {
  return db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .selectAll('a')
    .select(['e.title as event_title', 'e.date as event_date', 'e.location as event_location', 'e.archived as event_archived'])
    .where('a.deleted', '=', 0)
    .where('e.deleted', '=', 0);
}

type TicketListRow = Awaited<ReturnType<ReturnType<typeof ticketRows>['execute']>>[number];

/** Every debt: the bought, unpaid tickets, in event order. */
function unpaidTicketRows(db: Kysely<Database>): Promise<TicketListRow[]> {
  return ticketRows(db).where('a.bought', '=', 1).where('a.paid', '=', 0).orderBy('e.date').orderBy('a.created_at').execute();
}

type Debtor = { username: string; email: string };

/** The name and email of each row's debtor (accounts deleted since included, as their tickets are). */
async function debtorsOf(
  db: Kysely<Database>,
  rows: readonly TicketListRow[],
  more: readonly string[] = [],
): Promise<Map<string, Debtor>> {
  const ids = [...new Set([...rows.map(debtorOf).filter((id): id is string => id !== null), ...more])];
  if (ids.length === 0) return new Map();
  const users = await db.selectFrom('users').select(['id', 'username', 'email']).where('id', 'in', ids).execute();
  return new Map(users.map((user) => [user.id, { username: user.username, email: user.email }]));
}

function debtorFor(debtors: ReadonlyMap<string, Debtor>, row: TicketListRow): Debtor | undefined {
  const id = debtorOf(row);
  return id === null ? undefined : debtors.get(id);
}

/** A ticket as the REST edge answers it (euros with two decimals; the ticket's fields plus the list it belongs to). */
function toRestTicket(
  row: TicketListRow,
  today: string,
  debtors: ReadonlyMap<string, Debtor>,
  figures: ReadonlyMap<string, OwedFigures>,
) {
  const ticket = ticketRowOf(row);
  const debtorId = debtorOf(row);
  const event = { date: row.event_date, archived: toBool(row.event_archived) };
  return {
    id: row.id,
    event_id: row.event_id,
    event_title: row.event_title,
    event_date: row.event_date,
    event_location: row.event_location,
    event_archived: event.archived,
    user_id: row.user_id,
    guest_name: row.guest_name,
    debtor_id: debtorOf(row),
    username: debtorFor(debtors, row)?.username ?? null,
    price: ticket.price_cents === null ? null : ticket.price_cents / 100,
    is_free: ticket.is_free,
    is_price_tbd: ticket.is_price_tbd,
    /** Not known yet: shown as "price open", never as 0,00 € (shared rule isPriceOpen). */
    price_open: isPriceOpen(ticket),
    bought: ticket.bought,
    paid: ticket.paid,
    received: ticket.received,
    paid_requested: ticket.paid_requested,
    received_requested: ticket.received_requested,
    paid_requested_at: row.paid_requested_at,
    received_requested_at: row.received_requested_at,
    state: ticketStateOf(ticket, event, today),
    overdue: isOverdue(ticket, event, today),
    open_amount: openAmountOf(ticket, row.id, debtorId === null ? undefined : figures.get(debtorId)),
  };
}

/**
 * What is still open on a ticket, in euros (`owedFiguresOf`: its charge minus the part paid): null
 * while not bought or while its price is open; 0 once paid, or free.
 */
function openAmountOf(ticket: ReturnType<typeof ticketRowOf>, id: string, figures: OwedFigures | undefined): number | null {
  if (!ticket.bought || isPriceOpen(ticket)) return null;
  if (ticket.paid) return 0;
  return (figures?.tickets.find((debt) => debt.id === id)?.open_cents ?? 0) / 100;
}

/**
 * GET /api/tickets/my: the actor's tickets (own and their guests'), pending, unpaid and paid, and what
 * they owe: the known prices (`unpaidTotal`) and the unpaid tickets whose price is open.
 */
export async function listMyTickets(db: Kysely<Database>, actor: Actor, today: string) {
  // The SQL narrows to the actor's and their guests' rows; the rule decides whose tickets they are.
  const rows = (
    await ticketRows(db)
      .where((eb) => eb.or([eb('a.user_id', '=', actor.id), eb('a.brought_by', '=', actor.id)]))
      .orderBy('e.date')
      .orderBy('a.created_at')
      .execute()
  ).filter((row) => debtorOf(row) === actor.id);
  const [debtors, owed] = await Promise.all([debtorsOf(db, rows), owedFiguresOfMember(db, actor.id)]);
  const figures = new Map([[actor.id, owed]]);
  const tickets = rows.map((row) => toRestTicket(row, today, debtors, figures)).filter((ticket) => ticket.state !== null);
  return {
    tickets,
    unpaidTotal: owed.owedCents / 100,
    unpaidOpenPriceCount: owed.openPriceCount,
    balance: owed.balanceCents / 100,
    credit: owed.creditCents / 100,
  };
}

/**
 * GET /api/tickets/debts (admin): every member who owes something, has credit or an unpaid ticket,
 * largest debt first (`total_debt` what they owe, `balance` the signed ledger balance: credit
 * negative), and every unpaid ticket with what is still open on it; `total` the sum of what members
 * owe (credit does not lower it; `credit_total` sums the credit), the tickets whose price is open
 * counted apart (`open_price_count`).
 */
export async function listDebts(db: Kysely<Database>, actor: Actor, today: string) {
  requireAdmin(actor);
  const [rows, figures] = await Promise.all([unpaidTicketRows(db), owedFiguresByMember(db)]);
  const people = [...figures].filter(([, owed]) => owed.balanceCents !== 0 || owed.unpaidCount > 0);
  const debtors = await debtorsOf(
    db,
    rows,
    people.map(([id]) => id),
  );
  const debts = people
    .map(([id, owed]) => ({
      user_id: id,
      username: debtors.get(id)?.username ?? null,
      email: debtors.get(id)?.email ?? null,
      total_debt: owed.owedCents / 100,
      unpaid_count: owed.unpaidCount,
      open_price_count: owed.openPriceCount,
      balance: owed.balanceCents / 100,
    }))
    .sort(
      (a, b) =>
        b.balance - a.balance ||
        b.unpaid_count - a.unpaid_count ||
        b.open_price_count - a.open_price_count ||
        (a.username ?? '').localeCompare(b.username ?? '', 'de', { sensitivity: 'base' }) ||
        a.user_id.localeCompare(b.user_id),
    );
  const unpaidTickets = rows.map((row) => ({
    ...toRestTicket(row, today, debtors, figures),
    email: debtorFor(debtors, row)?.email ?? null,
  }));
  const all = [...figures.values()];
  return {
    debts,
    unpaidTickets,
    total: all.reduce((sum, owed) => sum + owed.owedCents, 0) / 100,
    open_price_count: all.reduce((sum, owed) => sum + owed.openPriceCount, 0),
    credit_total: all.reduce((sum, owed) => sum + owed.creditCents, 0) / 100,
  };
}

/** A user in the admin's user table: the public fields plus what they owe. */
export interface AdminUserView extends PublicUser {
  unpaid_count: number;
  /** Integer cents owed (the ledger's balance when positive); the REST edge speaks euros. */
  total_debt_cents: number;
  /** Unpaid tickets whose price is still open (not in the total). */
  open_price_count: number;
  /** The signed ledger balance in cents (credit negative). */
  balance_cents: number;
}

function debtView(user: UserRow, owed: OwedFigures | undefined): AdminUserView {
  const figures = owed ?? owedFiguresOf(0, []);
  return {
    ...toPublicUser(user),
    unpaid_count: figures.unpaidCount,
    total_debt_cents: figures.owedCents,
    open_price_count: figures.openPriceCount,
    balance_cents: figures.balanceCents,
  };
}

/**
 * The admin's user table. `status` 'active' (the default) lists approved accounts, 'all' every live
 * account, pending registrations included. Sorted by username key.
 */
export async function listUsersWithDebts(
  db: Kysely<Database>,
  actor: Actor,
  which: 'active' | 'all' = 'active',
): Promise<AdminUserView[]> {
  requireAdmin(actor);
  let query = db.selectFrom('users').selectAll().where('deleted', '=', 0);
  if (which === 'active') query = query.where('status', '=', 'active');
  const [rows, debts] = await Promise.all([query.orderBy('username_key').orderBy('id').execute(), owedFiguresByMember(db)]);
  return rows.map((row) => debtView(row, debts.get(row.id)));
}

/** One user with their debt figures (admin); 404 'User not found' for an unknown or deleted id. */
export async function getUserForAdmin(db: Kysely<Database>, actor: Actor, id: string): Promise<AdminUserView> {
  requireAdmin(actor);
  const user = await findLiveUser(db, id);
  if (!user) throw notFound('userNotFound');
  return debtView(user, await owedFiguresOfMember(db, id));
}
