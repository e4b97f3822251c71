import {
  commentAnswer,
  commentsAnswer,
  createCommentInput,
  mentionCountAnswer,
  mentionCountsAnswer,
  mentionReadAnswer,
  mentionsAnswer,
  mentionsReadAnswer,
  messageAnswer,
  MESSAGES,
  pendingCommentsAnswer,
  updateCommentInput,
} from '@fankurve/shared';
import { toBool, write } from '../db/store.js';
import {
  createComment,
  deleteComment,
  editComment,
  listEventComments,
  listPendingComments,
  setCommentResolved,
  toggleCommentRequiresAnswer,
  withUsername,
  type CommentRow,
  type CommentView,
} from '../domain/comments/comments.js';
import { tooManyRequests } from '../domain/errors.js';
import {
  countUnreadMentions,
  listMentions,
  markAllMentionsRead,
  setMentionRead,
  unreadMentionsByEvent,
} from '../domain/comments/mentions.js';
import type { WriteContext } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Comments';
const eventParams = z.object({ eventId: z.string().min(1).max(64) });

/** The REST shape of a comment (`restComment`) with its event id. */
export function toRestComment(view: CommentView) {
  return {
    id: view.id,
    event_id: view.event_id,
    user_id: view.user_id,
    username: view.username,
    comment: view.comment,
    created_at: view.created_at,
    requires_answer: toBool(view.requires_answer),
    is_resolved: toBool(view.is_resolved),
  };
}

/** Runs one comment write and answers the comment as it is afterwards, with its author's name. */
async function commentWrite(deps: AppDeps, change: (w: WriteContext) => Promise<CommentRow>) {
  return toRestComment(await write(deps.store, async (w) => withUsername(w.db, await change(w))));
}

/**
 * Comments and mentions (docs/architecture.md, "Comments and mentions"). Members write, edit, resolve and delete their own
 * comments; admins resolve, reopen, toggle and delete anyone's (domain/comments/comments.ts). New comments
 * are paced per member: COMMENTS_PER_MINUTE, then 429 'commentsTooFast' (sync pushes have their own
 * allowance, sync/collections/comments.ts).
 */
export function commentRoutes(app: Api, deps: AppDeps): void {
  /**
   * Counts a comment that is about to be written; refused ones (bad text, no event) do not count.
   * A shared pace counts in the write's transaction, so a comment rolled back is not counted.
   */
  const takePace = async (actor: Actor, db: WriteContext['db']) => {
    const allowed = await deps.commentPace.take(actor.id, Date.now(), db);
    if (!allowed.ok) throw tooManyRequests('commentsTooFast', allowed.retryAfterMs);
  };

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/comments/event/{eventId}',
      tag,
      summary: 'Write a comment on an event (at most COMMENTS_PER_MINUTE per minute, then 429)',
      params: eventParams,
      body: createCommentInput,
      answers: { 201: commentAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const comment = await commentWrite(deps, async (w) => {
        const row = await createComment(w, actor, c.req.valid('param').eventId, c.req.valid('json'));
        await takePace(actor, w.db);
        return row;
      });
      return c.json({ success: true as const, message: MESSAGES.commentAdded, comment }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/comments/event/{eventId}',
      tag,
      summary: 'The comments of an event, oldest first',
      params: eventParams,
      answers: { 200: commentsAnswer },
    }),
    async (c) => {
      requireActor(c);
      const rows = await listEventComments(deps.store.db, c.req.valid('param').eventId);
      return c.json({ success: true as const, comments: rows.map(toRestComment) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/comments/pending',
      tag,
      summary: 'Unresolved comments that require an answer (admin)',
      answers: { 200: pendingCommentsAnswer },
    }),
    async (c) => {
      const comments = await listPendingComments(deps.store.db, requireActor(c));
      return c.json({ success: true as const, comments }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/comments/{id}',
      tag,
      summary: 'Edit the text of an own, unresolved comment',
      params: idParams,
      body: updateCommentInput,
      answers: { 200: commentAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id } = c.req.valid('param');
      const comment = await commentWrite(deps, (w) => editComment(w, actor, id, c.req.valid('json').comment));
      return c.json({ success: true as const, message: MESSAGES.commentUpdated, comment }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/comments/{id}',
      tag,
      summary: 'Delete a comment (its author while unresolved, or an admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deleteComment(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.commentDeleted }, 200);
    },
  );

  const flagRoute = (path: string, summary: string, change: (w: WriteContext, actor: Actor, id: string) => Promise<CommentRow>) =>
    app.openapi(apiRoute({ method: 'put', path, tag, summary, params: idParams, answers: { 200: commentAnswer } }), async (c) => {
      const actor = requireActor(c);
      const { id } = c.req.valid('param');
      const comment = await commentWrite(deps, (w) => change(w, actor, id));
      return c.json({ success: true as const, message: MESSAGES.commentUpdated, comment }, 200);
    });
  flagRoute('/api/comments/{id}/resolve', 'Resolve a comment (its author or an admin)', (w, actor, id) =>
    setCommentResolved(w, actor, id, true),
  );
  flagRoute(
    '/api/comments/{id}/unresolve',
    'Reopen a resolved comment that requires an answer (its author or an admin)',
    (w, actor, id) => setCommentResolved(w, actor, id, false),
  );
  flagRoute(
    '/api/comments/{id}/toggle-requires-answer',
    'Switch whether an unresolved comment requires an answer (its author or an admin)',
    toggleCommentRequiresAnswer,
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/comments/mentions',
      tag,
      summary: 'Own mentions, newest first',
      answers: { 200: mentionsAnswer },
    }),
    async (c) => {
      const mentions = await listMentions(deps.store.db, requireActor(c));
      return c.json({ success: true as const, mentions }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/comments/mentions/count',
      tag,
      summary: 'Number of own unread mentions',
      answers: { 200: mentionCountAnswer },
    }),
    async (c) => {
      const count = await countUnreadMentions(deps.store.db, requireActor(c));
      return c.json({ success: true as const, count }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/comments/mentions/by-event',
      tag,
      summary: 'Own unread mentions per event id (events without any are left out)',
      answers: { 200: mentionCountsAnswer },
    }),
    async (c) => {
      const counts = await unreadMentionsByEvent(deps.store.db, requireActor(c));
      return c.json({ success: true as const, counts }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/comments/mentions/{id}/read',
      tag,
      summary: 'Mark an own mention read',
      params: idParams,
      answers: { 200: mentionReadAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => setMentionRead(w, actor, c.req.valid('param').id, true));
      return c.json(
        {
          success: true as const,
          mention: { id: row.id, event_id: row.event_id, comment_id: row.comment_id, is_read: toBool(row.is_read) },
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/comments/mentions/read-all',
      tag,
      summary: 'Mark all own mentions read',
      answers: { 200: mentionsReadAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const updated = await write(deps.store, (w) => markAllMentionsRead(w, actor));
      return c.json({ success: true as const, message: MESSAGES.mentionsRead, updated }, 200);
    },
  );
}
