import type { Kysely } from 'kysely';

/*
 * Loyalty adjustments (docs/architecture.md, "Loyalty"): one row per member an admin adjusted, the
 * points added to the counted away matches. Not replicated: the ranking is read over REST.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('loyalty_adjustments')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    // The admin who last set it.
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
