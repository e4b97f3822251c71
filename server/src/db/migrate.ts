import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './connection.js';
import * as initial from './migrations/001_initial.js';
import * as noticeContext from './migrations/002_notice_context.js';
import * as usernameKey from './migrations/003_username_key.js';
import * as sessions from './migrations/004_sessions.js';
import * as eventArchive from './migrations/005_event_archive.js';
import * as push from './migrations/006_push.js';
import * as comments from './migrations/007_comments.js';
import * as matchImports from './migrations/008_match_imports.js';
import * as usernameSkeleton from './migrations/009_username_skeleton.js';

/** A static import map (no folder scan), so bundling or moving files cannot lose a migration. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': initial,
  '002_notice_context': noticeContext,
  '003_username_key': usernameKey,
  '004_sessions': sessions,
  '005_event_archive': eventArchive,
  '006_push': push,
  '007_comments': comments,
  '008_match_imports': matchImports,
  '009_username_skeleton': usernameSkeleton,
};

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
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: {
      getMigrations: async () =>
        Object.fromEntries(Object.entries(MIGRATIONS).map(([name, migration]) => [name, inTransaction(migration)])),
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
