/**
 * GATEHOUSE_WORKERS: client_credentials tokens/s of one Gatehouse process
 * beside the same data directory served by N worker processes
 * (node:cluster, src/app/cluster.ts), in the same run, under the same load.
 *
 * Nothing is pinned here: the point is what more processes get out of the
 * machine's cores, and the load generator (autocannon, in this process)
 * shares those cores, so on a 2-core machine the ratio is bounded well
 * below N by the load itself. The `server CPU %` column reads the process
 * the bench started: for the cluster that is the primary, which only hands
 * out connections, not the workers doing the work.
 *
 *   npm run bench:workers
 *   BENCH_WORKERS=4 BENCH_DURATION=2 BENCH_ROUNDS=1 npm run bench:workers
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  adminTokenBody,
  alternate,
  BenchError,
  envSeconds,
  fmtInt,
  fmtRatio,
  freePort,
  loadLogLevel,
  loadSettings,
  log,
  logBusyWarning,
  logHeader,
  measure,
  printTable,
  readAdminCredentials,
  removeOnCleanup,
  requestToken,
  roundCells,
  ROOT,
  runMain,
  setUpTypicalApi,
  sleep,
  startGatehouse,
  summarize,
  wasBusy,
  writeResults,
  type CaseResult,
  type LoadCase,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 5, connections: 50 });
const LOG_LEVEL = loadLogLevel();
const WORKERS = envSeconds('BENCH_WORKERS', 2, 2, 64);

async function main(): Promise<number> {
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build`');
  const cores = os.availableParallelism();
  logHeader(
    `Gatehouse bench: 1 process vs GATEHOUSE_WORKERS=${WORKERS} (client_credentials)`,
    `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per server, warm-up ${SETTINGS.warmup} s, ${SETTINGS.connections} connections, plain HTTP`,
    { pinned: false, allCpus: '', cpusAllowed: [], note: `NOT PINNED on purpose: the servers and the load generator share the machine's ${cores} core(s)` },
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-workers-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  // Both serve one tenant (localhost:<port>) from one SQLite data directory, as two installs of the same data would.
  const single = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL });
  const clusterPort = await freePort(host);
  const cluster = await startGatehouse({ host, port: clusterPort, dataDir, logLevel: LOG_LEVEL, domainPort: port, extraEnv: { GATEHOUSE_WORKERS: String(WORKERS) } });
  await sleep(2_000); // every worker listening, not just the first
  const admin = readAdminCredentials(dataDir);
  const adminToken = (await requestToken(single.endpoint, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const typical = await setUpTypicalApi(single.endpoint, adminToken);
  for (const [name, server] of [
    ['1 process', single],
    [`${WORKERS} workers`, cluster],
  ] as const) {
    await requestToken(server.endpoint, '/oauth/token', typical.tokenBody, name);
    log(`  preflight ${name}: 200`);
  }

  const cases: Record<string, LoadCase> = {
    '1 process': { name: '1 process', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: single.endpoint, server: single.child },
    [`${WORKERS} workers`]: { name: `${WORKERS} workers`, method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: cluster.endpoint, server: cluster.child },
  };
  const results = await alternate(
    SETTINGS.rounds,
    Object.keys(cases).map((key) => ({
      key,
      run: (round: number): Promise<CaseResult> => measure(cases[key]!, SETTINGS, `round ${round}/${SETTINGS.rounds} ${key}`),
    })),
  );
  const summaries = Object.fromEntries([...results].map(([key, list]) => [key, summarize(list)]));
  const base = summaries['1 process']!.reqPerSec;
  log(`\nMedians of the rounds; ratio = the row ÷ 1 process. server CPU % is the started process only (for the cluster: the primary).`);
  printTable(
    [
      ['server', 'req/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'ratio'],
      ...Object.entries(summaries).map(([key, s]) => [key, fmtInt(s.reqPerSec), ...roundCells(s), fmtInt(s.failed), fmtRatio(s.reqPerSec / base)]),
    ],
    'lrrrrrrrrr',
  );
  const all = [...results.values()].flat();
  logBusyWarning(
    all.filter((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)).map((r) => ({ what: r.case, other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    all.length,
  );
  const file = writeResults('workers', startedAt, { settings: SETTINGS, workers: WORKERS, cores, results: Object.fromEntries(results), summaries });
  log(`\nresults: ${file}`);
  return 0;
}

await runMain(main);
