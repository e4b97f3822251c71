import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError, listBackups, type Manifest } from '../src/backup/archive.js';
import { createBackup } from '../src/backup/backup.js';
import { restoreBackup } from '../src/backup/restore.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { prepareRuntime } from '../src/deps.js';
import { ADMIN, createEventVia, createTestApp, IMAGES, isPostgres, testDatabase, uploadFile, type TestApp } from './helpers.js';

/*
 * `npm run backup` and `npm run restore` (docs/architecture.md, Backups) on real databases: the
 * CLIs run as their own processes while the test app keeps writing through its REST API.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function app(): Promise<TestApp> {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  return t;
}

/** Runs scripts/<script>.ts as `npm run` would (tsx, INIT_CWD), with only the given settings of ours. */
function cli(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, INIT_CWD: ROOT, DATABASE_URL: '', UPLOADS_DIR: '', BACKUP_DIR: '', BACKUP_KEEP: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every table's rows by primary key (the whole row where a table has none). */
type Tables = Record<string, Map<string, Record<string, unknown>>>;

function keyOf(row: Record<string, unknown>, keys: string[]): string {
  return JSON.stringify(keys.length > 0 ? keys.map((key) => row[key]) : row);
}

function readSqlite(file: string): Tables {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables: Tables = {};
    const names = db
      .prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`)
      .all() as { name: string }[];
    for (const { name } of names) {
      const keys = (db.pragma(`table_info("${name}")`) as { name: string; pk: number }[])
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name);
      const rows = db.prepare(`select * from "${name}"`).all() as Record<string, unknown>[];
      tables[name] = new Map(rows.map((row) => [keyOf(row, keys), row]));
    }
    return tables;
  } finally {
    db.close();
  }
}

async function readPostgres(url: string): Promise<Tables> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const names = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
    );
    const keyColumns = await client.query<{ table: string; column: string }>(
      `select kcu.table_name as table, kcu.column_name as column
         from information_schema.table_constraints tc
         join information_schema.key_column_usage kcu
           on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
        where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = current_schema()
        order by kcu.ordinal_position`,
    );
    const tables: Tables = {};
    for (const { name } of names.rows) {
      const keys = keyColumns.rows.filter((row) => row.table === name).map((row) => row.column);
      const rows = (await client.query<Record<string, unknown>>(`select * from "${name}"`)).rows;
      tables[name] = new Map(rows.map((row) => [keyOf(row, keys), row]));
    }
    return tables;
  } finally {
    await client.end();
  }
}

const readSource = (t: TestApp): Promise<Tables> | Tables =>
  t.runtime.deps.config.databaseUrl
    ? readPostgres(t.runtime.deps.config.databaseUrl)
    : readSqlite(path.join(t.dataDir, 'fankurve.sqlite'));

const seqCounter = (tables: Tables) => Number(tables.counters!.get(JSON.stringify(['seq']))!.value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The copy must be the source as it was at one moment between the backup's start and end. Every
 * write takes the next value of the one seq counter and writers are serialised by it (docs/
 * architecture.md, One write convention), so the copy's counter C names that moment, and for each
 * replicated table (one with `seq`), compared with the source after the writes stopped:
 * - every source row with seq ≤ C is in the copy, identical (it has not changed since C);
 * - every copy row has seq ≤ C and is identical to the source row, unless that row was written
 *   again later (its seq in the source is then > C); no copy row is missing from the source
 *   (replicated rows are tombstoned, never removed).
 * Tables without seq that the writes did not touch must be identical; those they touched are
 * checked by key only. C must lie strictly between the counter before the backup and after the
 * writes stopped, so the copy really was taken in the middle of the writes. Referential integrity
 * is checked by the database (SQLite's foreign_key_check; pg_restore adds every foreign key and
 * refuses rows that break one).
 */
function expectConsistentCopy(copy: Tables, before: Tables, after: Tables): number {
  const at = seqCounter(copy);
  expect(at).toBeGreaterThan(seqCounter(before));
  expect(at).toBeLessThan(seqCounter(after));
  expect(Object.keys(copy).sort()).toEqual(Object.keys(after).sort());
  for (const [table, rows] of Object.entries(after)) {
    const copied = copy[table]!;
    const replicated = [...rows.values(), ...copied.values()].some((row) => 'seq' in row);
    if (replicated) {
      for (const [key, row] of rows) {
        if (Number(row.seq) <= at) expect(copied.get(key), `${table} ${key}`).toEqual(row);
      }
      for (const [key, row] of copied) {
        expect(Number(row.seq), `${table} ${key}`).toBeLessThanOrEqual(at);
        const now = rows.get(key);
        expect(now, `${table} ${key} is missing in the source`).toBeDefined();
        if (!same(now, row)) expect(Number(now!.seq), `${table} ${key} differs`).toBeGreaterThan(at);
      }
    } else if (same([...before[table]!.entries()], [...rows.entries()])) {
      expect([...copied.entries()], table).toEqual([...rows.entries()]);
    } else {
      for (const key of copied.keys()) expect(rows.has(key) || before[table]!.has(key), `${table} ${key}`).toBe(true);
    }
  }
  return at;
}

/**
 * Members at work: the admin creates events one after another, a fan answers each, and the admin
 * edits the previous event (a row written again later). Runs until `stop`, which lets it finish
 * `more` further rounds first.
 */
function startWriting(t: TestApp, admin: string, fan: string) {
  const created: string[] = [];
  let stopAt = Number.POSITIVE_INFINITY;
  let rounds = 0;
  const done = (async () => {
    for (let i = 0; i < stopAt; i++) {
      const event = await createEventVia(t, admin, { title: `Backup run ${i} (H)` });
      created.push(event.id);
      const answer = await t.call('POST', `/api/attendance/${event.id}`, { token: fan, body: { status: 'going' } });
      if (answer.status !== 200) throw new Error(`answer: ${answer.status} ${JSON.stringify(answer.body)}`);
      if (i > 0) {
        const edit = await t.call('PUT', `/api/events/${created[i - 1]}`, {
          token: admin,
          body: { description: `Edited in round ${i}` },
        });
        if (edit.status !== 200) throw new Error(`edit: ${edit.status} ${JSON.stringify(edit.body)}`);
      }
      rounds = i + 1;
      // On SQLite a request never waits for I/O: let timers and the child process's output in.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  done.catch(() => undefined); // reported by stop()
  return {
    created,
    get rounds() {
      return rounds;
    },
    async stop(more: number) {
      stopAt = rounds + more;
      await done;
    },
  };
}

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Two event images in the uploads; returns the uploads folder. */
async function withImages(t: TestApp, admin: string): Promise<string> {
  for (const bytes of [IMAGES.png, IMAGES.jpeg]) {
    const event = await createEventVia(t, admin, { title: 'With image (A)' });
    const res = await uploadFile(t, `/api/events/${event.id}/image`, { token: admin, bytes });
    expect(res.status).toBe(200);
  }
  const uploads = t.runtime.deps.config.uploadsDir;
  expect(fs.readdirSync(uploads)).toHaveLength(2);
  return uploads;
}

/** Runs the backup CLI while the app writes; returns the archive and the source before and after. */
async function backupWhileWriting(t: TestApp, backupDir: string) {
  const admin = await t.adminToken();
  const fan = await t.member('backupfan');
  const uploads = await withImages(t, admin);
  if (!t.runtime.deps.config.databaseUrl) {
    // No checkpoints: the rows written from here on live only in the WAL, which a copy of the
    // database file alone would miss (the copy would then be older than `before`).
    await sql`pragma wal_autocheckpoint = 0`.execute(t.db);
  }
  const writing = startWriting(t, admin, fan.token);
  await waitUntil(() => writing.rounds >= 3);
  const before = await readSource(t);
  const run = await cli('backup', [], {
    DATA_DIR: t.dataDir,
    BACKUP_DIR: backupDir,
    DATABASE_URL: t.runtime.deps.config.databaseUrl ?? '',
  });
  // Rounds written after the backup ended: the source moves on past the copy.
  await writing.stop(3);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Backup written: .*fankurve-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz/);
  const after = await readSource(t);
  const [archive] = listBackups(backupDir);
  expect(archive).toBeDefined();
  return { archive: path.join(backupDir, archive!), before, after, uploads, created: writing.created };
}

async function archiveEntries(file: string): Promise<{ entries: string[]; manifest: Manifest }> {
  const entries: string[] = [];
  let manifest = '';
  await tar.list({
    file,
    onReadEntry: (entry) => {
      entries.push(entry.path);
      if (entry.path === 'manifest.json') entry.on('data', (chunk: Buffer) => (manifest += chunk.toString()));
    },
  });
  return { entries, manifest: JSON.parse(manifest) as Manifest };
}

/** The copy's events of the writing rounds are the first k created, for some k: a prefix. */
function expectPrefixOfRounds(copy: Tables, created: string[]): void {
  const copied = created.filter((id) => copy.events!.has(JSON.stringify([id])));
  expect(copied.length).toBeGreaterThan(0);
  expect(copied.length).toBeLessThan(created.length);
  expect(copied).toEqual(created.slice(0, copied.length));
}

function filesOf(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(dir, file), crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')];
      }),
  );
}

/** Starts the server on a restored target and signs in: the restored club is there. */
async function startOn(env: Record<string, string>, eventId: string): Promise<void> {
  const config = loadConfig({
    ...env,
    JWT_SECRET: 'restored-secret-restored-secret-xx',
    CLIENT_DIR: path.join(env.DATA_DIR!, 'none'),
  });
  const runtime = await prepareRuntime(config);
  try {
    expect(runtime.bootstrapAdmin).toBeNull();
    const api = createApp(runtime.deps);
    const login = await api.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const event = await api.request(`/api/events/${eventId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(event.status).toBe(200);
  } finally {
    await runtime.jobs.stop();
    runtime.deps.store.commits.close();
    await runtime.connection.close();
  }
}

/** A restore target: DATA_DIR `dir` with its uploads in it. */
const into = (dir: string, databaseUrl: string | null) => ({ dataDir: dir, uploadsDir: path.join(dir, 'uploads'), databaseUrl });

describe.skipIf(isPostgres())('backups on SQLite', () => {
  it('copies a consistent state while members write, with the uploads, and restores it into an empty DATA_DIR', async () => {
    const t = await app();
    const backupDir = tempDir('fankurve-backups-');
    const { archive, before, after, uploads, created } = await backupWhileWriting(t, backupDir);

    const { entries, manifest } = await archiveEntries(archive);
    expect(entries[0]).toBe('manifest.json');
    expect(entries).toContain('fankurve.sqlite');
    expect(entries.filter((entry) => entry.startsWith('uploads/') && entry !== 'uploads/')).toHaveLength(2);
    expect(manifest).toMatchObject({ app: 'fankurve', dialect: 'sqlite', version: t.runtime.deps.version });
    expect(manifest.migrations).toEqual([...after.kysely_migration!.values()].map((row) => row.name).sort());
    expect(manifest.files.map((file) => file.path)).toEqual(
      entries.filter((entry) => /^(fankurve\.sqlite|uploads\/.+)$/.test(entry)).sort(),
    );

    const target = path.join(tempDir('fankurve-restore-'), 'data');
    const restored = await cli('restore', [archive], { DATA_DIR: target });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);

    const copyFile = path.join(target, 'fankurve.sqlite');
    const check = new SQLite(copyFile, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(check.pragma('foreign_key_check')).toEqual([]);
    check.close();
    const copy = readSqlite(copyFile);
    expectConsistentCopy(copy, before, after);
    expectPrefixOfRounds(copy, created);

    expect(filesOf(path.join(target, 'uploads'))).toEqual(filesOf(uploads));
    for (const event of copy.events!.values()) {
      if (event.image_filename) expect(fs.existsSync(path.join(target, 'uploads', String(event.image_filename)))).toBe(true);
    }

    await startOn({ DATA_DIR: target }, created[0]!);
  });

  it('keeps the newest BACKUP_KEEP backups and leaves other files alone', async () => {
    const t = await app();
    const backupDir = tempDir('fankurve-backups-');
    fs.writeFileSync(path.join(backupDir, 'notes.txt'), 'mine');
    const config = { ...t.runtime.deps.config, backupDir, backupKeep: 3 };
    const names: string[] = [];
    for (let day = 1; day <= 5; day++) {
      const { file, deleted } = await createBackup(config, { now: new Date(`2026-11-0${day}T02:40:00Z`) });
      names.push(path.basename(file));
      expect(deleted).toEqual(day > 3 ? [names[day - 4]] : []);
    }
    expect(names[0]).toBe('fankurve-2026-11-01T02-40-00Z.tar.gz');
    expect(fs.readdirSync(backupDir).sort()).toEqual([...names.slice(2), 'notes.txt']);
    await expect(createBackup(config, { now: new Date('2026-11-05T02:40:00Z') })).rejects.toThrow(/already exists/);
  });

  it('refuses a target that is not empty and changes nothing', async () => {
    const t = await app();
    await withImages(t, await t.adminToken());
    const { file } = await createBackup({ ...t.runtime.deps.config, backupDir: tempDir('fankurve-backups-') });

    // The running club's own DATA_DIR: its database and uploads.
    const listing = fs.readdirSync(t.dataDir).sort();
    const uploads = filesOf(path.join(t.dataDir, 'uploads'));
    const tables = readSource(t) as Tables;
    const refused = await cli('restore', [file], { DATA_DIR: t.dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Restore refused, the target is not empty \(nothing was changed\): .*fankurve\.sqlite exists/);
    expect(fs.readdirSync(t.dataDir).sort()).toEqual(listing);
    expect(filesOf(path.join(t.dataDir, 'uploads'))).toEqual(uploads);
    expect((readSource(t) as Tables).events).toEqual(tables.events);

    // Only uploads left in it.
    const target = tempDir('fankurve-restore-');
    fs.mkdirSync(path.join(target, 'uploads'));
    fs.writeFileSync(path.join(target, 'uploads', 'img-left.png'), IMAGES.png);
    await expect(restoreBackup(into(target, null), file)).rejects.toThrow(/uploads is not empty/);
    expect(fs.readdirSync(target)).toEqual(['uploads']);
    expect(fs.readdirSync(path.join(target, 'uploads'))).toEqual(['img-left.png']);

    // A SQLite backup is not restored into PostgreSQL, nor is a file that is no backup.
    const empty = tempDir('fankurve-restore-');
    await expect(restoreBackup(into(empty, 'postgres://nobody@127.0.0.1:1/none'), file)).rejects.toThrow(
      /is a SQLite backup; unset DATABASE_URL/,
    );
    await expect(restoreBackup(into(empty, null), path.join(t.dataDir, 'fankurve.sqlite'))).rejects.toThrow(BackupError);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('says so and writes nothing when pg_dump is not on the PATH', async () => {
    const backupDir = path.join(tempDir('fankurve-backups-'), 'backups');
    const run = await cli('backup', [], {
      DATA_DIR: tempDir('fankurve-data-'),
      BACKUP_DIR: backupDir,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      PATH: '/nonexistent',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Backup failed: pg_dump was not found on the PATH/);
    expect(fs.existsSync(backupDir)).toBe(false);
  });
});

describe.runIf(isPostgres())('backups on PostgreSQL', () => {
  it('dumps a consistent state with pg_dump while members write and restores it into an empty database', async () => {
    const t = await app();
    const backupDir = tempDir('fankurve-backups-');
    const { archive, before, after, uploads, created } = await backupWhileWriting(t, backupDir);
    const { entries, manifest } = await archiveEntries(archive);
    expect(entries).toContain('fankurve.pgdump');
    expect(manifest).toMatchObject({ dialect: 'postgres', schema: 'public' });
    expect(manifest.migrations).toEqual([...after.kysely_migration!.values()].map((row) => row.name).sort());

    // The source database has tables: refused, nothing changed.
    const sourceUrl = t.runtime.deps.config.databaseUrl!;
    const refusedDir = tempDir('fankurve-restore-');
    const refused = await cli('restore', [archive], { DATA_DIR: refusedDir, DATABASE_URL: sourceUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /Restore refused, the target is not empty \(nothing was changed\): schema public of DATABASE_URL has \d+ tables/,
    );
    expect(fs.readdirSync(refusedDir)).toEqual([]);
    const unchanged = await readPostgres(sourceUrl);
    expect(Object.keys(unchanged)).toEqual(Object.keys(after));
    expect(unchanged.events).toEqual(after.events);

    const database = (await testDatabase())!;
    cleanups.push(() => database.drop());
    const target = tempDir('fankurve-restore-');
    const restored = await cli('restore', [archive], { DATA_DIR: target, DATABASE_URL: database.url });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);

    const copy = await readPostgres(database.url);
    expectConsistentCopy(copy, before, after);
    expectPrefixOfRounds(copy, created);
    expect(filesOf(path.join(target, 'uploads'))).toEqual(filesOf(uploads));

    await startOn({ DATA_DIR: target, DATABASE_URL: database.url }, created[0]!);
  });
});
