import type { Kysely } from 'kysely';

/*
 * The bus (docs/architecture.md, "The bus"): a transport option's seat plan, who chooses the seats and
 * whether the fare is charged at departure; the seats assigned, the captains and who was charged the
 * fare. Not replicated on their own: the transport option's document carries the plan, the seats and
 * the captains (each change gives the option a new seq).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transports').addColumn('seat_count', 'integer').execute();
  await db.schema.alterTable('transports').addColumn('seat_rows', 'integer').execute();
  await db.schema.alterTable('transports').addColumn('seats_per_row', 'integer').execute();
  await db.schema
    .alterTable('transports')
    .addColumn('seat_choice', 'text', (c) => c.notNull().defaultTo('admin'))
    .execute();
  await db.schema
    .alterTable('transports')
    .addColumn('charge_at_departure', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('transports').addColumn('departure_charged_at', 'text').execute();
  await db.schema
    .createTable('transport_seats')
    .addColumn('transport_id', 'text', (c) => c.notNull().references('transports.id').onDelete('cascade'))
    .addColumn('seat', 'integer', (c) => c.notNull())
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('assigned_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('transport_seats_pk', ['transport_id', 'seat'])
    .addUniqueConstraint('transport_seats_attendee', ['transport_id', 'attendee_id'])
    .execute();
  await db.schema.createIndex('transport_seats_event').on('transport_seats').column('event_id').execute();
  await db.schema
    .createTable('transport_captains')
    .addColumn('transport_id', 'text', (c) => c.notNull().references('transports.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('transport_captains_pk', ['transport_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('transport_fares')
    .addColumn('transport_id', 'text', (c) => c.notNull())
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('ledger_id', 'text', (c) => c.notNull())
    .addColumn('charge_id', 'text', (c) => c.notNull())
    .addColumn('charged_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('transport_fares_pk', ['transport_id', 'attendee_id'])
    .execute();
}
