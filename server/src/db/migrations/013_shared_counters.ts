import type { Kysely } from 'kysely';

/*
 * Counters of the sign-in throttle, the registration limit, the comment pace and the password-reset
 * limits, and the addresses and devices an account trusts, kept in the database so several server
 * instances on one PostgreSQL count together (docs/architecture.md, "Several instances").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shared_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_ms', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('running_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('sign_in_trust')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_trust_pk', ['account', 'kind', 'value'])
    .execute();
}
