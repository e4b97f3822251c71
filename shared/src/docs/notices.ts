import type { MessageCode } from '../messages.js';
import { idField, seqField, type SyncedDoc } from './common.js';

/** A server message for the signed-in user (e.g. why a pushed change was refused), shown as a toast. */
export interface NoticeDoc extends SyncedDoc {
  user_id: string;
  code: MessageCode | string;
  message: string;
  created_at: string;
}

export const noticeSchema = {
  title: 'notices',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    user_id: { type: 'string' },
    code: { type: 'string' },
    message: { type: 'string' },
    created_at: { type: 'string' },
    seq: seqField,
  },
  required: ['id', 'user_id', 'code', 'message', 'created_at', 'seq'],
} as const;
