import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { PRIVATE_FILE_MODE, privateDir, privateFile } from './privateFiles.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** The SQLite database's file in DATA_DIR. */
export const SQLITE_FILE = 'fankurve.sqlite';

export interface Connection {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** PostgreSQL answers int8 (COUNT, bigint seq) and numeric as strings; the model wants numbers. */
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export function openConnection(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** Only the bench sets NORMAL, to show what FULL costs. */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
}): Connection {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that the server ends (restart, administrator) must not crash the process: the pool reconnects.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  // The folder and the database are private before anything is written; SQLite gives its -wal and
  // -shm files the database file's mode (docs/architecture.md, Backups: "Private files").
  privateDir(options.dataDir);
  const sqlitePath = path.join(options.dataDir, SQLITE_FILE);
  fs.closeSync(fs.openSync(sqlitePath, 'a', PRIVATE_FILE_MODE));
  for (const suffix of ['', '-wal', '-shm']) privateFile(sqlitePath + suffix);
  const file = new SQLite(sqlitePath);
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // FULL: a commit is on disk before the write is acknowledged, so a power loss loses nothing that
  // a device was told is saved (NORMAL in WAL mode may lose the last commits). `npm run bench` shows the cost.
  file.pragma(`synchronous = ${options.sqliteSynchronous ?? 'FULL'}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Prepared statements kept for reuse, the least recently used dropped beyond it (a few hundred distinct ones are in use). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares a statement for every query: ~17 per answer, each a few KiB of
 * native memory that lives until the garbage collector reaches it and fragments the process's heap
 * (docs/architecture.md, Memory). Statements are kept by their SQL text instead; one still being
 * iterated is never handed out twice (better-sqlite3's `busy`).
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      const kept = statements.get(sql);
      statements.delete(sql);
      const statement = kept && !kept.busy ? kept : database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
