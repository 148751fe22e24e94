#!/usr/bin/env node
/**
 * Bundles the compiled server (dist/, from `tsc -p tsconfig.build.json`) into
 * dist/server/: main.js (what bin/gatehouse.cjs runs), hash-worker.js (the
 * password hashing pool's worker, loaded beside the module that starts it)
 * and chunks for what the server imports on first use (`import()` of its own
 * modules: the OpenAPI document, …), so those stay lazy. Each migration of
 * dist/storage/migrations/ is an entry point of its own, dist/server/migrations/<name>.js:
 * the server finds its migrations by reading that folder (src/storage/database.ts
 * `discoverMigrations`), so a migration file is all a new migration needs.
 *
 * Why: Node's module loaders spend most of a start on finding, reading and
 * linking modules one by one (about 1,500 of them: the server's own 580,
 * Kysely's and TypeBox's ES builds with about 250 each, fastify, ajv and
 * their dependencies). One bundle of the same code starts in about half the
 * time and keeps fewer module records and source strings in memory
 * (`npm run bench:startup`).
 *
 * What stays in node_modules, loaded by Node as its authors ship it:
 * - packages the server imports on first use (`import('…')`: the AWS SDK,
 *   @fastify/swagger, qrcode, …) and those it requires through `lazyModule`
 *   (src/platform/lazy.ts), which the bundler does not see: a process that
 *   never needs them never loads them;
 * - native addons and their loaders (better-sqlite3, @node-rs/argon2);
 * - packages that start worker threads from files of their own (piscina,
 *   pino and its transport stack);
 * - OpenTelemetry's (@opentelemetry/*), imported only when tracing is on
 *   (src/platform/tracing/): its instrumentations hook `require`, and its API
 *   must be the one copy the SDK registers with.
 * Every other package the server imports is bundled. CommonJS code in the
 * bundle gets a real `require` (the banner) for the Node built-ins it asks
 * for at run time (`require('cluster')` in rate-limiter-flexible).
 *
 * The tests run this bundle: every end-to-end test starts bin/gatehouse.cjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isBuiltin } from 'node:module';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'dist');
const out = path.join(dist, 'server');

/** Packages that stay in node_modules even when imported statically (see above). */
const NOT_BUNDLED = new Set(['better-sqlite3', 'bindings', 'file-uri-to-path', '@node-rs/argon2', 'piscina', 'pino', 'thread-stream', 'sonic-boom', 'pino-abstract-transport']);

/** Scopes whose packages all stay in node_modules (see above). */
const NOT_BUNDLED_SCOPES = ['@opentelemetry/'];

/**
 * Node built-ins that the bundle's ES modules import are required instead (`module.exports =
 * require('node:http')`, which esbuild then reads as CommonJS: each imported name becomes a property
 * read where it is used). An `import` of a built-in makes Node build an ES module facade that reads
 * every export once, getters included, and some getters load what the server never uses: `node:http`'s
 * `WebSocket` loads undici (a 750 KB bundle kept as source and compiled), `node:tls`'s
 * `rootCertificates` parses the root store, `node:crypto`'s `webcrypto` sets up WebCrypto. Requiring the
 * same built-ins saves about 6 MiB of idle RSS and the time to load them (`npm run bench:startup`).
 */
const BUILTIN_NAMESPACE = 'builtin-as-commonjs';

const packageName = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

fs.rmSync(out, { recursive: true, force: true });

/**
 * Each migration, src/storage/migrations/NNNN_name.ts compiled to dist/storage/migrations/NNNN_name.js,
 * as the entry point migrations/NNNN_name (the folder database.ts reads beside the bundle). Listed
 * from src/: tsc never deletes an output, so dist/ may still hold a file renamed since.
 */
const migrations = Object.fromEntries(
  fs
    .readdirSync(path.join(root, 'src', 'storage', 'migrations'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .map((name) => [`migrations/${name}`, path.join(dist, 'storage', 'migrations', `${name}.js`)]),
);

const options = {
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Whitespace and syntax only: names stay, so a stack trace still names its functions. V8 keeps
  // each module's source text in memory for the life of the process.
  minifyWhitespace: true,
  minifySyntax: true,
  // dist/server/*.js.map, through tsc's maps back to src/: used when the server runs with
  // NODE_OPTIONS=--enable-source-maps, never read otherwise.
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __gatehouseCreateRequire } from 'node:module'; const require = __gatehouseCreateRequire(import.meta.url);" },
  plugins: [
    {
      name: 'packages-that-stay-in-node-modules',
      setup(b) {
        // A Node built-in imported by an ES module is required instead (see BUILTINS_AS_COMMONJS above).
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.kind === 'import-statement' && isBuiltin(args.path) && args.path !== 'node:module' ? { path: args.path, namespace: BUILTIN_NAMESPACE } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: BUILTIN_NAMESPACE }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
        // A bare specifier: a Node built-in, a package imported on first use, or one of NOT_BUNDLED stays external.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('node:') || args.kind === 'dynamic-import' || NOT_BUNDLED.has(packageName(args.path)) || NOT_BUNDLED_SCOPES.some((scope) => args.path.startsWith(scope)) ? { path: args.path, external: true } : undefined,
        );
      },
    },
  ],
};

await build({
  ...options,
  entryPoints: {
    main: path.join(dist, 'main.js'),
    'hash-worker': path.join(dist, 'platform', 'passwords', 'hash-worker.js'),
    ...migrations,
  },
  splitting: true,
});
// The Actions runner alone, one file without shared chunks: the sandbox's permission model lets it
// read only itself (and its action's dependencies), and it may run from a copy in another folder.
await build({ ...options, entryPoints: { 'actions-runner': path.join(dist, 'platform', 'sandbox', 'actions-runner.js') }, splitting: false });

// V8 keeps each module's source for the life of the process, as one byte per character only when
// every character is Latin-1: a single other character (say an ellipsis in a tagged template's text,
// which esbuild cannot escape) doubles the bundle's resident source (main.js: 2.7 MB → 5.4 MB).
for (const file of fs.readdirSync(out).filter((f) => f.endsWith('.js'))) {
  const text = fs.readFileSync(path.join(out, file), 'utf8');
  const at = text.search(/[^\u0000-\u00ff]/u);
  if (at >= 0) {
    console.warn(`build-server: dist/server/${file} holds a non-Latin-1 character (…${text.slice(Math.max(0, at - 60), at + 20)}…): V8 will keep its whole source two bytes per character; interpolate it as an escaped string instead`);
  }
}
