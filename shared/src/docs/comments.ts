import { idField, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/**
 * A comment on an event (docs/product.md, Data; the author's name comes from the members collection). Who
 * may change what is `shared/src/rules/comments.ts`, checked again by the server on every push.
 */
export interface CommentDoc extends SyncedDoc {
  event_id: string;
  /** The author. */
  user_id: string;
  comment: string;
  requires_answer: boolean;
  is_resolved: boolean;
  /** When it was written (on the device, for a comment written offline; the server keeps it within bounds). */
  created_at: string;
  updated_at: string;
}

const bool = { type: 'boolean' } as const;

export const commentSchema = {
  title: 'comments',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    event_id: idField,
    user_id: { type: 'string' },
    comment: { type: 'string' },
    requires_answer: bool,
    is_resolved: bool,
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'event_id', 'user_id', 'comment', 'requires_answer', 'is_resolved', 'created_at', 'updated_at', 'seq'],
  indexes: ['event_id'],
} as const;

/**
 * The comments of the events a device keeps, and the member's own and those naming them of any
 * event (`keptByEvent`). Members write, edit, resolve and delete their own
 * (offline too); admins resolve, reopen and toggle the answer request of anyone's.
 */
export const commentsSync = defineSyncCollection<CommentDoc, 'comment.add' | 'comment.change' | 'comment.remove'>({
  name: 'comments',
  schema: commentSchema,
  priority: 3,
  push: {
    fields: ['comment', 'requires_answer', 'is_resolved'],
    createFields: ['event_id', 'user_id', 'created_at'],
    create: true,
    delete: true,
    ownerOf: (doc) => doc.user_id,
    refusals: ['comment.add', 'comment.change', 'comment.remove'],
  },
  partOfEvent: true,
  keptByEvent: true,
  tombstone: {
    event_id: '',
    user_id: '',
    comment: '',
    requires_answer: false,
    is_resolved: false,
    created_at: '',
    updated_at: '',
  },
});
