import type { Kysely } from 'kysely';

/*
 * Answer deadlines and reminders (docs/architecture.md, Answer deadlines and reminders): an event's
 * answer deadline (the club's wall-clock time, null for none; replicated with the event), one row
 * per reminder sent to a member, so each member gets each reminder of an event once, across restarts
 * and instances, and one per reminder an event was created inside of (never sent). Not replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('answer_deadline', 'text').execute();
  await db.schema
    .createTable('event_reminders')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_reminders_pk', ['event_id', 'user_id', 'kind'])
    .execute();
  // A reminder an event was created inside of (its time had passed): it is never sent.
  await db.schema
    .createTable('reminder_waivers')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reminder_waivers_pk', ['event_id', 'kind'])
    .execute();
}
