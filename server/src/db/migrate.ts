import fs from 'node:fs';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './connection.js';

/** `NNN_name.ts` in the source, `NNN_name.mjs` where the build bundled them (scripts/build-server.mjs). */
const MIGRATION_FILE = /^(\d{3}_[a-z0-9_]+)\.(?:ts|mjs)$/;
const MIGRATIONS_FOLDER = new URL('./migrations/', import.meta.url);
/** In the source, each collection in a folder of its own keeps its migrations in `collections/<name>/migrations/`. */
const COLLECTIONS_FOLDER = new URL('../collections/', import.meta.url);

/** db/migrations and each collection's migrations folder; the build puts them all in one (scripts/build-server.mjs). */
function migrationFolders(): URL[] {
  if (!fs.existsSync(COLLECTIONS_FOLDER)) return [MIGRATIONS_FOLDER];
  const collections = fs
    .readdirSync(COLLECTIONS_FOLDER, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => new URL(`${entry.name}/migrations/`, COLLECTIONS_FOLDER))
    .filter((folder) => fs.existsSync(folder));
  return [MIGRATIONS_FOLDER, ...collections];
}

/** The migrations in their folders, by name (ordered by it): adding one is adding its file. */
export async function loadMigrations(): Promise<Record<string, Migration>> {
  const files = migrationFolders().flatMap((folder) =>
    fs
      .readdirSync(folder)
      .map((file) => MIGRATION_FILE.exec(file))
      .filter((match) => match !== null)
      .map((match) => ({ name: match[1]!, url: new URL(match[0], folder) })),
  );
  const names = files.map((file) => file.name);
  if (new Set(names).size !== names.length) throw new Error(`Two migrations share a name: ${names.sort().join(', ')}`);
  const loaded = await Promise.all(files.map(async (file) => [file.name, (await import(file.url.href)) as Migration] as const));
  return Object.fromEntries(loaded.sort(([a], [b]) => a.localeCompare(b)));
}

let folderNames: string[] | null = null;

/**
 * The migrations of the folder that have not run on this database (GET /api/health): the folder's
 * names, read once, against Kysely's table in the connection's own schema.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migration table is not part of the typed schema
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  folderNames ??= Object.keys(await loadMigrations());
  const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const done = new Set(ran.rows.map((row) => row.name));
  return folderNames.filter((name) => !done.has(name));
}

/** Kysely runs migrations in a transaction only where DDL is transactional by its account; SQLite is, so wrap there too. */
function inTransaction(migration: Migration): Migration {
  return {
    up: (db) => (db.isTransaction ? migration.up(db) : db.transaction().execute((trx) => migration.up(trx))),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // On PostgreSQL Kysely would look for its migration tables in every schema; keep them in ours.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrations = await loadMigrations();
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: {
      getMigrations: async () =>
        Object.fromEntries(Object.entries(migrations).map(([name, migration]) => [name, inTransaction(migration)])),
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
