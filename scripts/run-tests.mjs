#!/usr/bin/env node
/**
 * Runs every test/**\/*.test.ts with Node's test runner (through tsx), after
 * building dist/ (the end-to-end tests start the built server as a process).
 *
 * Each run gets its own PostgreSQL database (created by the tests' helper,
 * dropped afterwards). PostgreSQL is at 127.0.0.1:5432 unless
 * GATEHOUSE_TEST_POSTGRES_URL says otherwise; under CI=true it is required.
 * Extra arguments are passed to `node --test` (e.g. a file to run alone);
 * `--skip-build` runs the tests on the dist/ already built.
 *
 * The report is the spec reporter's, with the suite's duration and its ten
 * slowest files before its closing summary (./test-reporter.mjs): the
 * summary lines (`ℹ pass N`, `ℹ fail N`) stay last, where CI reads them, and
 * the exit status is the tests' own.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function findTests(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.name.endsWith('.test.ts')) out.push(path.relative(root, full));
  }
  return out.sort();
}

const args = process.argv.slice(2);
if (!args.includes('--skip-build')) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const files = args.filter((a) => a.endsWith('.ts'));
const flags = args.filter((a) => !a.endsWith('.ts') && a !== '--skip-build');
const reporter = pathToFileURL(path.join(root, 'scripts', 'test-reporter.mjs')).href;
const tests = files.length ? files : findTests(path.join(root, 'test'));
fs.mkdirSync(path.join(root, 'test-output'), { recursive: true });
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', ...flags, ...tests],
  { cwd: root, stdio: 'inherit', env: { ...process.env, GATEHOUSE_TEST: '1' } },
);
process.exit(result.status ?? 1);
