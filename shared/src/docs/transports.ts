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
}

export const transportSchema = {
  title: 'transports',
  version: 0,
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
  },
});
