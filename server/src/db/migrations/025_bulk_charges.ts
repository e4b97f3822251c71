import type { Kysely } from 'kysely';

/*
 * Bulk charges (docs/architecture.md, Ledger, "Bulk charges"): one charge to many members at once,
 * and which ledger entries it booked, so that its reversal reverses every one of them. Not
 * replicated (the entries are, in the ledger).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bulk_charges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('note', 'text', (c) => c.notNull())
    // `all_members`, `event:<id>` or `transport:<id>`.
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('reversed_at', 'text')
    .execute();
  await db.schema
    .createTable('bulk_charge_entries')
    .addColumn('ledger_id', 'text', (c) => c.primaryKey())
    .addColumn('charge_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bulk_charge_entries_charge').on('bulk_charge_entries').column('charge_id').execute();
}
