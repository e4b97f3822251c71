// Bundles the server (and the shared TypeScript it imports) into server/dist/main.mjs for `npm start`:
// plain node runs it without a TypeScript loader, which saves the loader's worker thread (~55 MiB RSS)
// and its start-up time. Packages from node_modules stay external (native addons among them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dependencies = (workspace) =>
  Object.keys(JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')).dependencies ?? {});
const external = [...new Set([...dependencies('server'), ...dependencies('shared')])].filter(
  (name) => !name.startsWith('@fankurve/'),
);

await build({
  entryPoints: [path.join(root, 'server/src/main.ts')],
  outfile: path.join(root, 'server/dist/main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
