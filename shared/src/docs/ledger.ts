import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/** The kinds of ledger entries (the rules in rules/ledger.ts say what each does to a balance). */
export const LEDGER_KINDS = ['ticket', 'charge', 'payment', 'credit', 'refund', 'reversal'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * One entry of the signed-in member's ledger (docs/product.md, Tickets and money): signed cents,
 * positive raises what they owe. The device builds the balance and the statement from these with
 * the shared rules (rules/ledger.ts), so /my-tickets shows them offline.
 */
export interface LedgerDoc extends SyncedDoc {
  user_id: string;
  kind: LedgerKind;
  amount_cents: number;
  /** The club's day it counts on (`YYYY-MM-DD`). */
  date: string;
  description: string;
  event_id: string | null;
  attendee_id: string | null;
  reverses_id: string | null;
  created_at: string;
}

export const ledgerSchema = {
  title: 'ledger',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    user_id: { type: 'string' },
    kind: { type: 'string' },
    amount_cents: { type: 'integer' },
    date: { type: 'string' },
    description: { type: 'string' },
    event_id: nullableString,
    attendee_id: nullableString,
    reverses_id: nullableString,
    created_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'user_id', 'kind', 'amount_cents', 'date', 'description', 'created_at', 'seq'],
} as const;

/**
 * The signed-in member's own entries. Pull only: admins book entries over REST and tickets write
 * theirs on the server. Entries are never deleted, so the tombstone only fills the declaration.
 */
export const ledgerSync = defineSyncCollection<LedgerDoc>({
  name: 'ledger',
  schema: ledgerSchema,
  priority: 1,
  tombstone: {
    user_id: '',
    kind: 'charge',
    amount_cents: 0,
    date: '',
    description: '',
    event_id: null,
    attendee_id: null,
    reverses_id: null,
    created_at: '',
  },
});
