import { mentionsSync, type MentionDoc } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import type { Actor } from '../../domain/actor.js';
import { badInput } from '../../domain/errors.js';
import { setMentionRead, type MentionRow } from '../../domain/comments/mentions.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

function toMentionDoc(row: MentionRow): MasterDocument<MentionDoc> {
  return {
    id: row.id,
    comment_id: row.comment_id,
    event_id: row.event_id,
    user_id: row.user_id,
    is_read: toBool(row.is_read),
    created_at: row.created_at,
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  };
}

const ownMentions = (db: Kysely<Database>, actor: Actor) => db.selectFrom('mentions').selectAll().where('user_id', '=', actor.id);

/**
 * The signed-in user's own mentions (tombstoned with their comment or event, or when an edit drops
 * the name). The server creates them; a device only marks its own read: someone else's mention is
 * not found for it, so such a push is refused with a notice and answered with a tombstone.
 */
export const mentionsCollection = defineServerCollection<MentionDoc>({
  declaration: mentionsSync,
  async pull(db, actor, afterSeq, limit) {
    const rows = await ownMentions(db, actor).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
    return rows.map(toMentionDoc);
  },
  push: {
    async find(db, actor, id) {
      const row = await ownMentions(db, actor).where('id', '=', id).executeTakeFirst();
      return row ? toMentionDoc(row) : undefined;
    },
    async apply(w, actor, change) {
      const isRead = change.fields.is_read;
      if (isRead === undefined) return;
      if (typeof isRead !== 'boolean') throw badInput();
      await setMentionRead(w, actor, change.id, isRead);
    },
    describe: (change) => ({ eventId: change.master?.event_id ?? null, action: 'mention.read' }),
  },
});
