import { idField, nullableString, seqField, type SyncedDoc } from '../../docs/common.js';
import { defineSyncCollection } from '../../docs/declaration.js';
import { defineCollection } from '../define.js';

/*
 * Rides members offer to an event and the seats members ask for in them (docs/product.md, Rides):
 * two collections in one folder (docs/architecture.md, Adding a synced collection, "Seats in
 * rides"): this file declares the documents, their sync declarations, their message codes and their
 * limits; rules.ts the checks both sides make; schemas.ts and answers.ts the REST shapes.
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
  /** The seats held by asks that are asked or accepted; kept by the server (docs/product.md, Rides). */
  seats_taken: number;
  created_at: string;
  updated_at: string;
}

export const rideSchema = {
  title: 'rides',
  version: 1,
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
    seats_taken: { type: 'integer', minimum: 0, maximum: 100, multipleOf: 1 },
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
    'seats_taken',
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
    seats_taken: 0,
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
  rideSeatsBelowTaken: 'The ride cannot offer fewer seats than passengers have asked for',
} as const;
export type RideMessageCode = keyof typeof rideMessages;

export const ridesDefinition = defineCollection('rides', {
  declaration: ridesSync,
  messages: rideMessages,
});

/** The longest note of a seat request (one line). */
export const RIDE_SEAT_NOTE_MAX_LENGTH = 120;

/** Where a seat request stands: asked, accepted or declined by the driver (cancelling deletes it). */
export const RIDE_SEAT_STATES = ['asked', 'accepted', 'declined'] as const;
export type RideSeatState = (typeof RIDE_SEAT_STATES)[number];
/** What the driver answers. */
export const RIDE_SEAT_ANSWERS = ['accepted', 'declined'] as const;
export type RideSeatAnswer = (typeof RIDE_SEAT_ANSWERS)[number];

/**
 * A member's request for seats in another member's ride (docs/product.md, Rides): it holds its seats
 * while asked or accepted; the passenger cancels it by deleting it.
 */
export interface RideSeatDoc extends SyncedDoc {
  ride_id: string;
  event_id: string;
  /** The member who asks. */
  passenger_id: string;
  seats: number;
  /** One line for the driver, or none. */
  note: string | null;
  state: RideSeatState;
  created_at: string;
  updated_at: string;
}

export const rideSeatSchema = {
  title: 'ride_seats',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    ride_id: idField,
    event_id: idField,
    passenger_id: { type: 'string' },
    seats: { type: 'integer', minimum: 0, maximum: 100, multipleOf: 1 },
    note: nullableString,
    state: { type: 'string', enum: [...RIDE_SEAT_STATES] },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'ride_id', 'event_id', 'passenger_id', 'seats', 'state', 'created_at', 'updated_at', 'seq'],
  indexes: ['ride_id'],
} as const;

/**
 * The seat requests an actor may see (docs/architecture.md, Seats in rides): their own, every one
 * of the rides they drive, and once accepted the other accepted ones of that ride. The passenger
 * asks and cancels on the device, offline too; the driver accepts or declines there (`state`); the
 * server decides when the push arrives (the last seat taken meanwhile: refused with a notice).
 */
export const rideSeatsSync = defineSyncCollection<RideSeatDoc, 'rideSeat.ask' | 'rideSeat.answer' | 'rideSeat.cancel'>({
  name: 'ride_seats',
  schema: rideSeatSchema,
  priority: 3,
  push: {
    fields: ['state'],
    createFields: ['ride_id', 'event_id', 'passenger_id', 'seats', 'note'],
    create: true,
    delete: true,
    ownerOf: (doc) => doc.passenger_id,
    refusals: ['rideSeat.ask', 'rideSeat.answer', 'rideSeat.cancel'],
  },
  partOfEvent: true,
  partOfUser: 'passenger_id',
  tombstone: {
    ride_id: '',
    event_id: '',
    passenger_id: '',
    seats: 0,
    note: null,
    state: 'declined',
    created_at: '',
    updated_at: '',
  },
});

/** The seat requests' message codes (docs/product.md, Error texts), English as the server sends them. */
export const rideSeatMessages = {
  rideSeatNotFound: 'Seat request not found',
  rideSeatAsked: 'Seat requested',
  rideSeatAnswered: 'Seat request answered',
  rideSeatCancelled: 'Seat request cancelled',
  rideSeatsAskedInvalid: 'Ask for at least 1 seat and at most the seats the ride offers',
  rideOwnSeat: 'You drive this ride yourself',
  rideSeatAlreadyAsked: 'You have already asked for a seat in this ride',
  rideFull: 'Not enough free seats in this ride',
  rideSeatDeclined: 'This seat request was declined',
} as const;
export type RideSeatMessageCode = keyof typeof rideSeatMessages;

export const rideSeatsDefinition = defineCollection('ride_seats', {
  declaration: rideSeatsSync,
  messages: rideSeatMessages,
});
