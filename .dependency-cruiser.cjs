/**
 * Import rules, checked by `npm run check:imports` and by tests/architecture/import-rules.test.ts.
 * Layers, lowest first: domain → infra → projections → commands → workers / api → the root files
 * (main.ts, server.ts, create-services.ts, open-event-store.ts; services.ts is the type of what the
 * routers and workers are handed). An arrow may only point down (or sideways inside a layer), and no
 * file reaches itself.
 */
const rootFile = '^src/[^/]+\\.ts$';

const layer = (name, mayNotImport, comment, mayNotImportRoot = rootFile) => ({
  name: `${name}-imports-down-only`,
  severity: 'error',
  comment,
  from: { path: `^src/${name}/` },
  to: { path: [...mayNotImport.map((other) => `^src/${other}/`), mayNotImportRoot] },
});

/** A root file that may not import these (layers' folders or other root files). */
const root = (file, mayNotImport, comment) => ({
  name: `${file.replace(/\.ts$/, '')}-imports-down-only`,
  severity: 'error',
  comment,
  from: { path: `^src/${file.replace('.', '\\.')}$` },
  to: { path: mayNotImport.map((other) => (other.endsWith('.ts') ? `^src/${other.replace('.', '\\.')}$` : `^src/${other}/`)) },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes a layer depend on itself: move the shared types into a leaf file.',
      from: {},
      to: { circular: true },
    },
    layer('domain', ['infra', 'projections', 'commands', 'workers', 'api'], 'The domain is pure: it imports only the domain.'),
    {
      name: 'domain-imports-only-temporal-polyfill',
      severity: 'error',
      comment: 'The domain is pure: of the packages and Node built-ins, it imports only temporal-polyfill, and ical.js and windows-iana (CLDR\'s table of Windows zone names) in the calendar area (iCalendar text, no I/O; ARCHITECTURE.md, Calendar clients).',
      from: { path: '^src/domain/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown', 'core'],
        pathNot: '(^|/)node_modules/(temporal-polyfill|ical\\.js|windows-iana)/',
      },
    },
    {
      name: 'domain-imports-ical-only-in-calendar',
      severity: 'error',
      comment: 'iCalendar is written and read with ical.js (its Windows zone names with windows-iana) in the domain\'s calendar area only.',
      from: { path: '^src/domain/', pathNot: '^src/domain/calendar/' },
      to: { path: '(^|/)node_modules/(ical\\.js|windows-iana)/' },
    },
    layer('infra', ['projections', 'commands', 'workers', 'api'], 'Adapters know the domain and nothing that uses them.'),
    layer('projections', ['commands', 'workers', 'api'], 'Read models are built from events, not from the callers of the store.'),
    {
      name: 'projections-shape-no-http-answer',
      severity: 'error',
      comment:
        'projections/ holds projectors and the queries of their read models: an HTTP answer (compression, validators, the answer cache, express) is shaped in api/.',
      from: { path: '^src/projections/' },
      to: { path: ['^(node:)?(zlib|http|https|http2)$', '(^|/)node_modules/(express|compression)/'] },
    },
    layer('commands', ['workers', 'api'], 'Command handlers are called by the API and the workers, never the reverse.'),
    {
      name: 'command-folders-share-modules-only',
      severity: 'error',
      comment:
        'A feature folder of commands imports no other feature\'s folder: what features share lives in a module of its own (placement/ for the placing features, records/ for the record kinds\' store), which imports no feature folder.',
      from: { path: '^src/commands/([^/]+)/' },
      to: { path: '^src/commands/[^/]+/', pathNot: ['^src/commands/$1/', '^src/commands/(placement|records)/'] },
    },
    {
      name: 'shared-command-modules-import-no-feature',
      severity: 'error',
      comment: 'placement/ and records/ are shared by feature folders; they import none.',
      from: { path: '^src/commands/(placement|records)/' },
      to: { path: '^src/commands/[^/]+/', pathNot: '^src/commands/(placement|records)/' },
    },
    layer(
      'workers',
      ['api'],
      'Workers run without the HTTP layer; of the root files they know only the services they are handed.',
      '^src/(?!services\\.ts$)[^/]+\\.ts$',
    ),
    layer('api', ['workers'], 'The HTTP layer runs beside the workers, never through them; of the root files it knows only the services it is handed.', '^src/(?!services\\.ts$)[^/]+\\.ts$'),
    {
      name: 'nothing-imports-main',
      severity: 'error',
      comment: 'main.ts is the entry point: it starts the rest, nothing starts it.',
      from: {},
      to: { path: '^src/main\\.ts$' },
    },
    root('services.ts', ['projections', 'workers', 'api', 'main.ts', 'server.ts', 'create-services.ts', 'open-event-store.ts'], 'The services are a type: what the routers and workers are handed, made of adapters and the command context.'),
    root('create-services.ts', ['workers', 'api', 'server.ts'], 'The services are made for the HTTP layer and the workers alike, without either.'),
    root('open-event-store.ts', ['commands', 'api', 'services.ts', 'create-services.ts', 'server.ts'], 'The store with its projectors, for every process that appends; it knows no caller.'),
    root('server.ts', ['workers'], 'The HTTP server runs without the workers: main.ts starts them beside it.'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
