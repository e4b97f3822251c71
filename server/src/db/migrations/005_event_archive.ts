import type { Kysely } from 'kysely';

/*
 * An event an admin deletes while tickets on it are bought is archived, not tombstoned (docs/product.md, Tickets and money):
 * its ticket rows stay live (they are the members' tickets and debts) and the device keeps the
 * event's title, date and location for them, while everything that shows events treats it as
 * deleted. 0/1 like every flag, on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
