import { write } from '../src/db/store.js';
import type { Actor } from '../src/domain/actor.js';
import { createComment, setCommentResolved } from '../src/domain/comments/comments.js';
import type { TestApp } from './helpers.js';

/*
 * Comments and mentions for tests that need many of them (the permission matrix): written through
 * the domain, as the REST route and the sync push do, so they do not count against the REST pace
 * of new comments.
 */

interface Member {
  id: string;
}

const memberActor = (member: Member, username: string): Actor => ({ id: member.id, username, scope: 'user' });

/** A fresh comment of `author` on the event, optionally requiring an answer and resolved (by its author). */
export async function writeComment(
  t: TestApp,
  author: Member,
  username: string,
  eventId: string,
  options: { text?: string; requiresAnswer?: boolean; resolved?: boolean } = {},
): Promise<string> {
  const actor = memberActor(author, username);
  return write(t.runtime.deps.store, async (w) => {
    const row = await createComment(w, actor, eventId, {
      comment: options.text ?? 'A comment for the test',
      requires_answer: options.requiresAnswer ?? false,
    });
    if (options.resolved) await setCommentResolved(w, actor, row.id, true);
    return row.id;
  });
}

/** A fresh mention of `named` (a comment of `author` naming them with @); returns the mention's id. */
export async function writeMention(
  t: TestApp,
  author: Member,
  authorName: string,
  named: Member,
  namedName: string,
  eventId: string,
): Promise<string> {
  const commentId = await writeComment(t, author, authorName, eventId, { text: `Hallo @${namedName}!` });
  const row = await t.runtime.deps.store.db
    .selectFrom('mentions')
    .select('id')
    .where('comment_id', '=', commentId)
    .where('user_id', '=', named.id)
    .executeTakeFirstOrThrow();
  return row.id;
}
