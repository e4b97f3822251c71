import { debtorOf, isPriceOpen, ticketChargeCents } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AttendeeRow, Database } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { findAttendeeById } from './attendeeRows.js';
import { countPendingComments } from '../comments/comments.js';
import { notFound } from '../errors.js';
import { owedFiguresByMember } from '../money/ledgerEntries.js';
import { updateTicketStatus } from '../tickets/tickets.js';
import { listPendingUsers } from '../people/userAdmin.js';

/*
 * The admin's pending tasks (docs/product.md, "Screens": /admin/tasks): registrations waiting for
 * approval and the members' paid and received requests. A request is the member-owned flag
 * `paid_requested` or `received_requested` (with its time) on a live attendee row, the member's own
 * or a guest's. Tickets of archived events count too: they are still debts (docs/architecture.md,
 * "Data model").
 */

export type RequestKind = 'paid' | 'received';

/** One pending request as the admin sees it; money is integer cents here (the REST edge converts). */
export interface PendingRequest {
  id: string;
  event_id: string;
  event_title: string;
  event_date: string;
  /** The member, or for a guest the member who brought them (the debtor). */
  username: string | null;
  guest_name: string | null;
  brought_by_username: string | null;
  price_cents: number | null;
  /** Not known yet (shared rule isPriceOpen): shown as "price open", never as 0,00 €. */
  price_open: boolean;
  /**
   * What is still open on the ticket (cents; `owedFiguresOf`: its price minus the part of the debtor's
   * money that goes to it): what accepting a paid request books (docs/architecture.md, Ledger). Null
   * while the price is open.
   */
  open_cents: number | null;
  request_date: string;
}

const FLAG = { paid: 'a.paid_requested', received: 'a.received_requested' } as const;
const AT = { paid: 'a.paid_requested_at', received: 'a.received_requested_at' } as const;
/** A request is settled once the ticket is paid (or received): such a row is no task any more. */
const DONE = { paid: 'a.paid', received: 'a.received' } as const;

function pendingQuery(db: Kysely<Database>, kind: RequestKind) {
  return db
    .selectFrom('attendees as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('users as b', 'b.id', 'a.brought_by')
    .where('a.deleted', '=', 0)
    .where(FLAG[kind], '=', 1)
    .where(DONE[kind], '=', 0);
}

export async function listPendingRequests(db: Kysely<Database>, actor: Actor, kind: RequestKind): Promise<PendingRequest[]> {
  requireAdmin(actor);
  const rows = await pendingQuery(db, kind)
    .select([
      'a.id as id',
      'a.user_id as user_id',
      'a.brought_by as brought_by',
      'a.paid as paid',
      'a.event_id as event_id',
      'e.title as event_title',
      'e.date as event_date',
      'u.username as username',
      'a.guest_name as guest_name',
      'b.username as brought_by_username',
      'a.price_cents as price_cents',
      'a.is_free as is_free',
      'a.is_price_tbd as is_price_tbd',
      `${AT[kind]} as request_date`,
      'a.updated_at as updated_at',
    ])
    .orderBy(AT[kind])
    .orderBy('a.id')
    .execute();
  const debtorIds = [...new Set(rows.map(debtorOf).filter((id): id is string => id !== null))];
  const figures = await owedFiguresByMember(db, debtorIds);
  return rows.map(({ updated_at, is_free, is_price_tbd, user_id, brought_by, paid, ...row }) => {
    const price = {
      price_cents: row.price_cents === null ? null : Number(row.price_cents),
      is_free: toBool(is_free),
      is_price_tbd: toBool(is_price_tbd),
    };
    const debtor = debtorOf({ user_id, brought_by });
    const owed = debtor === null ? undefined : figures.get(debtor);
    const charge = ticketChargeCents({ ...price, bought: true });
    const priceOpen = isPriceOpen(price);
    return {
      ...row,
      price_cents: price.price_cents,
      price_open: priceOpen,
      // Paid: nothing open; a ticket not yet bought (no charge yet) is open at its whole price.
      open_cents: priceOpen ? null : toBool(paid) ? 0 : (owed?.tickets.find((debt) => debt.id === row.id)?.open_cents ?? charge),
      // A request flag set without its time (a hand-edited row) still shows when it was last touched.
      request_date: row.request_date ?? updated_at,
    };
  });
}

async function countPendingRequests(db: Kysely<Database>, kind: RequestKind): Promise<number> {
  const row = await pendingQuery(db, kind)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface PendingTaskCounts {
  pendingUsers: number;
  pendingPaidRequests: number;
  pendingReceivedRequests: number;
  pendingComments: number;
  totalCount: number;
}

/** The number behind the nav bar's red badge: registrations, requests and comments waiting for an answer. */
export async function countPendingTasks(db: Kysely<Database>, actor: Actor): Promise<PendingTaskCounts> {
  requireAdmin(actor);
  const [users, paid, received, comments] = await Promise.all([
    listPendingUsers(db, actor).then((list) => list.length),
    countPendingRequests(db, 'paid'),
    countPendingRequests(db, 'received'),
    countPendingComments(db),
  ]);
  return {
    pendingUsers: users,
    pendingPaidRequests: paid,
    pendingReceivedRequests: received,
    pendingComments: comments,
    totalCount: users + paid + received + comments,
  };
}

/**
 * Accepts a member's paid or received request: the ticket becomes paid (received) and the request
 * is cleared, through the admin's one ticket writer (tickets.ts), so the row takes a new seq and the
 * domain events `ticket.paid` / `ticket.received` and `request.accepted` are recorded. A row without
 * that open request is 404 'Request not found' (already accepted, withdrawn, or gone).
 */
export async function acceptRequest(w: WriteContext, actor: Actor, id: string, kind: RequestKind): Promise<AttendeeRow> {
  requireAdmin(actor);
  const row = await findAttendeeById(w.db, id);
  const open =
    row !== undefined &&
    !toBool(row.deleted) &&
    toBool(kind === 'paid' ? row.paid_requested : row.received_requested) &&
    !toBool(kind === 'paid' ? row.paid : row.received);
  if (!open) throw notFound('requestNotFound');
  return updateTicketStatus(w, actor, row, kind === 'paid' ? { paid: true } : { received: true });
}
