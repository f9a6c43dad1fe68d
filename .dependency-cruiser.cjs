/**
 * The import rules of docs/architecture.md, checked by `npm run lint:imports`
 * (scripts/check_imports.mjs) in CI.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: two modules that cannot be read, loaded or tested apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-not-upward',
      severity: 'error',
      comment:
        'The engine (app/services) is called by the HTTP edge, the worker and commands; it never imports them.',
      from: { path: '^app/services/' },
      to: {
        path: '^(app/(controllers|validators|middleware|policies|transformers|abilities)|commands|start|bench|tests)/',
        pathNot: '^start/env\\.ts$',
      },
    },
    {
      name: 'models-hold-no-logic',
      severity: 'error',
      comment:
        'Models describe rows; the engine uses them, never the other way round (types of its vocabulary aside).',
      from: { path: '^app/models/' },
      to: {
        path: '^(app/(services|controllers|validators|policies|transformers)|commands|bench)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'outbox-is-the-door',
      severity: 'error',
      comment: "Producers publish through OutboxService; fan-out is the webhooks domain's own.",
      from: { pathNot: '^app/services/webhooks/' },
      to: { path: '^app/services/webhooks/fan_out\\.ts$' },
    },
    {
      name: 'plugins-behind-contract',
      severity: 'error',
      comment:
        'An adapter (plugins/<name>/) imports of Leadgate only plugins/contract.ts (npm packages aside): what it needs, HTTP included, comes on its PluginContext.',
      from: { path: '^plugins/([^/]+)/' },
      to: {
        path: '^(app|bench|bin|commands|config|database|providers|start|tests|plugins)/',
        pathNot: ['^plugins/contract\\.ts$', '^plugins/$1/'],
      },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract is what adapters build against: it imports nothing of Leadgate.',
      from: { path: '^plugins/contract\\.ts$' },
      to: { path: '^(app|bench|bin|commands|config|database|providers|start|tests|plugins)/' },
    },
    {
      name: 'production-without-bench',
      severity: 'error',
      comment: 'app/ holds only what production runs; benchmark code lives in bench/.',
      from: { path: '^(app|start|providers|plugins|config|database)/' },
      to: { path: '^(bench|tests)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|build|tmp|inertia)/' },
  },
}
