import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { privateFile } from '../db/privateFiles.js';
import { SQLITE_FILE, type Dialect } from '../db/connection.js';

/*
 * One backup is one gzipped tar file (docs/architecture.md, Backups):
 *   manifest.json               what is in it (Manifest below)
 *   fankurve.sqlite             SQLite: the database (online backup API, rollback journal mode)
 *   fankurve.pgdump             PostgreSQL: pg_dump's custom format of the app's schema
 *   uploads/<name>              the uploaded images
 */

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE: Record<Dialect, string> = { sqlite: SQLITE_FILE, postgres: 'fankurve.pgdump' };
export const UPLOADS_FOLDER = 'uploads';
const FORMAT = 1;

export interface Manifest {
  app: 'fankurve';
  format: number;
  /** The app version that wrote it (package.json). */
  version: string;
  dialect: Dialect;
  /** PostgreSQL: the schema the tables live in (restored into the schema of the same name). */
  schema?: string;
  /** Migrations applied in the copied database, in order. */
  migrations: string[];
  created_at: string;
  files: { path: string; bytes: number; sha256: string }[];
}

/** A refusal or failure with a message for the person at the terminal; the CLIs exit 1 with it. */
export class BackupError extends Error {}

/** `fankurve-2026-11-25T02-40-00Z.tar.gz`: sortable by name, no colons (Windows, scp). */
export function backupFileName(date: Date): string {
  return `fankurve-${date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-')}.tar.gz`;
}

const BACKUP_NAME = /^fankurve-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/;

/** The backups in a folder, oldest first; other files there are none of ours. */
export function listBackups(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
}

/** Deletes all but the newest `keep` backups; returns the deleted names. */
export function pruneBackups(dir: string, keep: number): string[] {
  const all = listBackups(dir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const name of old) fs.rmSync(path.join(dir, name), { force: true });
  return old;
}

export function appVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * Copies the plain files of `from` that `to` lacks or holds at another size (a file that was still
 * being written the first time). Uploads are written once under a fresh name and never changed.
 */
export function copyUploads(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  if (!fs.existsSync(from)) return;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    try {
      if (fs.existsSync(target) && fs.statSync(target).size === fs.statSync(source).size) continue;
      fs.copyFileSync(source, target);
    } catch (error) {
      // Removed since the listing (replaced by a newer image): nothing to keep.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Whether a folder is missing or holds nothing. */
export function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

/** Files under `dir`, relative with forward slashes, sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return filesUnder(dir, relative);
      return entry.isFile() ? [relative] : [];
    })
    .sort();
}

/** SHA-256 of a file, read in pieces (a database can be large). */
function sha256(file: string): string {
  const hash = crypto.createHash('sha256');
  const buffer = Buffer.alloc(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * Writes the staged folder (database file and uploads/) with its manifest as `target`: first to a
 * hidden partial file, renamed when complete, so a backup folder never holds half an archive.
 */
export async function writeArchive(
  stage: string,
  target: string,
  manifest: Omit<Manifest, 'app' | 'format' | 'files'>,
): Promise<Manifest> {
  const files = filesUnder(stage).filter(
    (file) => file === DATABASE_FILE[manifest.dialect] || file.startsWith(`${UPLOADS_FOLDER}/`),
  );
  const full: Manifest = {
    app: 'fankurve',
    format: FORMAT,
    ...manifest,
    files: files.map((file) => ({
      path: file,
      bytes: fs.statSync(path.join(stage, file)).size,
      sha256: sha256(path.join(stage, file)),
    })),
  };
  fs.writeFileSync(path.join(stage, MANIFEST_FILE), `${JSON.stringify(full, null, 2)}\n`);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.partial`);
  try {
    await tar.create({ gzip: true, file: partial, cwd: stage, portable: true }, [
      MANIFEST_FILE,
      DATABASE_FILE[manifest.dialect],
      UPLOADS_FOLDER,
    ]);
    privateFile(partial);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return full;
}

/** An entry we wrote: the manifest, a database file, a plain file in uploads/ (or the folder itself). */
function isOurEntry(entryPath: string): boolean {
  const name = entryPath.replace(/\/$/, '');
  if (name === MANIFEST_FILE || Object.values(DATABASE_FILE).includes(name) || name === UPLOADS_FOLDER) return true;
  const [folder, file, ...rest] = name.split('/');
  return folder === UPLOADS_FOLDER && file !== undefined && rest.length === 0 && !file.startsWith('.');
}

/** Reads only the manifest (nothing is written), checking it is a Fankurve backup this build understands. */
export async function readManifest(file: string): Promise<Manifest> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new BackupError(`No backup file at ${file}`);
  const chunks: Buffer[] = [];
  try {
    await tar.list({
      file,
      filter: (entryPath) => entryPath === MANIFEST_FILE,
      onReadEntry: (entry) => entry.on('data', (chunk: Buffer) => chunks.push(chunk)),
    });
  } catch (error) {
    throw new BackupError(`${file} is no backup archive (${(error as Error).message})`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
  } catch {
    throw new BackupError(`${file} holds no readable ${MANIFEST_FILE}: it is no Fankurve backup`);
  }
  if (manifest?.app !== 'fankurve' || !Array.isArray(manifest.files) || !Array.isArray(manifest.migrations)) {
    throw new BackupError(`${file} is no Fankurve backup`);
  }
  if (manifest.format !== FORMAT)
    throw new BackupError(`${file} has backup format ${manifest.format}; this version reads ${FORMAT}`);
  return manifest;
}

/** Unpacks the archive into the empty folder `into` and checks every file against the manifest. */
export async function extractArchive(file: string, into: string, manifest: Manifest): Promise<void> {
  await tar.extract({
    file,
    cwd: into,
    strict: true,
    filter: (entryPath, entry) =>
      isOurEntry(entryPath) && 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
  });
  const listed = new Map(manifest.files.map((entry) => [entry.path, entry]));
  for (const found of filesUnder(into).filter((name) => name !== MANIFEST_FILE)) {
    const entry = listed.get(found);
    if (!entry) throw new BackupError(`${file} holds ${found}, which its manifest does not list`);
    if (fs.statSync(path.join(into, found)).size !== entry.bytes || sha256(path.join(into, found)) !== entry.sha256) {
      throw new BackupError(`${found} in ${file} is damaged (its size or checksum differs from the manifest)`);
    }
    listed.delete(found);
  }
  if (listed.size > 0) throw new BackupError(`${file} lacks ${[...listed.keys()].join(', ')}`);
}

/** The absolute path of a program on the PATH, or null. */
export function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * libpq arguments for a postgres:// URL: the URL without its password for the command line (which
 * other users of the machine can read) and the password through PGPASSWORD.
 */
export function libpqConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

/** Runs a program; rejects with its error output when it fails. */
export function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) => reject(new BackupError(`${path.basename(program)} could not be started: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new BackupError(`${path.basename(program)} failed (exit code ${code}): ${err.trim()}`));
    });
  });
}
