import { pollsSync, type PollDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { pollFields, pollViews, type PollView } from '../../domain/news/polls.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

function toPollDoc(view: PollView): MasterDocument<PollDoc> {
  return { ...pollFields(view), options: view.options, seq: Number(view.row.seq), _deleted: false };
}

/**
 * Every poll, for every member, mapped for the member who pulls (docs/architecture.md, "Polls"): the
 * counts only where they may see them. Every vote gives its poll a new seq, and so does the close
 * (the job `poll-closes`), so devices pull the counts as they change and as they become visible.
 * Pull only: admins write polls through REST, members vote through poll_votes.
 */
export const pollsCollection = defineServerCollection<PollDoc>({
  declaration: pollsSync,
  async pull(db, actor, afterSeq, limit) {
    const rows = await db.selectFrom('polls').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
    const live = rows.filter((row) => !toBool(row.deleted));
    const views = new Map((await pollViews(db, actor, live, new Date().toISOString())).map((view) => [view.row.id, view]));
    return rows.map((row) => {
      const view = views.get(row.id);
      return view ? toPollDoc(view) : { ...pollsSync.tombstone, id: row.id, seq: Number(row.seq), _deleted: true };
    });
  },
});
