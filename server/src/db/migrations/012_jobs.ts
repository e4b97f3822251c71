import type { Kysely } from 'kysely';

/*
 * Scheduled work claimed in the database (docs/architecture.md, "Jobs"): one row per job, claimed
 * by one instance at a time with a lease, so a restart loses no due job and two instances never
 * run one twice. The admins' digest keeps what it has noted here too, so its window outlives a
 * restart and every instance feeds the same digest.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // ISO 8601 UTC; null: idle until something schedules it.
    .addColumn('due_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createTable('admin_digest_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('noted_at', 'text', (c) => c.notNull())
    .execute();
}
