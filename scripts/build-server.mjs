// Bundles the server (and the shared TypeScript it imports) into server/dist/main.mjs for `npm start`:
// plain node runs it without a TypeScript loader, which saves the loader's worker thread (~55 MiB RSS)
// and its start-up time. Packages from node_modules stay external (native addons among them).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

// The migrations stay one file each beside main.mjs, those of db/migrations and of each collection in
// a folder of its own (collections/<name>/migrations) in one folder: server/src/db/migrate.ts finds them there.
const collections = path.join(root, 'server/src/collections');
const migrationFolders = [
  path.join(root, 'server/src/db/migrations'),
  ...readdirSync(collections, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(collections, entry.name, 'migrations'))
    .filter((folder) => existsSync(folder)),
];
// Built afresh: a renamed or removed migration must not stay behind to be run.
rmSync(path.join(root, 'server/dist/migrations'), { recursive: true, force: true });
await build({
  ...common,
  // Named entry points: each comes out as <name>.mjs in the one folder, whichever folder it came from.
  entryPoints: Object.fromEntries(
    migrationFolders.flatMap((folder) =>
      readdirSync(folder)
        .filter((file) => file.endsWith('.ts'))
        .map((file) => [file.replace(/\.ts$/, ''), path.join(folder, file)]),
    ),
  ),
  outdir: path.join(root, 'server/dist/migrations'),
  outExtension: { '.js': '.mjs' },
});
