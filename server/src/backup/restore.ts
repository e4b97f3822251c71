import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.js';
import { privateDir, privateTree } from '../db/privateFiles.js';
import { SQLITE_FILE, type Dialect } from '../db/connection.js';
import { loadMigrations } from '../db/migrate.js';
import {
  BackupError,
  DATABASE_FILE,
  extractArchive,
  findOnPath,
  isEmptyDir,
  libpqConnection,
  readManifest,
  run,
  UPLOADS_FOLDER,
  type Manifest,
} from './archive.js';

type RestoreConfig = Pick<Config, 'dataDir' | 'uploadsDir' | 'databaseUrl'>;

/**
 * `npm run restore -- FILE`: puts a backup into an empty target (DATA_DIR without database and
 * uploads; with DATABASE_URL a schema without tables). Everything is checked before anything is
 * written; a refusal changes nothing. The server then starts on it and runs the migrations that
 * are newer than the backup (docs/architecture.md, Backups).
 */
export async function restoreBackup(config: RestoreConfig, file: string): Promise<Manifest> {
  const dialect: Dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  const manifest = await readManifest(file);
  if (manifest.dialect !== dialect) {
    throw new BackupError(
      `${file} is a ${manifest.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup; ` +
        (dialect === 'sqlite'
          ? 'set DATABASE_URL to restore it into PostgreSQL'
          : 'unset DATABASE_URL to restore it into SQLite'),
    );
  }
  const known = new Set(Object.keys(await loadMigrations()));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `${file} was made by Fankurve ${manifest.version}, whose database has migrations this version lacks (${unknown.join(', ')}): update Fankurve first`,
    );
  }

  const uploadsDir = config.uploadsDir;
  const refusals: string[] = [];
  if (dialect === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm', '-journal']) {
      const existing = path.join(config.dataDir, SQLITE_FILE + suffix);
      if (fs.existsSync(existing)) refusals.push(`${existing} exists`);
    }
  }
  if (!isEmptyDir(uploadsDir)) refusals.push(`${uploadsDir} is not empty`);
  const pgRestore = dialect === 'postgres' ? findOnPath('pg_restore') : null;
  if (dialect === 'postgres') {
    if (!pgRestore) throw new BackupError('pg_restore was not found on the PATH. Install the PostgreSQL client tools.');
    refusals.push(...(await postgresRefusals(config.databaseUrl!, manifest)));
  }
  if (refusals.length > 0) {
    throw new BackupError(`Restore refused, the target is not empty (nothing was changed): ${refusals.join('; ')}`);
  }

  privateDir(config.dataDir);
  const stage = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
  try {
    await extractArchive(file, stage, manifest);
    // The archive's modes are not trusted: what is restored is the server user's alone.
    privateTree(stage);
    const databaseFile = path.join(stage, DATABASE_FILE[dialect]);
    if (dialect === 'sqlite') {
      try {
        // A link, unlike a rename, fails when a database appeared there meanwhile.
        fs.linkSync(databaseFile, path.join(config.dataDir, SQLITE_FILE));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST')
          throw new BackupError('A database appeared in DATA_DIR meanwhile');
        throw error;
      }
    } else {
      await restorePostgres(config.databaseUrl!, pgRestore!, databaseFile, stage);
    }
    moveUploads(path.join(stage, UPLOADS_FOLDER), uploadsDir);
    privateTree(uploadsDir);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  return manifest;
}

async function postgresRefusals(databaseUrl: string, manifest: Manifest): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ schema: string | null; tables: number }>(
      `select current_schema() as schema,
              (select count(*)::int from information_schema.tables where table_schema = current_schema()) as tables`,
    );
    const { schema, tables } = rows[0]!;
    if (!schema) return ['DATABASE_URL names no existing schema (create it first)'];
    const refusals: string[] = [];
    if (tables > 0) refusals.push(`schema ${schema} of DATABASE_URL has ${tables} tables`);
    if (manifest.schema && manifest.schema !== schema) {
      refusals.push(`the backup holds schema ${manifest.schema}, DATABASE_URL uses ${schema}`);
    }
    return refusals;
  } finally {
    await client.end();
  }
}

/** pg_restore in one transaction into the existing, empty schema (the dump's CREATE SCHEMA is left out). */
async function restorePostgres(databaseUrl: string, pgRestore: string, dump: string, stage: string): Promise<void> {
  const connection = libpqConnection(databaseUrl);
  const contents = await run(pgRestore, ['--list', dump], connection.env);
  const list = path.join(stage, 'restore.list');
  fs.writeFileSync(
    list,
    contents
      .split('\n')
      .filter((line) => !/^\d+;\s+\d+\s+\d+\s+SCHEMA - /.test(line) && !/^\d+;\s+\d+\s+\d+\s+COMMENT - SCHEMA /.test(line))
      .join('\n'),
  );
  await run(
    pgRestore,
    [
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      `--use-list=${list}`,
      `--dbname=${connection.dbname}`,
      dump,
    ],
    connection.env,
  );
}

function moveUploads(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (fs.existsSync(to)) fs.rmdirSync(to); // empty: checked above
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.cpSync(from, to, { recursive: true });
  }
}
