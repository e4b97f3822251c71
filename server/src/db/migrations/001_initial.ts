import { sql, type Kysely } from 'kysely';

/** The whole data model (docs/architecture.md), portable between SQLite and PostgreSQL. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('counters' as never)
    .values({ name: 'seq', value: 0 } as never)
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('de'))
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Names stay unique among live accounts; a deleted account frees its username and email.
  await sql`CREATE UNIQUE INDEX users_username_live ON users (lower(username)) WHERE deleted = 0`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_live ON users (lower(email)) WHERE deleted = 0`.execute(db);
  await db.schema.createIndex('users_seq').on('users').column('seq').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stadiums')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_name', 'text', (c) => c.notNull())
    .addColumn('stadium_name', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('guest_block_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('address', 'text')
    .addColumn('ticket_price_cents', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stadium_ticket_prices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('stadium_id', 'text', (c) => c.notNull().references('stadiums.id').onDelete('cascade'))
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('ticket_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stadium_ticket_prices_stadium').on('stadium_ticket_prices').column('stadium_id').execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('stadium_id', 'text', (c) => c.references('stadiums.id').onDelete('set null'))
    .addColumn('ticket_price_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ticket_buyer', 'text')
    .addColumn('is_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('image_filename', 'text')
    .addColumn('external_match_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('events_seq').on('events').column('seq').execute();
  await db.schema.createIndex('events_date').on('events').column('date').execute();
  await sql`CREATE UNIQUE INDEX events_external_match ON events (external_match_id) WHERE external_match_id IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('attendees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('guest_name', 'text')
    .addColumn('brought_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('needs_ticket', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_ticket', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('needs_transport', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('transfer_status', 'text')
    .addColumn('paid_by', 'text')
    .addColumn('ticket_price_id', 'text')
    .addColumn('ticket_type', 'text')
    .addColumn('price_cents', 'integer')
    .addColumn('is_free', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_price_tbd', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bought', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_requested_at', 'text')
    .addColumn('received_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('received_requested_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('attendees_seq').on('attendees').column('seq').execute();
  await db.schema.createIndex('attendees_event').on('attendees').column('event_id').execute();
  await db.schema.createIndex('attendees_user').on('attendees').column('user_id').execute();
  await db.schema.createIndex('attendees_brought_by').on('attendees').column('brought_by').execute();
  // One live attendance per member and event; guests (user_id null) are not constrained.
  await sql`CREATE UNIQUE INDEX attendees_member_live ON attendees (event_id, user_id) WHERE deleted = 0 AND user_id IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('transports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_per_seat_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_free', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_price_tbd', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('departure_datetime', 'text')
    .addColumn('departure_location', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('transports_seq').on('transports').column('seq').execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('requires_answer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_resolved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('comments_seq').on('comments').column('seq').execute();
  await db.schema.createIndex('comments_event').on('comments').column('event_id').execute();

  await db.schema
    .createTable('mentions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('mentions_seq').on('mentions').column('seq').execute();
  await db.schema.createIndex('mentions_user').on('mentions').column('user_id').execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_json', 'text', (c) => c.notNull())
    .addColumn('device_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('notices_seq').on('notices').column('seq').execute();
  await db.schema.createIndex('notices_user').on('notices').column('user_id').execute();
}
