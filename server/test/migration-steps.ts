import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';
import { loadMigrations } from '../src/db/migrate.js';
import { testDatabase } from './helpers.js';

/**
 * An empty database (SQLite in memory, or the test PostgreSQL database when TEST_DATABASE_URL is
 * set) that a migration test brings up step by step: `migrateTo(name)` runs every migration up to
 * and including `name`, so a test can write rows the way an older version left them and then run
 * the migration under test. `close()` ends it (and drops the PostgreSQL copy).
 */
export async function migrationDatabase() {
  const postgres = await testDatabase();
  const db = postgres
    ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.url, max: 2 }) }) })
    : new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  const all = await loadMigrations();
  const migrateTo = async (last: string) => {
    const migrations = Object.fromEntries(Object.entries(all).filter(([name]) => name <= last)) as Record<string, Migration>;
    const result = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(result.error).toBeUndefined();
  };
  const close = async () => {
    await db.destroy();
    await postgres?.drop();
  };
  return { db, migrateTo, close };
}

/** A user row as the tables of migration 013 take it. */
export const legacyUser = (id: string, at: string) => ({
  id,
  username: id,
  username_key: id,
  username_skeleton: id,
  email: `${id}@example.org`,
  password_hash: 'x',
  status: 'active',
  created_at: at,
  updated_at: at,
  seq: 1,
});
