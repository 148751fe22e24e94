#!/usr/bin/env node
// The `gatehouse` command: runs the compiled entry point (built by `npm run build`, which `npm start` runs first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('gatehouse: not built yet; run `npm run build` (or `npm start`) in the project first');
  process.exit(1);
}
await import(entry);
