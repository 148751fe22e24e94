/**
 * Start-up footprint (`npm run bench:startup`): the built server restarted on
 * an existing data directory, from spawn to the first 200 of GET /health, and
 * its idle RSS 1 s later, beside a bare node:http server (the floor of a Node
 * process that listens) measured the same way in the same run. Rounds
 * alternate (Gatehouse, bare, Gatehouse, bare, …) so that a drift of a shared
 * machine falls on both; the table shows medians and each run.
 *
 * BENCH_BASELINE=<directory of another checkout, built> adds that checkout's
 * server as a third row, started on the same data directory in the same
 * rounds: a before/after comparison within one run.
 *
 * Settings (environment):
 *   BENCH_STARTS     restarts per server (default 7)
 *   BENCH_BASELINE   another built checkout to compare with (optional)
 *   BENCH_PIN        0 pins nothing (default: each server on the first core)
 *   BENCH_LOG_LEVEL  LOG_LEVEL of the Gatehouse processes (default warn)
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BenchError,
  ROOT,
  alternate,
  envSeconds,
  fmt,
  fmtInt,
  fmtRatio,
  freePort,
  idleRssMB,
  loadLogLevel,
  log,
  logHeader,
  machineInfo,
  median,
  printTable,
  readCpuSeconds,
  readMemory,
  removeOnCleanup,
  runMain,
  setUpPinning,
  startGatehouse,
  startReference,
  stopChild,
  writeResults,
} from './lib.js';

const STARTS = Math.round(envSeconds('BENCH_STARTS', 7, 1, 50));
const LOG_LEVEL = loadLogLevel();
const BASELINE = process.env.BENCH_BASELINE?.trim() || undefined;

interface Start {
  readyMs: number;
  /** CPU time (user + system, every thread) the process had used when it first answered: less sensitive to a busy machine than the wall-clock time. */
  cpuMs: number;
  idleRssMiB: number;
  hwmMiB: number;
}

async function main(): Promise<number> {
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'main.js'))) throw new BenchError('dist/main.js is missing; run `npm run build` (npm run bench:startup does)');
  const baselineBin = BASELINE ? path.resolve(BASELINE, 'bin', 'gatehouse.cjs') : undefined;
  if (BASELINE && !fs.existsSync(path.resolve(BASELINE, 'dist', 'main.js'))) throw new BenchError(`BENCH_BASELINE: ${BASELINE}/dist/main.js is missing; build that checkout first`);
  const pinning = setUpPinning();
  logHeader('Gatehouse start-up bench', `${STARTS} restarts per server on an existing data directory, plain HTTP`, pinning);
  const cpus = pinning.serverCpus;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-startup-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);

  // The first start creates the data directory (tenant, keys, certificate); it is not counted.
  const first = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus });
  log(`first start (empty data directory): ready in ${fmtInt(first.readyMs)} ms; not counted`);
  await stopChild(first.child);
  const bodiesFile = path.join(dataDir, 'bench-static-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify({ '/health': '{"status":"ok"}' }));

  const measureStart = async (start: () => ReturnType<typeof startGatehouse>): Promise<Start> => {
    const server = await start();
    const cpuMs = (readCpuSeconds(server.child.process.pid!) ?? NaN) * 1000;
    const idleRssMiB = await idleRssMB(server.child);
    const hwmMiB = readMemory(server.child.process.pid!)?.hwmMB ?? NaN;
    await stopChild(server.child);
    return { readyMs: server.readyMs, cpuMs, idleRssMiB, hwmMiB };
  };
  const steps = [
    { key: 'gatehouse', run: () => measureStart(() => startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus })) },
    ...(baselineBin ? [{ key: 'baseline', run: () => measureStart(() => startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus, bin: baselineBin })) }] : []),
    { key: 'bare', run: async () => measureStart(async () => startReference('bare node:http', 'static-json-server.mjs', host, port, '/health', cpus, { BENCH_BODIES: bodiesFile })) },
  ];
  const runs = await alternate(STARTS, steps);
  const load = os.loadavg().map((v) => fmt(v, 2)).join(' ');

  const labels: Record<string, string> = { gatehouse: `gatehouse (${path.relative(process.cwd(), ROOT) || '.'})`, baseline: `baseline (${BASELINE})`, bare: 'bare node:http' };
  const rows = steps.map(({ key }) => {
    const r = runs.get(key)!;
    return { key, label: labels[key]!, readyMs: median(r.map((s) => s.readyMs)), cpuMs: median(r.map((s) => s.cpuMs)), idleRssMiB: median(r.map((s) => s.idleRssMiB)), hwmMiB: median(r.map((s) => s.hwmMiB)), runs: r };
  });
  const bare = rows.find((r) => r.key === 'bare')!;
  const gatehouse = rows[0]!;
  log('');
  printTable(
    [
      ['server', 'ready ms (median)', 'CPU ms to ready', 'idle RSS MiB (median)', 'peak RSS MiB', 'ready ÷ bare', 'RSS ÷ bare', 'ready ms, each run'],
      ...rows.map((r) => [
        r.label,
        fmtInt(r.readyMs),
        fmtInt(r.cpuMs),
        fmt(r.idleRssMiB),
        fmt(r.hwmMiB),
        r === bare ? '' : fmtRatio(r.readyMs / bare.readyMs),
        r === bare ? '' : fmtRatio(r.idleRssMiB / bare.idleRssMiB),
        r.runs.map((s) => fmtInt(s.readyMs)).join(' '),
      ]),
    ],
    'lrrrrrrl',
  );
  const baseline = rows.find((r) => r.key === 'baseline');
  if (baseline) log(`gatehouse ÷ baseline: ready ${fmtRatio(gatehouse.readyMs / baseline.readyMs)}, CPU to ready ${fmtRatio(gatehouse.cpuMs / baseline.cpuMs)}, idle RSS ${fmtRatio(gatehouse.idleRssMiB / baseline.idleRssMiB)}`);
  log(`load average at the end: ${load} (other processes on the machine distort absolute figures; compare within this run)`);
  const file = writeResults('startup-', startedAt, { machine: machineInfo(pinning), starts: STARTS, rows });
  log(`results: ${file}`);
  return 0;
}

void runMain(main);
