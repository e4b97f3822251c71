import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/** A transport option of an event (bus, cars): price a number, free, or to be announced. */
export interface TransportDoc extends SyncedDoc {
  event_id: string;
  name: string;
  price_per_seat_cents: number;
  is_free: boolean;
  is_price_tbd: boolean;
  /** Club wall-clock time `YYYY-MM-DD HH:MM:SS`; null = to be announced. */
  departure_datetime: string | null;
  departure_location: string;
  created_at: string;
  /** The seat plan (docs/product.md, Bus): its seats numbered 1..seat_count; null: no plan. */
  seat_count: number | null;
  /** Rows and seats per row when the plan was given as rows (shown with an aisle); null: a plain count. */
  seat_rows: number | null;
  seats_per_row: number | null;
  /** Who assigns the seats: the admin, or each member for themselves and their guests. */
  seat_choice: 'admin' | 'members';
  /** Whether the fare is charged by itself at the departure time. */
  charge_at_departure: boolean;
  /** The option's captains (members), who tick the passengers on board. */
  captain_ids: string[];
  /** The assigned seats with who holds each (the person's name kept beside it, for one who cancelled since). */
  seats: TransportSeat[];
}

/** An assigned seat: the attendee row holding it and who that row is. */
export interface TransportSeat {
  seat: number;
  attendee_id: string;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
}

export const transportSchema = {
  title: 'transports',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    event_id: idField,
    name: { type: 'string' },
    price_per_seat_cents: { type: 'integer' },
    is_free: { type: 'boolean' },
    is_price_tbd: { type: 'boolean' },
    departure_datetime: nullableString,
    departure_location: { type: 'string' },
    created_at: { type: 'string' },
    seat_count: { type: ['integer', 'null'] },
    seat_rows: { type: ['integer', 'null'] },
    seats_per_row: { type: ['integer', 'null'] },
    seat_choice: { type: 'string' },
    charge_at_departure: { type: 'boolean' },
    captain_ids: { type: 'array', items: { type: 'string' } },
    seats: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          seat: { type: 'integer' },
          attendee_id: { type: 'string' },
          user_id: nullableString,
          guest_name: nullableString,
          brought_by: nullableString,
        },
        required: ['seat', 'attendee_id'],
      },
    },
    seq: seqField,
  },
  required: [
    'id',
    'event_id',
    'name',
    'price_per_seat_cents',
    'is_free',
    'is_price_tbd',
    'departure_location',
    'created_at',
    'seat_choice',
    'charge_at_departure',
    'captain_ids',
    'seats',
    'seq',
  ],
  indexes: ['event_id'],
} as const;

/** Transport options of every event. Pull only (admins write them through REST). */
export const transportsSync = defineSyncCollection<TransportDoc>({
  name: 'transports',
  schema: transportSchema,
  priority: 1,
  partOfEvent: true,
  tombstone: {
    event_id: '',
    name: '',
    price_per_seat_cents: 0,
    is_free: false,
    is_price_tbd: false,
    departure_datetime: null,
    departure_location: '',
    created_at: '',
    seat_count: null,
    seat_rows: null,
    seats_per_row: null,
    seat_choice: 'admin',
    charge_at_departure: false,
    captain_ids: [],
    seats: [],
  },
});
