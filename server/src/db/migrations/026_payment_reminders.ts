import type { Kysely } from 'kysely';

/*
 * Reminders to pay (docs/architecture.md, Ledger, "Reminders to pay"): one row per reminder sent to a
 * member for one debt, the debt named by the time the member's balance last rose above zero
 * (`owing_since`), numbered 1 to 3; so each reminder goes once, across restarts and instances. Not
 * replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_reminders')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('owing_since', 'text', (c) => c.notNull())
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_reminders_pk', ['user_id', 'owing_since', 'round'])
    .execute();
}
