import { idField, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/**
 * The signed-in user was named with @ in a comment (docs/product.md, Data). The event title, the comment
 * text and the commenter's name come from the device's events, comments and members collections.
 */
export interface MentionDoc extends SyncedDoc {
  comment_id: string;
  event_id: string;
  /** The mentioned user (always the signed-in user on a device). */
  user_id: string;
  is_read: boolean;
  created_at: string;
}

export const mentionSchema = {
  title: 'mentions',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    comment_id: idField,
    event_id: idField,
    user_id: { type: 'string' },
    is_read: { type: 'boolean' },
    created_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'comment_id', 'event_id', 'user_id', 'is_read', 'created_at', 'seq'],
  indexes: ['event_id'],
} as const;

/** The signed-in user's mentions; the server creates them from comment texts, a device only marks them read. */
export const mentionsSync = defineSyncCollection<MentionDoc, 'mention.read'>({
  name: 'mentions',
  schema: mentionSchema,
  priority: 3,
  push: {
    fields: ['is_read'],
    createFields: [],
    create: false,
    delete: false,
    ownerOf: (doc) => doc.user_id,
    refusals: ['mention.read'],
  },
  partOfEvent: true,
  tombstone: { comment_id: '', event_id: '', user_id: '', is_read: true, created_at: '' },
});
