import type { Kysely } from 'kysely';

/*
 * Rides members offer to an event (docs/architecture.md, "Adding a synced collection"): replicated
 * (seq, deleted) and part of the event.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rides')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('driver_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seats', 'integer', (c) => c.notNull())
    .addColumn('departure_location', 'text', (c) => c.notNull())
    .addColumn('departure_datetime', 'text', (c) => c.notNull())
    .addColumn('drives_back', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text')
    .addColumn('cost_share_cents', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('rides_seq').on('rides').column('seq').execute();
  await db.schema.createIndex('rides_event').on('rides').column('event_id').execute();
}
