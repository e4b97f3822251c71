import { sql, type Kysely } from 'kysely';

/*
 * Mentions get `updated_at` like every other row that belongs to an event, so deleting an event
 * tombstones all of them the same way (docs/architecture.md, "Adding a synced collection").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The default exists only because SQLite cannot add a NOT NULL column without one.
  await db.schema
    .alterTable('mentions')
    .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE mentions SET updated_at = created_at`.execute(db);
}
