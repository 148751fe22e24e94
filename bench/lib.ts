/**
 * Helpers shared by the benchmarks (bench/run.ts, bench/logins.ts,
 * bench/clients.ts): settings from BENCH_* variables, pinning the server under
 * test and the load generator to their own cores, child processes and their
 * clean-up, /proc readings, an HTTP(S) client, starting servers (Gatehouse and
 * the references) and timing them to their first 200, measuring one load case
 * with autocannon, rounds that alternate between servers with medians, and the
 * report (table, warnings, JSON file).
 *
 * Importing this module installs SIGINT/SIGTERM handlers that stop every
 * child process, run the registered clean-up tasks and remove the temporary
 * directories.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import dns from 'node:dns/promises';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import type { AdminCredentials } from '../src/app/context.js';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
/** The reference servers (plain JavaScript, so that no loader adds to their start-up time or memory). */
export const REFERENCES_DIR = path.join(ROOT, 'bench', 'references');

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
  /** Seconds of measurement per case and server (BENCH_DURATION). */
  duration: number;
  /** Seconds of unrecorded load before each measurement (BENCH_WARMUP). */
  warmup: number;
  /** autocannon connections (BENCH_CONNECTIONS). */
  connections: number;
  /** Rounds per case (BENCH_ROUNDS); each round measures every server of the case once, in turn. */
  rounds: number;
}

/** BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ROUNDS with the script's defaults; exits with 2 on a bad value. */
export function loadSettings(defaults: { duration: number; connections: number }): LoadSettings {
  const duration = envSeconds('BENCH_DURATION', defaults.duration, 1, 600);
  const warmup = envSeconds('BENCH_WARMUP', Math.min(2, Math.ceil(duration / 3)), 0, 60);
  const connections = Math.round(envSeconds('BENCH_CONNECTIONS', defaults.connections, 1, 1024));
  const rounds = Math.round(envSeconds('BENCH_ROUNDS', 3, 1, 50));
  return { duration, warmup, connections, rounds };
}

/** BENCH_LOG_LEVEL (default warn). */
export function loadLogLevel(): string {
  return process.env.BENCH_LOG_LEVEL?.trim() || 'warn';
}

/** Rate limits high enough never to answer 429 during a bench. */
export const NO_RATE_LIMIT = '100000000/100000000';
/** Other processes (or hypervisor steal) taking more than this, in % of one core, during a case make its numbers suspect. */
export const OTHER_CPU_WARN_PERCENT = 15;
/** The load generator using more than this, in % of one core, means it may be what limits the rate (a lower bound). */
export const LOAD_SATURATED_PERCENT = 90;
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
  'GATEHOUSE_TRUST_PROXY',
  'REDIS_URL',
  'LOG_LEVEL',
  'GATEHOUSE_RATE_LIMIT_MANAGEMENT',
  'GATEHOUSE_RATE_LIMIT_AUTHENTICATION',
  'GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY',
  'GATEHOUSE_TENANT_LOGS',
  'GATEHOUSE_LOG_RETENTION_DAYS',
  'GATEHOUSE_LOG_BUFFER',
  'NODE_OPTIONS',
];

// ---------------------------------------------------------------------------
// Pinning: the server under test on one core, the load generator on another

export interface Pinning {
  /** Whether the servers and the load generator run on cores of their own. */
  pinned: boolean;
  /** The core (taskset CPU list) of every server under test and of the references; undefined when not pinned. */
  serverCpus?: string;
  /** The core of this process, and so of autocannon and the bench's own HTTP clients. */
  loadCpus?: string;
  /** Every core this process may use: what an unpinned process gets. */
  allCpus: string;
  /** The cores this process was allowed when it started. */
  cpusAllowed: number[];
  /** One line for the output and the JSON: what is pinned where, or why nothing is. */
  note: string;
}

/** The CPUs this process may run on, from /proc/self/status (all of them when that cannot be read). */
function cpusAllowed(): number[] {
  try {
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (list) {
      return list.split(',').flatMap((part) => {
        const [from, to = from] = part.split('-').map(Number);
        return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
      });
    }
  } catch {
    // not Linux: fall through
  }
  return Array.from({ length: os.cpus().length }, (_, i) => i);
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Sets the CPU affinity of every thread of a running process (`taskset -a -cp`). */
export function repin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * Pins this process (every thread: autocannon runs on the main one) to the second allowed core and
 * returns where the servers go: the first allowed core. BENCH_PIN=0 turns pinning off. Without
 * taskset or without a second core nothing is pinned, and the note says so.
 */
export function setUpPinning(): Pinning {
  const allowed = cpusAllowed();
  const allCpus = allowed.join(',');
  const unpinned = (why: string): Pinning => ({ pinned: false, allCpus, cpusAllowed: allowed, note: `NOT PINNED: ${why}; the servers and the load generator share ${allowed.length} core(s)` });
  if (process.env.BENCH_PIN?.trim() === '0') return unpinned('BENCH_PIN=0');
  if (allowed.length < 2) return unpinned(`only ${allowed.length} core is available`);
  if (!hasTaskset()) return unpinned('taskset (util-linux) was not found');
  const [serverCpu, loadCpu] = allowed as [number, number];
  repin(process.pid, String(loadCpu));
  return {
    pinned: true,
    serverCpus: String(serverCpu),
    loadCpus: String(loadCpu),
    allCpus,
    cpusAllowed: allowed,
    note: `pinned: each server under test on core ${serverCpu} (taskset -c ${serverCpu}), the load generator (this process) on core ${loadCpu}`,
  };
}

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
  servername?: string;
  tlsOptions?: { ca: Buffer };
  /** Per-request set-up: autocannon rebuilds the request through `setupRequest` before each send. */
  requests?: { setupRequest: (request: { body?: string; headers?: Record<string, string> }) => { body?: string; headers?: Record<string, string> } }[];
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

/**
 * `node <args>` as a child process; with `cpus`, under `taskset -c <cpus>` (which execs node, so
 * the pid is node's). Without `cpus` the child inherits this process's affinity.
 */
export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, options: { stdin?: 'ignore' | 'pipe'; cpus?: string } = {}): Child {
  const [command, argv] = options.cpus ? ['taskset', ['-c', options.cpus, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command, argv, { cwd: ROOT, env, stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'] });
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

export function isRunning(child: Child): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
export async function stopChild(child: Child): Promise<void> {
  if (!isRunning(child)) return;
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

/** Runs a bench's main function: cleans up whatever happens, prints a BenchError without its stack, exits with its status. */
export async function runMain(main: () => Promise<number>): Promise<never> {
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

/** Where a server answers, and how to address it. */
export interface Endpoint {
  scheme: 'http' | 'https';
  port: number;
  /** The Host header (for Gatehouse: the tenant); `localhost:PORT` unless said. */
  host?: string;
  /** For https: the certificate the client verifies the server against. */
  ca?: Buffer;
}

export const hostHeader = (e: Endpoint) => e.host ?? `localhost:${e.port}`;

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request on a connection of its own. Over https the server certificate is verified against
 * `endpoint.ca` under the name `localhost` (unlike autocannon, which never verifies).
 */
export function request(
  endpoint: Endpoint,
  method: string,
  urlPath: string,
  body?: string,
  extraHeaders: Record<string, string> = {},
  contentType = 'application/json',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: hostHeader(endpoint), ...extraHeaders };
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const options = { host: 'localhost', port: endpoint.port, method, path: urlPath, headers, agent: false, timeout: 5_000 } as const;
    const onResponse = (res: http.IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    };
    const req =
      endpoint.scheme === 'https'
        ? https.request({ ...options, ...(endpoint.ca && { ca: endpoint.ca }), servername: 'localhost' }, onResponse)
        : http.request(options, onResponse);
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** The median (the mean of the middle two for an even count); NaN when there is nothing. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** A ratio as `0.79x`, or '' when either side is missing. */
export const fmtRatio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '');

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `align`: one letter per column, l(eft) or r(ight). Rows shorter than the header are padded. */
export function printTable(rows: string[][], align: string): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    widths
      .map((width, i) => (align[i] === 'l' ? (row[i] ?? '').padEnd(width) : (row[i] ?? '').padStart(width)))
      .join(' | ')
      .trimEnd();
  log(line(rows[0]!));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows.slice(1)) log(line(row));
}

// ---------------------------------------------------------------------------
// Servers: Gatehouse and the references, each in its own process, timed from spawn to the first 200

export interface StartedServer {
  name: string;
  child: Child;
  endpoint: Endpoint;
  /** Milliseconds from spawning the process to the first 200 answer to the readiness request. */
  readyMs: number;
}

/** Polling interval of the readiness request: the resolution of `readyMs`. */
const READY_POLL_MS = 10;

/**
 * Spawns `node <args>` (on `cpus` when given) and sends `GET readyPath` every 10 ms until it answers
 * 200; `endpoint` may be a function that returns undefined until the server can be addressed (an
 * https server's certificate file does not exist yet).
 */
export async function startServer(options: {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cpus?: string | undefined;
  endpoint: Endpoint | (() => Endpoint | undefined);
  readyPath: string;
  timeoutMs?: number;
}): Promise<StartedServer> {
  const t0 = performance.now();
  const child = startChild(options.name, options.args, options.env, options.cpus ? { cpus: options.cpus } : {});
  const deadline = t0 + (options.timeoutMs ?? 30_000);
  let lastError = '';
  while (performance.now() < deadline) {
    if (!isRunning(child)) {
      throw new BenchError(`${options.name} exited with ${child.process.exitCode ?? child.process.signalCode} before answering:\n${child.output()}`);
    }
    const endpoint = typeof options.endpoint === 'function' ? options.endpoint() : options.endpoint;
    if (endpoint) {
      try {
        const reply = await request(endpoint, 'GET', options.readyPath);
        if (reply.status === 200) return { name: options.name, child, endpoint, readyMs: performance.now() - t0 };
        lastError = `GET ${options.readyPath} answered ${reply.status}: ${reply.body.slice(0, 200)}`;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
      }
    }
    await sleep(READY_POLL_MS);
  }
  throw new BenchError(`${options.name} did not answer GET ${options.readyPath} with 200 in ${(options.timeoutMs ?? 30_000) / 1000} s (${lastError}):\n${child.output()}`);
}

/** The environment of a child process: the shell's without NODE_OPTIONS, plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

/** A reference server of bench/references/ (plain JavaScript, started by node directly). */
export function startReference(name: string, script: string, host: string, port: number, readyPath: string, cpus: string | undefined, extraEnv: Record<string, string>) {
  return startServer({
    name,
    args: [path.join(REFERENCES_DIR, script)],
    env: childEnv({ BENCH_HOST: host, BENCH_PORT: String(port), ...extraEnv }),
    cpus,
    endpoint: { scheme: 'http', port },
    readyPath,
  });
}

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
    GATEHOUSE_RATE_LIMIT_CLIENTS_QUERY: NO_RATE_LIMIT,
    // The benches build their own connections (a client with one database connection logs in without naming it).
    GATEHOUSE_DEFAULT_CONNECTION: '0',
    ...extra,
  });
  return env;
}

export interface GatehouseOptions {
  host: string;
  port: number;
  dataDir: string;
  logLevel: string;
  /** Taskset CPU list; undefined = this process's affinity. */
  cpus?: string | undefined;
  /** Serve HTTPS with the data directory's certificate; plain HTTP (GATEHOUSE_HTTP=1) otherwise. */
  https?: boolean;
  /**
   * The port of the default tenant's domain (`localhost:PORT`) when this process listens on another
   * port: a second process on the same data directory. Requests then carry that Host header.
   */
  domainPort?: number;
  extraEnv?: Record<string, string>;
  /** Node options (e.g. `--cpu-prof`, which NODE_OPTIONS may not carry), before the script. */
  nodeArgs?: readonly string[];
  /** The launcher to run: this checkout's bin/gatehouse.cjs unless another is given (bench/startup.ts's baseline). */
  bin?: string;
  /** How long the first 200 may take (default 30 s; a first start on PostgreSQL runs every migration). */
  timeoutMs?: number;
}

/**
 * Gatehouse as `npm start` runs it (bin/gatehouse.cjs) with gatehouseEnv(…), timed from spawn to the
 * first 200 of GET /health. bin/gatehouse.cjs sizes libuv's threadpool to the cores the process may
 * use but one, at least one: one thread when pinned to a core, and one on two cores.
 */
export function startGatehouse(o: GatehouseOptions): Promise<StartedServer> {
  const env = gatehouseEnv(o.host, o.port, o.dataDir, o.logLevel, {
    ...(o.https ? {} : { GATEHOUSE_HTTP: '1' }),
    ...(o.domainPort !== undefined && { GATEHOUSE_DOMAIN: `localhost:${o.domainPort}` }),
    ...o.extraEnv,
  });
  const host = `localhost:${o.domainPort ?? o.port}`;
  const certFile = path.join(o.dataDir, 'tls', 'cert.pem');
  return startServer({
    name: o.https ? 'gatehouse (https)' : 'gatehouse',
    args: [...(o.nodeArgs ?? []), o.bin ?? path.join(ROOT, 'bin', 'gatehouse.cjs')],
    env,
    cpus: o.cpus,
    endpoint: o.https
      ? () => (fs.existsSync(certFile) ? { scheme: 'https', port: o.port, host, ca: fs.readFileSync(certFile) } : undefined)
      : { scheme: 'http', port: o.port, host },
    readyPath: '/health',
    ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }),
  });
}

export function readAdminCredentials(dataDir: string): AdminCredentials {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-credentials.json'), 'utf8')) as AdminCredentials;
}

/** VmRSS of an idle server after `settleMs` without requests. */
export async function idleRssMB(child: Child, settleMs = 1_000): Promise<number> {
  await sleep(settleMs);
  return readMemory(child.process.pid!)?.rssMB ?? NaN;
}

/** pino's JSON lines of a Gatehouse process (not the first-start banner, which prints the admin client secret). */
export function printGatehouseLog(child: Child, logLevel: string): void {
  const lines = child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .slice(-20);
  if (!isRunning(child)) log(`!!! ${child.name} exited during the bench (code ${child.process.exitCode ?? child.process.signalCode}):\n${lines.join('\n')}`);
  else if (lines.length) log(`\n${child.name} log (LOG_LEVEL=${logLevel}, last ${lines.length} lines):\n${lines.join('\n')}`);
}

// ---------------------------------------------------------------------------
// Tokens and the Management API

/** A request that did not get the status it needed. */
export class StatusError extends BenchError {
  constructor(
    readonly what: string,
    readonly status: number,
    body: string,
  ) {
    super(`${what} answered ${status}: ${body.slice(0, 500)}`);
  }
}

/** A Management API call with a bearer token; the parsed body of a 2xx answer, StatusError otherwise. */
export async function managementCall<T>(endpoint: Endpoint, token: string, method: string, urlPath: string, body?: unknown): Promise<T> {
  const reply = await request(endpoint, method, `/api/v2${urlPath}`, body === undefined ? undefined : JSON.stringify(body), { authorization: `Bearer ${token}` });
  if (reply.status < 200 || reply.status > 299) throw new StatusError(`${method} /api/v2${urlPath}`, reply.status, reply.body);
  return (reply.body ? JSON.parse(reply.body) : {}) as T;
}

export interface TokenReply {
  access_token: string;
  scope?: string;
  refresh_token?: string;
  /** Milliseconds the request took. */
  ms: number;
}

/** POST a token request; the token response of a 200, StatusError otherwise. */
export async function requestToken(endpoint: Endpoint, urlPath: string, body: string, what: string, contentType = 'application/json'): Promise<TokenReply> {
  const t0 = performance.now();
  const reply = await request(endpoint, 'POST', urlPath, body, {}, contentType);
  const ms = performance.now() - t0;
  if (reply.status !== 200) throw new StatusError(`POST ${urlPath} (${what})`, reply.status, reply.body);
  const token = JSON.parse(reply.body) as Partial<TokenReply>;
  if (typeof token.access_token !== 'string') throw new BenchError(`POST ${urlPath} (${what}): no access_token in ${reply.body.slice(0, 500)}`);
  return { ...token, access_token: token.access_token, ms };
}

/** The body of the admin client's client_credentials request for the Management API. */
export function adminTokenBody(admin: AdminCredentials): string {
  return JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: admin.audience });
}

export interface VerifiedToken {
  header: ProtectedHeaderParameters;
  payload: JWTPayload;
  bytes: number;
}

/**
 * Verifies an access token as a resource server would: RS256 only, signature against the key set
 * the server publishes at `jwksPath`, `aud`, `iss` when given, and the scopes when given.
 */
export async function verifyAccessToken(
  token: string,
  server: Endpoint,
  jwksPath: string,
  expected: { audience: string; issuer?: string; scopes?: readonly string[]; what: string },
): Promise<VerifiedToken> {
  const fail = (why: string) => new BenchError(`the access token of ${expected.what} ${why}: ${token.slice(0, 80)}…`);
  const reply = await request(server, 'GET', jwksPath);
  if (reply.status !== 200) throw new StatusError(`GET ${jwksPath} (${expected.what})`, reply.status, reply.body);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, createLocalJWKSet(JSON.parse(reply.body) as JSONWebKeySet), {
      algorithms: ['RS256'],
      audience: expected.audience,
      ...(expected.issuer !== undefined && { issuer: expected.issuer }),
    }));
  } catch (error) {
    throw fail(`does not verify against ${jwksPath} (${error instanceof Error ? error.message : String(error)})`);
  }
  const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  const missing = (expected.scopes ?? []).filter((s) => !granted.includes(s));
  if (missing.length) throw fail(`lacks the scopes ${missing.join(' ')}`);
  return { header: decodeProtectedHeader(token), payload, bytes: token.length };
}

/** The resource server, client and client grant of the "typical API" (client_credentials with 3 scopes). */
export const TYPICAL_AUDIENCE = 'https://bench-api.example.com/';
export const TYPICAL_SCOPES = ['read:orders', 'write:orders', 'read:customers'] as const;

export interface TypicalApi {
  clientId: string;
  clientSecret: string;
  /** The JSON body of its POST /oauth/token. */
  tokenBody: string;
}

/**
 * Creates, through the Management API (with the admin token), a resource server with 3 scopes, a
 * non-interactive client (client_secret_post, client_credentials) and a client grant with the 3
 * scopes.
 */
export async function setUpTypicalApi(endpoint: Endpoint, adminToken: string): Promise<TypicalApi> {
  await managementCall(endpoint, adminToken, 'POST', '/resource-servers', {
    name: 'Bench API',
    identifier: TYPICAL_AUDIENCE,
    scopes: TYPICAL_SCOPES.map((value) => ({ value, description: value })),
  });
  const client = await managementCall<{ client_id?: string; client_secret?: string }>(endpoint, adminToken, 'POST', '/clients', {
    name: 'Bench typical API client',
    app_type: 'non_interactive',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['client_credentials'],
  });
  if (typeof client.client_id !== 'string' || typeof client.client_secret !== 'string') {
    throw new BenchError('POST /api/v2/clients: no client_id or client_secret in the response');
  }
  await managementCall(endpoint, adminToken, 'POST', '/client-grants', { client_id: client.client_id, audience: TYPICAL_AUDIENCE, scope: TYPICAL_SCOPES });
  return {
    clientId: client.client_id,
    clientSecret: client.client_secret,
    tokenBody: JSON.stringify({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: TYPICAL_AUDIENCE }),
  };
}

/**
 * A Gatehouse on a fresh temporary data directory (removed on clean-up), pinned as `pinning` says,
 * with the typical API set up: what the single-server benches (bench/profile-token.ts,
 * bench/memory.ts) measure.
 */
export async function startTypicalGatehouse(o: {
  dataDirPrefix: string;
  pinning: Pinning;
  nodeArgs: readonly string[];
  extraEnv: Record<string, string>;
}): Promise<{ gatehouse: StartedServer; dataDir: string; typical: TypicalApi }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), o.dataDirPrefix));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  const gatehouse = await startGatehouse({ host, port, dataDir, logLevel: 'warn', cpus: o.pinning.serverCpus, nodeArgs: o.nodeArgs, extraEnv: o.extraEnv });
  const admin = readAdminCredentials(dataDir);
  const adminToken = (await requestToken(gatehouse.endpoint, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const typical = await setUpTypicalApi(gatehouse.endpoint, adminToken);
  return { gatehouse, dataDir, typical };
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
  /**
   * Single-use requests (a signed assertion or DPoP proof each), sent in turn and never again:
   * `next()` gives the next body and extra headers. Made before the measurement, so signing them
   * is not the load generator's work while it runs.
   */
  singleUse?: { next(): { body: string; headers?: Record<string, string> } };
  /** Content-Type of the body (default application/json). */
  contentType?: string;
  /** Further request headers (e.g. authorization). */
  headers?: Record<string, string>;
  endpoint: Endpoint;
  server: Child;
  /** Seconds a client waits for an answer before it gives up, closes the connection and opens another (autocannon's `timeout`; default 10). */
  timeoutSeconds?: number;
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
    const headers: Record<string, string> = { host: hostHeader(c.endpoint), ...c.headers };
    if (c.body !== undefined || c.bodies !== undefined || c.singleUse !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
    const options: AcOptions = {
      url: `${c.endpoint.scheme}://localhost:${c.endpoint.port}${c.path}`,
      method: c.method,
      headers,
      connections,
      pipelining: 1,
      duration: seconds,
      timeout: c.timeoutSeconds ?? 10,
    };
    if (c.endpoint.scheme === 'https') {
      // autocannon 9 always connects with rejectUnauthorized: false (lib/httpClient.js), so this
      // `ca` is not checked; the preflight requests verify the certificate instead.
      options.servername = 'localhost';
      if (c.endpoint.ca) options.tlsOptions = { ca: c.endpoint.ca };
    }
    if (c.body !== undefined) options.body = c.body;
    if (c.bodies !== undefined) options.requests = [{ setupRequest: (request) => ({ ...request, body: nextBody(c.bodies!) }) }];
    if (c.singleUse !== undefined) {
      options.requests = [
        {
          setupRequest: (request) => {
            const next = c.singleUse!.next();
            return { ...request, body: next.body, headers: { ...request.headers, ...next.headers } };
          },
        },
      ];
    }
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) {
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => onResponse(status, ms));
    }
  });
}

/**
 * Warm-up (unrecorded), then `settings.duration` seconds of load, with the server's and the
 * machine's CPU and memory; prints one line with the result.
 */
export async function measure(c: LoadCase, settings: Pick<LoadSettings, 'duration' | 'warmup' | 'connections'>, label = c.name): Promise<CaseResult> {
  const { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS } = settings;
  if (WARMUP > 0) await runAutocannon(c, WARMUP, CONNECTIONS);
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
  const r: CaseResult = {
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
  log(
    `  ${label}: ${fmtInt(r.reqPerSec)}/s, p50 ${fmt(r.latencyMs.p50, 2)} ms, p99 ${fmt(r.latencyMs.p99, 2)} ms, ` +
      `server CPU ${fmt(r.server.cpuPercent, 0)}%, load ${fmt(r.benchCpuPercent, 0)}%, other processes ${fmt(r.otherCpuPercent, 0)}%` +
      (failures(r) ? `, ${failures(r)} FAILED` : ''),
  );
  return r;
}

export function failures(r: CaseResult): number {
  return r.non2xx + r.errors;
}

/** Medians over the rounds of one server in one case. */
export interface Summary {
  rounds: number;
  reqPerSec: number;
  reqPerSecMin: number;
  reqPerSecMax: number;
  /** (max − min) ÷ median of req/s, in %: how much the rounds disagree. */
  spreadPercent: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuPercent: number;
  /**
   * 2xx responses per CPU-second of the server (median over the rounds): what the server gets done with
   * the CPU it got, which moves less than req/s when other processes take its core.
   */
  perCpuSecond: number;
  loadCpuPercent: number;
  otherCpuPercent: number;
  stealCpuPercent: number;
  /** VmRSS at the end of the last round. */
  rssEndMB: number;
  /** VmHWM, the process's peak, at the end of the last round. */
  hwmMB: number;
  /** Non-2xx responses and connection errors, over every round. */
  failed: number;
  ok: number;
}

/** The cells ±% (half the range of the rate over the rounds), p50, p99, server CPU, load CPU and other CPU of a table row. */
export function roundCells(s: Pick<Summary, 'spreadPercent' | 'p50Ms' | 'p99Ms' | 'serverCpuPercent' | 'loadCpuPercent' | 'otherCpuPercent'>, latencyDigits = 2): string[] {
  return [
    fmt(s.spreadPercent / 2, 0),
    fmt(s.p50Ms, latencyDigits),
    fmt(s.p99Ms, latencyDigits),
    fmt(s.serverCpuPercent, 0),
    fmt(s.loadCpuPercent, 0),
    fmt(s.otherCpuPercent, 0),
  ];
}

export function summarize(results: readonly CaseResult[]): Summary {
  const of = (pick: (r: CaseResult) => number) => median(results.map(pick));
  const rates = results.map((r) => r.reqPerSec);
  const reqPerSec = median(rates);
  const last = results[results.length - 1];
  return {
    rounds: results.length,
    reqPerSec,
    reqPerSecMin: Math.min(...rates),
    reqPerSecMax: Math.max(...rates),
    spreadPercent: ((Math.max(...rates) - Math.min(...rates)) / reqPerSec) * 100,
    p50Ms: of((r) => r.latencyMs.p50),
    p99Ms: of((r) => r.latencyMs.p99),
    serverCpuPercent: of((r) => r.server.cpuPercent),
    perCpuSecond: of((r) => r.reqPerSec / (r.server.cpuPercent / 100)),
    loadCpuPercent: of((r) => r.benchCpuPercent),
    otherCpuPercent: of((r) => r.otherCpuPercent),
    stealCpuPercent: of((r) => r.stealCpuPercent),
    rssEndMB: last?.server.rssEndMB ?? NaN,
    hwmMB: last?.server.hwmMB ?? NaN,
    failed: results.reduce((a, r) => a + failures(r), 0),
    ok: results.reduce((a, r) => a + r.ok, 0),
  };
}

/**
 * Runs `steps` in turn, `rounds` times (A B C, A B C, …), so that a drift of the machine spreads
 * over every step instead of falling on one; returns each step's results in round order.
 */
export async function alternate<T>(rounds: number, steps: readonly { key: string; run: (round: number) => Promise<T> }[]): Promise<Map<string, T[]>> {
  const out = new Map<string, T[]>(steps.map((s) => [s.key, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const step of steps) out.get(step.key)!.push(await step.run(round));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Report

export function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** What the JSON records about the machine. */
export function machineInfo(pinning: Pinning): Record<string, unknown> {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpusAllowed: pinning.cpusAllowed,
    cpuModel: os.cpus()[0]?.model,
    totalMemoryMB: Math.round(os.totalmem() / 1048576),
    loadAverage: os.loadavg(),
    pinning,
  };
}

/** The first line of every bench: what runs where. */
export function logHeader(title: string, settings: string, pinning: Pinning): void {
  const load = os.loadavg().map((v) => fmt(v, 2)).join(' ');
  log(`${title}: ${settings}; ${pinning.cpusAllowed.length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${load}`);
  log(`  ${pinning.note}`);
}

/** Writes the JSON report to bench/results/<prefix><timestamp>.json; returns its path relative to the working directory. */
export function writeResults(prefix: string, startedAt: Date, report: Record<string, unknown>): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${prefix}${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify({ startedAt: startedAt.toISOString(), commit: gitCommit(), ...report }, null, 2) + '\n');
  return path.relative(process.cwd(), file);
}

/** The banner for measurements with failed requests: their numbers do not describe a healthy server. */
export function logFailureBanner(lines: readonly string[]): void {
  if (lines.length === 0) return;
  log('');
  log('!'.repeat(79));
  for (const line of lines) log(`!!! ${line}`);
  log('!!! These numbers do not describe a healthy server.');
  log('!'.repeat(79));
}

export function failureLine(r: CaseResult): string {
  return `${r.case}: ${r.non2xx} non-2xx responses, ${r.errors} connection errors (${r.timeouts} timeouts); status codes ${JSON.stringify(r.statusCodes)}`;
}

/** Whether other processes or steal took enough CPU during a measurement to distort it. */
export const wasBusy = (other: number, steal: number) => other > OTHER_CPU_WARN_PERCENT || steal > OTHER_CPU_WARN_PERCENT;

/** The warning about a busy machine, naming each measurement that was; nothing when none was. */
export function logBusyWarning(busy: readonly { what: string; other: number; steal: number }[], total: number): void {
  if (busy.length === 0) return;
  const range = (values: number[]) => `${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)}%`;
  const counts = new Map<string, number>();
  for (const b of busy) counts.set(b.what, (counts.get(b.what) ?? 0) + 1);
  log('');
  log(
    `!!! The machine was not idle: during ${busy.length} of ${total} measurements other processes used ${range(busy.map((b) => b.other))} ` +
      `(median ${fmt(median(busy.map((b) => b.other)), 0)}%) and steal was ${range(busy.map((b) => b.steal))} of a core ` +
      `(${[...counts].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what)).join(', ')}). ` +
      'Those numbers are understated and the ratios noisier; rerun on a quiet machine before comparing runs.',
  );
}

// ---------------------------------------------------------------------------
// A browser of the flow benches

/** How long a flow request may take before it counts as failed. */
const BROWSER_TIMEOUT_MS = 30_000;

/**
 * One browser: its own keep-alive connection and cookie jar (every cookie the server sets is
 * sent back, whatever its attributes: Gatehouse marks its `__Host-` cookies Secure, as it must
 * behind a TLS-terminating proxy, and the bench speaks plain HTTP to it).
 */
export class BenchBrowser {
  readonly #agent: http.Agent;
  readonly #cookies = new Map<string, string>();

  constructor(
    private readonly endpoint: Endpoint,
  ) {
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }

  /** The value of a cookie in the jar. */
  cookie(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  /** Forgets every cookie: the next request is a new visitor's. */
  clearCookies(): void {
    this.#cookies.clear();
  }

  request(method: 'GET' | 'POST', urlPath: string, form?: Record<string, string>): Promise<Reply> {
    const body = form && new URLSearchParams(form).toString();
    const headers: Record<string, string> = { host: hostHeader(this.endpoint) };
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: 'localhost', port: this.endpoint.port, method, path: urlPath, headers, agent: this.#agent, timeout: BROWSER_TIMEOUT_MS },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            this.#store(res.headers['set-cookie'] ?? []);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in ${BROWSER_TIMEOUT_MS / 1000} s`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }

  /** Set-Cookie (RFC 6265 §5.2): name=value, and Max-Age=0 removes; the other attributes do not matter here. */
  #store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      if (attributes.some((a) => a.trim().toLowerCase() === 'max-age=0')) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(eq + 1).trim());
    }
  }
}
