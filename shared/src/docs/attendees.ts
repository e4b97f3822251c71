import type { AttendanceStatus, TransferStatus } from '../constants.js';
import { idField, nullableString, seqField, type SyncedDoc } from './common.js';

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
  created_at: string;
}

/** Fields a member may change on their own row through a push; the rest are admin-owned. */
export const MEMBER_OWNED_ATTENDEE_FIELDS = [
  'status',
  'needs_ticket',
  'has_ticket',
  'needs_transport',
  'paid_requested',
  'received_requested',
] as const satisfies readonly (keyof AttendeeDoc)[];

const bool = { type: 'boolean' } as const;

export const attendeeSchema = {
  title: 'attendees',
  version: 0,
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
