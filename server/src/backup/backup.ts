import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.js';
import { privateDir } from '../db/privateFiles.js';
import { SQLITE_FILE } from '../db/connection.js';
import {
  appVersion,
  backupFileName,
  BackupError,
  copyUploads,
  DATABASE_FILE,
  findOnPath,
  libpqConnection,
  pruneBackups,
  run,
  UPLOADS_FOLDER,
  writeArchive,
  type Manifest,
} from './archive.js';

export interface BackupResult {
  file: string;
  manifest: Manifest;
  /** Older backups deleted to keep BACKUP_KEEP. */
  deleted: string[];
}

type BackupConfig = Pick<Config, 'dataDir' | 'uploadsDir' | 'databaseUrl' | 'backupDir' | 'backupKeep'>;

/**
 * `npm run backup`: a consistent copy of the database taken while the server runs, with the uploads
 * and a manifest, as one archive in BACKUP_DIR; then all but the newest BACKUP_KEEP are deleted
 * (docs/architecture.md, Backups).
 */
export async function createBackup(config: BackupConfig, options: { now?: Date } = {}): Promise<BackupResult> {
  const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  // Checked before anything is written.
  const pgDump = dialect === 'postgres' ? findOnPath('pg_dump') : null;
  if (dialect === 'postgres' && !pgDump) {
    throw new BackupError(
      'pg_dump was not found on the PATH. Install the PostgreSQL client tools (e.g. apt-get install postgresql-client) in the version of the server or newer.',
    );
  }
  const sqliteFile = path.join(config.dataDir, SQLITE_FILE);
  if (dialect === 'sqlite' && !fs.existsSync(sqliteFile)) {
    throw new BackupError(`No database at ${sqliteFile}: check DATA_DIR (or set DATABASE_URL for PostgreSQL).`);
  }
  const now = options.now ?? new Date();
  const target = path.join(config.backupDir, backupFileName(now));
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists`);

  privateDir(config.backupDir);
  const stage = fs.mkdtempSync(path.join(config.backupDir, '.staging-'));
  try {
    const uploadsFrom = config.uploadsDir;
    const uploadsTo = path.join(stage, UPLOADS_FOLDER);
    // Uploads are copied before and after the database: an image is saved before the write that
    // names it commits and removed only after the write that drops it, so the union holds every
    // image the copy names (and at worst a few that nothing names).
    copyUploads(uploadsFrom, uploadsTo);
    const databaseFile = path.join(stage, DATABASE_FILE[dialect]);
    const copied =
      dialect === 'sqlite'
        ? await copySqlite(sqliteFile, databaseFile)
        : await dumpPostgres(config.databaseUrl!, pgDump!, databaseFile);
    copyUploads(uploadsFrom, uploadsTo);
    const manifest = await writeArchive(stage, target, {
      version: appVersion(),
      dialect,
      ...(copied.schema ? { schema: copied.schema } : {}),
      migrations: copied.migrations,
      created_at: now.toISOString(),
    });
    return { file: target, manifest, deleted: pruneBackups(config.backupDir, config.backupKeep) };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * SQLite's online backup API through its own connection. All pages are copied in one step, under
 * one read transaction: a copy in small steps starts over whenever another connection writes, and
 * under steady writes might never finish. WAL mode lets the server write meanwhile.
 */
async function copySqlite(source: string, target: string): Promise<{ migrations: string[]; schema?: string }> {
  const database = new SQLite(source, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    await database.backup(target, { progress: () => 0x7fffffff });
  } finally {
    database.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    // One self-contained file (no -wal beside it); the server switches to WAL when it opens it.
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The copy of ${source} fails SQLite's check: ${String(check)}`);
    return { migrations: migrationNames(copy) };
  } finally {
    copy.close();
  }
}

function migrationNames(database: SQLite.Database): string[] {
  const table = database.prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
  if (!table) return [];
  return (database.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((row) => row.name);
}

/**
 * pg_dump of the app's schema (custom format, for pg_restore) inside a snapshot this connection
 * exported, so the migration names in the manifest are those of the dumped state.
 */
async function dumpPostgres(
  databaseUrl: string,
  pgDump: string,
  target: string,
): Promise<{ migrations: string[]; schema: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string; schema: string | null; migrations: string | null }>(
      `select pg_export_snapshot() as snapshot, current_schema() as schema,
              to_regclass(quote_ident(current_schema()) || '.kysely_migration')::text as migrations`,
    );
    const { snapshot, schema, migrations: migrationTable } = rows[0]!;
    if (!schema) throw new BackupError('DATABASE_URL names no existing schema (search_path)');
    const migrations = migrationTable
      ? (await client.query<{ name: string }>(`select name from ${migrationTable} order by name`)).rows.map((row) => row.name)
      : [];
    const connection = libpqConnection(databaseUrl);
    await run(
      pgDump,
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--schema="${schema.replaceAll('"', '""')}"`,
        `--snapshot=${snapshot}`,
        `--file=${target}`,
        `--dbname=${connection.dbname}`,
      ],
      connection.env,
    );
    await client.query('commit');
    return { migrations, schema };
  } finally {
    await client.end();
  }
}
