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

const email = (i: number) => `scale${i}@users.example`;

interface Row {
  size: number;
  importRate: number;
  latencies: Record<string, { p50: number; p99: number }>;
  exportSeconds: number;
  exportPeakRssMB: number;
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

/** p50 and p99 in ms of `SAMPLES` sequential runs of `run` (each must succeed). */
async function timed(name: string, run: (i: number) => Promise<{ status: number; text: string }>, expected = 200): Promise<{ p50: number; p99: number }> {
  await run(0); // warm
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    const reply = await run(i);
    ms.push(performance.now() - t0);
    if (reply.status !== expected) throw new BenchError(`${name} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]!;
  return { p50: at(50), p99: at(99) };
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
    for (;;) {
      const job = await managementCall<{ status: string; summary?: { inserted: number } }>(endpoint, token, 'GET', `/jobs/${id}`);
      if (job.status === 'completed') {
        if (job.summary?.inserted !== end - start) throw new BenchError(`import job ${id} inserted ${job.summary?.inserted} of ${end - start}`);
        break;
      }
      if (job.status === 'failed') throw new BenchError(`import job ${id} failed: ${JSON.stringify(job)}`);
      await sleep(200);
    }
  }
}

/** Tenant log events written through the server's batch writer, in this process, on the server's database. */
async function fillLogs(databaseUrl: string | undefined, sqliteFile: string, tenantId: string, count: number): Promise<void> {
  if (count <= 0) return;
  const { openDatabase } = await import('../src/storage/database.js');
  const { KyselyTenantLogStore } = await import('../src/storage/kysely/tenant-logs.js');
  const { BufferedTenantLogs } = await import('../src/domain/logs/tenant-logs.js');
  const handle = openDatabase({ databaseUrl, sqliteFile });
  const logs = new BufferedTenantLogs(new KyselyTenantLogStore(handle.db), () => Date.now(), { warn: (o: unknown, m?: string) => log(`log writer: ${m ?? ''} ${JSON.stringify(o)}`), error: (o: unknown, m?: string) => log(`log writer: ${m ?? ''} ${JSON.stringify(o)}`) }, { maxBuffered: 1_000_000 });
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

async function runDatabase(kind: 'sqlite' | 'postgres', hashes: string[], serverCpus: string | undefined): Promise<Row[]> {
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
  const server = await startGatehouse({
    host: '127.0.0.1', port, dataDir, logLevel: 'warn', cpus: serverCpus, timeoutMs: 120_000,
    extraEnv: { GATEHOUSE_USERS_IMPORT_MAX_BYTES: String(256 * 1024 * 1024), ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
  });
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
      latencies['q=name:"…*"'] = await timed('q name', (i) => call(endpoint, 'GET', `/api/v2/users?search_engine=v3&q=${encodeURIComponent(`name:Scale User ${(i * 7919) % size}*`)}`, auth));
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
      let peak = readMemory(pid)?.rssMB ?? 0;
      const sampler = setInterval(() => (peak = Math.max(peak, readMemory(pid)?.rssMB ?? 0)), 100);
      const e0 = performance.now();
      const job = await managementCall<{ id: string }>(endpoint, token, 'POST', '/jobs/users-exports', { connection_id: connection.id, format: 'json', fields: [{ name: 'email' }, { name: 'user_id' }] });
      for (;;) {
        const state = await managementCall<{ status: string }>(endpoint, token, 'GET', `/jobs/${job.id}`);
        if (state.status === 'completed') break;
        if (state.status === 'failed') throw new BenchError(`export failed: ${JSON.stringify(state)}`);
        await sleep(200);
      }
      clearInterval(sampler);
      rows.push({
        size, importRate, latencies, exportSeconds: (performance.now() - e0) / 1000, exportPeakRssMB: peak,
        databaseMB: await databaseMB(databaseUrl, dataDir), rssMB: readMemory(pid)?.rssMB ?? NaN, logEvents: logsWritten,
      });
    }
    return rows;
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

function report(kind: string, rows: Row[]): void {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  log(`\n${kind}: latencies in ms (p50 / p99), sequential requests, ${SAMPLES} each`);
  const names = Object.keys(first.latencies);
  printTable(
    [
      ['', ...rows.map((r) => `${fmtInt(r.size)} users`), `p99 ${fmtInt(last.size)} ÷ ${fmtInt(first.size)}`, 'target'],
      ...names.map((name) => {
        const ratio = last.latencies[name]!.p99 / first.latencies[name]!.p99;
        const target = TARGETS[name];
        return [name, ...rows.map((r) => `${fmt(r.latencies[name]!.p50)} / ${fmt(r.latencies[name]!.p99)}`), `${ratio.toFixed(2)}x`, target ? `${target}x: ${ratio <= target ? 'met' : 'NOT met'}` : ''];
      }),
      ['import (users/s)', ...rows.map((r) => fmtInt(r.importRate)), '', kind === 'sqlite' ? '2,000/s' : '1,000/s'],
      ['export of the tenant (s)', ...rows.map((r) => fmt(r.exportSeconds)), '', '10^6 in < 300 s'],
      ['export peak RSS (MiB)', ...rows.map((r) => fmt(r.exportPeakRssMB, 0)), '', '< 200'],
      ['tenant log events', ...rows.map((r) => fmtInt(r.logEvents)), '', ''],
      ['database on disk (MiB)', ...rows.map((r) => fmt(r.databaseMB, 0)), '', ''],
      ['server RSS (MiB)', ...rows.map((r) => fmt(r.rssMB, 0)), '', ''],
    ],
    'l' + 'r'.repeat(rows.length + 2),
  );
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const started = performance.now();
  log(`scale: ${SIZES.map(fmtInt).join(', ')} users; ${fmtInt(LOG_EVENTS)} log events; ${DATABASES.join(' and ')}; ${pinning.note}`);
  const hashes = PASSWORDS.map((p) => bcrypt.hashSync(p, 10));
  const results: Record<string, Row[]> = {};
  for (const kind of DATABASES) {
    results[kind] = await runDatabase(kind, hashes, pinning.serverCpus);
    report(kind, results[kind]!);
  }
  const minutes = (performance.now() - started) / 60_000;
  log(`\nscale: the whole run took ${fmt(minutes)} minutes`);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, JSON.stringify({ sizes: SIZES, logEvents: LOG_EVENTS, samples: SAMPLES, pinning: pinning.note, minutes, results }, null, 2));
  log(`results: ${path.relative(process.cwd(), out)}`);
  return 0;
}

await runMain(main);
