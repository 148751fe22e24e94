#!/usr/bin/env node
/**
 * Bundles the compiled server (dist/, from `tsc -p tsconfig.build.json`) into
 * dist/server/: main.js (what bin/gatehouse.cjs runs), hash-worker.js (the
 * password hashing pool's worker, loaded beside the module that starts it)
 * and chunks for what the server imports on first use (`import()`: the
 * migrations, the OpenAPI document, …), so those stay lazy.
 *
 * Why: Node 20's ES module loader spends most of a start on resolving,
 * reading and linking modules one by one (about 1,500 of them: the server's
 * own 580, Kysely's and TypeBox's ES builds with about 250 each). One bundle
 * of the same code starts in about 0.6 of the time and keeps fewer module
 * records and source strings in memory (`npm run bench:startup`).
 *
 * Only the server's own code and the ES-module-only packages it imports at
 * start (kysely, @sinclair/typebox, jose, otpauth, bcryptjs: pure JavaScript,
 * no files of their own read at run time) go into the bundle. Every CommonJS
 * package (fastify and its plugins, ajv, pino, better-sqlite3, …) stays in
 * node_modules and is loaded by Node's own `require`, exactly as its authors
 * ship it: no rewritten `require` calls, native addons and worker files where
 * they expect to be. Packages loaded on first use through `lazyModule`
 * (src/platform/lazy.ts) are not seen by the bundler and stay there too.
 *
 * The tests run this bundle: every end-to-end test starts bin/gatehouse.cjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'dist');
const out = path.join(dist, 'server');

/** Packages bundled with the server's code (ES modules only, see above). */
const BUNDLED_PACKAGES = new Set(['kysely', '@sinclair/typebox', 'jose', 'otpauth', 'bcryptjs']);

const packageName = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

fs.rmSync(out, { recursive: true, force: true });

await build({
  entryPoints: {
    main: path.join(dist, 'main.js'),
    'hash-worker': path.join(dist, 'platform', 'passwords', 'hash-worker.js'),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: names stay, so a stack trace still names its functions. V8 keeps
  // each module's source text in memory for the life of the process (1.6 MB instead of 2.4 MB).
  minifyWhitespace: true,
  minifySyntax: true,
  // dist/server/*.js.map, through tsc's maps back to src/: used when the server runs with
  // NODE_OPTIONS=--enable-source-maps, never read otherwise.
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [
    {
      name: 'node-modules-stay-external',
      setup(b) {
        // A bare specifier (a package or a node: builtin): external unless it is one of BUNDLED_PACKAGES.
        b.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.has(packageName(args.path)) ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
