import type { Kysely } from 'kysely';

/**
 * Notices say which event and what kind of change was refused, and stay listed until the member
 * has read them (docs/architecture.md, refusals).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notices').addColumn('event_id', 'text').execute();
  await db.schema.alterTable('notices').addColumn('event_title', 'text').execute();
  await db.schema.alterTable('notices').addColumn('action', 'text').execute();
  await db.schema
    .alterTable('notices')
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
