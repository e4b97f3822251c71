import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPostgres } from './helpers.js';
import { png } from './png.js';

/*
 * The data folder and the backups are the server user's alone (docs/architecture.md, Backups:
 * "Private files"): the server, `npm run backup` and `npm run restore` run here as real processes
 * under a umask of 022, which would leave everything readable by every local user, and on a data
 * folder an older installation left at 0755 with a 0644 file in it.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_PASSWORD = 'file-modes-admin-pass';
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const octal = (file: string) => `${path.basename(file)} ${modeOf(file).toString(8)}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command under `umask 022` with our settings; resolves with its output once `until` shows or it exits. */
function run(args: string[], env: Record<string, string>, until?: RegExp) {
  const child = spawn('sh', ['-c', 'umask 022; exec "$@"', 'sh', process.execPath, '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, TEST_DATABASE_URL: '', DATABASE_URL: '', UPLOADS_DIR: '', BACKUP_DIR: '', INIT_CWD: ROOT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    const check = () => {
      if (until && until.test(output)) resolve({ code: null, output });
    };
    child.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString()), check()));
    child.stderr.on('data', (chunk: Buffer) => ((output += chunk.toString()), check()));
    child.on('close', (code) => resolve({ code, output }));
  });
  return { child, done };
}

describe.skipIf(isPostgres())('private files on SQLite', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-modes-'));
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('the server, a backup and a restore leave the data folder, the database, its -wal and -shm, the backups and every file in them 0700/0600', async () => {
    // An older installation: a readable folder with a readable upload in it.
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true, mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'uploads'), 0o755);
    const oldUpload = path.join(dataDir, 'uploads', 'img-old.png');
    fs.writeFileSync(oldUpload, 'png', { mode: 0o644 });
    expect(modeOf(oldUpload)).toBe(0o644);

    const port = await freePort();
    const server = run(
      ['server/src/main.ts'],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_USERNAME: 'chef',
        ADMIN_PASSWORD,
        CLIENT_DIR: path.join(base, 'no-client'),
      },
      /Fankurve .* on http/,
    );
    try {
      const started = await server.done;
      // The first start names the admin it created, and where its password comes from.
      expect(started.output).toContain('Admin account created: chef');
      expect(started.output).toContain('ADMIN_PASSWORD');
      expect(started.output).not.toContain(ADMIN_PASSWORD);
      // A write, so the write-ahead log holds something.
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'chef', password: ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
      // A file the running server creates later: an uploaded logo in the uploads folder.
      const { token } = (await login.json()) as { token: string };
      const form = new FormData();
      form.append('logo', new Blob([png(2, 2)], { type: 'image/png' }), 'logo.png');
      const upload = await fetch(`http://127.0.0.1:${port}/api/config/logo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(upload.status, await upload.clone().text()).toBe(200);
      const { filename } = (await upload.json()) as { filename: string };
      expect(octal(path.join(dataDir, 'uploads', filename))).toBe(`${filename} 600`);

      const sqlite = path.join(dataDir, 'fankurve.sqlite');
      expect(fs.existsSync(`${sqlite}-wal`)).toBe(true);
      expect(fs.existsSync(`${sqlite}-shm`)).toBe(true);
      const files = fs.readdirSync(dataDir, { recursive: true, withFileTypes: true });
      expect(files.length).toBeGreaterThanOrEqual(5);
      for (const entry of files) {
        const file = path.join(entry.parentPath, entry.name);
        expect(octal(file)).toBe(`${entry.name} ${entry.isDirectory() ? '700' : '600'}`);
      }
      expect(octal(dataDir)).toBe('data 700');

      // A backup while the server runs: the folder and the archive.
      const backupDir = path.join(base, 'backups');
      const backup = await run(['scripts/backup.ts'], { DATA_DIR: dataDir, BACKUP_DIR: backupDir }).done;
      expect(backup.code, backup.output).toBe(0);
      const archives = fs.readdirSync(backupDir);
      expect(archives).toHaveLength(1);
      expect(octal(backupDir)).toBe('backups 700');
      expect(octal(path.join(backupDir, archives[0]!))).toBe(`${archives[0]} 600`);

      // Restored into a new data folder: the database, the uploads and their folders.
      const restoredDir = path.join(base, 'restored');
      const restore = await run(['scripts/restore.ts', path.join(backupDir, archives[0]!)], { DATA_DIR: restoredDir }).done;
      expect(restore.code, restore.output).toBe(0);
      expect(octal(restoredDir)).toBe('restored 700');
      expect(octal(path.join(restoredDir, 'fankurve.sqlite'))).toBe('fankurve.sqlite 600');
      expect(octal(path.join(restoredDir, 'uploads'))).toBe('uploads 700');
      expect(octal(path.join(restoredDir, 'uploads', 'img-old.png'))).toBe('img-old.png 600');
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => (server.child.exitCode === null ? server.child.once('exit', resolve) : resolve(null)));
    }
  }, 90_000);
});
