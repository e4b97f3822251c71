import { membersSync, type MemberDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { isAdmin } from '../../domain/actor.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

/**
 * Active users (id, username; email only for admins). Pending registrations are never sent; a
 * deleted or declined account arrives as a tombstone.
 */
export const membersCollection = defineServerCollection<MemberDoc>({
  declaration: membersSync,
  async pull(db, actor, afterSeq, limit) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'scope', 'seq', 'deleted'])
      .where('seq', '>', afterSeq)
      .where((eb) => eb.or([eb('status', '=', 'active'), eb('deleted', '=', 1)]))
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row): MasterDocument<MemberDoc> => ({
      id: row.id,
      username: row.username,
      email: isAdmin(actor) ? row.email : null,
      scope: row.scope,
      seq: Number(row.seq),
      _deleted: toBool(row.deleted),
    }));
  },
});
