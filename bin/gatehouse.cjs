#!/usr/bin/env node
// The `gatehouse` command and `npm start`: runs the compiled entry point (built
// by `npm run build`, which `npm start` runs first).
//
// Token signing (RS256) and password hashing run on libuv's threadpool. Its
// default of four threads would take every core of a small machine and leave
// the event loop waiting to be scheduled (measured on two cores: 36% of the
// main thread's time ready but not running), so the pool gets one thread per
// core but one, unless UV_THREADPOOL_SIZE says otherwise. libuv reads the
// variable when the pool is first used, hence a CommonJS launcher: it runs
// before any asynchronous file access of the ES module loader.
'use strict';
const { existsSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

if (!process.env.UV_THREADPOOL_SIZE) {
  process.env.UV_THREADPOOL_SIZE = String(Math.max(1, os.availableParallelism() - 1));
}
const entry = path.join(__dirname, '..', 'dist', 'main.js');
if (!existsSync(entry)) {
  console.error('gatehouse: not built yet; run `npm run build` (or `npm start`) in the project first');
  process.exit(1);
}
import(pathToFileURL(entry).href);
