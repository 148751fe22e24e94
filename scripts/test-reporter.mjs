/**
 * The test runner's reporter (scripts/run-tests.mjs): Node's spec reporter,
 * plus how long the suite took and its ten slowest test files, with the
 * summary lines (`ℹ tests N`, `ℹ pass N`, `ℹ fail N`, …) kept last, as CI
 * reads them there.
 *
 * The spec reporter prints the summary when the run ends and then, on a
 * failed run, the failing tests again. This reporter holds the summary's
 * events back, lets spec print everything else (the failing tests
 * included), then the durations, then hands spec the held summary to print.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { spec } from 'node:test/reporters';

/** The root diagnostics of the run's summary, as the runner emits them. */
const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;

const SLOWEST = 10;

const isSummary = (event) => event.type === 'test:diagnostic' && event.data.nesting === 0 && event.data.file === undefined && SUMMARY.test(event.data.message);

/** `95.2 s`, `12 min 3 s` */
export function formatDuration(ms) {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** The lines printed before the summary: the suite's duration and its slowest files, slowest first. */
export function durationLines(fileDurations, suiteMs) {
  const slowest = [...fileDurations].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST);
  const width = Math.max(0, ...slowest.map(([, ms]) => formatDuration(ms).length));
  return [
    '',
    ...(slowest.length > 0 ? [`ℹ slowest test files (${slowest.length} of ${fileDurations.size}):`] : []),
    ...slowest.map(([file, ms]) => `ℹ   ${formatDuration(ms).padStart(width)}  ${file}`),
    ...(suiteMs !== undefined ? [`ℹ suite duration ${formatDuration(suiteMs)}`] : []),
    '',
  ].map((line) => `${line}\n`);
}

export default async function* specWithDurations(source) {
  /** Test file → its duration: the file's own test (its process, start-up included), else its summary. */
  const files = new Map();
  const ownTest = new Set();
  const summary = [];
  let suiteMs;

  async function* observed() {
    for await (const event of source) {
      const { data } = event;
      if (isSummary(event)) {
        summary.push(event);
        if (data.message.startsWith('duration_ms ')) suiteMs = Number(data.message.slice('duration_ms '.length));
        continue;
      }
      if (event.type === 'test:complete' && data.nesting === 0 && data.file !== undefined) {
        const file = path.relative(process.cwd(), data.file);
        if (data.name === file) {
          files.set(file, data.details.duration_ms);
          ownTest.add(file);
        }
      } else if (event.type === 'test:summary' && data.file !== undefined) {
        const file = path.relative(process.cwd(), data.file);
        if (!ownTest.has(file)) files.set(file, data.duration_ms);
      }
      yield event;
    }
  }

  yield* Readable.from(observed()).pipe(new spec());
  yield* durationLines(files, suiteMs);
  yield* Readable.from(summary).pipe(new spec());
}
