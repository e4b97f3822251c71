import type { Kysely } from 'kysely';

/*
 * The audit log (docs/architecture.md, "Audit log"): one row per admin action on money, tickets,
 * people or the club's settings, with who, when, what, and the state before and after (JSON).
 * Append-only: nothing updates or deletes a row but the retention job, by the ledger's retention.
 * Not replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('event_id', 'text')
    .addColumn('entity_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'at']).execute();
  await db.schema.createIndex('audit_log_event').on('audit_log').columns(['event_id', 'at']).execute();
}
