import { sql, type Kysely } from 'kysely';

/*
 * Ticket contingents (docs/architecture.md, "Ticket contingents"): the contingent of an event and the
 * ticket requests (not replicated), and the offers of returned tickets (replicated, the synced
 * collection `offers`, part of its event). The attendee rows that need a ticket today become
 * requests at their row's creation time: the best the rows know of when the answer was stored.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contingents')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
    .addColumn('tickets', 'integer', (c) => c.notNull())
    .addColumn('request_deadline', 'text')
    .addColumn('payment_days', 'integer')
    .addColumn('offer_minutes', 'integer', (c) => c.notNull().defaultTo(1440))
    .addColumn('allocated_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ticket_requests')
    .addColumn('attendee_id', 'text', (c) => c.primaryKey().references('attendees.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('excluded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull())
    // When it last came to hold a ticket through the contingent (the payment days run from it).
    .addColumn('allocated_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ticket_requests_event').on('ticket_requests').columns(['event_id', 'state']).execute();
  await db.schema
    .createTable('offers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('offers_seq').on('offers').column('seq').execute();
  await db.schema.createIndex('offers_user').on('offers').columns(['user_id', 'seq']).execute();
  await db.schema.createIndex('offers_event').on('offers').columns(['event_id', 'state']).execute();

  const now = new Date().toISOString();
  await db
    .insertInto('ticket_requests')
    .columns(['attendee_id', 'event_id', 'requested_at', 'pinned', 'excluded', 'state', 'allocated_at', 'updated_at'])
    .expression(
      db
        .selectFrom('attendees')
        .select([
          'id',
          'event_id',
          'created_at',
          sql.lit(0).as('pinned'),
          sql.lit(0).as('excluded'),
          sql.lit('requested').as('state'),
          sql.lit(null).as('allocated_at'),
          sql.lit(now).as('updated_at'),
        ])
        .where('deleted', '=', 0)
        .where('needs_ticket', '=', 1)
        .where('bought', '=', 0),
    )
    .execute();
}
