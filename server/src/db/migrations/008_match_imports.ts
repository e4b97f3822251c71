import type { Kysely } from 'kysely';

/*
 * The fixture import (docs/architecture.md, Fixture import): one row per imported match
 * of OpenLigaDB, keyed by its matchID, naming the event it became (events.external_match_id holds
 * the same key, unique since 001) and what the import last wrote from it: title, date, location and
 * stadium name as mapped, and the service's own last-change date of the match. A re-import changes
 * an event only where the feed changed since (an admin's own edit of an imported event stays), and
 * lists the season's rows whose match left the feed. Not replicated (no seq): devices never see it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('match_imports')
    .addColumn('match_id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('league', 'text', (c) => c.notNull())
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('stadium_name', 'text')
    .addColumn('source_updated_at', 'text')
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('match_imports_season').on('match_imports').column('season').execute();
}
