import type { CoreMessageCode } from '../messages.js';
import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/**
 * A server message for the signed-in user: why a change made on one of their devices was refused.
 * It stays in the list of refusals (reachable from the sync indicator) until the member has read
 * it on any device.
 */
export interface NoticeDoc extends SyncedDoc {
  user_id: string;
  code: CoreMessageCode | string;
  message: string;
  /** The event the refused change was about, and its title when the notice was written. */
  event_id: string | null;
  event_title: string | null;
  /** What was refused: one of the `push.refusals` of the collection it was pushed to (`NoticeAction`). */
  action: string | null;
  is_read: boolean;
  created_at: string;
}

export const noticeSchema = {
  title: 'notices',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    user_id: { type: 'string' },
    code: { type: 'string' },
    message: { type: 'string' },
    event_id: nullableString,
    event_title: nullableString,
    action: nullableString,
    is_read: { type: 'boolean' },
    created_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'user_id', 'code', 'message', 'is_read', 'created_at', 'seq'],
} as const;

/** The signed-in user's notices; the only thing a device changes is marking one read. */
export const noticesSync = defineSyncCollection<NoticeDoc, 'notice.read'>({
  name: 'notices',
  schema: noticeSchema,
  priority: 0,
  push: {
    fields: ['is_read'],
    createFields: [],
    create: false,
    delete: false,
    ownerOf: (doc) => doc.user_id,
    refusals: ['notice.read'],
  },
  tombstone: {
    user_id: '',
    code: '',
    message: '',
    event_id: null,
    event_title: null,
    action: null,
    is_read: true,
    created_at: '',
  },
});
