import { sql, type Kysely } from 'kysely';
import { usernameSkeleton } from '../usernameSkeleton.js';

/*
 * Look-alike usernames (docs/architecture.md, "Sessions, throttles and limits"): every user gets
 * username_skeleton, usernameSkeleton() of their name as it is when this migration runs (should that
 * function ever change, a new migration must recompute the column), and an index over the live ones.
 * Not unique: names that already look alike stay as they are (nobody is renamed silently); new
 * names and renames are refused against it in domain/users.ts, serialised by write().
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The default exists only because SQLite cannot add a NOT NULL column without one; every row gets its skeleton below.
  await db.schema
    .alterTable('users')
    .addColumn('username_skeleton', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const rows: Array<{ id: string; username: string }> = await db.selectFrom('users').select(['id', 'username']).execute();
  for (const row of rows) {
    await db
      .updateTable('users')
      .set({ username_skeleton: usernameSkeleton(row.username) })
      .where('id', '=', row.id)
      .execute();
  }
  await sql`CREATE INDEX users_username_skeleton_live ON users (username_skeleton) WHERE deleted = 0`.execute(db);
}
