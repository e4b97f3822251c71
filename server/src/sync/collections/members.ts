import type { MemberDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { isAdmin } from '../../domain/actor.js';
import type { SyncCollection } from '../collection.js';

/**
 * Active users (id, username; email only for admins). Pending registrations are never sent; a
 * deleted or declined account arrives as a tombstone with its name blanked.
 */
export const membersCollection: SyncCollection = {
  name: 'members',
  version: 0,
  async pull(db, actor, afterSeq, limit) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'scope', 'seq', 'deleted'])
      .where('seq', '>', afterSeq)
      .where((eb) => eb.or([eb('status', '=', 'active'), eb('deleted', '=', 1)]))
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => {
      const deleted = toBool(row.deleted);
      const doc: MemberDoc = {
        id: row.id,
        username: deleted ? '' : row.username,
        email: isAdmin(actor) && !deleted ? row.email : null,
        scope: row.scope,
        seq: Number(row.seq),
      };
      return { ...doc, _deleted: deleted };
    });
  },
};
