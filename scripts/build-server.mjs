// Bundles the server (and the shared TypeScript it imports) into server/dist/main.mjs for `npm start`:
// plain node runs it without a TypeScript loader, which saves the loader's worker thread (~55 MiB RSS)
// and its start-up time. Packages from node_modules stay external (native addons among them).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dependencies = (workspace) =>
  Object.keys(JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')).dependencies ?? {});
const external = [...new Set([...dependencies('server'), ...dependencies('shared')])].filter(
  (name) => !name.startsWith('@fankurve/'),
);

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: [path.join(root, 'server/src/main.ts')],
  outfile: path.join(root, 'server/dist/main.mjs'),
});

// The migrations stay one file each beside main.mjs: server/src/db/migrate.ts finds them in their folder.
const migrations = path.join(root, 'server/src/db/migrations');
await build({
  ...common,
  entryPoints: readdirSync(migrations)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(migrations, file)),
  outdir: path.join(root, 'server/dist/migrations'),
  outExtension: { '.js': '.mjs' },
});
