import type { Kysely } from 'kysely';

/*
 * Boarding ticks of the bus (docs/architecture.md, "The bus"): replicated (seq, deleted) and part of
 * the event; one row per transport option and attendee row, its id derived from the pair.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('boardings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('transport_id', 'text', (c) => c.notNull())
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('on_board', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('by_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('boardings_pair', ['transport_id', 'attendee_id'])
    .execute();
  await db.schema.createIndex('boardings_seq').on('boardings').column('seq').execute();
  await db.schema.createIndex('boardings_event').on('boardings').column('event_id').execute();
}
