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
 * Then, as two machines would run it: two Gatehouse processes, each with its own data directory,
 * on one PostgreSQL database and one Redis (the same GATEHOUSE_MASTER_KEY), against one of them
 * alone: client_credentials tokens/s and password-realm logins/s of the two (the load split
 * between them) over one, and, while the two serve the load, whether what one process decides
 * holds on the other: a rate-limit bucket (GET /api/v2/clients?q=, burst 10, 1/s, in Redis) is
 * shared, a refresh token revoked on one is refused by the other, a user blocked through one
 * cannot log in on the other. BENCH_WORKERS_POSTGRES=0 leaves this part out.
 *
 *   npm run bench:workers
 *   BENCH_WORKERS=4 BENCH_DURATION=2 BENCH_ROUNDS=1 npm run bench:workers
 */
import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  adminTokenBody,
  alternate,
  BenchError,
  envSeconds,
  fmt,
  managementCall,
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
  stopChild,
  summarize,
  wasBusy,
  writeResults,
  type CaseResult,
  type Endpoint,
  type LoadCase,
  type StartedServer,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 5, connections: 50 });
const LOG_LEVEL = loadLogLevel();
const WORKERS = envSeconds('BENCH_WORKERS', 2, 2, 64);
const POSTGRES = process.env.BENCH_WORKERS_POSTGRES !== '0';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const LOGIN_CONNECTIONS = 8;
const API = 'https://workers-api.example.com/';
const REALM = 'workers-db';
const PASSWORD = 'workers-Password-1';

/** Two machines' worth: a fresh PostgreSQL database, Redis, two processes with their own data directories. */
async function twoMachines(host: string): Promise<Record<string, unknown>> {
  const pg = (await import('pg')).default;
  const name = `gatehouse_workers_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(), REDIS_URL, GATEHOUSE_MASTER_KEY: randomBytes(32).toString('hex'),
    GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY: '10/1',
  };
  const servers: StartedServer[] = [];
  try {
    const portA = await freePort(host);
    const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-machine-a-'));
    removeOnCleanup(dirA);
    servers.push(await startGatehouse({ host, port: portA, dataDir: dirA, logLevel: LOG_LEVEL, timeoutMs: 120_000, extraEnv: env }));
    const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-machine-b-'));
    removeOnCleanup(dirB);
    servers.push(await startGatehouse({ host, port: await freePort(host), dataDir: dirB, logLevel: LOG_LEVEL, timeoutMs: 120_000, domainPort: portA, extraEnv: env }));
    const [a, b] = servers as [StartedServer, StartedServer];
    const adminToken = (await requestToken(a.endpoint, '/oauth/token', adminTokenBody(readAdminCredentials(dirA)), 'admin client')).access_token;
    const typical = await setUpTypicalApi(a.endpoint, adminToken);
    const setUp = await setUpLogins(a.endpoint, adminToken);

    const split = (what: string, body: string, connections: number) => ({
      one: { name: `${what}, 1 process`, method: 'POST', path: '/oauth/token', body, endpoint: a.endpoint, server: a.child } as LoadCase,
      two: [a, b].map((s, i) => ({ name: `${what}, process ${i + 1} of 2`, method: 'POST', path: '/oauth/token', body, endpoint: s.endpoint, server: s.child }) as LoadCase),
      connections,
    });
    const kinds = [split('client_credentials', typical.tokenBody, SETTINGS.connections), split('password-realm login', setUp.loginBody, LOGIN_CONNECTIONS)];
    for (const s of [a, b]) {
      await requestToken(s.endpoint, '/oauth/token', typical.tokenBody, 'client_credentials');
      await requestToken(s.endpoint, '/oauth/token', setUp.loginBody, 'password-realm login');
    }
    const rates: Record<string, { one: number[]; two: number[]; p99One: number[]; p99Two: number[] }> = {};
    let checks: Checks | undefined;
    for (let round = 1; round <= SETTINGS.rounds; round++) {
      for (const kind of kinds) {
        const key = kind.one.name.replace(/, 1 process$/, '');
        const entry = (rates[key] ??= { one: [], two: [], p99One: [], p99Two: [] });
        const one = await measure(kind.one, { ...SETTINGS, connections: kind.connections }, `round ${round}/${SETTINGS.rounds} ${kind.one.name}`);
        // The checks run once, while the two processes serve the client_credentials load of the last round.
        const during = round === SETTINGS.rounds && key === 'client_credentials' ? crossChecks(a.endpoint, b.endpoint, adminToken, setUp) : undefined;
        const two = await Promise.all(kind.two.map((c) => measure(c, { ...SETTINGS, connections: Math.max(1, Math.round(kind.connections / 2)) }, `round ${round}/${SETTINGS.rounds} ${c.name}`)));
        if (during) checks = await during;
        entry.one.push(one.reqPerSec);
        entry.p99One.push(one.latencyMs.p99);
        entry.two.push(two.reduce((sum, r) => sum + r.reqPerSec, 0));
        entry.p99Two.push(Math.max(...two.map((r) => r.latencyMs.p99)));
        const failed = [one, ...two].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        if (failed > 0) log(`!!! ${key}: ${failed} failed requests in round ${round}`);
      }
    }
    const med = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    log(`\nPostgreSQL + Redis, two processes as two machines (each its own data directory), against one of them alone; medians of ${SETTINGS.rounds} round(s), nothing pinned`);
    printTable(
      [
        ['case', '1 process req/s', '2 processes req/s', 'ratio 2 ÷ 1', '1 process p99 ms', '2 processes p99 ms'],
        ...Object.entries(rates).map(([key, r]) => [key, fmtInt(med(r.one)), fmtInt(med(r.two)), fmtRatio(med(r.two) / med(r.one)), fmt(med(r.p99One)), fmt(med(r.p99Two))]),
      ],
      'lrrrrr',
    );
    if (checks) {
      log(`\nAcross the two processes, during the 2-process load:`);
      printTable(
        [
          ['check', 'result', 'holds'],
          ['rate limit (GET /clients?q=, burst 10 + 1/s, one bucket in Redis)', `${checks.rateLimit.ok} of ${checks.rateLimit.sent} answered 200 in ${fmt(checks.rateLimit.seconds)} s, alternating the processes (${checks.rateLimit.limited} × 429); at most ${checks.rateLimit.allowed} allowed`, checks.rateLimit.ok <= checks.rateLimit.allowed ? 'yes' : 'NO'],
          ['refresh token revoked on process 1', `process 2 answered ${checks.revoked.before} before, ${checks.revoked.after} after`, checks.revoked.before === 200 && checks.revoked.after !== 200 ? 'yes' : 'NO'],
          ['user blocked through process 1', `login on process 2: ${checks.blocked.before} before, ${checks.blocked.after} after`, checks.blocked.before === 200 && checks.blocked.after !== 200 ? 'yes' : 'NO'],
        ],
        'lll',
      );
    }
    return { rates, checks };
  } finally {
    for (const s of servers) await stopChild(s.child);
    const again = new pg.Client({ connectionString: POSTGRES_URL });
    await again.connect();
    await again.query(`drop database if exists ${name} with (force)`);
    await again.end();
  }
}

interface LoginSetUp {
  loginBody: string;
  client: { client_id: string; client_secret: string };
  blockedUser: { user_id: string; email: string };
}

/** A connection with two users, a client with password-realm logins and refresh tokens for an API that allows them. */
async function setUpLogins(endpoint: Endpoint, adminToken: string): Promise<LoginSetUp> {
  const call = <T>(method: string, urlPath: string, body: unknown) => managementCall<T>(endpoint, adminToken, method, urlPath, body);
  await call('POST', '/resource-servers', { name: 'Workers API', identifier: API, scopes: [{ value: 'read:things', description: 'read' }], allow_offline_access: true });
  const client = await call<{ client_id: string; client_secret: string }>('POST', '/clients', {
    name: 'Workers app', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['http://auth0.com/oauth/grant-type/password-realm', 'refresh_token'],
    refresh_token: { rotation_type: 'non-rotating', expiration_type: 'non-expiring' },
  });
  await call('POST', '/connections', { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
  await call('POST', '/users', { connection: REALM, email: 'load@workers.example', password: PASSWORD, verify_email: false });
  const blocked = await call<{ user_id: string }>('POST', '/users', { connection: REALM, email: 'blocked@workers.example', password: PASSWORD, verify_email: false });
  return {
    loginBody: loginBody(client, 'load@workers.example'),
    client,
    blockedUser: { user_id: blocked.user_id, email: 'blocked@workers.example' },
  };
}

function loginBody(client: { client_id: string; client_secret: string }, username: string, scope = 'openid'): string {
  return JSON.stringify({ grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: client.client_id, client_secret: client.client_secret, username, password: PASSWORD, realm: REALM, audience: API, scope });
}

interface Checks {
  rateLimit: { sent: number; ok: number; limited: number; seconds: number; allowed: number };
  revoked: { before: number; after: number };
  blocked: { before: number; after: number };
}

/** One request, waiting as long as the loaded server takes (up to a minute). */
function send(endpoint: Endpoint, method: string, urlPath: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: 'localhost', port: endpoint.port, method, path: urlPath, agent: false, timeout: 60_000, headers: { host: endpoint.host ?? `localhost:${endpoint.port}`, ...headers, ...(body !== undefined && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in 60 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** What one process decides, seen from the other. */
async function crossChecks(a: Endpoint, b: Endpoint, adminToken: string, setUp: LoginSetUp): Promise<Checks> {
  await sleep(1_000); // into the measurement
  const auth = { authorization: `Bearer ${adminToken}` };
  // Rate limit: 30 requests in turn to the two processes, as fast as they answer.
  const sent = 30;
  let ok = 0;
  let limited = 0;
  const r0 = performance.now();
  for (let i = 0; i < sent; i++) {
    const reply = await send(i % 2 ? b : a, 'GET', `/api/v2/clients?q=${encodeURIComponent('client_grant.allow_any_organization:true')}&take=10`, undefined, auth);
    if (reply.status === 200) ok++;
    else if (reply.status === 429) limited++;
    else throw new BenchError(`GET /clients?q= answered ${reply.status}: ${reply.body.slice(0, 200)}`);
  }
  const seconds = (performance.now() - r0) / 1000;
  // A refresh token issued and revoked on process 1, used on process 2.
  const { client } = setUp;
  const issued = await send(a, 'POST', '/oauth/token', loginBody(client, 'load@workers.example', 'openid offline_access'));
  const login = JSON.parse(issued.body) as { refresh_token?: string };
  if (issued.status !== 200 || typeof login.refresh_token !== 'string') throw new BenchError(`the login for a refresh token answered ${issued.status}: ${issued.body.slice(0, 200)}`);
  const refresh = JSON.stringify({ grant_type: 'refresh_token', client_id: client.client_id, client_secret: client.client_secret, refresh_token: login.refresh_token });
  const before = (await send(b, 'POST', '/oauth/token', refresh)).status;
  const revoke = await send(a, 'POST', '/oauth/revoke', JSON.stringify({ client_id: client.client_id, client_secret: client.client_secret, token: login.refresh_token }));
  if (revoke.status !== 200) throw new BenchError(`POST /oauth/revoke answered ${revoke.status}: ${revoke.body.slice(0, 200)}`);
  const after = (await send(b, 'POST', '/oauth/token', refresh)).status;
  // A user blocked through process 1, logging in on process 2.
  const blockedLogin = loginBody(client, setUp.blockedUser.email);
  const loginBefore = (await send(b, 'POST', '/oauth/token', blockedLogin)).status;
  const patched = await send(a, 'PATCH', `/api/v2/users/${encodeURIComponent(setUp.blockedUser.user_id)}`, JSON.stringify({ blocked: true }), auth);
  if (patched.status !== 200) throw new BenchError(`PATCH /users/{id} answered ${patched.status}: ${patched.body.slice(0, 200)}`);
  const loginAfter = (await send(b, 'POST', '/oauth/token', blockedLogin)).status;
  return { rateLimit: { sent, ok, limited, seconds, allowed: 10 + Math.ceil(seconds) }, revoked: { before, after }, blocked: { before: loginBefore, after: loginAfter } };
}

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
  await stopChild(single.child);
  await stopChild(cluster.child);
  const machines = POSTGRES ? await twoMachines(host) : undefined;
  const file = writeResults('workers', startedAt, { settings: SETTINGS, workers: WORKERS, cores, results: Object.fromEntries(results), summaries, ...(machines && { postgresRedis: machines }) });
  log(`\nresults: ${file}`);
  return 0;
}

await runMain(main);
