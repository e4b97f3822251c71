import {
  debtCents,
  debtorOf,
  isOverdue,
  isPriceOpen,
  summarizeDebts,
  ticketStateOf,
  unpaidDebtOf,
  type DebtSummary,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { toBool } from '../db/store.js';
import { requireAdmin, type Actor } from './actor.js';
import { findLiveUser, toPublicUser, type PublicUser } from './accounts.js';
import { notFound } from './errors.js';
import { ticketRowOf } from './tickets.js';

/*
 * What members owe (docs/architecture.md, "Data model" and "Rules once"): a debt is a bought, unpaid
 * ticket, owed by its debtor (`debtorOf`: the member, or for a guest the member who brought them).
 * The member's /my-tickets, the admin's /debts and the user table read the same rows and sum them
 * with the one shared rule `summarizeDebts` (`unpaidDebtOf`), so their figures agree
 * (server/test/debt-figures.test.ts). Tickets of archived events count: the debt outlives the event.
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
async function debtorsOf(db: Kysely<Database>, rows: readonly TicketListRow[]): Promise<Map<string, Debtor>> {
  const ids = [...new Set(rows.map(debtorOf).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const users = await db.selectFrom('users').select(['id', 'username', 'email']).where('id', 'in', ids).execute();
  return new Map(users.map((user) => [user.id, { username: user.username, email: user.email }]));
}

function debtorFor(debtors: ReadonlyMap<string, Debtor>, row: TicketListRow): Debtor | undefined {
  const id = debtorOf(row);
  return id === null ? undefined : debtors.get(id);
}

/** A ticket as the REST edge answers it (euros with two decimals; the ticket's fields plus the list it belongs to). */
function toRestTicket(row: TicketListRow, today: string, debtors: ReadonlyMap<string, Debtor>) {
  const ticket = ticketRowOf(row);
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
  };
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
  const debtors = await debtorsOf(db, rows);
  const tickets = rows.map((row) => toRestTicket(row, today, debtors)).filter((ticket) => ticket.state !== null);
  const owed = unpaidDebtOf(rows.map(ticketRowOf), actor.id);
  return { tickets, unpaidTotal: owed.cents / 100, unpaidOpenPriceCount: owed.openPriceCount };
}

/**
 * GET /api/tickets/debts (admin): debts per member, largest first, and every unpaid ticket; totals of
 * the known prices, with the tickets whose price is open counted apart (`open_price_count`).
 */
export async function listDebts(db: Kysely<Database>, actor: Actor, today: string) {
  requireAdmin(actor);
  const rows = await unpaidTicketRows(db);
  const debtors = await debtorsOf(db, rows);
  const debts = summarizeDebts(rows.map(ticketRowOf)).map((debt) => {
    const debtor = debtors.get(debt.debtorId);
    return {
      user_id: debt.debtorId,
      username: debtor?.username ?? null,
      email: debtor?.email ?? null,
      total_debt: debt.totalCents / 100,
      unpaid_count: debt.unpaidCount,
      open_price_count: debt.openPriceCount,
    };
  });
  const unpaidTickets = rows.map((row) => ({
    ...toRestTicket(row, today, debtors),
    email: debtorFor(debtors, row)?.email ?? null,
  }));
  const tickets = rows.map(ticketRowOf);
  return {
    debts,
    unpaidTickets,
    total: tickets.reduce((sum, ticket) => sum + debtCents(ticket), 0) / 100,
    open_price_count: tickets.filter(isPriceOpen).length,
  };
}

/** A user in the admin's user table: the public fields plus what they owe. */
export interface AdminUserView extends PublicUser {
  unpaid_count: number;
  /** Integer cents of the known prices; the REST edge speaks euros. */
  total_debt_cents: number;
  /** Unpaid tickets whose price is still open (not in the total). */
  open_price_count: number;
}

/** Each debtor's debt, from the same rows and rule as /debts. */
async function debtsByUser(db: Kysely<Database>): Promise<Map<string, DebtSummary>> {
  const debts = summarizeDebts((await unpaidTicketRows(db)).map(ticketRowOf));
  return new Map(debts.map((debt) => [debt.debtorId, debt]));
}

function debtView(user: UserRow, debt: DebtSummary | undefined): AdminUserView {
  return {
    ...toPublicUser(user),
    unpaid_count: debt?.unpaidCount ?? 0,
    total_debt_cents: debt?.totalCents ?? 0,
    open_price_count: debt?.openPriceCount ?? 0,
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
  const [rows, debts] = await Promise.all([query.orderBy('username_key').orderBy('id').execute(), debtsByUser(db)]);
  return rows.map((row) => debtView(row, debts.get(row.id)));
}

/** One user with their debt figures (admin); 404 'User not found' for an unknown or deleted id. */
export async function getUserForAdmin(db: Kysely<Database>, actor: Actor, id: string): Promise<AdminUserView> {
  requireAdmin(actor);
  const user = await findLiveUser(db, id);
  if (!user) throw notFound('userNotFound');
  return debtView(user, (await debtsByUser(db)).get(id));
}
