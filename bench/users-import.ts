/**
 * User import throughput (`npm run bench:import`): BENCH_IMPORT_USERS users
 * (default 100,000) with pre-hashed bcrypt (cost 10; the import stores hashes,
 * it does not verify them) uploaded to POST /api/v2/jobs/users-imports of the
 * built server (bin/gatehouse.cjs, plain HTTP, SQLite in a temporary data
 * directory, or PostgreSQL with BENCH_DATABASE_URL), timed from the upload to
 * GET /jobs/{id} answering `completed`. Target: under 2 minutes for 100,000.
 *
 * The reference, in the same run: the same rows written straight into a
 * SQLite table with the users table's columns and unique indexes, 500 a
 * transaction, through better-sqlite3 (the floor of any import on this
 * machine's disk), so the ratio says what the job's checks, queue and HTTP add.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import bcrypt from 'bcryptjs';
import {
  adminTokenBody,
  BenchError,
  fmt,
  fmtInt,
  fmtRatio,
  freePort,
  log,
  managementCall,
  printGatehouseLog,
  printTable,
  readAdminCredentials,
  removeOnCleanup,
  requestToken,
  RESULTS_DIR,
  runMain,
  sleep,
  startGatehouse,
  stopChild,
} from './lib.js';

const USERS = Number(process.env.BENCH_IMPORT_USERS ?? 100_000);
const TARGET_SECONDS = 120;

function usersFile(hashes: string[]): string {
  const lines = Array.from({ length: USERS }, (_, i) =>
    JSON.stringify({ email: `bench${i}@import.example`, email_verified: i % 2 === 0, given_name: `Given ${i}`, app_metadata: { plan: i % 3 === 0 ? 'gold' : 'free' }, password_hash: hashes[i % hashes.length] }),
  );
  return `[\n${lines.join(',\n')}\n]`;
}

/** The floor: the same users written straight into a SQLite table shaped like `users`. */
function reference(dir: string, hashes: string[]): number {
  const db = new Database(path.join(dir, 'reference.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`create table users (tenant_id text not null, user_id text not null, connection_id text not null, email text, email_lower text,
    email_verified integer, given_name text, password_hash text, app_metadata text, user_metadata text, created_at text, updated_at text,
    primary key (tenant_id, user_id));
    create unique index users_email_uq on users (tenant_id, connection_id, email_lower);
    create index users_created_idx on users (tenant_id, created_at, user_id);`);
  const insert = db.prepare('insert into users values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const t0 = performance.now();
  const batch = db.transaction((from: number, to: number) => {
    const now = new Date().toISOString();
    for (let i = from; i < to; i++) {
      const email = `bench${i}@import.example`;
      insert.run('ten', `auth0|${i.toString(16).padStart(24, '0')}`, 'con', email, email, i % 2, `Given ${i}`, hashes[i % hashes.length], JSON.stringify({ plan: 'free' }), '{}', now, now);
    }
  });
  for (let i = 0; i < USERS; i += 500) batch(i, Math.min(USERS, i + 500));
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

async function main(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-import-'));
  removeOnCleanup(dir);
  log(`users import: ${fmtInt(USERS)} users with bcrypt (cost 10) hashes, ${os.availableParallelism()} cores, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`);
  const hashes = Array.from({ length: 4 }, (_, i) => bcrypt.hashSync(`bench-password-${i}`, 10));
  const file = usersFile(hashes);
  log(`file: ${fmt(Buffer.byteLength(file) / 1024 / 1024)} MiB`);

  const port = await freePort('127.0.0.1');
  const server = await startGatehouse({
    host: '127.0.0.1',
    port,
    dataDir: path.join(dir, 'data'),
    logLevel: 'warn',
    extraEnv: { GATEHOUSE_USERS_IMPORT_MAX_BYTES: String(256 * 1024 * 1024), ...(process.env.BENCH_DATABASE_URL && { DATABASE_URL: process.env.BENCH_DATABASE_URL }) },
  });
  try {
    const endpoint = server.endpoint;
    const admin = readAdminCredentials(path.join(dir, 'data'));
    const { access_token: token } = await requestToken(endpoint, '/oauth/token', adminTokenBody(admin), 'admin token');
    const connection = await managementCall<{ id: string }>(endpoint, token, 'POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0' });

    const form = new FormData();
    form.append('connection_id', connection.id);
    form.append('send_completion_email', 'false');
    form.append('users', new Blob([file], { type: 'application/json' }), 'users.json');
    // The multipart body as the platform's FormData encodes it; sent with node:http, which lets the Host header name the tenant.
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    const t0 = performance.now();
    const uploaded = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/v2/jobs/users-imports', headers: { host: `localhost:${port}`, authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    if (uploaded.status !== 202) throw new BenchError(`upload answered ${uploaded.status}: ${uploaded.text.slice(0, 500)}`);
    const uploadMs = performance.now() - t0;
    const { id } = JSON.parse(uploaded.text) as { id: string };
    let job: { status: string; summary?: { inserted: number; failed: number; total: number } };
    for (;;) {
      job = await managementCall(endpoint, token, 'GET', `/jobs/${id}`);
      if (job.status === 'completed' || job.status === 'failed') break;
      if (performance.now() - t0 > 15 * 60_000) throw new BenchError('the import did not finish in 15 minutes');
      await sleep(100);
    }
    const totalMs = performance.now() - t0;
    if (job.status !== 'completed' || job.summary?.inserted !== USERS) throw new BenchError(`the job ended ${JSON.stringify(job)}`);

    const referenceMs = reference(dir, hashes);
    log('');
    printTable(
      [
        ['', 'seconds', 'users/s', 'vs reference'],
        ['upload (POST, 202)', fmt(uploadMs / 1000, 2), '', ''],
        ['import job, upload to completed', fmt(totalMs / 1000, 2), fmtInt(USERS / (totalMs / 1000)), fmtRatio(totalMs / referenceMs)],
        ['reference: bare SQLite inserts', fmt(referenceMs / 1000, 2), fmtInt(USERS / (referenceMs / 1000)), '1.00x'],
      ],
      'lrrr',
    );
    const within = totalMs / 1000 < TARGET_SECONDS * (USERS / 100_000);
    log(`\ntarget: ${fmtInt(USERS)} users in under ${fmt(TARGET_SECONDS * (USERS / 100_000), 0)} s: ${within ? 'met' : 'NOT met'}`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const out = path.join(RESULTS_DIR, `users-import-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(out, JSON.stringify({ users: USERS, uploadMs, totalMs, referenceMs, summary: job.summary }, null, 2));
    log(`results: ${path.relative(process.cwd(), out)}`);
    return 0;
  } finally {
    printGatehouseLog(server.child, 'warn');
    await stopChild(server.child);
  }
}

await runMain(main);
