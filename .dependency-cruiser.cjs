/**
 * Import rules checked by `npm run lint` (`npm run lint:deps`): no circles, and each layer imports only
 * from the layers below it (docs/architecture.md, Layers).
 * @type {import('dependency-cruiser').IConfiguration}
 */

/**
 * The client's layers, lowest first: a module may import its own layer and those before it. A
 * collection in its own folder (client/src/collections/<name>/) has a file per layer: api.ts, data.ts,
 * texts.ts with de.json and en.json (i18n), and its screens (features).
 */
const CLIENT_COLLECTION = '^client/src/collections/[^/]+/';
const CLIENT_LAYERS = [
  ['api', ['^client/src/api/', `${CLIENT_COLLECTION}api\\.ts$`]],
  ['data', ['^client/src/data/', `${CLIENT_COLLECTION}data\\.ts$`]],
  ['pwa', '^client/src/pwa/'],
  ['session', '^client/src/session/'],
  ['i18n', ['^client/src/i18n/', `${CLIENT_COLLECTION}(texts\\.ts|[a-z]+\\.json)$`]],
  ['ui', '^client/src/ui/'],
  ['features', ['^client/src/features/', `${CLIENT_COLLECTION}(?!(api|data|texts)\\.ts$|[a-z]+\\.json$)`]],
  ['app', '^client/src/(app/|main\\.tsx$)'],
];

/**
 * The server's layers, lowest first (docs/architecture.md, Layers): the database (and the backups
 * beside it), the domain's rules, the services that call the domain (jobs, sessions and tokens,
 * push, mail, the match import), the REST routes, the sync protocol built on them, and the files
 * that wire it all (app, deps, server, main). config.ts is read by every layer and belongs to none.
 */
const SERVER_COLLECTION = '^server/src/collections/[^/]+/';
const SERVER_LAYERS = [
  ['db', ['^server/src/(db|backup)/', `${SERVER_COLLECTION}(tables\\.ts$|migrations/)`]],
  ['domain', ['^server/src/domain/', `${SERVER_COLLECTION}(events|domain)\\.ts$`]],
  ['jobs', '^server/src/jobs/'],
  ['auth', '^server/src/auth/'],
  ['notify', ['^server/src/notify/', `${SERVER_COLLECTION}notify\\.ts$`]],
  ['mail', '^server/src/mail/'],
  ['matches', '^server/src/matches/'],
  ['bankStatements', '^server/src/bankStatements/'],
  ['http', ['^server/src/http/', `${SERVER_COLLECTION}routes\\.ts$`]],
  ['sync', ['^server/src/sync/', `${SERVER_COLLECTION}sync\\.ts$`]],
  [
    'wiring',
    ['^server/src/(app|deps|server|main)\\.ts$', '^server/src/collections/[^/]+\\.ts$', `${SERVER_COLLECTION}index\\.ts$`],
  ],
];

/**
 * shared/src, lowest first: the constants, messages and ids with the rule result's shape, the
 * dates, the synced documents (with each folder collection's collection.ts), the registry of the
 * collections and their messages, the rules, the REST schemas (with each folder collection's
 * schemas.ts and answers.ts), the entry file.
 */
const SHARED_LAYERS = [
  ['base', ['^shared/src/(constants|messages|ids|push)\\.ts$', '^shared/src/rules/result\\.ts$']],
  ['dates', '^shared/src/dates\\.ts$'],
  ['docs', ['^shared/src/docs/', '^shared/src/collections/(define\\.ts|[^/]+/collection\\.ts)$']],
  ['registry', ['^shared/src/registry\\.ts$', '^shared/src/collections/index\\.ts$']],
  ['rules', ['^shared/src/rules/(?!result\\.ts$)', '^shared/src/matchImport\\.ts$']],
  ['schemas', ['^shared/src/schemas/', '^shared/src/collections/[^/]+/(schemas|answers)\\.ts$']],
  ['index', '^shared/src/index\\.ts$'],
];

/** One rule per layer: it imports its own layer and those below, never one above. */
const layerRules = (side, layers) =>
  layers.slice(0, -1).map(([name, path], index) => ({
    name: `${side}-layer-${name}`,
    comment: `${side}/src ${name} imports only ${layers
      .slice(0, index + 1)
      .map(([lower]) => lower)
      .join(', ')} (docs/architecture.md, Layers)`,
    severity: 'error',
    from: { path },
    to: { path: layers.slice(index + 1).flatMap(([, higher]) => higher) },
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
    ...layerRules('client', CLIENT_LAYERS),
    ...layerRules('server', SERVER_LAYERS),
    ...layerRules('shared', SHARED_LAYERS),
    {
      name: 'client-server-apart',
      comment: 'client/src and server/src never import each other: what both need lives in shared.',
      severity: 'error',
      from: { path: '^(client|server)/src/' },
      to: { path: '^(server|client)/', pathNot: '^$1/' },
    },
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
      name: 'client-collection-entry',
      comment: "Outside its folder, a collection's screens are used only through its entry file collections/<name>/index.ts.",
      severity: 'error',
      from: { path: '^client/src/', pathNot: '^client/src/collections/' },
      to: { path: '^client/src/collections/[^/]+/', pathNot: '^client/src/collections/[^/]+/index\\.ts$' },
    },
    {
      name: 'collection-folders-apart',
      comment: 'A collection in its own folder does not reach into another: what two need lives below them.',
      severity: 'error',
      from: { path: '^(client|server|shared)/src/collections/([^/]+)/' },
      to: { path: '^$1/src/collections/[^/]+/', pathNot: '^$1/src/collections/$2/' },
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
