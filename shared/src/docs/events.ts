import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

export interface TicketPriceOption {
  id: string;
  price_cents: number;
  ticket_type: string;
}

export interface EventDoc extends SyncedDoc {
  title: string;
  description: string | null;
  date: string;
  location: string;
  stadium_id: string | null;
  stadium_name: string | null;
  stadium_address: string | null;
  ticket_price_cents: number;
  ticket_buyer: string | null;
  season: string;
  is_updated: boolean;
  created_by: string | null;
  /** The creator's username at the last change of the event (kept when the account is gone). */
  creator_name: string | null;
  image_filename: string | null;
  guest_block_capacity: number | null;
  ticket_prices: TicketPriceOption[];
  created_at: string;
  /**
   * Deleted by an admin while tickets on it were bought: screens treat it as deleted; the document
   * stays for the title, date and location of the tickets, which stay live (docs/product.md, Tickets and money).
   */
  archived: boolean;
  /**
   * Live attendee rows (guests included) answering going, and maybe: the counts of an event whose
   * rows the device does not keep (docs/architecture.md, What a device keeps).
   */
  going_count: number;
  maybe_count: number;
  /**
   * The answer deadline, the club's wall-clock time `YYYY-MM-DD HH:MM:SS` before the event, or null:
   * after it members can no longer change their answer or guests (docs/product.md, Answer deadlines
   * and reminders; rule `checkAnswerDeadlineOpen`).
   */
  answer_deadline: string | null;
}

export const eventSchema = {
  title: 'events',
  version: 3,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    title: { type: 'string' },
    description: nullableString,
    date: { type: 'string', maxLength: 19 },
    location: { type: 'string' },
    stadium_id: nullableString,
    stadium_name: nullableString,
    stadium_address: nullableString,
    ticket_price_cents: { type: 'integer' },
    ticket_buyer: nullableString,
    season: { type: 'string' },
    is_updated: { type: 'boolean' },
    created_by: nullableString,
    creator_name: nullableString,
    image_filename: nullableString,
    guest_block_capacity: { type: ['integer', 'null'] },
    ticket_prices: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, price_cents: { type: 'integer' }, ticket_type: { type: 'string' } },
        required: ['id', 'price_cents', 'ticket_type'],
      },
    },
    created_at: { type: 'string' },
    archived: { type: 'boolean' },
    going_count: { type: 'integer' },
    maybe_count: { type: 'integer' },
    answer_deadline: nullableString,
    seq: seqField,
  },
  required: [
    'id',
    'title',
    'date',
    'location',
    'ticket_price_cents',
    'season',
    'is_updated',
    'ticket_prices',
    'created_at',
    'archived',
    'going_count',
    'maybe_count',
    'seq',
  ],
  indexes: ['date'],
} as const;

/** Every event with its stadium and ticket price options. Pull only (edits go through REST); synced first. */
export const eventsSync = defineSyncCollection<EventDoc>({
  name: 'events',
  schema: eventSchema,
  priority: 0,
  tombstone: {
    title: '',
    description: null,
    date: '',
    location: '',
    stadium_id: null,
    stadium_name: null,
    stadium_address: null,
    ticket_price_cents: 0,
    ticket_buyer: null,
    season: '',
    is_updated: false,
    created_by: null,
    creator_name: null,
    image_filename: null,
    guest_block_capacity: null,
    ticket_prices: [],
    created_at: '',
    archived: false,
    going_count: 0,
    maybe_count: 0,
    answer_deadline: null,
  },
});
