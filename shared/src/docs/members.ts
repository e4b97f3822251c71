import type { Scope } from '../constants.js';
import { idField, nullableString, seqField, type SyncedDoc } from './common.js';
import { defineSyncCollection } from './declaration.js';

/** Active users as members see them; email only for admins. */
export interface MemberDoc extends SyncedDoc {
  username: string;
  email: string | null;
  scope: Scope;
}

export const memberSchema = {
  title: 'members',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: idField,
    username: { type: 'string' },
    email: nullableString,
    scope: { type: 'string', enum: ['admin', 'user'] },
    seq: seqField,
  },
  required: ['id', 'username', 'scope', 'seq'],
} as const;

/** Active members (email only for admins). Pull only. */
export const membersSync = defineSyncCollection<MemberDoc>({
  name: 'members',
  schema: memberSchema,
  priority: 1,
  tombstone: { username: '', email: null, scope: 'user' },
});
