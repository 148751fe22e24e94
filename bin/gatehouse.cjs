#!/usr/bin/env node
// The `gatehouse` command and `npm start`: runs the bundled server
// (dist/server/main.js, built by `npm run build`, which `npm start` runs
// first; scripts/build-server.mjs says why it is one bundle).
//
// Token signing (RS256) and password hashing run on libuv's threadpool. Its
// default of four threads would take every core of a small machine and leave
// the event loop waiting to be scheduled (measured on two cores: 36% of the
// main thread's time ready but not running), so the pool gets one thread per
// core but one, unless UV_THREADPOOL_SIZE says otherwise. libuv reads the
// variable when the pool is first used, hence a CommonJS launcher: it runs
// before any asynchronous file access of the ES module loader.
//
// The young generation of V8's heap does not grow while the server starts:
// loading and setting up the server allocates mostly objects that live as
// long as the process, and a young generation grown for them would stay
// resident, unused, while the server is idle (about 8 MiB). Once the server
// listens, src/platform/heap.ts gives V8 back its default growth, so a
// server under load sizes the young generation as it always would.
'use strict';
// Node.js 22 and 24 are supported; an older Node is refused before anything
// else is loaded, in syntax every Node can read. `npm start` runs the Node 24
// that `npm ci` installs from the registry (README: Requirements).
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor < 22) {
  console.error('gatehouse: Node.js 22 or newer is required; this is Node.js ' + process.version + ' (' + process.execPath + ')');
  process.exit(1);
}
const { existsSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const v8 = require('node:v8');

if (!process.env.UV_THREADPOOL_SIZE) {
  process.env.UV_THREADPOOL_SIZE = String(Math.max(1, os.availableParallelism() - 1));
}
v8.setFlagsFromString('--semi-space-growth-factor=1');
const entry = path.join(__dirname, '..', 'dist', 'server', 'main.js');
if (!existsSync(entry)) {
  console.error('gatehouse: not built yet; run `npm run build` (or `npm start`) in the project first');
  process.exit(1);
}
import(pathToFileURL(entry).href);
