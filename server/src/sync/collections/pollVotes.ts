import { pollVotesSync, type PollVoteDoc } from '@fankurve/shared';
import { toBool } from '../../db/store.js';
import { badInput, forbidden } from '../../domain/errors.js';
import { castVote, findOwnVote, ownVotesAfter, voteOptionIds, type PollVoteRow } from '../../domain/news/polls.js';
import { defineServerCollection, type MasterDocument, type PushedChange } from '../collection.js';

function toPollVoteDoc(row: PollVoteRow): MasterDocument<PollVoteDoc> {
  return {
    id: row.id,
    poll_id: row.poll_id,
    user_id: row.user_id,
    event_id: row.event_id,
    option_ids: voteOptionIds(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
    seq: Number(row.seq),
    _deleted: toBool(row.deleted),
  };
}

type Change = PushedChange<PollVoteDoc>;

const pollOf = (change: Change) =>
  change.master?.poll_id || (typeof change.sent.poll_id === 'string' ? change.sent.poll_id : null);

/**
 * The member's own votes (docs/architecture.md, "Polls"): each member pulls only theirs. A device
 * creates a vote and changes its options, offline too; the push calls the same `castVote` as PUT
 * /api/polls/{id}/vote, so the server decides by the vote's arrival: after the close it is refused
 * with a notice (`pollClosed`) and the device gets the vote back as the server has it (a vote it
 * created is dropped). A second device's new vote changes the member's one vote; the device drops
 * its own copy and pulls that one.
 */
export const pollVotesCollection = defineServerCollection<PollVoteDoc>({
  declaration: pollVotesSync,
  async pull(db, actor, afterSeq, limit) {
    return (await ownVotesAfter(db, actor, afterSeq, limit)).map(toPollVoteDoc);
  },
  push: {
    async find(db, actor, id) {
      const row = await findOwnVote(db, actor, id);
      return row ? toPollVoteDoc(row) : undefined;
    },
    async apply(w, actor, change) {
      // Only the member's own vote: a pushed vote of someone else changes nothing.
      if ((change.master?.user_id ?? change.sent.user_id) !== actor.id) throw forbidden();
      const pollId = pollOf(change);
      const optionIds = change.fields.option_ids;
      if (!pollId || !Array.isArray(optionIds)) throw badInput();
      await castVote(w, actor, pollId, optionIds, change.kind === 'create' ? { id: change.id } : {});
    },
    describe: (change) => ({
      eventId: change.master?.event_id ?? (typeof change.sent.event_id === 'string' ? change.sent.event_id : null),
      action: 'poll.vote',
    }),
  },
});
