import type { Kysely } from 'kysely';

/*
 * The admin's note on a pinned or excluded ticket request (docs/product.md, Ticket contingents,
 * "Allocations anyone can follow"): the member concerned reads it beside their place, nobody else
 * does. Null: no note. Not replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ticket_requests').addColumn('note', 'text').execute();
}
