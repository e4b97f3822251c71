import { noticesSync, type NoticeAction, type NoticeDoc } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, NoticeRow } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { setNoticeRead } from '../../domain/people/notices.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

function toNoticeDoc(row: NoticeRow): MasterDocument<NoticeDoc> {
  return {
    id: row.id,
    user_id: row.user_id,
    code: row.code,
    message: row.message,
    event_id: row.event_id,
    event_title: row.event_title,
    action: row.action as NoticeAction | null,
    is_read: toBool(row.is_read),
    created_at: row.created_at,
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  };
}

const ownNotices = (db: Kysely<Database>, actor: Actor) => db.selectFrom('notices').selectAll().where('user_id', '=', actor.id);

/** The signed-in user's own server messages; a device only marks them read. */
export const noticesCollection = defineServerCollection<NoticeDoc>({
  declaration: noticesSync,
  async pull(db, actor, afterSeq, limit) {
    const rows = await ownNotices(db, actor).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
    return rows.map(toNoticeDoc);
  },
  push: {
    async find(db, actor, id) {
      const row = await ownNotices(db, actor).where('id', '=', id).executeTakeFirst();
      return row ? toNoticeDoc(row) : undefined;
    },
    async apply(w, actor, change) {
      if (typeof change.fields.is_read === 'boolean') await setNoticeRead(w, actor, change.id, change.fields.is_read);
    },
    describe: () => ({ eventId: null, action: 'notice.read' }),
  },
});
