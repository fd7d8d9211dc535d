/**
 * Import rules, checked by `npm run check:imports` and by tests/architecture/import-rules.test.ts.
 * Layers, lowest first: domain → infra → projections → commands → workers / api → main.
 * An arrow may only point down (or sideways inside a layer), and no file reaches itself.
 */
const layer = (name, mayNotImport, comment) => ({
  name: `${name}-imports-down-only`,
  severity: 'error',
  comment,
  from: { path: `^src/${name}/` },
  to: { path: mayNotImport.map((other) => `^src/${other}/`) },
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
    layer('infra', ['projections', 'commands', 'workers', 'api'], 'Adapters know the domain and nothing that uses them.'),
    layer('projections', ['commands', 'workers', 'api'], 'Read models are built from events, not from the callers of the store.'),
    layer('commands', ['workers', 'api'], 'Command handlers are called by the API and the workers, never the reverse.'),
    layer('workers', ['api'], 'Workers run without the HTTP layer.'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
