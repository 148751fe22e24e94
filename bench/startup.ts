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
 * BENCH_NODE_ARGS="--max-semi-space-size=2" (node options, space-separated)
 * adds this checkout's server started with them as a row, and then measures
 * client_credentials tokens/s of the server without and with them
 * (alternating rounds of BENCH_DURATION seconds): what a memory setting
 * costs in throughput.
 *
 * Settings (environment):
 *   BENCH_STARTS     restarts per server (default 7)
 *   BENCH_BASELINE   another built checkout to compare with (optional)
 *   BENCH_NODE_ARGS  node options of a variant row, and its token throughput beside the default (optional)
 *   BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS  of that throughput comparison (defaults 5, 3, 50)
 *   BENCH_PIN        0 pins nothing (default: each server on the first core)
 *   BENCH_LOG_LEVEL  LOG_LEVEL of the Gatehouse processes (default warn)
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BenchError,
  adminTokenBody,
  loadSettings,
  measure,
  readAdminCredentials,
  requestToken,
  roundCells,
  setUpTypicalApi,
  summarize,
  type LoadCase,
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
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.trim().split(/\s+/) ?? [];
const LOAD = loadSettings({ duration: 5, connections: 50 });

interface Start {
  readyMs: number;
  /** CPU time (user + system, every thread) the process had used when it first answered: less sensitive to a busy machine than the wall-clock time. */
  cpuMs: number;
  idleRssMiB: number;
  hwmMiB: number;
}

async function main(): Promise<number> {
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build` (npm run bench:startup does)');
  const baselineBin = BASELINE ? path.resolve(BASELINE, 'bin', 'gatehouse.cjs') : undefined;
  // A checkout from before the server was bundled runs dist/main.js; its own launcher knows which.
  if (BASELINE && !['server/main.js', 'main.js'].some((f) => fs.existsSync(path.resolve(BASELINE, 'dist', f)))) throw new BenchError(`BENCH_BASELINE: ${BASELINE} has no dist/server/main.js; build that checkout first`);
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
    ...(NODE_ARGS.length ? [{ key: 'variant', run: () => measureStart(() => startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus, nodeArgs: NODE_ARGS })) }] : []),
    ...(baselineBin ? [{ key: 'baseline', run: () => measureStart(() => startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus, bin: baselineBin })) }] : []),
    { key: 'bare', run: async () => measureStart(async () => startReference('bare node:http', 'static-json-server.mjs', host, port, '/health', cpus, { BENCH_BODIES: bodiesFile })) },
  ];
  const runs = await alternate(STARTS, steps);
  const load = os.loadavg().map((v) => fmt(v, 2)).join(' ');

  const labels: Record<string, string> = { gatehouse: `gatehouse (${path.relative(process.cwd(), ROOT) || '.'})`, baseline: `baseline (${BASELINE})`, variant: `gatehouse with ${NODE_ARGS.join(' ')}`, bare: 'bare node:http' };
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
  const variant = rows.find((r) => r.key === 'variant');
  if (variant) log(`with ${NODE_ARGS.join(' ')} ÷ without: ready ${fmtRatio(variant.readyMs / gatehouse.readyMs)}, idle RSS ${fmtRatio(variant.idleRssMiB / gatehouse.idleRssMiB)}`);
  const throughput = NODE_ARGS.length ? await tokenThroughput(host, port, dataDir, cpus) : undefined;
  log(`load average at the end: ${load} (other processes on the machine distort absolute figures; compare within this run)`);
  const file = writeResults('startup-', startedAt, { machine: machineInfo(pinning), starts: STARTS, rows, ...(throughput && { throughput }) });
  log(`results: ${file}`);
  return 0;
}

/** client_credentials tokens/s of the server without and with BENCH_NODE_ARGS, in alternating rounds. */
async function tokenThroughput(host: string, port: number, dataDir: string, cpus: string | undefined) {
  const admin = readAdminCredentials(dataDir);
  const setup = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus });
  const adminToken = (await requestToken(setup.endpoint, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const typical = await setUpTypicalApi(setup.endpoint, adminToken);
  await stopChild(setup.child);
  const tokens = (nodeArgs: string[]) => async () => {
    const server = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus, nodeArgs });
    try {
      const c: LoadCase = { name: 'client_credentials', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: server.endpoint, server: server.child };
      return await measure(c, LOAD, `client_credentials ${nodeArgs.join(' ') || '(default)'}`);
    } finally {
      await stopChild(server.child);
    }
  };
  log(`\nclient_credentials tokens/s, ${LOAD.rounds} alternating rounds of ${LOAD.duration} s, ${LOAD.connections} connections`);
  const results = await alternate(LOAD.rounds, [
    { key: 'default', run: tokens([]) },
    { key: 'variant', run: tokens(NODE_ARGS) },
  ]);
  const byDefault = summarize(results.get('default')!);
  const withArgs = summarize(results.get('variant')!);
  printTable(
    [
      ['server', 'tokens/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'RSS MiB at end', 'tokens/CPU-s', 'ratio'],
      ...[
        ['gatehouse', byDefault],
        [`with ${NODE_ARGS.join(' ')}`, withArgs],
      ].map(([label, s]) => {
        const summary = s as typeof byDefault;
        return [label as string, fmtInt(summary.reqPerSec), ...roundCells(summary), fmt(summary.rssEndMB), fmtInt(summary.perCpuSecond), summary === byDefault ? '' : fmtRatio(summary.reqPerSec / byDefault.reqPerSec)];
      }),
    ],
    'lrrrrrrrrrr',
  );
  return { nodeArgs: NODE_ARGS, default: byDefault, variant: withArgs };
}

void runMain(main);
