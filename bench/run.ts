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
 * Then `node dist/main.js` is started as its own process (temporary data
 * directory, SQLite, LOG_LEVEL=warn, rate limits out of the way) and
 * autocannon drives `POST /oauth/token` (client_credentials with the admin
 * client) and `GET /.well-known/jwks.json`. The table at the end shows req/s,
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
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import dns from 'node:dns/promises';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AdminCredentials } from '../src/context.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

// ---------------------------------------------------------------------------
// Settings

function envSeconds(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    // Nothing has started yet, so there is nothing to clean up.
    console.error(`bench: ${name} must be a number from ${min} to ${max}, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

/** A failure with a message that says it all (no stack trace needed). */
class BenchError extends Error {}

const DURATION = envSeconds('BENCH_DURATION', 10, 1, 600);
const WARMUP = envSeconds('BENCH_WARMUP', Math.min(2, Math.ceil(DURATION / 3)), 0, 60);
const CONNECTIONS = Math.round(envSeconds('BENCH_CONNECTIONS', 32, 1, 1024));
const SIGN_SECONDS = envSeconds('BENCH_SIGN_SECONDS', Math.min(3, DURATION), 0.5, 60);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL?.trim() || 'warn';
/** Rate limits high enough never to answer 429 during a bench. */
const NO_RATE_LIMIT = '100000000/100000000';
/** Other processes (or hypervisor steal) taking more than this, in % of one core, during a case make its numbers suspect. */
const OTHER_CPU_WARN_PERCENT = 15;
/** Gatehouse settings inherited from the shell that would change what is measured; the bench sets its own. */
const SCRUBBED_ENV = [
  'PORT',
  'HOST',
  'GATEHOUSE_DATA_DIR',
  'DATABASE_URL',
  'GATEHOUSE_DOMAIN',
  'GATEHOUSE_ADMIN_CLIENT_ID',
  'GATEHOUSE_ADMIN_CLIENT_SECRET',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'GATEHOUSE_HTTP',
  'GATEHOUSE_MASTER_KEY',
  'REDIS_URL',
  'LOG_LEVEL',
  'GATEHOUSE_RATE_LIMIT_MANAGEMENT',
  'GATEHOUSE_RATE_LIMIT_AUTHENTICATION',
  'NODE_OPTIONS',
];

// ---------------------------------------------------------------------------
// autocannon (CommonJS, no bundled types): the part of its API used here.

interface AcHistogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  total: number;
}

interface AcResult {
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  resets: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: AcHistogram;
  requests: AcHistogram & { sent: number };
  throughput: AcHistogram;
}

interface AcOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  pipelining: number;
  duration: number;
  timeout: number;
  servername: string;
  tlsOptions: { ca: Buffer };
}

/** `response` events carry (client, statusCode, resBytes, responseTime in ms, fractional). */
type Autocannon = (options: AcOptions, done: (error: Error | null, result: AcResult) => void) => EventEmitter & { stop(): void };

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------
// Child processes and clean-up

interface Child {
  name: string;
  process: ChildProcess;
  /** The last 64 KiB of its stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
}

const children: Child[] = [];
const tempDirs: string[] = [];
let cleaningUp: Promise<void> | undefined;

function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, stdin: 'ignore' | 'pipe' = 'ignore'): Child {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: [stdin, 'pipe', 'pipe'] });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 65_536) output = output.slice(-65_536);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const handle: Child = { name, process: child, output: () => output, exited };
  children.push(handle);
  return handle;
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 5_000);
  await child.exited;
  clearTimeout(timer);
}

function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    await Promise.all(children.map((c) => stopChild(c).catch(() => undefined)));
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  })();
  return cleaningUp;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, stopping the servers and removing temporary files`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// ---------------------------------------------------------------------------
// /proc readings

interface Memory {
  rssMB: number;
  hwmMB: number;
}

function readMemory(pid: number): Memory | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

let clockTicksCache: number | undefined;

/** Units of /proc CPU times per second (USER_HZ). */
function clockTicks(): number {
  if (clockTicksCache === undefined) {
    try {
      clockTicksCache = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicksCache = 100;
    }
  }
  return clockTicksCache;
}

/** User + system CPU seconds the process has used so far. */
function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return undefined;
  }
}

interface MachineCpu {
  /** user + nice + system: time spent by processes. */
  processes: number;
  /** Interrupt handling (including loopback network processing). */
  irq: number;
  /** Time the hypervisor ran something else while this VM wanted the CPU. */
  steal: number;
}

/** CPU seconds of the whole machine so far, from the first line of /proc/stat. */
function readMachineCpu(): MachineCpu | undefined {
  try {
    const ticks = clockTicks();
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return { processes: (user + nice + system) / ticks, irq: (irq + softirq) / ticks, steal: steal / ticks };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// Small helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over HTTPS that verifies the server certificate against `ca` (unlike autocannon, see below). */
function httpsRequest(port: number, ca: Buffer, method: string, urlPath: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `localhost:${port}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = https.request(
      { host: 'localhost', port, method, path: urlPath, headers, ca, servername: 'localhost', agent: false, timeout: 5_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

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
// 3. Gatehouse, in its own process

async function startGatehouse(host: string, port: number, dataDir: string): Promise<Child> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SCRUBBED_ENV) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    HOST: host,
    GATEHOUSE_DATA_DIR: dataDir,
    LOG_LEVEL,
    GATEHOUSE_RATE_LIMIT_AUTHENTICATION: NO_RATE_LIMIT,
    GATEHOUSE_RATE_LIMIT_MANAGEMENT: NO_RATE_LIMIT,
  });
  const child = startChild('gatehouse', [path.join(ROOT, 'dist', 'main.js')], env);
  const certFile = path.join(dataDir, 'tls', 'cert.pem');
  // "Gatehouse is listening" is an info line, which LOG_LEVEL=warn hides; poll /health instead.
  const deadline = Date.now() + 30_000;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new BenchError(`Gatehouse exited with ${child.process.exitCode ?? child.process.signalCode} before listening:\n${child.output()}`);
    }
    if (fs.existsSync(certFile) && fs.existsSync(path.join(dataDir, 'admin-credentials.json'))) {
      try {
        const reply = await httpsRequest(port, fs.readFileSync(certFile), 'GET', '/health');
        if (reply.status === 200) return child;
        lastError = `GET /health answered ${reply.status}: ${reply.body.slice(0, 200)}`;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
      }
    }
    await sleep(100);
  }
  throw new BenchError(`Gatehouse did not become ready in 30 s (${lastError}):\n${child.output()}`);
}

// ---------------------------------------------------------------------------
// Load cases

interface LoadCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  port: number;
  ca: Buffer;
  server: Child;
}

interface CaseResult {
  case: string;
  request: string;
  connections: number;
  seconds: number;
  responses: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Successful (2xx) responses per second. */
  reqPerSec: number;
  /** From every 2xx response's own time (sub-millisecond); autocannon's histogram rounds to whole ms. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  autocannonLatencyMs: { p50: number; p99: number; max: number };
  server: {
    pid: number;
    rssEndMB: number;
    rssMaxSampledMB: number;
    hwmMB: number;
    /** CPU used by the server process during the case, in % of one core. */
    cpuPercent: number;
  };
  /** CPU used by this process (autocannon) during the case, in % of one core. */
  benchCpuPercent: number;
  /** CPU the whole machine used during the case (processes, interrupts, steal), in % of one core; 100 × cores = saturated. */
  machineCpuPercent: number;
  /** CPU used by processes other than the server and the bench: competition for the cores. */
  otherCpuPercent: number;
  /** Interrupt time (mostly loopback network processing), in % of one core. */
  irqCpuPercent: number;
  /** Time the hypervisor took from this VM, in % of one core. */
  stealCpuPercent: number;
}

function runAutocannon(c: LoadCase, seconds: number, onResponse?: (status: number, ms: number) => void): Promise<AcResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `localhost:${c.port}` };
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    const options: AcOptions = {
      url: `https://localhost:${c.port}${c.path}`,
      method: c.method,
      headers,
      connections: CONNECTIONS,
      pipelining: 1,
      duration: seconds,
      timeout: 10,
      servername: 'localhost',
      // autocannon 9 always connects with rejectUnauthorized: false (lib/httpClient.js), so this
      // `ca` is not checked; the preflight requests verify the certificate instead.
      tlsOptions: { ca: c.ca },
    };
    if (c.body !== undefined) options.body = c.body;
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) {
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => onResponse(status, ms));
    }
  });
}

async function measure(c: LoadCase): Promise<CaseResult> {
  if (WARMUP > 0) {
    log(`  ${c.name}: warm-up ${WARMUP} s`);
    await runAutocannon(c, WARMUP);
  }
  log(`  ${c.name}: measuring ${DURATION} s at ${CONNECTIONS} connections`);
  const pid = c.server.process.pid!;
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let rssMax = readMemory(pid)?.rssMB ?? NaN;
  const sampler = setInterval(() => {
    const m = readMemory(pid);
    if (m && !(m.rssMB <= rssMax)) rssMax = m.rssMB;
  }, 250);
  const cpuStart = readCpuSeconds(pid) ?? NaN;
  const machineStart = readMachineCpu();
  const benchCpuStart = process.cpuUsage();
  const t0 = performance.now();
  let result: AcResult;
  try {
    result = await runAutocannon(c, DURATION, (status, ms) => {
      if (status < 200 || status > 299) return;
      if (n === latencies.length) {
        const bigger = new Float64Array(latencies.length * 2);
        bigger.set(latencies);
        latencies = bigger;
      }
      latencies[n++] = ms;
    });
  } finally {
    clearInterval(sampler);
  }
  const wall = (performance.now() - t0) / 1000;
  const benchCpu = process.cpuUsage(benchCpuStart);
  const cpuEnd = readCpuSeconds(pid) ?? NaN;
  const machineEnd = readMachineCpu();
  const memory = readMemory(pid);
  const serverCpuPercent = ((cpuEnd - cpuStart) / wall) * 100;
  const benchCpuPercent = ((benchCpu.user + benchCpu.system) / 1e6 / wall) * 100;
  const machinePercent = (field: keyof MachineCpu) =>
    machineStart && machineEnd ? ((machineEnd[field] - machineStart[field]) / wall) * 100 : NaN;
  const processesPercent = machinePercent('processes');
  const irqCpuPercent = machinePercent('irq');
  const stealCpuPercent = machinePercent('steal');

  const sorted = latencies.slice(0, n).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const seconds = result.duration || wall;
  return {
    case: c.name,
    request: `${c.method} ${c.path}`,
    connections: CONNECTIONS,
    seconds,
    responses,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    reqPerSec: result['2xx'] / seconds,
    latencyMs: { mean: n ? sum / n : NaN, p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99), max: n ? sorted[n - 1]! : NaN },
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    server: {
      pid,
      rssEndMB: memory?.rssMB ?? NaN,
      rssMaxSampledMB: Math.max(rssMax, memory?.rssMB ?? NaN),
      hwmMB: memory?.hwmMB ?? NaN,
      cpuPercent: serverCpuPercent,
    },
    benchCpuPercent,
    machineCpuPercent: processesPercent + irqCpuPercent + stealCpuPercent,
    otherCpuPercent: Math.max(0, processesPercent - serverCpuPercent - benchCpuPercent),
    irqCpuPercent,
    stealCpuPercent,
  };
}

function failures(r: CaseResult): number {
  return r.non2xx + r.errors;
}

// ---------------------------------------------------------------------------
// Preflight: one request per case with a verifying TLS client

interface Preflight {
  tokenBytes: number;
  tokenHeader: Record<string, unknown>;
  tokenScopes: number;
  jwksBytes: number;
  jwksKeys: number;
  bareBytes: number;
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
  tempDirs.push(dataDir);
  // The servers listen on the address `localhost` resolves to, which is what the clients dial.
  const { address: host } = await dns.lookup('localhost');

  log(`\n[2/4] starting Gatehouse (node dist/main.js, data dir ${dataDir})`);
  const gatePort = await freePort(host);
  const gatehouse = await startGatehouse(host, gatePort, dataDir);
  const certFile = path.join(dataDir, 'tls', 'cert.pem');
  const keyFile = path.join(dataDir, 'tls', 'key.pem');
  const ca = fs.readFileSync(certFile);
  const admin = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-credentials.json'), 'utf8')) as AdminCredentials;
  const audience = `https://localhost:${gatePort}/api/v2/`;
  const tokenBody = JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience });
  log(`  listening on https://localhost:${gatePort} (pid ${gatehouse.process.pid}), tenant ${admin.domain}`);

  const tokenReply = await httpsRequest(gatePort, ca, 'POST', '/oauth/token', tokenBody);
  if (tokenReply.status !== 200) throw new BenchError(`preflight POST /oauth/token answered ${tokenReply.status}: ${tokenReply.body.slice(0, 500)}`);
  const token = (JSON.parse(tokenReply.body) as { access_token?: string; scope?: string }) ?? {};
  if (typeof token.access_token !== 'string') throw new BenchError(`preflight POST /oauth/token: no access_token in ${tokenReply.body.slice(0, 500)}`);
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
    jwksBytes: Buffer.byteLength(jwksReply.body),
    jwksKeys: jwks.keys.length,
    bareBytes: Buffer.byteLength(bareReply.body),
  };
  const bareResult = await measure({ name: 'bare https', method: 'GET', path: '/', port: barePort, ca, server: bare });
  await stopChild(bare);

  log(`\n[4/4] Gatehouse`);
  const tokenResult = await measure({ name: 'token', method: 'POST', path: '/oauth/token', body: tokenBody, port: gatePort, ca, server: gatehouse });
  const jwksResult = await measure({ name: 'jwks', method: 'GET', path: '/.well-known/jwks.json', port: gatePort, ca, server: gatehouse });
  const gatehouseAlive = gatehouse.process.exitCode === null && gatehouse.process.signalCode === null;

  // ---- Report
  const results = [bareResult, tokenResult, jwksResult];
  const labels: Record<string, string> = {
    'bare https': 'bare https  GET / (reference)',
    token: 'gatehouse   POST /oauth/token',
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
      `  ${r.case.padEnd(10)} server ${fmt(r.server.cpuPercent, 0).padStart(3)}%, autocannon ${fmt(r.benchCpuPercent, 0).padStart(3)}%, ` +
        `other processes ${fmt(r.otherCpuPercent, 0).padStart(3)}%, irq ${fmt(r.irqCpuPercent, 0).padStart(2)}%, ` +
        `steal ${fmt(r.stealCpuPercent, 0).padStart(2)}%, machine total ${fmt(r.machineCpuPercent, 0).padStart(3)}%`,
    );
  }
  log(
    `Token: ${preflight.tokenBytes} bytes, ${String(preflight.tokenHeader.alg)}, ${preflight.tokenScopes} scopes; ` +
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
    jwksVsBare: { value: jwksResult.reqPerSec, target: jwksTarget, pass: jwksResult.reqPerSec >= jwksTarget },
  };
  log('');
  log('Targets (reported, not asserted):');
  log(
    `  tokens/s vs 80% of RS256 signs/s on one core: ${fmtInt(targets.tokensVsSign.value)} vs ${fmtInt(tokenTarget)} → ${verdict(targets.tokensVsSign.pass)}${caveat(tokenResult)}`,
  );
  log(
    `  token p99 < 100 ms at ${CONNECTIONS} connections: ${fmt(targets.tokenP99.value, 2)} ms → ${verdict(targets.tokenP99.pass)}${caveat(tokenResult)}`,
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
