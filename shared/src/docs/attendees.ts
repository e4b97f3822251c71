import type { AttendanceStatus, TransferStatus } from '../constants.js';
import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/** One attendance row per user or guest per event; also the ticket (its id is the ticket id). */
export interface AttendeeDoc extends SyncedDoc {
  event_id: string;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
  status: AttendanceStatus;
  needs_ticket: boolean;
  has_ticket: boolean;
  needs_transport: boolean;
  transfer_status: TransferStatus | null;
  paid_by: string | null;
  ticket_price_id: string | null;
  ticket_type: string | null;
  price_cents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
  bought: boolean;
  paid: boolean;
  received: boolean;
  paid_requested: boolean;
  received_requested: boolean;
  /**
   * A contingent's ticket: when it is to be paid by (ISO 8601 UTC, its allocation plus the payment
   * days); until then it does not trigger the debt block. Null otherwise. Set by the server only.
   */
  pay_by?: string | null;
  created_at: string;
}

/** Fields a member may change on their own row (or a guest's they brought) through a push; the rest are admin-owned. */
export const MEMBER_OWNED_ATTENDEE_FIELDS = [
  'status',
  'needs_ticket',
  'has_ticket',
  'needs_transport',
  'paid_requested',
  'received_requested',
  'guest_name',
] as const satisfies readonly (keyof AttendeeDoc)[];

const bool = { type: 'boolean' } as const;

export const attendeeSchema = {
  title: 'attendees',
  // 1: pay_by (the debt block on the device waits for a contingent ticket's payment days).
  // 2: split by owner: RxDB keeps only the device's own rows, so a device's older copy (every row) is dropped.
  version: 2,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    event_id: idField,
    user_id: nullableString,
    guest_name: nullableString,
    brought_by: nullableString,
    status: { type: 'string', enum: ['going', 'maybe'] },
    needs_ticket: bool,
    has_ticket: bool,
    needs_transport: bool,
    transfer_status: { type: ['string', 'null'], enum: ['outstanding', 'reserved', 'waiting_list', null] },
    paid_by: nullableString,
    ticket_price_id: nullableString,
    ticket_type: nullableString,
    price_cents: { type: ['integer', 'null'] },
    is_free: bool,
    is_price_tbd: bool,
    bought: bool,
    paid: bool,
    received: bool,
    paid_requested: bool,
    received_requested: bool,
    pay_by: nullableString,
    created_at: { type: 'string' },
    seq: seqField,
  },
  required: [
    'id',
    'event_id',
    'status',
    'needs_ticket',
    'has_ticket',
    'needs_transport',
    'is_free',
    'is_price_tbd',
    'bought',
    'paid',
    'received',
    'paid_requested',
    'received_requested',
    'created_at',
    'seq',
  ],
  indexes: ['event_id'],
} as const;

/** The ticket part of an attendee document without a ticket: nothing bought, no price, no requests. */
export const NO_TICKET_DOC = {
  paid_by: null,
  ticket_price_id: null,
  ticket_type: null,
  price_cents: null,
  is_free: false,
  is_price_tbd: false,
  bought: false,
  paid: false,
  received: false,
  paid_requested: false,
  received_requested: false,
} as const satisfies Partial<AttendeeDoc>;

/**
 * The attendance rows of the events a device keeps, and the member's own rows and guests' of any
 * event (`keptByEvent`). Members create, change and delete (= not going) their own row and the rows
 * of guests they bring; ticket fields, price and seat status are the admin's.
 */
export const attendeesSync = defineSyncCollection<
  AttendeeDoc,
  'attendance.set' | 'attendance.change' | 'attendance.remove' | 'guest.add' | 'guest.change' | 'guest.remove' | 'request.change'
>({
  name: 'attendees',
  schema: attendeeSchema,
  priority: 2,
  push: {
    fields: MEMBER_OWNED_ATTENDEE_FIELDS,
    createFields: ['event_id', 'user_id', 'brought_by', 'created_at'],
    create: true,
    delete: true,
    ownerOf: (doc) => doc.user_id ?? doc.brought_by,
    refusals: [
      'attendance.set',
      'attendance.change',
      'attendance.remove',
      'guest.add',
      'guest.change',
      'guest.remove',
      'request.change',
    ],
  },
  partOfEvent: true,
  keptByEvent: true,
  splitByOwner: true,
  tombstone: {
    event_id: '',
    user_id: null,
    guest_name: null,
    brought_by: null,
    status: 'going',
    needs_ticket: false,
    has_ticket: false,
    needs_transport: false,
    transfer_status: null,
    ...NO_TICKET_DOC,
    created_at: '',
  },
});
