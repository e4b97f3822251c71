/**
 * Import rules checked by `npm run lint` (`npm run lint:deps`): no circles, and each layer imports only
 * from the layers below it (docs/architecture.md, Layers).
 * @type {import('dependency-cruiser').IConfiguration}
 */

/** The client's layers, lowest first: a module may import its own layer and those before it. */
const CLIENT_LAYERS = [
  ['api', '^client/src/api/'],
  ['data', '^client/src/data/'],
  ['pwa', '^client/src/pwa/'],
  ['session', '^client/src/session/'],
  ['i18n', '^client/src/i18n/'],
  ['ui', '^client/src/ui/'],
  ['features', '^client/src/features/'],
  ['app', '^client/src/(app/|main\\.tsx$)'],
];

const clientLayerRules = CLIENT_LAYERS.slice(0, -1).map(([name, path], index) => ({
  name: `client-layer-${name}`,
  comment: `client/src ${name} imports only ${CLIENT_LAYERS.slice(0, index + 1)
    .map(([lower]) => lower)
    .join(', ')} (docs/architecture.md, Layers)`,
  severity: 'error',
  from: { path },
  to: { path: CLIENT_LAYERS.slice(index + 1).map(([, higher]) => higher) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports: move what both sides need below them.',
      severity: 'error',
      from: { path: '^(client|server|shared)/src/' },
      to: { circular: true },
    },
    ...clientLayerRules,
    {
      name: 'client-feature-entry',
      comment: 'A feature imports another feature only through its entry file features/<name>/index.ts.',
      severity: 'error',
      from: { path: '^client/src/features/([^/]+)/' },
      to: {
        path: '^client/src/features/[^/]+/',
        pathNot: ['^client/src/features/$1/', '^client/src/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'server-domain-below-edges',
      comment: 'The domain is called by the REST routes and the sync push, never the other way round.',
      severity: 'error',
      from: { path: '^server/src/domain/' },
      to: { path: '^server/src/(http|sync)/' },
    },
    {
      name: 'server-db-below-domain',
      comment:
        'The database layer knows no rule and no edge. It carries the domain events of a commit as a type only; a migration may compute a column with a domain function of its time.',
      severity: 'error',
      from: { path: '^server/src/db/', pathNot: '^server/src/db/migrations/' },
      to: { path: '^server/src/(domain|http|sync)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-backup-beside-db',
      comment: 'Backups copy the database and the uploads; they know no rule and no edge (docs/architecture.md, Backups).',
      severity: 'error',
      from: { path: '^server/src/backup/' },
      to: { path: '^server/src/(domain|http|sync)/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared is used by both sides and imports neither.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(client|server)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dev-dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // TypeScript's ESM imports name the emitted `.js`; the source is the `.ts`/`.tsx` beside it.
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
    },
  },
};
