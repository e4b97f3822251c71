import type { Kysely } from 'kysely';

/*
 * Erasure with retention (docs/architecture.md, Erasure and retention): an erased account is a
 * tombstone that keeps a numbered pseudonym. `erased_at` (ISO 8601 UTC) says it was erased, not
 * merely declined; `former_number` numbers the erased members' pseudonyms ("Ehemaliges Mitglied 7"),
 * null for a declined registration, which gets none.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('erased_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('former_number', 'integer').execute();
  await db.schema.createIndex('users_former_number').unique().on('users').column('former_number').execute();
}
