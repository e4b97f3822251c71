import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Actor } from '../../domain/actor.js';
import { announcementsSync, type AnnouncementDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { defineServerCollection, sameForEveryActor, type MasterDocument } from '../../sync/collection.js';
import './tables.js';

/** Every announcement, for every member. Pull only: admins write them through REST. */
async function pullAnnouncements(
  db: Kysely<Database>,
  _actor: Actor,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<AnnouncementDoc>[]> {
  const rows = await db.selectFrom('announcements').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  return rows.map((row): MasterDocument<AnnouncementDoc> => ({
    id: row.id,
    title: row.title,
    text: row.text,
    event_id: row.event_id,
    pinned: toBool(row.pinned),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  }));
}

export const announcementsCollection = defineServerCollection<AnnouncementDoc>({
  declaration: announcementsSync,
  pull: pullAnnouncements,
  shared: sameForEveryActor(pullAnnouncements),
});
