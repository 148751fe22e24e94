/**
 * `npm run bench:scale`: whether the cost of a request grows with the tenant. On SQLite and on
 * PostgreSQL (SCALE_DATABASES, default both; a fresh PostgreSQL database at
 * SCALE_POSTGRES_URL's server, default 127.0.0.1:5432), one tenant is filled through the real
 * import job (POST /api/v2/jobs/users-imports; four bcrypt hashes computed once and reused, so that
 * filling is not hashing-bound) to 10^4, 10^5 and 10^6 users (SCALE_MAX stops earlier), and its
 * tenant log is filled to SCALE_LOG_EVENTS events (default 10^7, spread over the sizes) through the
 * batch writer (src/domain/logs/tenant-logs.ts, the server's own, in this process on the same
 * database). At each size, in one run: the import rate, and p50/p99 of SCALE_SAMPLES sequential
 * requests (default 40) of each kind: password-realm login (the same 20 users each time),
 * GET /users/{id}, users-by-email, q=email:"…", q=name:"…*", GET /users page 1 and a deep page,
 * GET /logs?q=type:… and checkpoint paging; the export job of the whole tenant (time, peak RSS);
 * the database's size on disk and the server's RSS. The table ends with each latency at the largest
 * size over the same at 10^4, against its target (1.3x for logins and lookups, 2x for search and
 * the first pages). Targets are reported, not asserted.
 *
 * The server runs pinned to one core (taskset -c 0) and this process, the load, on the other, as in
 * every bench (bench/lib.ts); the server is given plain HTTP and no rate limits.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { PURGE_FIRST_DELAY_MS } from '../src/storage/purge.js';
import {
  adminTokenBody,
  BenchError,
  fmt,
  fmtInt,
  freePort,
  log,
  managementCall,
  printGatehouseLog,
  printTable,
  readAdminCredentials,
  readMemory,
  removeOnCleanup,
  requestToken,
  RESULTS_DIR,
  runMain,
  setUpPinning,
  sleep,
  startGatehouse,
  stopChild,
  type Endpoint,
} from './lib.js';

const SIZES = [10_000, 100_000, 1_000_000].filter((n) => n <= Number(process.env.SCALE_MAX ?? 1_000_000));
const LOG_EVENTS = Number(process.env.SCALE_LOG_EVENTS ?? 10_000_000);
const SAMPLES = Number(process.env.SCALE_SAMPLES ?? 40);
const DATABASES = (process.env.SCALE_DATABASES ?? 'sqlite,postgres').split(',').map((s) => s.trim()) as ('sqlite' | 'postgres')[];
const POSTGRES_URL = process.env.SCALE_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Users per import job (the service takes files of up to 500 KB; Gatehouse's bound is set high for the bench). */
const JOB_USERS = 100_000;
const PASSWORDS = ['scale-password-0', 'scale-password-1', 'scale-password-2', 'scale-password-3'];
const LOGIN_USERS = 20;
/** Age of the tenant log events the bench writes: older than the default retention (30 days). */
const LOG_AGE_DAYS = 40;
/** Sequential token requests of the purge measurement, alone and during the purge (at most PURGE_WINDOW_S). */
const PURGE_SAMPLES = Number(process.env.SCALE_PURGE_SAMPLES ?? 400);
const PURGE_WINDOW_S = 60;

const email = (i: number) => `scale${i}@users.example`;

interface Row {
  size: number;
  importRate: number;
  latencies: Record<string, Latency>;
  exportSeconds: number;
  exportPeakRssMB: number;
  exportRssBeforeMB: number;
  databaseMB: number;
  rssMB: number;
  logEvents: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function call(endpoint: Endpoint, method: string, urlPath: string, headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: endpoint.port, method, path: urlPath, agent, headers: { host: `localhost:${endpoint.port}`, ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Latency {
  p50: number;
  p99: number;
  /** Answers that were the bound of a search (503), for a search that no index serves. */
  refused?: number;
}

function percentiles(ms: number[]): { p50: number; p99: number } {
  ms.sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]!;
  return { p50: at(50), p99: at(99) };
}

/**
 * p50 and p99 in ms of `samples` sequential runs of `run` (each must succeed; with `bounded`, a 503
 * is the search's time limit and is counted).
 */
async function timed(name: string, run: (i: number) => Promise<{ status: number; text: string }>, options: { bounded?: boolean; samples?: number } = {}): Promise<Latency> {
  await run(0); // warm
  const ms: number[] = [];
  let refused = 0;
  for (let i = 0; i < (options.samples ?? SAMPLES); i++) {
    const t0 = performance.now();
    const reply = await run(i);
    ms.push(performance.now() - t0);
    if (options.bounded && reply.status === 503) refused++;
    else if (reply.status !== 200) throw new BenchError(`${name} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  return { ...percentiles(ms), ...(options.bounded && { refused }) };
}

/** A job's state, polled without a deadline per request (a stalled answer is what the table shows, not a failure). */
async function waitForJob(endpoint: Endpoint, token: string, id: string): Promise<{ status: string; summary?: { inserted: number } }> {
  for (;;) {
    const reply = await call(endpoint, 'GET', `/api/v2/jobs/${id}`, { authorization: `Bearer ${token}` });
    if (reply.status !== 200) throw new BenchError(`GET /jobs/${id} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    const job = JSON.parse(reply.text) as { status: string; summary?: { inserted: number } };
    if (job.status === 'completed') return job;
    if (job.status === 'failed') throw new BenchError(`job ${id} failed: ${reply.text.slice(0, 500)}`);
    await sleep(200);
  }
}

function usersFile(from: number, to: number, hashes: string[]): Buffer {
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    lines.push(JSON.stringify({ email: email(i), email_verified: true, name: `Scale User ${i}`, given_name: `Given${i}`, app_metadata: { plan: i % 3 === 0 ? 'gold' : 'free' }, password_hash: hashes[i % hashes.length] }));
  }
  return Buffer.from(`[\n${lines.join(',\n')}\n]`);
}

async function importUsers(endpoint: Endpoint, token: string, connectionId: string, from: number, to: number, hashes: string[]): Promise<void> {
  for (let start = from; start < to; start += JOB_USERS) {
    const end = Math.min(to, start + JOB_USERS);
    const form = new FormData();
    form.append('connection_id', connectionId);
    form.append('send_completion_email', 'false');
    form.append('users', new Blob([usersFile(start, end, hashes)], { type: 'application/json' }), 'users.json');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    const uploaded = await call(endpoint, 'POST', '/api/v2/jobs/users-imports', { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')! }, body);
    if (uploaded.status !== 202) throw new BenchError(`import upload answered ${uploaded.status}: ${uploaded.text.slice(0, 300)}`);
    const { id } = JSON.parse(uploaded.text) as { id: string };
    const job = await waitForJob(endpoint, token, id);
    if (job.summary?.inserted !== end - start) throw new BenchError(`import job ${id} inserted ${job.summary?.inserted} of ${end - start}`);
  }
}

/** Tenant log events written through the server's batch writer, in this process, on the server's database. */
async function fillLogs(databaseUrl: string | undefined, sqliteFile: string, tenantId: string, count: number): Promise<void> {
  if (count <= 0) return;
  const { openDatabase } = await import('../src/storage/database.js');
  const { KyselyTenantLogStore } = await import('../src/storage/kysely/tenant-logs.js');
  const { BufferedTenantLogs } = await import('../src/domain/logs/tenant-logs.js');
  const handle = openDatabase({ databaseUrl, sqliteFile });
  // Dated 40 days back: past the default retention, which the purge measurement restores at the end.
  const logs = new BufferedTenantLogs(new KyselyTenantLogStore(handle.db), () => Date.now() - LOG_AGE_DAYS * 86_400_000, { warn: (o: unknown, m?: string) => log(`log writer: ${m ?? ''} ${JSON.stringify(o)}`), error: (o: unknown, m?: string) => log(`log writer: ${m ?? ''} ${JSON.stringify(o)}`) }, { maxBuffered: 1_000_000 });
  const types = ['s', 'f', 'sepft', 'fepft', 'seccft', 'fp', 'fu'] as const;
  for (let i = 0; i < count; i++) {
    logs.record(tenantId, { type: types[i % types.length]!, client_id: 'scale-client', user_id: `auth0|${i % 1000}`, user_name: email(i % 1000), ip: '127.0.0.1' } as never);
    if (i % 20_000 === 19_999) await logs.flush();
  }
  await logs.close();
  await handle.close();
}

async function databaseMB(databaseUrl: string | undefined, dataDir: string): Promise<number> {
  if (!databaseUrl) {
    return ['gatehouse.db', 'gatehouse.db-wal'].reduce((sum, f) => sum + (fs.existsSync(path.join(dataDir, f)) ? fs.statSync(path.join(dataDir, f)).size : 0), 0) / 1048576;
  }
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const size = Number((await client.query<{ n: string }>('select pg_database_size(current_database()) as n')).rows[0]!.n);
  await client.end();
  return size / 1048576;
}

interface PurgeResult {
  alone: Latency;
  during: Latency;
  samples: number;
  windowS: number;
  logsBefore: number;
  logsAfter: number;
}

/** The tenant log's events, counted from this process. */
async function countLogs(databaseUrl: string | undefined, sqliteFile: string): Promise<number> {
  const { openDatabase } = await import('../src/storage/database.js');
  const handle = openDatabase({ databaseUrl, sqliteFile });
  const row = await handle.db.selectFrom('tenant_logs').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  await handle.close();
  return Number(row.n);
}

async function runDatabase(kind: 'sqlite' | 'postgres', hashes: string[], serverCpus: string | undefined, measured: (row: Row) => void): Promise<{ rows: Row[]; purge: PurgeResult }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-scale-'));
  removeOnCleanup(dir);
  const dataDir = path.join(dir, 'data');
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (kind === 'postgres') {
    const pg = (await import('pg')).default;
    const name = `gatehouse_scale_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    drop = async () => {
      const again = new pg.Client({ connectionString: POSTGRES_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  }
  const port = await freePort('127.0.0.1');
  // No retention while the tenant fills (the log events are 40 days old); the purge measurement
  // restarts the server with the default.
  const start = (retentionDays: number) => startGatehouse({
    host: '127.0.0.1', port, dataDir, logLevel: 'warn', cpus: serverCpus, timeoutMs: 120_000,
    extraEnv: { GATEHOUSE_USERS_IMPORT_MAX_BYTES: String(256 * 1024 * 1024), GATEHOUSE_LOG_RETENTION_DAYS: String(retentionDays), ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
  });
  let server = await start(3650);
  const rows: Row[] = [];
  try {
    const endpoint = server.endpoint;
    const adminCredentials = readAdminCredentials(dataDir);
    const { access_token: token } = await requestToken(endpoint, '/oauth/token', adminTokenBody(adminCredentials), 'admin token');
    const client = await managementCall<{ client_id: string; client_secret: string }>(endpoint, token, 'POST', '/clients', {
      name: 'scale', app_type: 'non_interactive', grant_types: ['http://auth0.com/oauth/grant-type/password-realm'], token_endpoint_auth_method: 'client_secret_post',
    });
    const connection = await managementCall<{ id: string }>(endpoint, token, 'POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0', enabled_clients: [client.client_id] });
    const tenantId = await tenantIdOf(databaseUrl, path.join(dataDir, 'gatehouse.db'));
    const auth = { authorization: `Bearer ${token}` };
    const json = { 'content-type': 'application/json' };
    let filled = 0;
    let logsWritten = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      await importUsers(endpoint, token, connection.id, filled, size, hashes);
      const importRate = (size - filled) / ((performance.now() - t0) / 1000);
      filled = size;
      const logTarget = Math.round(LOG_EVENTS * (size / SIZES[SIZES.length - 1]!));
      log(`${kind} ${fmtInt(size)} users imported (${fmtInt(importRate)} users/s); writing ${fmtInt(logTarget - logsWritten)} log events`);
      await fillLogs(databaseUrl, path.join(dataDir, 'gatehouse.db'), tenantId, logTarget - logsWritten);
      logsWritten = logTarget;
      log(`${kind} ${fmtInt(size)} users (import ${fmtInt(importRate)} users/s), ${fmtInt(logsWritten)} log events: measuring`);

      const someUser = await managementCall<{ user_id: string }[]>(endpoint, token, 'GET', `/users-by-email?email=${encodeURIComponent(email(Math.floor(size / 2)))}`);
      const userId = someUser[0]!.user_id;
      const latencies: Row['latencies'] = {};
      latencies['password-realm login'] = await timed('login', (i) => call(endpoint, 'POST', '/oauth/token', json, JSON.stringify({
        grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: client.client_id, client_secret: client.client_secret,
        realm: 'Username-Password-Authentication', username: email(i % LOGIN_USERS), password: PASSWORDS[(i % LOGIN_USERS) % PASSWORDS.length],
      })));
      latencies['GET /users/{id}'] = await timed('get user', () => call(endpoint, 'GET', `/api/v2/users/${encodeURIComponent(userId)}`, auth));
      latencies['GET /users-by-email'] = await timed('by email', (i) => call(endpoint, 'GET', `/api/v2/users-by-email?email=${encodeURIComponent(email((i * 7919) % size))}`, auth));
      latencies['q=email:"…"'] = await timed('q email', (i) => call(endpoint, 'GET', `/api/v2/users?search_engine=v3&q=${encodeURIComponent(`email:"${email((i * 7919) % size)}"`)}`, auth));
      // A prefix matching about ten users at every size (user n, and 10n…10n+9 when there are).
      const prefixed = (i: number) => Math.floor(size / 10) + ((i * 7919) % Math.floor((size * 9) / 10));
      latencies['q=name:"…*"'] = await timed('q name', (i) => call(endpoint, 'GET', `/api/v2/users?search_engine=v3&q=${encodeURIComponent(`name:Scale\\ User\\ ${prefixed(i)}*`)}`, auth));
      latencies['q=app_metadata (no index)'] = await timed('q metadata', () => call(endpoint, 'GET', `/api/v2/users?search_engine=v3&include_totals=true&q=${encodeURIComponent('app_metadata.plan:"gold"')}`, auth), { bounded: true });
      latencies['GET /users page 1'] = await timed('page 1', () => call(endpoint, 'GET', '/api/v2/users?page=1&per_page=50', auth));
      latencies['GET /users deep page'] = await timed('deep page', () => call(endpoint, 'GET', '/api/v2/users?page=19&per_page=50', auth));
      latencies['GET /logs?q=type:…'] = await timed('logs q', () => call(endpoint, 'GET', '/api/v2/logs?q=type:fp&per_page=50', auth));
      latencies['GET /logs checkpoint'] = await timed('logs from', async () => {
        const first = await call(endpoint, 'GET', '/api/v2/logs?take=100', auth);
        const page = JSON.parse(first.text) as { log_id: string }[];
        return page.length ? call(endpoint, 'GET', `/api/v2/logs?take=100&from=${page[page.length - 1]!.log_id}`, auth) : first;
      });

      // The export of the whole tenant, with the server's RSS sampled while it runs.
      const pid = server.child.process.pid!;
      const before = readMemory(pid)?.rssMB ?? NaN;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, readMemory(pid)?.rssMB ?? 0)), 100);
      const e0 = performance.now();
      const job = await managementCall<{ id: string }>(endpoint, token, 'POST', '/jobs/users-exports', { connection_id: connection.id, format: 'json', fields: [{ name: 'email' }, { name: 'user_id' }] });
      await waitForJob(endpoint, token, job.id);
      clearInterval(sampler);
      rows.push({
        size, importRate, latencies, exportSeconds: (performance.now() - e0) / 1000, exportPeakRssMB: peak, exportRssBeforeMB: before,
        databaseMB: await databaseMB(databaseUrl, dataDir), rssMB: readMemory(pid)?.rssMB ?? NaN, logEvents: logsWritten,
      });
      measured(rows[rows.length - 1]!);
      log(`${kind} ${fmtInt(size)}: ${JSON.stringify(rows[rows.length - 1])}`);
    }

    // Log retention: the tenant log (all of it older than the default retention) purged by the server's
    // own first purge after a restart, while sequential token requests are timed; the same requests
    // alone just before.
    const tokenBody = adminTokenBody(adminCredentials);
    const tokenRequest = () => call(server.endpoint, 'POST', '/oauth/token', json, tokenBody);
    const alone = await timed('token alone', tokenRequest, { samples: PURGE_SAMPLES });
    const oldBefore = await countLogs(databaseUrl, path.join(dataDir, 'gatehouse.db'));
    printGatehouseLog(server.child, 'warn');
    await stopChild(server.child);
    server = await start(30);
    await sleep(PURGE_FIRST_DELAY_MS + 500);
    const during: number[] = [];
    const w0 = performance.now();
    while (during.length < PURGE_SAMPLES && performance.now() - w0 < PURGE_WINDOW_S * 1000) {
      const t0 = performance.now();
      const reply = await tokenRequest();
      during.push(performance.now() - t0);
      if (reply.status !== 200) throw new BenchError(`token request during the purge answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    }
    const windowS = (performance.now() - w0) / 1000;
    const oldAfter = await countLogs(databaseUrl, path.join(dataDir, 'gatehouse.db'));
    const purge: PurgeResult = { alone, during: percentiles(during), samples: during.length, windowS, logsBefore: oldBefore, logsAfter: oldAfter };
    log(`${kind} purge: ${fmtInt(oldBefore - oldAfter)} of ${fmtInt(oldBefore)} log events deleted in the ${fmt(windowS)} s window; token p99 ${fmt(alone.p99)} ms alone, ${fmt(purge.during.p99)} ms during`);
    return { rows, purge };
  } finally {
    printGatehouseLog(server.child, 'warn');
    await stopChild(server.child);
    await drop?.();
  }
}

async function tenantIdOf(databaseUrl: string | undefined, sqliteFile: string): Promise<string> {
  const { openDatabase } = await import('../src/storage/database.js');
  const handle = openDatabase({ databaseUrl, sqliteFile });
  const row = await handle.db.selectFrom('tenants').select('id').executeTakeFirstOrThrow();
  await handle.close();
  return row.id;
}

const TARGETS: Record<string, number> = {
  'password-realm login': 1.3, 'GET /users/{id}': 1.3, 'GET /users-by-email': 1.3,
  'q=email:"…"': 2, 'q=name:"…*"': 2, 'GET /users page 1': 2, 'GET /users deep page': 2,
};

function report(kind: string, rows: Row[], purge: PurgeResult | undefined): void {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  log(`\n${kind}: latencies in ms (p50 / p99), sequential requests, ${SAMPLES} each`);
  const names = Object.keys(first.latencies);
  const cell = (l: Latency) => `${fmt(l.p50)} / ${fmt(l.p99)}${l.refused ? ` (${l.refused} × 503)` : ''}`;
  const purgeRatio = purge ? purge.during.p99 / purge.alone.p99 : NaN;
  printTable(
    [
      ['', ...rows.map((r) => `${fmtInt(r.size)} users`), `p99 ${fmtInt(last.size)} ÷ ${fmtInt(first.size)}`, 'target'],
      ...names.map((name) => {
        const ratio = last.latencies[name]!.p99 / first.latencies[name]!.p99;
        const target = TARGETS[name];
        return [name, ...rows.map((r) => cell(r.latencies[name]!)), `${ratio.toFixed(2)}x`, target ? `${target}x: ${ratio <= target ? 'met' : 'NOT met'}` : name.startsWith('q=') ? 'bounded (503 past 2 s)' : ''];
      }),
      ['import (users/s)', ...rows.map((r) => fmtInt(r.importRate)), '', `${kind === 'sqlite' ? '2,000/s' : '1,000/s'}: ${last.importRate >= (kind === 'sqlite' ? 2000 : 1000) ? 'met' : 'NOT met'} at ${fmtInt(last.size)}`],
      ['export of the tenant (s)', ...rows.map((r) => fmt(r.exportSeconds)), '', `< 300 s at 10^6: ${last.size < 1_000_000 ? 'n/a' : last.exportSeconds < 300 ? 'met' : 'NOT met'}`],
      ['export peak RSS (MiB)', ...rows.map((r) => fmt(r.exportPeakRssMB, 0)), '', `< 200: ${last.exportPeakRssMB < 200 ? 'met' : 'NOT met'}`],
      ['  ÷ RSS before the export', ...rows.map((r) => `${(r.exportPeakRssMB / r.exportRssBeforeMB).toFixed(2)}x`), '', `< 1.2x: ${last.exportPeakRssMB / last.exportRssBeforeMB < 1.2 ? 'met' : 'NOT met'}`],
      ['tenant log events', ...rows.map((r) => fmtInt(r.logEvents)), '', ''],
      ['database on disk (MiB)', ...rows.map((r) => fmt(r.databaseMB, 0)), '', ''],
      ['server RSS (MiB)', ...rows.map((r) => fmt(r.rssMB, 0)), '', ''],
      ...(purge
        ? [['token p99 during the log purge', ...rows.map((r) => (r === last ? `${fmt(purge.alone.p99)} → ${fmt(purge.during.p99)}` : '')), `${purgeRatio.toFixed(2)}x`, `1.5x: ${purgeRatio <= 1.5 ? 'met' : 'NOT met'}`]]
        : []),
    ],
    'l' + 'r'.repeat(rows.length + 2),
  );
  if (purge) {
    log(`log purge: ${fmtInt(purge.logsBefore - purge.logsAfter)} of ${fmtInt(purge.logsBefore)} events deleted during the ${fmt(purge.windowS)} s window of ${purge.samples} sequential token requests (p50 ${fmt(purge.during.p50)} ms; alone p50 ${fmt(purge.alone.p50)} ms, ${PURGE_SAMPLES} requests)`);
  }
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const started = performance.now();
  log(`scale: ${SIZES.map(fmtInt).join(', ')} users; ${fmtInt(LOG_EVENTS)} log events; ${DATABASES.join(' and ')}; ${pinning.note}`);
  const hashes = PASSWORDS.map((p) => bcrypt.hashSync(p, 10));
  const results: Record<string, { rows: Row[]; purge?: PurgeResult }> = {};
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const save = (minutes: number) => fs.writeFileSync(out, JSON.stringify({ sizes: SIZES, logEvents: LOG_EVENTS, samples: SAMPLES, pinning: pinning.note, minutes, results }, null, 2));
  for (const kind of DATABASES) {
    // Each size is saved as it ends, so that a run stopped early keeps what it measured.
    results[kind] = { rows: [] };
    const { rows, purge } = await runDatabase(kind, hashes, pinning.serverCpus, (row) => {
      results[kind]!.rows.push(row);
      save((performance.now() - started) / 60_000);
    });
    results[kind] = { rows, purge };
    save((performance.now() - started) / 60_000);
    report(kind, rows, purge);
  }
  const minutes = (performance.now() - started) / 60_000;
  log(`\nscale: the whole run took ${fmt(minutes)} minutes`);
  save(minutes);
  log(`results: ${path.relative(process.cwd(), out)}`);
  return 0;
}

await runMain(main);
