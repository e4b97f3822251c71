import { pollsSync, type PollDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { pollViews, type PollView } from '../../domain/polls.js';
import { defineServerCollection, type MasterDocument } from '../collection.js';

function toPollDoc(view: PollView): MasterDocument<PollDoc> {
  const { row } = view;
  return {
    id: row.id,
    question: row.question,
    options: view.options,
    multiple: toBool(row.multiple),
    results: row.results,
    closes_at: row.closes_at,
    closes_at_utc: row.closes_at_utc,
    closed: !view.open,
    voters: view.voters,
    event_id: row.event_id,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted: false,
  };
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
