import { POLL_RESULTS, type PollResults } from '../constants.js';
import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/** One answer a poll offers, with its count where the member may see it. */
export interface PollOptionDoc {
  id: string;
  text: string;
  /** How many members chose it; null while the counts are hidden from this member (shared/src/rules/polls.ts). */
  votes: number | null;
}

/**
 * A poll an admin asks the members (docs/product.md, Polls): shown on /events and on its event's
 * page. The server maps it for each member: the counts only where that member may see them, so a
 * vote gives the poll a new seq and every device pulls the new counts.
 */
export interface PollDoc extends SyncedDoc {
  question: string;
  options: PollOptionDoc[];
  /** Several options may be chosen (checkboxes), else one (radio buttons). */
  multiple: boolean;
  results: PollResults;
  /** The closing time in the club's wall-clock time `YYYY-MM-DD HH:MM:SS`, or null: open until an admin closes it. */
  closes_at: string | null;
  /** The same instant in ISO 8601 UTC: a vote arriving from then on is refused. */
  closes_at_utc: string | null;
  /** Closed (by an admin, or its closing time passed). */
  closed: boolean;
  /** How many members have voted; null while the counts are hidden. */
  voters: number | null;
  /** The event it belongs to, or null; a poll of an event goes when the event is deleted. */
  event_id: string | null;
  /** The admin who asked. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

const nullableCount = { type: ['integer', 'null'], minimum: 0 } as const;

export const pollSchema = {
  title: 'polls',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    question: { type: 'string' },
    options: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, text: { type: 'string' }, votes: nullableCount },
        required: ['id', 'text'],
      },
    },
    multiple: { type: 'boolean' },
    results: { type: 'string', enum: [...POLL_RESULTS] },
    closes_at: nullableString,
    closes_at_utc: nullableString,
    closed: { type: 'boolean' },
    voters: nullableCount,
    event_id: nullableString,
    created_by: { type: 'string' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'question', 'options', 'multiple', 'results', 'closed', 'created_by', 'created_at', 'updated_at', 'seq'],
} as const;

/** Every live poll, for every member, mapped for them. Pull only (admins write polls through REST). */
export const pollsSync = defineSyncCollection<PollDoc>({
  name: 'polls',
  schema: pollSchema,
  // Shown above the events list, below the news: pulled with the events.
  priority: 0,
  partOfEvent: true,
  tombstone: {
    question: '',
    options: [],
    multiple: false,
    results: 'after_vote',
    closes_at: null,
    closes_at_utc: null,
    closed: true,
    voters: null,
    event_id: null,
    created_by: '',
    created_at: '',
    updated_at: '',
  },
});
