import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { prepareRuntime } from './deps.js';
import { keepNewFilesPrivate, privateTree } from './db/privateFiles.js';
import { startServer } from './server.js';

// Everything in DATA_DIR and BACKUP_DIR is the server user's alone (docs/architecture.md, Backups:
// "Private files"): new files by the umask, those an older installation left by tightening them.
keepNewFilesPrivate();
const config = loadConfig();
for (const dir of new Set([config.dataDir, config.uploadsDir, config.backupDir])) privateTree(dir);
const runtime = await prepareRuntime(config);
const app = createApp(runtime.deps);

if (runtime.bootstrapAdmin) {
  console.log('──────────────────────────────────────────────────────────');
  if (runtime.bootstrapAdmin.password) {
    console.log(` Admin account created: ${runtime.bootstrapAdmin.username} / ${runtime.bootstrapAdmin.password}`);
    console.log(' This password is shown once; you will be asked to change it.');
  } else {
    console.log(` Admin account created: ${runtime.bootstrapAdmin.username}`);
    console.log(' Its password is the one ADMIN_PASSWORD sets.');
  }
  console.log('──────────────────────────────────────────────────────────');
}

// The shared lists are read before the first phone asks (docs/architecture.md, "The match-day rush on one server").
await Promise.all(runtime.deps.warmUps.map((warmUp) => warmUp())).catch((error: unknown) =>
  console.error('Warming up failed (the server starts cold):', error),
);
const running = startServer(runtime, app.fetch, { port: config.port, hostname: config.host });
void running.listening.then((info) => {
  const database = runtime.connection.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL';
  console.log(
    `Fankurve ${runtime.deps.version} on http://${info.address === '127.0.0.1' ? 'localhost' : info.address}:${info.port} (${database})`,
  );
});

// The graceful stop (docs/architecture.md, "Health and shutdown"); a second signal ends at once.
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: stopping (open requests finish, change streams reconnect elsewhere)`);
  try {
    await running.stop();
  } catch (error) {
    console.error('Stopping failed:', error);
    process.exit(1);
  }
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
