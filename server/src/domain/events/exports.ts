import type { Language } from '@fankurve/shared';
import { csvAmount, toCsv, type CsvCell } from '@fankurve/shared/rules/csv';
import {
  ticketList,
  transportList,
  type DayListAttendee,
  type DayListPerson,
  type DayListTransport,
} from '@fankurve/shared/rules/dayLists';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { requireAdmin, type Actor } from '../actor.js';
import { attendeeFieldsOf } from '../attendance/attendeeRows.js';
import { queueOrderOf } from '../tickets/contingentAllocation.js';
import { getEventView, type EventView } from './events.js';
import { busPartsOf } from './transportSeats.js';

/*
 * The lists for the day of an event as spreadsheets (docs/architecture.md, Lists for the day): the
 * names for personalised tickets and the passengers of the club's transport, built by the shared
 * rules (rules/dayLists.ts, also the admin's print view) and written by the one CSV writer
 * (rules/csv.ts: BOM, semicolons, the formula guard). Headers and words in the admin's language.
 */

export interface CsvFile {
  filename: string;
  text: string;
}

const WORDS = {
  de: {
    ticketsHeader: ['Name', 'Mitglied/Gast', 'Gast von', 'Kategorie', 'Preis', 'Bezahlt', 'Erhalten', 'Ticket', 'Antwort'],
    transportHeader: [
      'Transport',
      'Abfahrt',
      'Abfahrtsort',
      'Platz',
      'Name',
      'Mitglied/Gast',
      'Gast von',
      'Antwort',
      'Platzstatus',
    ],
    member: 'Mitglied',
    guest: 'Gast',
    unknown: 'Unbekannt',
    yes: 'ja',
    no: 'nein',
    priceOpen: 'Preis offen',
    bought: 'gekauft',
    needed: 'benötigt',
    going: 'zugesagt',
    maybe: 'vielleicht',
    reserved: 'reserviert',
    waiting_list: 'Warteliste',
    outstanding: 'offen',
  },
  en: {
    ticketsHeader: ['Name', 'Member/guest', 'Guest of', 'Category', 'Price', 'Paid', 'Received', 'Ticket', 'Answer'],
    transportHeader: [
      'Transport',
      'Departure',
      'Departure place',
      'Seat no.',
      'Name',
      'Member/guest',
      'Guest of',
      'Answer',
      'Seat',
    ],
    member: 'member',
    guest: 'guest',
    unknown: 'unknown',
    yes: 'yes',
    no: 'no',
    priceOpen: 'price open',
    bought: 'bought',
    needed: 'needed',
    going: 'going',
    maybe: 'maybe',
    reserved: 'reserved',
    waiting_list: 'waiting list',
    outstanding: 'outstanding',
  },
} as const;

/** The event (live, not archived: 404 `eventNotFound` otherwise), its live attendee rows and the names they need. */
async function dayListData(db: Kysely<Database>, eventId: string) {
  const event = await getEventView(db, eventId);
  const rows = await db.selectFrom('attendees').selectAll().where('event_id', '=', eventId).where('deleted', '=', 0).execute();
  const attendees: DayListAttendee[] = rows.map(attendeeFieldsOf);
  const ids = [...new Set(rows.flatMap((row) => [row.user_id, row.brought_by]).filter((id): id is string => id !== null))];
  // Deleted accounts included: their tickets stay (docs/architecture.md, Data model).
  const users = ids.length > 0 ? await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute() : [];
  return { event, attendees, names: new Map(users.map((user) => [user.id, user.username])) };
}

/** `tickets-2026-03-14-bayern-munchen-a.csv`: the kind, the event's day and its title in plain letters. */
function fileName(kind: string, event: EventView): string {
  const slug = event.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${kind}-${event.date.slice(0, 10)}${slug ? `-${slug}` : ''}.csv`;
}

function personCells(person: DayListPerson, words: (typeof WORDS)[Language]): CsvCell[] {
  return [
    person.name ?? words.unknown,
    person.guest ? words.guest : words.member,
    person.guest ? (person.host ?? words.unknown) : null,
  ];
}

/** GET /api/events/{id}/export/tickets.csv (admin): the names for personalised tickets (rules/dayLists.ts `ticketList`). */
export async function ticketsCsv(
  db: Kysely<Database>,
  actor: Actor,
  eventId: string,
  language: Language,
  today: string,
): Promise<CsvFile> {
  requireAdmin(actor);
  const { event, attendees, names } = await dayListData(db, eventId);
  const queue = await queueOrderOf(db, eventId, today);
  const words = WORDS[language];
  const yesNo = (bought: boolean, value: boolean) => (bought ? (value ? words.yes : words.no) : null);
  const rows = ticketList(attendees, names, queue).map((ticket): CsvCell[] => {
    const bought = ticket.state === 'bought';
    const price = ticket.price_open ? words.priceOpen : ticket.price_cents === null ? null : csvAmount(ticket.price_cents);
    return [
      ...personCells(ticket, words),
      ticket.category,
      price,
      yesNo(bought, ticket.paid),
      yesNo(bought, ticket.received),
      words[ticket.state],
      words[ticket.status],
    ];
  });
  return { filename: fileName('tickets', event), text: toCsv(words.ticketsHeader, rows) };
}

/** GET /api/events/{id}/export/transport.csv (admin): the passengers with their option, seat number and seat state (rules/dayLists.ts `transportList`). */
export async function transportCsv(db: Kysely<Database>, actor: Actor, eventId: string, language: Language): Promise<CsvFile> {
  requireAdmin(actor);
  const { event, attendees, names } = await dayListData(db, eventId);
  const options = await db
    .selectFrom('transports')
    .select(['id', 'name', 'departure_datetime', 'departure_location'])
    .where('event_id', '=', eventId)
    .where('deleted', '=', 0)
    .execute();
  const parts = await busPartsOf(
    db,
    options.map((option) => option.id),
  );
  const transports = options.map((option) => ({ ...option, seats: parts.get(option.id)!.seats }));
  const words = WORDS[language];
  const list = transportList(attendees, transports satisfies DayListTransport[], names);
  const rows = list.passengers.map((passenger): CsvCell[] => [
    passenger.option?.name ?? null,
    passenger.option?.departure_datetime?.slice(0, 16) ?? null,
    passenger.option?.departure_location || null,
    passenger.seat_number,
    ...personCells(passenger, words),
    words[passenger.status],
    words[passenger.seat],
  ]);
  return { filename: fileName('transport', event), text: toCsv(words.transportHeader, rows) };
}
