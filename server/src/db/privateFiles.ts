import fs from 'node:fs';
import path from 'node:path';

/*
 * The data folder holds password hashes, e-mail addresses, sessions, reset-token hashes, calendar
 * seeds and the ledger: it and every file in it, the backups too, are the server user's alone
 * (docs/architecture.md, Backups: "Private files"), whatever the umask, also for an installation
 * whose files were made before with looser modes.
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * From now on what this process creates is its user's alone (SQLite's -wal and -shm files, temporary
 * files, anything written without an explicit mode). The server and the backup scripts call it first.
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

/** Creates a folder (and its parents) if missing and makes it private. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Makes a file private if it exists. */
export function privateFile(file: string): void {
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Makes a folder and everything below it private: folders 0700, files 0600; links are left alone. */
export function privateTree(dir: string): void {
  if (!fs.existsSync(dir)) return;
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) privateTree(child);
    else if (entry.isFile()) privateFile(child);
  }
}
