/**
 * `npm run backup`: a consistent copy of the database (while the server runs) and the uploads as one
 * archive in BACKUP_DIR, keeping the newest BACKUP_KEEP (README.md, Backups). Exit code 1 on failure.
 */
import { BackupError } from '../server/src/backup/archive.js';
import { createBackup } from '../server/src/backup/backup.js';
import { loadConfig } from '../server/src/config.js';
import { keepNewFilesPrivate } from '../server/src/db/privateFiles.js';

// What the backups hold is the server user's alone (docs/architecture.md, Backups: "Private files").
keepNewFilesPrivate();

try {
  const { file, manifest, deleted } = await createBackup(loadConfig());
  const uploads = manifest.files.filter((entry) => entry.path.startsWith('uploads/')).length;
  console.log(`Backup written: ${file} (${manifest.dialect}, ${manifest.migrations.length} migrations, ${uploads} uploads)`);
  for (const name of deleted) console.log(`Old backup deleted: ${name}`);
} catch (error) {
  console.error(error instanceof BackupError ? `Backup failed: ${error.message}` : error);
  process.exit(1);
}
