import { type TicketRequestState } from '@fankurve/shared';
import { CURRENT_REQUEST_STATES } from '@fankurve/shared/rules/allocationReasons';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ContingentsTable, Database, OffersTable, TicketRequestsTable } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { notFound } from '../errors.js';

/*
 * Ticket contingents (docs/architecture.md, "Ticket contingents"; docs/product.md, Ticket
 * contingents), their requests: the rows, the finders and the request states every other contingent
 * module reads and writes. The allocation is in contingentAllocation.ts, the admin's settings in
 * contingentSettings.ts, what GET /api/events/{id}/contingent shows in contingentView.ts; the
 * member-facing part (return, accept, decline, expiry) is in offers.ts.
 */

export type ContingentRow = Selectable<ContingentsTable>;

export type TicketRequestRow = Selectable<TicketRequestsTable>;

export type OfferRow = Selectable<OffersTable>;

export type Db = Kysely<Database> | Transaction<Database>;

/** The job that allocates at request deadlines and closes offers whose window ran out (jobs/ticketJobs.ts). */
export const CONTINGENT_JOB = 'ticket-contingents';

/** Requests that take part: gathering, holding a ticket, in line, offered one. */
export const CURRENT_STATES: readonly TicketRequestState[] = CURRENT_REQUEST_STATES;

export function findContingent(db: Db, eventId: string): Promise<ContingentRow | undefined> {
  return db.selectFrom('contingents').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

export async function requireContingent(db: Db, eventId: string): Promise<ContingentRow> {
  const contingent = await findContingent(db, eventId);
  if (!contingent) throw notFound('contingentNotFound');
  return contingent;
}

/** A request with the attendee row it belongs to (member or guest) and the names the queue shows. */
export interface RequestWithRow {
  attendee_id: string;
  event_id: string;
  requested_at: string;
  pinned: boolean;
  excluded: boolean;
  /** The admin's note on a pin or exclusion (only its member and admins see it). */
  note: string | null;
  state: TicketRequestState;
  allocated_at: string | null;
  updated_at: string;
  user_id: string | null;
  brought_by: string | null;
  guest_name: string | null;
  /** The attendee row is live and its ticket bought. */
  holds: boolean;
  live: boolean;
}

export async function requestsOf(db: Db, eventId: string): Promise<RequestWithRow[]> {
  const rows = await db
    .selectFrom('ticket_requests as r')
    .innerJoin('attendees as a', 'a.id', 'r.attendee_id')
    .select([
      'r.attendee_id',
      'r.event_id',
      'r.requested_at',
      'r.pinned',
      'r.excluded',
      'r.note',
      'r.state',
      'r.allocated_at',
      'r.updated_at',
      'a.user_id',
      'a.brought_by',
      'a.guest_name',
      'a.bought',
      'a.deleted',
    ])
    .where('r.event_id', '=', eventId)
    .execute();
  return rows.map((row) => ({
    attendee_id: row.attendee_id,
    event_id: row.event_id,
    requested_at: row.requested_at,
    pinned: toBool(row.pinned),
    excluded: toBool(row.excluded),
    note: row.note,
    state: row.state,
    allocated_at: row.allocated_at,
    updated_at: row.updated_at,
    user_id: row.user_id,
    brought_by: row.brought_by,
    guest_name: row.guest_name,
    live: !toBool(row.deleted),
    holds: !toBool(row.deleted) && toBool(row.bought),
  }));
}

export function openOffersOf(db: Db, eventId: string): Promise<OfferRow[]> {
  return db
    .selectFrom('offers')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('state', '=', 'open')
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A returned ticket still with the member who returned it (still bought: its debt stays theirs). */
export const isReturnedTicket = (request: RequestWithRow) => request.state === 'returned' && request.holds;

export async function setRequestState(
  w: WriteContext,
  attendeeId: string,
  state: TicketRequestState,
  extra: Partial<TicketRequestRow> = {},
): Promise<void> {
  await w.db
    .updateTable('ticket_requests')
    .set({ state, updated_at: w.now, ...extra })
    .where('attendee_id', '=', attendeeId)
    .execute();
}
