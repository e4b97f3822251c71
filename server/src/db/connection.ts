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
  /**
   * PostgreSQL: connections of their own for write transactions, so a write never waits for a
   * connection behind a queue of reads (on match day, thousands of pulls). SQLite has one connection.
   */
  writer?: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Connections per instance: for reads and REST answers, and for write transactions (which serialise on the seq counter anyway). */
const READ_POOL_SIZE = 10;
const WRITE_POOL_SIZE = 3;

/** PostgreSQL answers int8 (COUNT, bigint seq) and numeric as strings; the model wants numbers. */
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** SQLite's page cache per connection, KiB. */
const SQLITE_CACHE_KIB = 4096;

export function openConnection(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** Only the bench sets NORMAL, to show what FULL costs. */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
}): Connection {
  if (options.databaseUrl) {
    const db = postgres(options.databaseUrl, READ_POOL_SIZE);
    const writer = postgres(options.databaseUrl, WRITE_POOL_SIZE);
    return { db, writer, dialect: 'postgres', close: async () => void (await Promise.all([db.destroy(), writer.destroy()])) };
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
  // SQLite's own page cache (better-sqlite3 builds it with 16 MiB) keeps what the system's file cache
  // holds as well: 4 MiB keeps the hot pages without the memory of a copy of most of the file
  // (docs/architecture.md, Memory).
  file.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function postgres(url: string, max: number): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that the server ends (restart, administrator) must not crash the process: the pool reconnects.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
