import { membersSync, type MemberDoc } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import { isAdmin } from '../../domain/actor.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

/** Which members list an actor reads: admins see e-mail addresses, members do not. */
type MembersView = 'admin' | 'member';

async function pullMembers(
  db: Kysely<Database>,
  view: MembersView,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<MemberDoc>[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'scope', 'seq', 'deleted', 'former_number'])
    .where('seq', '>', afterSeq)
    .where((eb) => eb.or([eb('status', '=', 'active'), eb('deleted', '=', 1)]))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row): MasterDocument<MemberDoc> => ({
    id: row.id,
    username: row.username,
    email: view === 'admin' && row.former_number === null ? row.email : null,
    scope: row.scope,
    seq: Number(row.seq),
    // An erased member stays as their pseudonym: their kept tickets and deleted comments still name someone.
    _deleted: toBool(row.deleted) && row.former_number === null,
  }));
}

/**
 * Active users (id, username; email only for admins). Pending registrations are never sent; a
 * declined account arrives as a tombstone, an erased one as its pseudonym (docs/architecture.md,
 * Erasure and retention). Two shared lists: the admins' and the members'.
 */
export const membersCollection = defineServerCollection<MemberDoc>({
  declaration: membersSync,
  pull: (db, actor, afterSeq, limit) => pullMembers(db, isAdmin(actor) ? 'admin' : 'member', afterSeq, limit),
  shared: {
    variantOf: (actor) => (isAdmin(actor) ? 'admin' : 'member'),
    pull: (db, variant, afterSeq, limit) => pullMembers(db, variant as MembersView, afterSeq, limit),
  },
});
