import { idField, seqField, type SyncedDoc } from '../../docs/common.js';
import { defineSyncCollection } from '../../docs/declaration.js';
import { defineCollection } from '../define.js';

/*
 * The bus (docs/product.md, Bus): boarding ticks of a transport option's passengers, a collection in
 * its own files (docs/architecture.md, Adding a synced collection). This file also carries the
 * message codes and limits of the bus's seat plans, seats, captains and fare, which live on the
 * transport options (server/src/domain/events/transportSeats.ts): rules.ts holds the checks both
 * sides make, schemas.ts and answers.ts the REST shapes.
 */

/** A seat plan: 1 to 100 seats, or 1 to 30 rows of 1 to 6 seats (docs/product.md, Limits and constants). */
export const SEAT_PLAN_SEATS_MAX = 100;
export const SEAT_PLAN_ROWS_MAX = 30;
export const SEAT_PLAN_SEATS_PER_ROW_MAX = 6;
/** The most captains one transport option has. */
export const CAPTAINS_MAX = 10;

/**
 * One passenger's boarding on one transport option: one document per (option, attendee row), its id
 * derived from the pair (`boardingIdOf`), so two captains ticking the same passenger offline write the
 * same document and their ticks merge (the later push wins). Kept when the passenger cancels.
 */
export interface BoardingDoc extends SyncedDoc {
  event_id: string;
  transport_id: string;
  attendee_id: string;
  on_board: boolean;
  /** The captain or admin who ticked last (set by the server). */
  by: string;
  created_at: string;
  updated_at: string;
}

export const boardingSchema = {
  title: 'boardings',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    event_id: idField,
    transport_id: idField,
    attendee_id: { type: 'string' },
    on_board: { type: 'boolean' },
    by: { type: 'string' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'event_id', 'transport_id', 'attendee_id', 'on_board', 'by', 'created_at', 'updated_at', 'seq'],
  indexes: ['event_id', 'transport_id'],
} as const;

/**
 * Every boarding tick, for every member (a club has few, and a captain named later needs the ticks
 * made before). A captain of the option or an admin ticks on the device, offline too; the server
 * decides again when the push arrives (not a captain: refused with a notice).
 */
export const boardingsSync = defineSyncCollection<BoardingDoc, 'boarding.tick'>({
  name: 'boardings',
  schema: boardingSchema,
  priority: 2,
  push: {
    fields: ['on_board'],
    createFields: ['event_id', 'transport_id', 'attendee_id'],
    create: true,
    delete: false,
    ownerOf: (doc) => doc.by,
    refusals: ['boarding.tick'],
  },
  partOfEvent: true,
  tombstone: {
    event_id: '',
    transport_id: '',
    attendee_id: '',
    on_board: false,
    by: '',
    created_at: '',
    updated_at: '',
  },
});

/** The bus's message codes (docs/product.md, Error texts), English as the server sends them. */
export const boardingMessages = {
  seatPlanInvalid: 'A seat plan has 1 to 100 seats, or 1 to 30 rows of 1 to 6 seats',
  seatPlanInUse: 'Seats are still assigned beyond this plan: free them first',
  seatPlanSaved: 'Seat plan saved',
  seatOutsidePlan: 'This seat is not in the seat plan',
  seatTaken: 'This seat is taken',
  seatNotPassenger: 'Only someone going who needs a seat can get one',
  seatSaved: 'Seat saved',
  seatChoiceInvalid: 'Seat choice is either by the admin or by the members',
  captainsInvalid: 'Captains must be active members (at most 10)',
  captainsSaved: 'Captains saved',
  boardingNotAllowed: 'Only a captain of this bus or an admin ticks passengers',
  boardingNotPassenger: 'This person is not a passenger of this bus',
  boardingSaved: 'Boarding saved',
  fareNotSet: 'The price per seat is free or not announced yet',
  fareNothingToCharge: 'Every passenger of this bus has been charged already',
  fareCharged: 'Fare charged',
} as const;
export type BoardingMessageCode = keyof typeof boardingMessages;

export const boardingsDefinition = defineCollection('boardings', {
  declaration: boardingsSync,
  messages: boardingMessages,
});
