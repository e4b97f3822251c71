import { z } from 'zod';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the comment and mention routes (server/src/http/comments.ts; docs/architecture.md, "Comments and mentions"). */

/** A comment with its event and its author's name (kept when the account is gone). */
export const restComment = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    user_id: z.string(),
    username: textOrNull,
    comment: z.string(),
    created_at: z.string(),
    requires_answer: z.boolean(),
    is_resolved: z.boolean(),
  })
  .meta({ id: 'Comment' });
export type RestComment = z.infer<typeof restComment>;

/** An unresolved comment that requires an answer, on a live event: the admin's task. */
export const pendingComment = z
  .strictObject({
    id: z.string(),
    username: textOrNull,
    event_id: z.string(),
    event_title: z.string(),
    event_date: z.string(),
    comment: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'PendingComment' });
export type PendingComment = z.infer<typeof pendingComment>;

/** A mention of the member in a comment. */
export const restMention = z
  .strictObject({
    mention_id: z.string(),
    comment_id: z.string(),
    event_id: z.string(),
    event_title: z.string(),
    comment: z.string(),
    commenter_username: textOrNull,
    mention_date: z.string(),
    is_read: z.boolean(),
  })
  .meta({ id: 'Mention' });
export type RestMention = z.infer<typeof restMention>;

/** The comment writes (POST is 201): the comment afterwards. */
export const commentAnswer = messageAnswerWith({ comment: restComment });
export type CommentAnswer = z.infer<typeof commentAnswer>;

/** GET /api/comments/event/{eventId}. */
export const commentsAnswer = successAnswer({ comments: z.array(restComment) });
export type CommentsAnswer = z.infer<typeof commentsAnswer>;

/** GET /api/comments/pending (admin). */
export const pendingCommentsAnswer = successAnswer({ comments: z.array(pendingComment) });
export type PendingCommentsAnswer = z.infer<typeof pendingCommentsAnswer>;

/** GET /api/comments/mentions. */
export const mentionsAnswer = successAnswer({ mentions: z.array(restMention) });
export type MentionsAnswer = z.infer<typeof mentionsAnswer>;

/** GET /api/comments/mentions/count: own unread mentions. */
export const mentionCountAnswer = successAnswer({ count: z.number().int() });
export type MentionCountAnswer = z.infer<typeof mentionCountAnswer>;

/** GET /api/comments/mentions/by-event: own unread mentions per event id (events without any left out). */
export const mentionCountsAnswer = successAnswer({ counts: z.record(z.string(), z.number().int()) });
export type MentionCountsAnswer = z.infer<typeof mentionCountsAnswer>;

/** PUT /api/comments/mentions/{id}/read. */
export const mentionReadAnswer = successAnswer({
  mention: z.strictObject({ id: z.string(), event_id: z.string(), comment_id: z.string(), is_read: z.boolean() }),
});
export type MentionReadAnswer = z.infer<typeof mentionReadAnswer>;

/** PUT /api/comments/mentions/read-all: how many were marked. */
export const mentionsReadAnswer = messageAnswerWith({ updated: z.number().int() });
export type MentionsReadAnswer = z.infer<typeof mentionsReadAnswer>;
