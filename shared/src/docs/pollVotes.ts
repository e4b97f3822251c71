import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/**
 * A member's vote in a poll (docs/product.md, Polls): one per member and poll, the options they
 * chose (none: withdrawn). Made and changed on the device, offline too; the server decides by the
 * vote's arrival, so a vote that arrives after the close is refused with a notice.
 */
export interface PollVoteDoc extends SyncedDoc {
  poll_id: string;
  /** The voter (always the signed-in member on a device). */
  user_id: string;
  /** The poll's event, or null (set by the server: the vote goes with the event). */
  event_id: string | null;
  /** The chosen options in the poll's order; [] withdraws the vote. */
  option_ids: string[];
  created_at: string;
  updated_at: string;
}

export const pollVoteSchema = {
  title: 'poll_votes',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    poll_id: idField,
    user_id: { type: 'string' },
    event_id: nullableString,
    option_ids: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'poll_id', 'user_id', 'option_ids', 'created_at', 'updated_at', 'seq'],
  indexes: ['poll_id'],
} as const;

/**
 * The signed-in member's own votes (each member pulls only theirs). A device creates a vote and
 * changes its `option_ids`; it never deletes one ([] withdraws).
 */
export const pollVotesSync = defineSyncCollection<PollVoteDoc, 'poll.vote'>({
  name: 'poll_votes',
  schema: pollVoteSchema,
  priority: 3,
  push: {
    fields: ['option_ids'],
    createFields: ['poll_id', 'user_id'],
    create: true,
    delete: false,
    ownerOf: (doc) => doc.user_id,
    refusals: ['poll.vote'],
  },
  partOfEvent: true,
  tombstone: { poll_id: '', user_id: '', event_id: null, option_ids: [], created_at: '', updated_at: '' },
});
