import type { Kysely } from 'kysely';

/*
 * Bank statements (docs/architecture.md, "Bank statements"): a parsed statement kept a day for
 * booking (its credits as JSON, never the file), and every booked credit by its bank reference, so
 * that no line is booked twice and a member's IBAN is learned from their matched payments. Not
 * replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bank_statements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('bank_payments')
    // The bank's reference, or `H:` and a hash of date, amount, IBAN and purpose: unique, so never twice.
    .addColumn('bank_ref', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('iban', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ledger_id', 'text', (c) => c.notNull())
    .addColumn('statement_id', 'text', (c) => c.notNull())
    .addColumn('booked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_payments_iban').on('bank_payments').column('iban').execute();
}
