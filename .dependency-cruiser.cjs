/**
 * The layer rules of Gatehouse, run by `npm test` (see docs/architecture.md).
 *
 *   main            the entry point
 *   app             the composition root: builds every store and service once, the HTTP app, the listener
 *   management      the Management API        ┐ the two surfaces: neither imports the other,
 *   authentication  the Authentication API    ┘ nor storage (stores reach them through app)
 *   storage         the database, migrations and the Kysely stores
 *   domain          entities, their rules, and the store interfaces they declare
 *   platform        configuration, crypto, mail, caches, rate limits, HTTP errors and validation
 *
 * A module may import its own layer and the layers below it; nothing lower
 * imports anything higher, and there is no cycle, type-only imports included.
 */
const layer = (name) => `^src/${name}/`;

/**
 * The whole AppContext (src/domain/context.ts) is the composition root's. Every
 * other module declares the narrow context it uses, naming the store
 * interfaces it touches (`{ stores: { roles: RoleStore } }`, as fosite's
 * handlers declare their storage), so that its signature says what it
 * touches; type-only imports count. The surfaces' roots take it whole to hand
 * each area its part.
 */
const WHOLE_CONTEXT_TAKERS = ['^src/app/', '^src/management/plugin\\.ts$', '^src/management/routes\\.ts$', '^src/authentication/routes\\.ts$'];

/** Each layer and the layers it may not import. */
const FORBIDDEN = {
  platform: ['app', 'management', 'authentication', 'storage', 'domain'],
  domain: ['app', 'management', 'authentication', 'storage'],
  storage: ['app', 'management', 'authentication'],
  management: ['app', 'authentication', 'storage'],
  authentication: ['app', 'management', 'storage'],
  app: [],
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    ...Object.entries(FORBIDDEN).flatMap(([from, targets]) =>
      targets.map((to) => ({
        name: `${from}-not-to-${to}`,
        severity: 'error',
        comment: `The ${from} layer may not import the ${to} layer (docs/architecture.md).`,
        from: { path: layer(from) },
        to: { path: layer(to) },
      })),
    ),
    {
      name: 'no-whole-app-context',
      severity: 'error',
      comment: 'Outside the composition root, a module declares the narrow context it uses, not the whole AppContext.',
      from: { path: '^src/', pathNot: WHOLE_CONTEXT_TAKERS },
      to: { path: '^src/domain/context\\.ts$' },
    },
    {
      name: 'second-factors-through-their-registry',
      severity: 'error',
      comment:
        'A second factor is one module under src/domain/mfa/factors/, reached through the registry (docs/architecture.md "Second factors"): ' +
        'code outside the folder asks the registry what an enrolment is, and never imports one factor by name.',
      from: { pathNot: '^src/domain/mfa/factors/' },
      to: { path: '^src/domain/mfa/factors/', pathNot: '^src/domain/mfa/factors/(registry|factor)\\.ts$' },
    },
    {
      name: 'only-main-imports-itself',
      severity: 'error',
      comment: 'Nothing imports the entry point.',
      from: { pathNot: '^src/main\\.ts$' },
      to: { path: '^src/main\\.ts$' },
    },
    {
      name: 'console-client-through-the-token-policy',
      severity: 'error',
      comment:
        'What sets the built-in console client apart (its scopes, token lifetime, consent, signup, connections, principal) is a rule of ' +
        'the token policy, src/domain/issuance/token-policy.ts (docs/architecture.md "The token policy"): no other module asks whether a client is the console.',
      from: { path: '^src/', pathNot: ['^src/domain/console/', '^src/domain/issuance/', '^src/authentication/console/', '^src/app/'] },
      to: { path: '^src/domain/console/(client|operator)\\.ts$' },
    },
    {
      name: 'sandbox-runner-imports-nothing-of-the-server',
      severity: 'error',
      comment:
        "The sandbox process (src/platform/sandbox/actions-runner.ts) runs tenants' code: it imports Node's built-ins only, so nothing of the server (configuration, keys, stores) is ever loaded in it.",
      from: { path: '^src/platform/sandbox/actions-runner\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (migrations are found in their folder, src/storage/database.ts).',
      from: { orphan: true, pathNot: ['^src/main\\.ts$', '\\.d\\.ts$', '^src/storage/migrations/', '^src/platform/sandbox/actions-runner\\.ts$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    // TypeScript 7 (the project's compiler) has no JavaScript API for dependency-cruiser to parse
    // with; swc parses the sources instead and reports every import, `import type` included.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
