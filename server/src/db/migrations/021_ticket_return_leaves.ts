import type { Kysely } from 'kysely';

/*
 * A returned ticket whose member no longer goes (docs/product.md, Ticket contingents, "Returning a
 * ticket"): the request remembers it, and when someone takes the ticket the member's row goes too.
 * Not replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ticket_requests')
    .addColumn('leaves', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
