#!/usr/bin/env node
/**
 * Loads every native module of the install under the Node that runs this
 * script and has each do one real thing, so that a module built for another
 * Node (another NODE_MODULE_VERSION) or a missing platform package fails here
 * with its name rather than somewhere in the test suite. `.ci/run` runs it
 * after each `npm ci`, under the Node that then runs `npm test`.
 *
 * better-sqlite3 is compiled at install (node-gyp, against `nodedir`); argon2
 * ships N-API prebuilds; @node-rs/argon2, @swc/core and esbuild come as
 * prebuilt platform packages.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const checks = {
  'better-sqlite3': () => {
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    const version = db.prepare('select sqlite_version() as v').get().v;
    db.close();
    return `SQLite ${version}`;
  },
  argon2: async () => {
    const argon2 = require('argon2');
    const hash = await argon2.hash('check', { timeCost: 2, memoryCost: 1024, parallelism: 1 });
    if (!(await argon2.verify(hash, 'check'))) throw new Error('verify failed');
    return hash.split('$')[1];
  },
  '@node-rs/argon2': () => {
    const { hashSync, verifySync } = require('@node-rs/argon2');
    const hash = hashSync('check', { timeCost: 2, memoryCost: 1024, parallelism: 1 });
    if (!verifySync(hash, 'check')) throw new Error('verify failed');
    return hash.split('$')[1];
  },
  '@swc/core': () => {
    const { transformSync, version } = require('@swc/core');
    transformSync('const a: number = 1;', { jsc: { parser: { syntax: 'typescript' } } });
    return version;
  },
  esbuild: () => {
    const { transformSync, version } = require('esbuild');
    transformSync('const a: number = 1;', { loader: 'ts' });
    return version;
  },
};

let failed = false;
for (const [name, check] of Object.entries(checks)) {
  try {
    console.log(`check-native: ${name} on Node ${process.version}: ${await check()}`);
  } catch (error) {
    failed = true;
    console.error(`check-native: ${name} does not load on Node ${process.version} (${process.execPath}): ${error.message}`);
  }
}
process.exit(failed ? 1 : 0);
