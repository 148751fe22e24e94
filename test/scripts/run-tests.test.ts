/**
 * scripts/run-tests.mjs, run on two fixture test files: the spec report with
 * the suite's duration and its slowest files before the closing summary, the
 * summary lines (`ℹ pass N`, `ℹ fail N`: what CI reads) last, and the exit
 * status the tests' own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');
const PASSING = 'test/fixtures/run-tests/passing.fixture.ts';
const FAILING = 'test/fixtures/run-tests/failing.fixture.ts';

function runTests(...files: string[]): { status: number | null; lines: string[] } {
  // Without the parent's test context, the runner reports as it does from the command line.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--skip-build', ...files], { cwd: root, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
  return { status: run.status, lines: run.stdout.trimEnd().split('\n') };
}

const SUMMARY = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms'];

/** The closing summary: its lines are the last ones, in spec's order. */
function closingSummary(lines: string[]): Record<string, number> {
  const tail = lines.slice(-SUMMARY.length);
  assert.deepEqual(
    tail.map((line) => /^ℹ (\w+) /.exec(line)?.[1]),
    SUMMARY,
    `the report ends with the summary:\n${lines.slice(-20).join('\n')}`,
  );
  return Object.fromEntries(tail.map((line) => [line.split(' ')[1]!, Number(line.split(' ')[2])]));
}

describe('scripts/run-tests.mjs', () => {
  test('a failing file: the failure, the slowest files and the duration come before the summary, which is last; exit status 1', () => {
    const { status, lines } = runTests(PASSING, FAILING);
    assert.equal(status, 1);
    const summary = closingSummary(lines);
    assert.equal(summary.pass, 2);
    assert.equal(summary.fail, 1);
    const start = lines.length - SUMMARY.length;
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const slowest = at(/^ℹ slowest test files \(2 of 2\):$/);
    assert.ok(slowest > 0 && slowest < start, 'the slowest files before the summary');
    const listed = lines.slice(slowest + 1, slowest + 3).map((line) => /^ℹ +[\d.]+ s {2}(\S+)$/.exec(line)?.[1]);
    assert.deepEqual([...listed].sort(), [FAILING, PASSING]);
    const duration = at(/^ℹ suite duration \d+(\.\d)? s$|^ℹ suite duration \d+ min \d+ s$/);
    assert.ok(duration > slowest && duration < start, 'the duration before the summary');
    const failure = at(/^✖ failing tests:$/);
    assert.ok(failure > 0 && failure < slowest, 'the failing tests before the durations');
  });

  test('passing files: the same order, exit status 0', () => {
    const { status, lines } = runTests(PASSING);
    assert.equal(status, 0, lines.join('\n'));
    const summary = closingSummary(lines);
    assert.equal(summary.pass, 1);
    assert.equal(summary.fail, 0);
    assert.ok(lines.some((line) => line === 'ℹ slowest test files (1 of 1):'));
    assert.equal(lines.filter((line) => line.includes('failing tests')).length, 0);
  });
});
