/**
 * Helpers shared by the benchmarks (bench/run.ts, bench/clients.ts,
 * bench/logins.ts): settings from BENCH_* variables, child processes and
 * their clean-up, /proc readings, a verifying HTTPS client, starting the
 * built Gatehouse, and measuring one load case with autocannon.
 *
 * Importing this module installs SIGINT/SIGTERM handlers that stop every
 * child process, run the registered clean-up tasks and remove the temporary
 * directories.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

// ---------------------------------------------------------------------------
// Settings

export function envSeconds(name: string, fallback: number, min: number, max: number): number {
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
export class BenchError extends Error {}

/** The settings every load benchmark shares. */
export interface LoadSettings {
  /** Seconds of measurement per case (BENCH_DURATION). */
  duration: number;
  /** Seconds of unrecorded load before each case (BENCH_WARMUP). */
  warmup: number;
  /** autocannon connections (BENCH_CONNECTIONS). */
  connections: number;
  /** LOG_LEVEL of the Gatehouse process (BENCH_LOG_LEVEL). */
  logLevel: string;
}

/** BENCH_DURATION (default `defaultDuration`), BENCH_WARMUP, BENCH_CONNECTIONS; exits with 2 on a bad value. */
export function loadDuration(defaultDuration: number): Pick<LoadSettings, 'duration' | 'warmup' | 'connections'> {
  const duration = envSeconds('BENCH_DURATION', defaultDuration, 1, 600);
  const warmup = envSeconds('BENCH_WARMUP', Math.min(2, Math.ceil(duration / 3)), 0, 60);
  const connections = Math.round(envSeconds('BENCH_CONNECTIONS', 32, 1, 1024));
  return { duration, warmup, connections };
}

/** BENCH_LOG_LEVEL (default warn). */
export function loadLogLevel(): string {
  return process.env.BENCH_LOG_LEVEL?.trim() || 'warn';
}

/** Rate limits high enough never to answer 429 during a bench. */
export const NO_RATE_LIMIT = '100000000/100000000';
/** Other processes (or hypervisor steal) taking more than this, in % of one core, during a case make its numbers suspect. */
export const OTHER_CPU_WARN_PERCENT = 15;
/** Gatehouse settings inherited from the shell that would change what is measured; the bench sets its own. */
export const SCRUBBED_ENV = [
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

export interface AcHistogram {
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

export interface AcResult {
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

export interface AcOptions {
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
  /** Per-request set-up: autocannon rebuilds the request through `setupRequest` before each send. */
  requests?: { setupRequest: (request: { body?: string }) => { body?: string } }[];
}

/** `response` events carry (client, statusCode, resBytes, responseTime in ms, fractional). */
export type Autocannon = (options: AcOptions, done: (error: Error | null, result: AcResult) => void) => EventEmitter & { stop(): void };

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------
// Child processes and clean-up

export interface Child {
  name: string;
  process: ChildProcess;
  /** The last 64 KiB of its stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
}

const children: Child[] = [];
const tempDirs: string[] = [];
const cleanupTasks: (() => Promise<void> | void)[] = [];
let cleaningUp: Promise<void> | undefined;

export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, stdin: 'ignore' | 'pipe' = 'ignore'): Child {
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
export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 5_000);
  await child.exited;
  clearTimeout(timer);
}

/** A directory that clean-up removes. */
export function removeOnCleanup(dir: string): void {
  tempDirs.push(dir);
}

/** A task that clean-up runs (in reverse order of registration) after the child processes stopped, before the directories are removed. */
export function onCleanup(task: () => Promise<void> | void): void {
  cleanupTasks.push(task);
}

/** Stops every child process, runs the clean-up tasks, removes the temporary directories; once. */
export function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    await Promise.all(children.map((c) => stopChild(c).catch(() => undefined)));
    for (const task of cleanupTasks.reverse()) {
      try {
        await task();
      } catch (error) {
        console.error(`bench: clean-up: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
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

export interface Memory {
  rssMB: number;
  hwmMB: number;
}

export function readMemory(pid: number): Memory | undefined {
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
export function clockTicks(): number {
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
export function readCpuSeconds(pid: number): number | undefined {
  return cpuSecondsOf(`/proc/${pid}/stat`);
}

/** User + system CPU seconds the process's main thread (the event loop, for Node) has used so far. */
export function readMainThreadCpuSeconds(pid: number): number | undefined {
  return cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuSecondsOf(statFile: string): number | undefined {
  try {
    const stat = fs.readFileSync(statFile, 'utf8');
    // Fields after "(comm)": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return undefined;
  }
}

export interface MachineCpu {
  /** user + nice + system: time spent by processes. */
  processes: number;
  /** Interrupt handling (including loopback network processing). */
  irq: number;
  /** Time the hypervisor ran something else while this VM wanted the CPU. */
  steal: number;
}

/** CPU seconds of the whole machine so far, from the first line of /proc/stat. */
export function readMachineCpu(): MachineCpu | undefined {
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over HTTPS that verifies the server certificate against `ca` (unlike autocannon, see below). */
export function httpsRequest(
  port: number,
  ca: Buffer,
  method: string,
  urlPath: string,
  body?: string,
  extraHeaders: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // The TLS name stays `localhost` (the certificate's), whatever tenant the Host header picks.
    const headers: Record<string, string> = { host: `localhost:${port}`, ...extraHeaders };
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

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}


// ---------------------------------------------------------------------------
// 3. Gatehouse, in its own process

/** The environment of a Gatehouse process: the shell's minus SCRUBBED_ENV, plus the bench's settings and `extra`. */
export function gatehouseEnv(host: string, port: number, dataDir: string, logLevel: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SCRUBBED_ENV) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    HOST: host,
    GATEHOUSE_DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    GATEHOUSE_RATE_LIMIT_AUTHENTICATION: NO_RATE_LIMIT,
    GATEHOUSE_RATE_LIMIT_MANAGEMENT: NO_RATE_LIMIT,
    ...extra,
  });
  return env;
}

/**
 * Gatehouse as `npm start` runs it (bin/gatehouse.cjs) with gatehouseEnv(…), `nodeArgs` (e.g.
 * `--cpu-prof`, which NODE_OPTIONS may not carry) before the script; resolves when GET /health answers 200.
 */
export async function startGatehouse(
  host: string,
  port: number,
  dataDir: string,
  logLevel: string,
  extraEnv: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<Child> {
  const env = gatehouseEnv(host, port, dataDir, logLevel, extraEnv);
  const child = startChild('gatehouse', [...nodeArgs, path.join(ROOT, 'bin', 'gatehouse.cjs')], env);
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

export interface LoadCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Bodies sent in turn, one per request, instead of `body` (e.g. one per user); shared by every connection. */
  bodies?: readonly string[];
  /** The Host header (the tenant); default `localhost:PORT`. */
  host?: string;
  /** Further request headers (e.g. authorization). */
  headers?: Record<string, string>;
  port: number;
  ca: Buffer;
  server: Child;
  /** CPU seconds used so far by the server's database processes (PostgreSQL backends), when they run on this machine. */
  databaseCpuSeconds?: () => number | undefined;
}

export interface CaseResult {
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
  /** CPU used by the server's database processes during the case, in % of one core (only when the case can tell). */
  databaseCpuPercent?: number;
  /** Interrupt time (mostly loopback network processing), in % of one core. */
  irqCpuPercent: number;
  /** Time the hypervisor took from this VM, in % of one core. */
  stealCpuPercent: number;
}

const bodyTurns = new WeakMap<readonly string[], number>();

/** The next of `bodies`, round-robin across every connection and run. */
function nextBody(bodies: readonly string[]): string {
  const turn = bodyTurns.get(bodies) ?? 0;
  bodyTurns.set(bodies, turn + 1);
  return bodies[turn % bodies.length]!;
}

export function runAutocannon(
  c: LoadCase,
  seconds: number,
  connections: number,
  onResponse?: (status: number, ms: number) => void,
): Promise<AcResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: c.host ?? `localhost:${c.port}`, ...c.headers };
    if (c.body !== undefined || c.bodies !== undefined) headers['content-type'] = 'application/json';
    const options: AcOptions = {
      url: `https://localhost:${c.port}${c.path}`,
      method: c.method,
      headers,
      connections,
      pipelining: 1,
      duration: seconds,
      timeout: 10,
      servername: 'localhost',
      // autocannon 9 always connects with rejectUnauthorized: false (lib/httpClient.js), so this
      // `ca` is not checked; the preflight requests verify the certificate instead.
      tlsOptions: { ca: c.ca },
    };
    if (c.body !== undefined) options.body = c.body;
    if (c.bodies !== undefined) options.requests = [{ setupRequest: (request) => ({ ...request, body: nextBody(c.bodies!) }) }];
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) {
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => onResponse(status, ms));
    }
  });
}

/** Warm-up (unrecorded), then `settings.duration` seconds of load, with the server's and the machine's CPU and memory. */
export async function measure(c: LoadCase, settings: Pick<LoadSettings, 'duration' | 'warmup' | 'connections'>): Promise<CaseResult> {
  const { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS } = settings;
  if (WARMUP > 0) {
    log(`  ${c.name}: warm-up ${WARMUP} s`);
    await runAutocannon(c, WARMUP, CONNECTIONS);
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
  const databaseStart = c.databaseCpuSeconds?.();
  const machineStart = readMachineCpu();
  const benchCpuStart = process.cpuUsage();
  const t0 = performance.now();
  let result: AcResult;
  try {
    result = await runAutocannon(c, DURATION, CONNECTIONS, (status, ms) => {
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
  const databaseEnd = c.databaseCpuSeconds?.();
  const machineEnd = readMachineCpu();
  const memory = readMemory(pid);
  const serverCpuPercent = ((cpuEnd - cpuStart) / wall) * 100;
  const databaseCpuPercent =
    databaseStart !== undefined && databaseEnd !== undefined ? ((databaseEnd - databaseStart) / wall) * 100 : undefined;
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
    otherCpuPercent: Math.max(0, processesPercent - serverCpuPercent - benchCpuPercent - (databaseCpuPercent ?? 0)),
    databaseCpuPercent,
    irqCpuPercent,
    stealCpuPercent,
  };
}

export function failures(r: CaseResult): number {
  return r.non2xx + r.errors;
}
