/**
 * The cost of tenant logs on the token endpoint: client_credentials tokens/s
 * with tenant logs on (every exchange recorded as `seccft`, buffered and
 * written in batches off the request path) beside the same server with
 * GATEHOUSE_TENANT_LOGS=off, in the same run (target: on within 10% of off,
 * ratio ≥ 0.90). Two Gatehouse processes on their own data directories,
 * both pinned to the same core (one idles while the other is measured), the
 * load on the other core, plain HTTP, SQLite; rounds alternate between them;
 * medians printed. After the runs, the logs-on server's GET /api/v2/logs
 * total is compared with the tokens it issued: every exchange was recorded.
 *
 *   npm run bench:logs
 *   BENCH_DURATION=2 BENCH_ROUNDS=1 npm run bench:logs   (a quick smoke run)
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  adminTokenBody,
  alternate,
  BenchError,
  fmtInt,
  fmtRatio,
  freePort,
  loadLogLevel,
  loadSettings,
  log,
  logBusyWarning,
  logHeader,
  managementCall,
  measure,
  printTable,
  readAdminCredentials,
  removeOnCleanup,
  requestToken,
  roundCells,
  ROOT,
  runMain,
  setUpPinning,
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
const TARGET = 0.9;

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build`');
  logHeader(
    'Gatehouse bench: client_credentials with tenant logs on and off',
    `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per case, warm-up ${SETTINGS.warmup} s, ${SETTINGS.connections} connections, plain HTTP, SQLite`,
    pinning,
  );
  const { address: host } = await dns.lookup('localhost');
  const servers = [];
  for (const [key, flag] of [['logs on', 'on'], ['logs off', 'off']] as const) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gatehouse-bench-logs-${flag}-`));
    removeOnCleanup(dataDir);
    const port = await freePort(host);
    const gatehouse = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus: pinning.serverCpus, extraEnv: { GATEHOUSE_TENANT_LOGS: flag } });
    const admin = readAdminCredentials(dataDir);
    const adminToken = (await requestToken(gatehouse.endpoint, '/oauth/token', adminTokenBody(admin), `admin client (${key})`)).access_token;
    const typical = await setUpTypicalApi(gatehouse.endpoint, adminToken);
    await requestToken(gatehouse.endpoint, '/oauth/token', typical.tokenBody, `typical client (${key})`);
    log(`  ${key}: GATEHOUSE_TENANT_LOGS=${flag}, port ${port}, ready in ${fmtInt(gatehouse.readyMs)} ms`);
    const loadCase: LoadCase = { name: key, method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: gatehouse.endpoint, server: gatehouse.child };
    servers.push({ key, flag, gatehouse, adminToken, clientId: typical.clientId, loadCase });
  }

  log(`\nload: ${SETTINGS.rounds} round(s), logs on and off in turn within each round`);
  const results = await alternate(
    SETTINGS.rounds,
    servers.map((server) => ({
      key: server.key,
      run: async (round: number): Promise<CaseResult> => {
        // The other server's last batches are written before this one is measured.
        await sleep(500);
        return measure(server.loadCase, SETTINGS, `round ${round}/${SETTINGS.rounds} ${server.key}`);
      },
    })),
  );

  // Every exchange of the logs-on server is in its log (the warm-ups' and preflight's too); none in the other's.
  await sleep(1000);
  const recorded: Record<string, number> = {};
  for (const server of servers) {
    const page = await managementCall<{ total: number }>(
      server.gatehouse.endpoint,
      server.adminToken,
      'GET',
      `/logs?include_totals=true&per_page=1&q=${encodeURIComponent(`type:seccft AND client_id:"${server.clientId}"`)}`,
    );
    recorded[server.key] = page.total;
  }

  const summaries = Object.fromEntries([...results].map(([key, list]) => [key, summarize(list)]));
  const on = summaries['logs on']!;
  const off = summaries['logs off']!;
  const ratio = on.reqPerSec / off.reqPerSec;
  log(`\nMedians of the rounds; ratio = the row ÷ logs off (target for logs on: at least ${TARGET.toFixed(2)}, within 10%);`);
  log('tokens per CPU-second of the server move less than req/s when other processes take its core.');
  printTable(
    [
      ['server', 'req/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'seccft logged', 'per CPU-s', 'ratio', 'ratio per CPU-s'],
      ...Object.entries(summaries).map(([key, s]) => [
        key,
        fmtInt(s.reqPerSec),
        ...roundCells(s),
        fmtInt(s.failed),
        fmtInt(recorded[key] ?? 0),
        fmtInt(s.perCpuSecond),
        fmtRatio(s.reqPerSec / off.reqPerSec),
        fmtRatio(s.perCpuSecond / off.perCpuSecond),
      ]),
    ],
    'lrrrrrrrrrrrr',
  );
  const okOn = results.get('logs on')!.reduce((n, r) => n + r.ok, 0);
  log(`\nlogs on: ${fmtInt(okOn)} tokens issued in the measurements; ${fmtInt(recorded['logs on'] ?? 0)} seccft events of the client in its log (with warm-ups and the preflight).`);
  if ((recorded['logs on'] ?? 0) < okOn) log('WARNING: fewer events logged than tokens issued: events were dropped (see the server log)');
  if ((recorded['logs off'] ?? 0) !== 0) log('WARNING: the logs-off server recorded events');
  log(ratio >= TARGET ? `logs on / logs off = ${ratio.toFixed(3)}: within 10%` : `logs on / logs off = ${ratio.toFixed(3)}: MORE than 10% slower`);
  log(`per CPU-second of the server: logs on / logs off = ${(on.perCpuSecond / off.perCpuSecond).toFixed(3)}`);
  const all = [...results.values()].flat();
  logBusyWarning(
    all.filter((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)).map((r) => ({ what: r.case, other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    all.length,
  );
  const file = writeResults('logs', startedAt, { settings: SETTINGS, pinning, results: Object.fromEntries(results), summaries, recorded, ratio, target: TARGET });
  log(`\nresults: ${file}`);
  return all.some((r) => r.ok === 0) ? 1 : 0;
}

await runMain(main);
