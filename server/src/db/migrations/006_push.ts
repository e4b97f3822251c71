import type { Kysely } from 'kysely';

/*
 * Web push (docs/architecture.md, web push). A subscription belongs to the session (the signed-in
 * device) that registered it: one per device, and ending the session (sign-out, "sign out other
 * devices", a password change, deletion, 90 days unused) removes it with the session row. The
 * table of migration 001 was never written (push arrived with this migration), so it is created
 * anew with the session and the keys as columns. A member's switched-off topics are rows of
 * push_topics_off; every topic without a row is on.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull().unique().references('sessions.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('device_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();

  await db.schema
    .createTable('push_topics_off')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('topic', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('push_topics_off_pk', ['user_id', 'topic'])
    .execute();
}
