import {
  checkTicketRequest,
  defaultTicketPrice,
  hasNoPriceChoice,
  isOverdue,
  requestOptions,
  ticketStateOf,
  type AttendeeDoc,
  type EventDoc,
  type RequestKind,
  type TicketList,
} from '@fankurve/shared';
import { combineLatest, map, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import type { DocStore } from '../docStore.js';
import { enforce, type Device } from '../device.js';
import { useQuery } from '../query.js';

/*
 * My tickets on the device (docs/product.md, Tickets and money), offline too: the member's own attendee rows and
 * their guests' with the events they belong to (archived events included: their tickets stay), in
 * the lists of the shared rules; and the paid and received requests, member-owned fields that the
 * replication pushes like any other change.
 */

export interface MyTicket {
  id: string;
  event_id: string;
  /** Null while the event has not reached the device yet. */
  event_title: string | null;
  event_date: string | null;
  event_location: string | null;
  /** The event was deleted while its tickets were bought: no link, the ticket stays. */
  archived: boolean;
  /** Set for a guest's ticket (the member owes it). */
  guest_name: string | null;
  price_cents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
  list: TicketList;
  overdue: boolean;
  received: boolean;
  canRequestPaid: boolean;
  paidRequested: boolean;
  canRequestReceived: boolean;
  receivedRequested: boolean;
}

/** The member's tickets by list; what they owe comes from the ledger (`myOwedFigures`). */
export interface MyTickets {
  unpaid: MyTicket[];
  pending: MyTicket[];
  paid: MyTicket[];
}

const byEventDate = (a: MyTicket, b: MyTicket) => (a.event_date ?? '').localeCompare(b.event_date ?? '') || a.id.localeCompare(b.id);

/** What the lists read of an event: its prices say what a ticket still requested will cost. */
type TicketsEvent = Pick<EventDoc, 'title' | 'date' | 'location' | 'archived'> &
  Partial<Pick<EventDoc, 'ticket_price_cents' | 'ticket_prices'>>;

/**
 * A pending ticket's price: what buying it will cost (the shared rule `defaultTicketPrice`), so a
 * request for an event with a known price does not say "price open".
 */
function expectedPrice(row: AttendeeDoc, event: TicketsEvent | undefined): Pick<AttendeeDoc, 'price_cents'> {
  if (!event || !hasNoPriceChoice(row)) return { price_cents: row.price_cents };
  const price = defaultTicketPrice(event.ticket_price_cents ?? 0, event.ticket_prices ?? []);
  if (!price) return { price_cents: row.price_cents };
  return { price_cents: price.kind === 'event' ? price.price_cents : price.category.price_cents };
}

/** The three lists from the member's rows and the events (a pure function of the device's documents). */
export function buildMyTickets(
  rows: readonly AttendeeDoc[],
  events: ReadonlyMap<string, TicketsEvent>,
  userId: string,
  today: string,
): MyTickets {
  const mine = rows.filter((row) => row.user_id === userId || (row.user_id === null && row.brought_by === userId));
  const result: MyTickets = {
    unpaid: [],
    pending: [],
    paid: [],
  };
  for (const row of mine) {
    const event = events.get(row.event_id);
    const list = ticketStateOf(row, event, today);
    if (!list) continue;
    result[list].push({
      id: row.id,
      event_id: row.event_id,
      event_title: event?.title ?? null,
      event_date: event?.date ?? null,
      event_location: event?.location ?? null,
      archived: event?.archived ?? false,
      guest_name: row.user_id === null ? row.guest_name : null,
      price_cents: list === 'pending' ? expectedPrice(row, event).price_cents : row.price_cents,
      is_free: row.is_free,
      is_price_tbd: row.is_price_tbd,
      list,
      overdue: isOverdue(row, event, today),
      received: row.received,
      ...requestOptions(row, userId),
    });
  }
  result.unpaid.sort(byEventDate);
  result.pending.sort(byEventDate);
  result.paid.sort((a, b) => byEventDate(b, a));
  return result;
}

/** The member's tickets as they change on the device. */
export function myTickets$(db: FankurveDatabase, docs: DocStore, userId: string, today: string): Observable<MyTickets> {
  const rows$ = db.attendees.find({ selector: { $or: [{ user_id: userId }, { brought_by: userId }] } }).$;
  // Every event, archived ones included (the events hooks leave those out of their lists).
  const events$ = docs.all('events');
  return combineLatest([rows$, events$]).pipe(
    map(([rows, events]) =>
      buildMyTickets(
        rows.map((doc) => doc.toJSON() as AttendeeDoc),
        new Map(events.map((event) => [event.id, event])),
        userId,
        today,
      ),
    ),
  );
}

export function useMyTickets(userId: string, today: string): MyTickets | undefined {
  return useQuery((db, docs) => myTickets$(db, docs, userId, today), [userId, today]);
}

/**
 * Reports a ticket (the member's own or their guest's) as paid or received, offline too: checked by
 * the shared rule, written to the device, pushed by the replication; the server decides again and an
 * admin accepts it.
 */
export async function requestTicket({ db, outbox }: Device, attendeeId: string, userId: string, kind: RequestKind): Promise<void> {
  const doc = await db.attendees.findOne(attendeeId).exec();
  if (!doc) throw new Error('ticketNotFound');
  enforce(checkTicketRequest(doc.toJSON() as AttendeeDoc, userId, kind));
  const field = kind === 'paid' ? 'paid_requested' : 'received_requested';
  if (doc.get(field) === true) return;
  outbox.add(doc.id);
  await doc.incrementalPatch({ [field]: true });
}

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { requestTicket };
