import type { Kysely } from 'kysely';

/*
 * The members' private calendar feed (docs/architecture.md, Calendar feed): one live feed token per
 * user, kept only as its sha256 beside the random seed it is derived from with the server's secret; and a counter on events that rises when date, time or place change
 * (the feed's SEQUENCE). Not replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_tokens')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('events')
    .addColumn('schedule_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
