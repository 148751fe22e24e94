/**
 * Gatehouse benchmark (`npm run bench`): the token endpoint and the JWKS
 * endpoint of the built server, over real HTTPS on loopback, against two
 * references measured in the same run:
 *
 *   1. RS256 signatures per second that one core makes (node:crypto `sign`,
 *      synchronous, on this process's main thread, before any server runs);
 *   2. a bare Node `https` server (own process, same TLS certificate)
 *      answering a fixed small JSON body.
 *
 * Then Gatehouse (bin/gatehouse.cjs, as `npm start` runs it) is started as its own process (temporary data
 * directory, SQLite, LOG_LEVEL=warn, rate limits out of the way) and
 * autocannon drives `POST /oauth/token` (client_credentials with the admin
 * client, whose Management API token carries every management scope; then
 * with a client of a typical API with 3 scopes, created through the
 * Management API before the load) and `GET /.well-known/jwks.json`. The table at the end shows req/s,
 * p50/p99 latency and the server's RSS per case, and the three targets; the
 * results are also written to bench/results/<timestamp>.json.
 *
 * Settings (environment):
 *   BENCH_DURATION      seconds per measured case (default 10)
 *   BENCH_WARMUP        seconds of unrecorded load before each case (default min(2, ceil(duration/3)))
 *   BENCH_CONNECTIONS   autocannon connections (default 32)
 *   BENCH_SIGN_SECONDS  seconds of the RS256 reference loop (default min(3, duration))
 *   BENCH_LOG_LEVEL     LOG_LEVEL of the Gatehouse process (default warn)
 *
 * Exit status: 0 when the bench ran (targets are reported, not asserted);
 * 1 when it broke (a server did not start, a preflight request failed, a
 * case got no successful response at all, or Gatehouse died); 2 for a bad
 * setting.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AdminCredentials } from '../src/app/context.js';
import {
  BenchError,
  NO_RATE_LIMIT,
  OTHER_CPU_WARN_PERCENT,
  RESULTS_DIR,
  ROOT,
  cleanup,
  envSeconds,
  failures,
  fmt,
  fmtInt,
  freePort,
  httpsRequest,
  loadDuration,
  loadLogLevel,
  log,
  measure,
  removeOnCleanup,
  startChild,
  startGatehouse,
  stopChild,
  type CaseResult,
  type Child,
} from './lib.js';

// ---------------------------------------------------------------------------
// Settings

const { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS } = loadDuration(10);
const SIGN_SECONDS = envSeconds('BENCH_SIGN_SECONDS', Math.min(3, DURATION), 0.5, 60);
const LOG_LEVEL = loadLogLevel();
const settings = { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS };

// ---------------------------------------------------------------------------
// 1. Reference: RS256 signatures per second on one core

interface SignReference {
  signaturesPerSecond: number;
  signatures: number;
  seconds: number;
  payloadBytes: number;
  signingInputBytes: number;
}

function rs256Reference(seconds: number): SignReference {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  // A client-credentials access token as Gatehouse shapes it, with a ~250-byte payload.
  const header = { alg: 'RS256', typ: 'JWT', kid: 'aBcDeFgHiJkLmNoPqRsTu' };
  const payload = {
    iss: 'https://auth.example.com/',
    sub: 'Jk3mQ9xV2pLr7TzW8yNc4bHdQ1aZ@clients',
    aud: 'https://api.example.com/',
    iat: now,
    exp: now + 86_400,
    scope: 'read:orders write:orders',
    gty: 'client-credentials',
    azp: 'Jk3mQ9xV2pLr7TzW8yNc4bHdQ1aZ',
  };
  const payloadBytes = Buffer.byteLength(JSON.stringify(payload));
  const data = Buffer.from(`${b64u(header)}.${b64u(payload)}`);

  for (let i = 0; i < 20; i++) sign('sha256', data, privateKey); // warm-up
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let now2 = start;
  while (now2 < end) {
    sign('sha256', data, privateKey);
    count++;
    now2 = performance.now();
  }
  const elapsed = (now2 - start) / 1000;
  return { signaturesPerSecond: count / elapsed, signatures: count, seconds: elapsed, payloadBytes, signingInputBytes: data.length };
}

// ---------------------------------------------------------------------------
// 2. The bare https server, in its own process

const BARE_SERVER = String.raw`
const https = require('node:https');
const fs = require('node:fs');
const body = Buffer.from(JSON.stringify({ status: 'ok', server: 'bare node https' }));
const server = https.createServer(
  { key: fs.readFileSync(process.env.BENCH_KEY_FILE), cert: fs.readFileSync(process.env.BENCH_CERT_FILE) },
  (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  },
);
server.listen(Number(process.env.BENCH_PORT), process.env.BENCH_HOST, () => process.stdout.write('ready\n'));
// Exit with the bench: on SIGTERM, or when the bench's end of stdin closes.
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

async function startBareServer(host: string, port: number, certFile: string, keyFile: string): Promise<Child> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_HOST: host, BENCH_PORT: String(port), BENCH_CERT_FILE: certFile, BENCH_KEY_FILE: keyFile };
  delete env.NODE_OPTIONS;
  const child = startChild('bare https', ['-e', BARE_SERVER], env, 'pipe');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError(`the bare https server did not start in 10 s:\n${child.output()}`)), 10_000);
    const check = () => {
      if (child.output().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.process.stdout!.on('data', check);
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new BenchError(`the bare https server exited with ${code} before listening:\n${child.output()}`));
    });
  });
  return child;
}

// ---------------------------------------------------------------------------
// Preflight: one request per case with a verifying TLS client

interface Preflight {
  tokenBytes: number;
  tokenHeader: Record<string, unknown>;
  tokenScopes: number;
  typicalTokenBytes: number;
  typicalTokenHeader: Record<string, unknown>;
  typicalTokenScopes: number;
  jwksBytes: number;
  jwksKeys: number;
  bareBytes: number;
}

/** The API, client and client grant of the "typical API" token case. */
const TYPICAL_AUDIENCE = 'https://bench-api.example.com/';
const TYPICAL_SCOPES = ['read:orders', 'write:orders', 'read:customers'];

/**
 * Creates, through the Management API (with the admin token), a resource server with 3 scopes, a
 * non-interactive client (client_secret_post, client_credentials) and a client grant with the 3
 * scopes; returns the `POST /oauth/token` body for that client.
 */
async function setUpTypicalApi(port: number, ca: Buffer, adminToken: string): Promise<string> {
  const call = async <T>(urlPath: string, body: unknown): Promise<T> => {
    const reply = await httpsRequest(port, ca, 'POST', `/api/v2${urlPath}`, JSON.stringify(body), { authorization: `Bearer ${adminToken}` });
    if (reply.status !== 201 && reply.status !== 200) throw new BenchError(`POST /api/v2${urlPath} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
    return JSON.parse(reply.body) as T;
  };
  await call('/resource-servers', {
    name: 'Bench API',
    identifier: TYPICAL_AUDIENCE,
    scopes: TYPICAL_SCOPES.map((value) => ({ value, description: value })),
  });
  const client = await call<{ client_id?: string; client_secret?: string }>('/clients', {
    name: 'Bench typical API client',
    app_type: 'non_interactive',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['client_credentials'],
  });
  if (typeof client.client_id !== 'string' || typeof client.client_secret !== 'string') {
    throw new BenchError(`POST /api/v2/clients: no client_id or client_secret in the response`);
  }
  await call('/client-grants', { client_id: client.client_id, audience: TYPICAL_AUDIENCE, scope: TYPICAL_SCOPES });
  return JSON.stringify({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: TYPICAL_AUDIENCE });
}

async function preflightToken(port: number, ca: Buffer, body: string, what: string): Promise<{ access_token: string; scope?: string }> {
  const reply = await httpsRequest(port, ca, 'POST', '/oauth/token', body);
  if (reply.status !== 200) throw new BenchError(`preflight POST /oauth/token (${what}) answered ${reply.status}: ${reply.body.slice(0, 500)}`);
  const token = (JSON.parse(reply.body) as { access_token?: string; scope?: string }) ?? {};
  if (typeof token.access_token !== 'string') throw new BenchError(`preflight POST /oauth/token (${what}): no access_token in ${reply.body.slice(0, 500)}`);
  return token as { access_token: string; scope?: string };
}

function decodeJwtHeader(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new BenchError(`access_token is not a JWS compact serialisation: ${token.slice(0, 60)}…`);
  return JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const mainJs = path.join(ROOT, 'dist', 'main.js');
  if (!fs.existsSync(mainJs)) throw new BenchError(`${mainJs} is missing; run \`npm run build\` (npm run bench does)`);

  const startedAt = new Date();
  log(`Gatehouse bench: ${DURATION} s per case, warm-up ${WARMUP} s, ${CONNECTIONS} connections, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);

  // 1. Before any server exists, so nothing competes for the core.
  log(`\n[1/4] RS256 reference: node:crypto sign('sha256', …) on one core for ${SIGN_SECONDS} s`);
  const signRef = rs256Reference(SIGN_SECONDS);
  log(`  ${fmtInt(signRef.signaturesPerSecond)} signatures/s (${signRef.payloadBytes}-byte payload, ${signRef.signingInputBytes}-byte signing input)`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  removeOnCleanup(dataDir);
  // The servers listen on the address `localhost` resolves to, which is what the clients dial.
  const { address: host } = await dns.lookup('localhost');

  log(`\n[2/4] starting Gatehouse (bin/gatehouse.cjs, data dir ${dataDir})`);
  const gatePort = await freePort(host);
  const gatehouse = await startGatehouse(host, gatePort, dataDir, LOG_LEVEL);
  const certFile = path.join(dataDir, 'tls', 'cert.pem');
  const keyFile = path.join(dataDir, 'tls', 'key.pem');
  const ca = fs.readFileSync(certFile);
  const admin = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-credentials.json'), 'utf8')) as AdminCredentials;
  const audience = `https://localhost:${gatePort}/api/v2/`;
  const tokenBody = JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience });
  log(`  listening on https://localhost:${gatePort} (pid ${gatehouse.process.pid}), tenant ${admin.domain}`);

  const token = await preflightToken(gatePort, ca, tokenBody, 'admin client');
  const typicalBody = await setUpTypicalApi(gatePort, ca, token.access_token);
  const typicalToken = await preflightToken(gatePort, ca, typicalBody, 'typical API client');
  log(`  created resource server ${TYPICAL_AUDIENCE} (${TYPICAL_SCOPES.length} scopes), a client and its client grant`);
  const jwksReply = await httpsRequest(gatePort, ca, 'GET', '/.well-known/jwks.json');
  const jwks = jwksReply.status === 200 ? (JSON.parse(jwksReply.body) as { keys?: unknown[] }) : {};
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) {
    throw new BenchError(`preflight GET /.well-known/jwks.json answered ${jwksReply.status}: ${jwksReply.body.slice(0, 500)}`);
  }

  log(`\n[3/4] bare Node https server (same certificate)`);
  const barePort = await freePort(host);
  const bare = await startBareServer(host, barePort, certFile, keyFile);
  const bareReply = await httpsRequest(barePort, ca, 'GET', '/');
  if (bareReply.status !== 200) throw new BenchError(`preflight GET / on the bare server answered ${bareReply.status}`);
  const preflight: Preflight = {
    tokenBytes: token.access_token.length,
    tokenHeader: decodeJwtHeader(token.access_token),
    tokenScopes: token.scope ? token.scope.split(' ').length : 0,
    typicalTokenBytes: typicalToken.access_token.length,
    typicalTokenHeader: decodeJwtHeader(typicalToken.access_token),
    typicalTokenScopes: typicalToken.scope ? typicalToken.scope.split(' ').length : 0,
    jwksBytes: Buffer.byteLength(jwksReply.body),
    jwksKeys: jwks.keys.length,
    bareBytes: Buffer.byteLength(bareReply.body),
  };
  const bareResult = await measure({ name: 'bare https', method: 'GET', path: '/', port: barePort, ca, server: bare }, settings);
  await stopChild(bare);

  log(`\n[4/4] Gatehouse`);
  const tokenResult = await measure({ name: 'token', method: 'POST', path: '/oauth/token', body: tokenBody, port: gatePort, ca, server: gatehouse }, settings);
  const typicalResult = await measure(
    { name: 'token typical', method: 'POST', path: '/oauth/token', body: typicalBody, port: gatePort, ca, server: gatehouse },
    settings,
  );
  const jwksResult = await measure({ name: 'jwks', method: 'GET', path: '/.well-known/jwks.json', port: gatePort, ca, server: gatehouse }, settings);
  const gatehouseAlive = gatehouse.process.exitCode === null && gatehouse.process.signalCode === null;

  // ---- Report
  const results = [bareResult, tokenResult, typicalResult, jwksResult];
  const labels: Record<string, string> = {
    'bare https': 'bare https  GET / (reference)',
    token: 'gatehouse   POST /oauth/token (admin, Management API)',
    'token typical': 'gatehouse   POST /oauth/token (typical API, 3 scopes)',
    jwks: 'gatehouse   GET /.well-known/jwks.json',
  };
  const rows = [
    ['case', 'req/s', 'p50 ms', 'p99 ms', 'server RSS MB', 'failed'],
    [`RS256 sign, 1 core (reference)`, fmtInt(signRef.signaturesPerSecond), '', '', '', ''],
    ...results.map((r) => [
      labels[r.case] ?? r.case,
      fmtInt(r.reqPerSec),
      fmt(r.latencyMs.p50, 2),
      fmt(r.latencyMs.p99, 2),
      fmt(r.server.rssEndMB),
      failures(r) ? `${failures(r)} !!!` : '0',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  log('');
  log(line(rows[0]!));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows.slice(1)) log(line(row));
  log('');
  log(
    `req/s counts 2xx responses only; latencies are of 2xx responses; RSS is VmRSS at the end of the case. ` +
      `Peak RSS: bare ${fmt(bareResult.server.hwmMB)} MB, Gatehouse ${fmt(jwksResult.server.hwmMB)} MB (VmHWM).`,
  );
  log(`CPU during each case, in % of one core (${os.cpus().length} cores = ${os.cpus().length * 100}%):`);
  for (const r of results) {
    log(
      `  ${r.case.padEnd(13)} server ${fmt(r.server.cpuPercent, 0).padStart(3)}%, autocannon ${fmt(r.benchCpuPercent, 0).padStart(3)}%, ` +
        `other processes ${fmt(r.otherCpuPercent, 0).padStart(3)}%, irq ${fmt(r.irqCpuPercent, 0).padStart(2)}%, ` +
        `steal ${fmt(r.stealCpuPercent, 0).padStart(2)}%, machine total ${fmt(r.machineCpuPercent, 0).padStart(3)}%`,
    );
  }
  log(
    `Tokens: admin ${preflight.tokenBytes} bytes, ${String(preflight.tokenHeader.alg)}, ${preflight.tokenScopes} scopes; ` +
      `typical API ${preflight.typicalTokenBytes} bytes, ${String(preflight.typicalTokenHeader.alg)}, ${preflight.typicalTokenScopes} scopes; ` +
      `JWKS body ${preflight.jwksBytes} bytes (${preflight.jwksKeys} key); bare body ${preflight.bareBytes} bytes.`,
  );

  const tokenTarget = 0.8 * signRef.signaturesPerSecond;
  const jwksTarget = 0.5 * bareResult.reqPerSec;
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const caveat = (r: CaseResult) =>
    failures(r) ? `   <-- NOT TRUSTWORTHY: ${failures(r)} failed requests (${JSON.stringify(r.statusCodes)}, ${r.errors} errors)` : '';
  const targets = {
    tokensVsSign: { value: tokenResult.reqPerSec, target: tokenTarget, pass: tokenResult.reqPerSec >= tokenTarget },
    tokenP99: { value: tokenResult.latencyMs.p99, target: 100, pass: tokenResult.latencyMs.p99 < 100 },
    typicalTokensVsSign: { value: typicalResult.reqPerSec, target: tokenTarget, pass: typicalResult.reqPerSec >= tokenTarget },
    typicalTokenP99: { value: typicalResult.latencyMs.p99, target: 100, pass: typicalResult.latencyMs.p99 < 100 },
    jwksVsBare: { value: jwksResult.reqPerSec, target: jwksTarget, pass: jwksResult.reqPerSec >= jwksTarget },
  };
  log('');
  log('Targets (reported, not asserted):');
  log(
    `  tokens/s vs 80% of RS256 signs/s on one core, admin token (Management API, ${preflight.tokenScopes} scopes): ` +
      `${fmtInt(targets.tokensVsSign.value)} vs ${fmtInt(tokenTarget)} → ${verdict(targets.tokensVsSign.pass)}${caveat(tokenResult)}`,
  );
  log(
    `  tokens/s vs 80% of RS256 signs/s on one core, typical API token (${preflight.typicalTokenScopes} scopes): ` +
      `${fmtInt(targets.typicalTokensVsSign.value)} vs ${fmtInt(tokenTarget)} → ${verdict(targets.typicalTokensVsSign.pass)}${caveat(typicalResult)}`,
  );
  log(
    `  token p99 < 100 ms at ${CONNECTIONS} connections, admin token: ${fmt(targets.tokenP99.value, 2)} ms → ${verdict(targets.tokenP99.pass)}${caveat(tokenResult)}`,
  );
  log(
    `  token p99 < 100 ms at ${CONNECTIONS} connections, typical API token: ${fmt(targets.typicalTokenP99.value, 2)} ms → ${verdict(targets.typicalTokenP99.pass)}${caveat(typicalResult)}`,
  );
  log(
    `  JWKS req/s vs 50% of bare https req/s: ${fmtInt(targets.jwksVsBare.value)} vs ${fmtInt(jwksTarget)} → ${verdict(targets.jwksVsBare.pass)}${caveat(jwksResult) || caveat(bareResult)}`,
  );

  const busy = results.filter((r) => r.otherCpuPercent > OTHER_CPU_WARN_PERCENT || r.stealCpuPercent > OTHER_CPU_WARN_PERCENT);
  if (busy.length) {
    log('');
    log(
      `!!! The machine was not idle: ${busy
        .map((r) => `during ${r.case} other processes used ${fmt(r.otherCpuPercent, 0)}% and steal was ${fmt(r.stealCpuPercent, 0)}% of a core`)
        .join('; ')}. Those numbers are understated; rerun on a quiet machine before comparing.`,
    );
  }

  const broken = results.filter((r) => r.ok === 0);
  const withFailures = results.filter((r) => failures(r) > 0);
  if (withFailures.length) {
    log('');
    log('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
    for (const r of withFailures) {
      log(`!!! ${r.case}: ${r.non2xx} non-2xx responses, ${r.errors} connection errors (${r.timeouts} timeouts); status codes ${JSON.stringify(r.statusCodes)}`);
    }
    log('!!! These numbers do not describe a healthy server.');
    log('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  }
  // Only pino's JSON lines: the first-start banner prints the admin client secret.
  const logLines = gatehouse
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .slice(-20);
  if (!gatehouseAlive) log(`!!! Gatehouse exited during the bench (code ${gatehouse.process.exitCode ?? gatehouse.process.signalCode}):\n${logLines.join('\n')}`);
  else if (logLines.length) log(`\nGatehouse log (LOG_LEVEL=${LOG_LEVEL}, last ${logLines.length} lines):\n${logLines.join('\n')}`);

  // ---- JSON
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = undefined;
  }
  const report = {
    startedAt: startedAt.toISOString(),
    commit,
    environment: {
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      totalMemoryMB: Math.round(os.totalmem() / 1048576),
      loadAverageBefore: os.loadavg(),
    },
    settings: { durationSeconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS, signSeconds: SIGN_SECONDS, logLevel: LOG_LEVEL, rateLimits: NO_RATE_LIMIT, database: 'sqlite (temporary data dir)' },
    rs256Reference: signRef,
    preflight,
    cases: results,
    targets,
    healthy: withFailures.length === 0 && gatehouseAlive,
    machineWasBusy: busy.length > 0,
  };
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  log(`\nResults: ${path.relative(process.cwd(), file)}`);

  if (broken.length) {
    console.error(`bench: no successful response at all in: ${broken.map((r) => r.case).join(', ')}`);
    return 1;
  }
  if (!gatehouseAlive) return 1;
  return 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`\nbench failed: ${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
