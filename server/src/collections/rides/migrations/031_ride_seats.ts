import type { Kysely } from 'kysely';

/*
 * Seats members ask for in rides (docs/architecture.md, "Seats in rides"): replicated (seq, deleted)
 * and part of the event; the rides keep the seats their asks hold (`seats_taken`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ride_seats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ride_id', 'text', (c) => c.notNull().references('rides.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('passenger_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seats', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('ride_seats_seq').on('ride_seats').column('seq').execute();
  await db.schema.createIndex('ride_seats_ride').on('ride_seats').column('ride_id').execute();
  await db.schema.createIndex('ride_seats_passenger').on('ride_seats').column('passenger_id').execute();
  await db.schema.createIndex('ride_seats_event').on('ride_seats').column('event_id').execute();
  await db.schema
    .alterTable('rides')
    .addColumn('seats_taken', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
