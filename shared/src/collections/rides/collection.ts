import { idField, nullableString, seqField, type SyncedDoc } from '../../docs/common.js';
import { defineSyncCollection } from '../../docs/declaration.js';
import { defineCollection } from '../define.js';

/*
 * Rides members offer to an event (docs/product.md, Rides), a collection in its own files
 * (docs/architecture.md, Adding a synced collection): this file declares the document, its sync
 * declaration, its message codes and its limits; rules.ts the checks both sides make; schemas.ts
 * and answers.ts the REST shapes.
 */

/** How many seats a ride offers, at least and at most (docs/product.md, Limits and constants). */
export const RIDE_SEATS_MIN = 1;
export const RIDE_SEATS_MAX = 8;
/** The longest departure place and note. */
export const RIDE_PLACE_MAX_LENGTH = 120;
export const RIDE_NOTE_MAX_LENGTH = 500;
/** The highest suggested cost share per seat: 100 €. */
export const RIDE_COST_SHARE_MAX_CENTS = 10_000;

/** A ride a member (the driver) offers to an event; cancelling it deletes it. */
export interface RideDoc extends SyncedDoc {
  event_id: string;
  /** The member who drives and offers it. */
  driver_id: string;
  seats: number;
  /** Where the ride starts, one line. */
  departure_location: string;
  /** When it leaves, the club's wall-clock time `YYYY-MM-DD HH:MM:SS`. */
  departure_datetime: string;
  /** Whether the driver drives back after the match (and takes the passengers). */
  drives_back: boolean;
  note: string | null;
  /** A suggested share of the cost per seat, only shown (it stays between driver and passengers). */
  cost_share_cents: number | null;
  created_at: string;
  updated_at: string;
}

export const rideSchema = {
  title: 'rides',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    event_id: idField,
    driver_id: { type: 'string' },
    seats: { type: 'integer', minimum: 0, maximum: 100, multipleOf: 1 },
    departure_location: { type: 'string' },
    departure_datetime: { type: 'string' },
    drives_back: { type: 'boolean' },
    note: nullableString,
    cost_share_cents: { type: ['integer', 'null'] },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: [
    'id',
    'event_id',
    'driver_id',
    'seats',
    'departure_location',
    'departure_datetime',
    'drives_back',
    'created_at',
    'updated_at',
    'seq',
  ],
  indexes: ['event_id'],
} as const;

/** What the driver may change on their ride; the event and the driver are its identity. */
export const RIDE_FIELDS = [
  'seats',
  'departure_location',
  'departure_datetime',
  'drives_back',
  'note',
  'cost_share_cents',
] as const;

/**
 * Every live ride of every event, for every member: a club has few. The driver offers, changes and
 * cancels their ride on the device, offline too; the server decides again when the push arrives
 * (an event archived or deleted meanwhile, a ride an admin removed: refused with a notice).
 */
export const ridesSync = defineSyncCollection<RideDoc, 'ride.offer' | 'ride.change' | 'ride.cancel'>({
  name: 'rides',
  schema: rideSchema,
  priority: 2,
  push: {
    fields: RIDE_FIELDS,
    createFields: ['event_id', 'driver_id'],
    create: true,
    delete: true,
    ownerOf: (doc) => doc.driver_id,
    refusals: ['ride.offer', 'ride.change', 'ride.cancel'],
  },
  partOfEvent: true,
  partOfUser: 'driver_id',
  tombstone: {
    event_id: '',
    driver_id: '',
    seats: 0,
    departure_location: '',
    departure_datetime: '',
    drives_back: false,
    note: null,
    cost_share_cents: null,
    created_at: '',
    updated_at: '',
  },
});

/** The rides' message codes (docs/product.md, Error texts), English as the server sends them. */
export const rideMessages = {
  rideNotFound: 'Ride not found',
  rideSaved: 'Ride saved',
  rideCancelled: 'Ride cancelled',
  rideSeatsInvalid: 'A ride offers 1 to 8 seats',
  rideLocationRequired: 'Please say where the ride starts',
  rideDepartsAfterEvent: 'The ride must leave before the event starts',
  rideCostShareInvalid: 'The cost share must be between 0 and 100 euros',
} as const;
export type RideMessageCode = keyof typeof rideMessages;

export const ridesDefinition = defineCollection('rides', {
  declaration: ridesSync,
  messages: rideMessages,
});
