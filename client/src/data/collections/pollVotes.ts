import { checkPollVote, isPollOpen, newId, type PollVoteDoc } from '@fankurve/shared';
import type { RxDocument } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { FankurveDatabase } from '../database.js';
import { kindOf } from '../pushedGroup.js';
import { enforce, LocalRuleError, type Device } from '../device.js';

/*
 * The member's votes on the device (docs/product.md, Polls), offline too: one per poll, the options
 * chosen. A vote is checked by the shared rules first (`isPollOpen` by the device's clock,
 * `checkPollVote`); the replication pushes it and the server decides again by its arrival: a vote
 * that arrives after the close comes back refused with a notice and is undone on the device.
 */

/** The member's vote of a poll: of two copies (two devices voted before either had the other's), the server's newest. */
const preferred = (a: PollVoteDoc, b: PollVoteDoc) => b.seq - a.seq || b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id);

/** The member's chosen option ids per poll. */
export function ownVotes$(db: FankurveDatabase, userId: string): Observable<Map<string, string[]>> {
  return kindOf(db, 'poll_votes').find({ selector: { user_id: userId } }).$.pipe(
    map((docs) => {
      const votes = docs.map((doc) => doc.toJSON() as PollVoteDoc).sort(preferred);
      const byPoll = new Map<string, string[]>();
      for (const vote of votes) if (!byPoll.has(vote.poll_id)) byPoll.set(vote.poll_id, [...vote.option_ids]);
      return byPoll;
    }),
  );
}

/**
 * The member votes (or changes or withdraws their vote with []) on the device. Refused while the
 * poll is closed by the device's clock (`pollClosed`), for an option of another poll
 * (`pollOptionUnknown`) and for several options of a single-choice poll (`pollSingleChoice`).
 */
export async function castVote({ db, docs, outbox }: Device, userId: string, pollId: string, optionIds: readonly string[]): Promise<void> {
  const poll = await docs.table('polls').get(pollId);
  if (!poll) throw new LocalRuleError('pollNotFound');
  if (!isPollOpen(poll, new Date().toISOString())) throw new LocalRuleError('pollClosed');
  const chosen = enforce(checkPollVote(poll, optionIds));
  const copies = (await kindOf(db, 'poll_votes').find({ selector: { poll_id: pollId, user_id: userId } }).exec()) as RxDocument<PollVoteDoc>[];
  const current = copies.sort((a, b) => preferred(a.toJSON() as PollVoteDoc, b.toJSON() as PollVoteDoc))[0];
  const now = new Date().toISOString();
  if (current) {
    if (JSON.stringify(current.option_ids) === JSON.stringify(chosen)) return;
    outbox.add(current.id);
    await current.incrementalPatch({ option_ids: chosen, updated_at: now });
    return;
  }
  if (chosen.length === 0) return;
  const doc: PollVoteDoc = {
    id: newId(),
    poll_id: pollId,
    user_id: userId,
    event_id: poll.event_id,
    option_ids: chosen,
    created_at: now,
    updated_at: now,
    seq: 0,
  };
  outbox.add(doc.id);
  await kindOf(db, 'poll_votes').insert(doc);
}

/** The writes screens make, on the device (bound to it by data/index.ts). */
export const writes = { castVote };
