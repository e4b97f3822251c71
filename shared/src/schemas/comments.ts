import { z } from 'zod';
import { msg } from './common.js';

/*
 * Comment bodies of the REST API (docs/architecture.md, "Comments and mentions"). The schemas check types only: whether a text is
 * blank or too long is `checkCommentText` (rules/comments.ts), which the server's domain applies to
 * the trimmed text, so REST, sync pushes and the client's form agree.
 */

/** A comment text as sent: a string (a number, null or nothing at all says the comment is empty). */
const commentText = z.string(msg('commentEmpty'));

/** POST /api/comments/event/{eventId}. */
export const createCommentInput = z.object({
  comment: commentText,
  requires_answer: z.boolean(msg('invalidInput')).optional(),
});
export type CreateCommentInput = z.infer<typeof createCommentInput>;

/** PUT /api/comments/{id}: the new text (only the author, only while unresolved). */
export const updateCommentInput = z.object({ comment: commentText });
export type UpdateCommentInput = z.infer<typeof updateCommentInput>;
