import type { NoticeDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import type { SyncCollection } from '../collection.js';

/** The signed-in user's own server messages. */
export const noticesCollection: SyncCollection = {
  name: 'notices',
  version: 0,
  async pull(db, actor, afterSeq, limit) {
    const rows = await db
      .selectFrom('notices')
      .selectAll()
      .where('user_id', '=', actor.id)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => {
      const doc: NoticeDoc = {
        id: row.id,
        user_id: row.user_id,
        code: row.code,
        message: row.message,
        created_at: row.created_at,
        seq: Number(row.seq),
      };
      return { ...doc, _deleted: toBool(row.deleted) };
    });
  },
};
