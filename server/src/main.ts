import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { prepareRuntime } from './deps.js';

const config = loadConfig();
const runtime = await prepareRuntime(config);
const app = createApp(runtime.deps);

if (runtime.bootstrapPassword) {
  console.log('──────────────────────────────────────────────────────────');
  console.log(` Admin account created: ${config.adminUsername} / ${runtime.bootstrapPassword}`);
  console.log(' This password is shown once; you will be asked to change it.');
  console.log('──────────────────────────────────────────────────────────');
}

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const database = runtime.connection.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL';
  console.log(
    `Fankurve ${runtime.deps.version} on http://${info.address === '127.0.0.1' ? 'localhost' : info.address}:${info.port} (${database})`,
  );
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  runtime.deps.store.commits.close();
  server.close();
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await runtime.connection.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
