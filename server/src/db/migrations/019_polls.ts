import type { Kysely } from 'kysely';

/*
 * Polls (docs/architecture.md, "Polls"): the poll (replicated, part of its event when it names one),
 * its options (not replicated: the poll's document embeds them) and the members' votes (replicated,
 * one per member and poll, the chosen option ids as a JSON array; part of the poll's event too).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('polls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('multiple', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('results', 'text', (c) => c.notNull())
    // The club's wall-clock time as typed, and the same instant in UTC (what a vote's arrival is compared with).
    .addColumn('closes_at', 'text')
    .addColumn('closes_at_utc', 'text')
    // When it was closed: by an admin, or by the job once its closing time passed (null while open).
    .addColumn('closed_at', 'text')
    .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('polls_seq').on('polls').column('seq').execute();
  await db.schema.createIndex('polls_event').on('polls').column('event_id').execute();
  await db.schema
    .createTable('poll_options')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('poll_id', 'text', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('poll_options_poll').on('poll_options').columns(['poll_id', 'position']).execute();
  await db.schema
    .createTable('poll_votes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('poll_id', 'text', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('cascade'))
    .addColumn('option_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One vote per member and poll: a second device's vote changes the first.
  await db.schema.createIndex('poll_votes_member').on('poll_votes').columns(['poll_id', 'user_id']).unique().execute();
  await db.schema.createIndex('poll_votes_user_seq').on('poll_votes').columns(['user_id', 'seq']).execute();
  await db.schema.createIndex('poll_votes_event').on('poll_votes').column('event_id').execute();
}
