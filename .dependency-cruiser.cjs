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

/**
 * Modules that still take the whole AppContext, to be narrowed (issue 26):
 * the list only shrinks; a module leaves it when it declares its own context.
 */
const STILL_TO_NARROW = [
  // The authorization-request family's endpoints (/authorize, PAR, CIBA, device authorization): each is to
  // declare the context it touches, as the stage table (authorize/stages.ts, StageContext) does.
  'src/authentication/authorize/endpoint.ts',
  'src/authentication/authorize/pushed.ts',
  'src/authentication/authorize/request-object.ts',
  'src/authentication/authorize/requested-connection.ts',
  'src/authentication/authorize/response.ts',
  'src/authentication/ciba/approve.ts',
  'src/authentication/ciba/authorize-endpoint.ts',
  'src/authentication/device/authorization-endpoint.ts',
  'src/authentication/par.ts',
  // The registries' plugin interfaces: a grant and an interaction step are handed the context per call;
  // each is to declare the context its members may touch (as client-auth/method.ts ClientAuthContext does).
  'src/authentication/interaction/step.ts',
  'src/authentication/token/grant.ts',
  // The token endpoint, its grants and what they share to issue user tokens (user-tokens.ts, whose
  // per-API token policy is being reworked), and /mfa/challenge, which opens an mfa_token through them.
  'src/authentication/mfa/challenge.ts',
  'src/authentication/token/approved-login.ts',
  'src/authentication/token/endpoint.ts',
  'src/authentication/token/grants/authorization-code.ts',
  'src/authentication/token/grants/device-code.ts',
  'src/authentication/token/grants/password.ts',
  'src/authentication/token/grants/refresh-token.ts',
  'src/authentication/token/mfa-grant.ts',
  'src/authentication/token/user-tokens.ts',
  // Federated login's sealed hop: to declare the context it touches, as connections/upstream-login.ts does.
  'src/authentication/connections/hop.ts',
];

const escaped = (file) => `^${file.replace(/[.]/g, '\\.')}$`;

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
      from: { path: '^src/', pathNot: [...WHOLE_CONTEXT_TAKERS, ...STILL_TO_NARROW.map(escaped)] },
      to: { path: '^src/domain/context\\.ts$' },
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
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (migrations are found in their folder, src/storage/database.ts).',
      from: { orphan: true, pathNot: ['^src/main\\.ts$', '\\.d\\.ts$', '^src/storage/migrations/'] },
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
