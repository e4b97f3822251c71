import type { Kysely } from 'kysely';

/*
 * A device's own comments of older events (docs/architecture.md, What a device keeps): the pull
 * finds a member's comments by author and those naming them by mention, instead of walking every
 * comment of the club in order.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('comments_user').on('comments').column('user_id').execute();
}
