#!/usr/bin/env node
/**
 * Builds the admin console (console/) into dist/console/: the three files the
 * server serves at /admin/ (index.html, app.js, app.css). app.js is one
 * bundle (Preact, auth0-spa-js and the pages), so the page needs no CDN and
 * its Content-Security-Policy can stay at `script-src 'self'`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'dist', 'console');

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

await build({
  entryPoints: [path.join(root, 'console/src/main.tsx')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
fs.copyFileSync(path.join(root, 'console/src/app.css'), path.join(out, 'app.css'));
fs.copyFileSync(path.join(root, 'console/index.html'), path.join(out, 'index.html'));
