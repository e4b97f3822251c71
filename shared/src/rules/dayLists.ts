import type { AttendanceStatus, TransferStatus } from '../constants.js';
import { isPriceOpen } from './tickets.js';

/*
 * The lists for the day of an event (docs/architecture.md, Lists for the day): the names for
 * personalised tickets and the passengers of the club's transport. The server's CSV exports and the
 * admin's print view build them with these functions from the same rows, so both show the same.
 */

/** The part of an attendee row (REST row or device document) the lists read. */
export interface DayListAttendee {
  id: string;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
  status: AttendanceStatus;
  needs_ticket: boolean;
  has_ticket: boolean;
  needs_transport: boolean;
  transfer_status: TransferStatus | null;
  ticket_type: string | null;
  price_cents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
  bought: boolean;
  paid: boolean;
  received: boolean;
  created_at: string;
}

/** A transport option as the list shows it. */
export interface DayListTransport {
  id: string;
  name: string;
  departure_datetime: string | null;
  departure_location: string;
  /** The seats assigned on it (docs/product.md, Bus); none without a seat plan. */
  seats?: readonly { seat: number; attendee_id: string }[];
}

/** Who a row is: the member's name, or the guest's with the member who brought them. */
export interface DayListPerson {
  attendee_id: string;
  /** The member's username or the guest's name; null when the account is gone. */
  name: string | null;
  guest: boolean;
  /** For a guest: the username of the member who brought them. */
  host: string | null;
  status: AttendanceStatus;
}

/** A ticket the club holds for the row (bought) or still has to get (needed). */
export interface TicketListRow extends DayListPerson {
  state: 'bought' | 'needed';
  /** The price category's name (the ticket type). */
  category: string | null;
  /** The price of a bought ticket; null when it is not bought or its price is open. */
  price_cents: number | null;
  price_open: boolean;
  is_free: boolean;
  paid: boolean;
  received: boolean;
}

export interface PassengerRow extends DayListPerson {
  seat: TransferStatus;
  /** The option the passenger holds a seat on, or the event's only option; null when not known. */
  option: DayListTransport | null;
  /** Their seat number on that option; null without one. */
  seat_number: number | null;
}

/** The passengers, and which transport option they travel with when the event's data says so. */
export interface TransportList {
  options: DayListTransport[];
  /**
   * The option every passenger travels with: only when the event has exactly one. Otherwise a
   * passenger's option is the one they hold a seat on (`PassengerRow.option`), if any.
   */
  only: DayListTransport | null;
  passengers: PassengerRow[];
}

const collator = new Intl.Collator('de', { sensitivity: 'base' });

function personOf(row: DayListAttendee, names: ReadonlyMap<string, string>): DayListPerson {
  const guest = row.user_id === null;
  return {
    attendee_id: row.id,
    name: guest ? row.guest_name : (names.get(row.user_id!) ?? null),
    guest,
    host: guest && row.brought_by ? (names.get(row.brought_by) ?? null) : null,
    status: row.status,
  };
}

/** Members in alphabetical order, each followed by the guests they brought (as the attendee table). */
function byMemberThenGuests(a: DayListPerson & { row: DayListAttendee }, b: DayListPerson & { row: DayListAttendee }): number {
  const group = (person: DayListPerson) => (person.guest ? person.host : person.name) ?? '';
  return (
    collator.compare(group(a), group(b)) ||
    Number(a.guest) - Number(b.guest) ||
    collator.compare(a.name ?? '', b.name ?? '') ||
    a.row.created_at.localeCompare(b.row.created_at) ||
    a.row.id.localeCompare(b.row.id)
  );
}

/**
 * The names for personalised tickets: every row whose ticket the club bought, then every row that
 * still needs one (needs a ticket, has none of its own, not bought yet). Bought ones are members in
 * alphabetical order with their guests after them; needed ones, for an event with a ticket
 * contingent, in the queue's order (`queue`: attendee ids in allocation order, the next to get a
 * ticket first), the rest after them as the bought ones. Rows with their own ticket need no name from the club.
 */
export function ticketList(
  attendees: readonly DayListAttendee[],
  names: ReadonlyMap<string, string>,
  queue: readonly string[] = [],
): TicketListRow[] {
  const rows = attendees
    .filter((row) => row.bought || (row.needs_ticket && !row.has_ticket))
    .map((row) => ({ ...personOf(row, names), row }));
  const bought = (person: { row: DayListAttendee }) => (person.row.bought ? 0 : 1);
  const places = new Map(queue.map((id, index) => [id, index]));
  const place = (person: { row: DayListAttendee }) =>
    person.row.bought ? 0 : (places.get(person.row.id) ?? Number.MAX_SAFE_INTEGER);
  rows.sort((a, b) => bought(a) - bought(b) || place(a) - place(b) || byMemberThenGuests(a, b));
  return rows.map(({ row, ...person }) => {
    const open = row.bought && isPriceOpen(row);
    return {
      ...person,
      state: row.bought ? 'bought' : 'needed',
      category: row.ticket_type,
      price_cents: row.bought && !open ? (row.is_free ? 0 : row.price_cents) : null,
      price_open: open,
      is_free: row.bought && row.is_free,
      paid: row.bought && row.paid,
      received: row.bought && row.received,
    };
  });
}

/** Reserved seats first, then the waiting list, then the seats nobody has seen to yet. */
const SEAT_ORDER: Record<TransferStatus, number> = { reserved: 0, waiting_list: 1, outstanding: 2 };

/** The passengers: every row that needs a seat, by seat state, then members with their guests. */
export function transportList(
  attendees: readonly DayListAttendee[],
  transports: readonly DayListTransport[],
  names: ReadonlyMap<string, string>,
): TransportList {
  const options = [...transports].sort(
    (a, b) =>
      (a.departure_datetime ?? '\uffff').localeCompare(b.departure_datetime ?? '\uffff') || collator.compare(a.name, b.name),
  );
  const only = options.length === 1 ? options[0]! : null;
  const seatOf = new Map<string, { option: DayListTransport; seat: number }>();
  for (const option of options)
    for (const taken of option.seats ?? []) seatOf.set(taken.attendee_id, { option, seat: taken.seat });
  const optionOrder = new Map(options.map((option, index) => [option.id, index]));
  // Within a seat state: those with a seat by option and seat number, then the rest, members with their guests.
  const place = (id: string) => {
    const held = seatOf.get(id);
    return held ? optionOrder.get(held.option.id)! * 1000 + held.seat : Number.MAX_SAFE_INTEGER;
  };
  const passengers = attendees
    .filter((row) => row.needs_transport)
    .map((row) => ({ ...personOf(row, names), seat: row.transfer_status ?? 'outstanding', row }))
    .sort((a, b) => SEAT_ORDER[a.seat] - SEAT_ORDER[b.seat] || place(a.row.id) - place(b.row.id) || byMemberThenGuests(a, b))
    .map(({ row, ...passenger }) => {
      const held = seatOf.get(row.id);
      return { ...passenger, option: held?.option ?? only, seat_number: held?.seat ?? null };
    });
  return { options, only, passengers };
}
