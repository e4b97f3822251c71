import type { Kysely } from 'kysely';

/*
 * Invites (docs/architecture.md, Invites): an admin's registration link with its end, how many
 * registrations it allows and counted so far, whether those are approved at once, and when it was
 * withdrawn. The token is kept (an invite is meant to be shared, so the admin can show its link and
 * QR code again) beside its sha256, which registration looks it up by. `invite_uses` names the
 * invite each account registered through (one per account). Not replicated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('approve', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('invite_uses')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('invite_id', 'text', (c) => c.notNull().references('invites.id').onDelete('cascade'))
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invite_uses_invite').on('invite_uses').columns(['invite_id', 'joined_at']).execute();
}
