import type { Kysely } from 'kysely';

/*
 * Comments and mentions: the tables exist since 001. Editing or deleting a comment looks
 * up its mentions, so they get an index by comment.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('mentions_comment').on('mentions').column('comment_id').execute();
}
