/**
 * `npm run restore -- FILE`: restores a backup of `npm run backup` into an empty DATA_DIR, or with
 * DATABASE_URL into an empty schema (README.md, Backups). Exit code 1 on refusal or failure.
 */
import path from 'node:path';
import { BackupError } from '../server/src/backup/archive.js';
import { restoreBackup } from '../server/src/backup/restore.js';
import { loadConfig } from '../server/src/config.js';
import { keepNewFilesPrivate } from '../server/src/db/privateFiles.js';

// What the backups hold is the server user's alone (docs/architecture.md, Backups: "Private files").
keepNewFilesPrivate();

const [file, ...rest] = process.argv.slice(2);
if (!file || rest.length > 0) {
  console.error('Usage: npm run restore -- <backup file>');
  process.exit(1);
}

try {
  const config = loadConfig();
  const manifest = await restoreBackup(config, path.resolve(process.env.INIT_CWD ?? process.cwd(), file));
  const uploads = manifest.files.filter((entry) => entry.path.startsWith('uploads/')).length;
  console.log(
    `Restored the backup of ${manifest.created_at} (Fankurve ${manifest.version}, ${uploads} uploads) into ` +
      (config.databaseUrl ? 'DATABASE_URL' : config.dataDir) +
      '. Start the server as usual; it runs the migrations newer than the backup.',
  );
} catch (error) {
  console.error(error instanceof BackupError ? `Restore failed: ${error.message}` : error);
  process.exit(1);
}
