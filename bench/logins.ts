/**
 * Login throughput (`npm run bench:logins`): how close Gatehouse's password
 * logins come to the rate at which one core verifies argon2id hashes, the
 * cost every login must pay (src/platform/passwords/hashing.ts), and what logins do to
 * client_credentials tokens served by the same process.
 *
 * Gatehouse (bin/gatehouse.cjs, as `npm start` runs it; plain HTTP, temporary
 * data directory, SQLite, LOG_LEVEL=warn, rate limits out of the way) runs
 * pinned to one core (`taskset -c 0`), which gives it a threadpool of one
 * thread; the load (autocannon and the flow workers, in this process) runs on
 * the other core. Through the Management API (admin token) the bench creates
 * a first-party regular web client (client_secret_post, grants
 * authorization_code and password-realm, one callback), a database connection
 * enabled for it, BENCH_USERS users with one password, and the typical API of
 * `npm run bench` (3 scopes, a client_credentials client). Then, in each of
 * BENCH_ROUNDS rounds, in turn:
 *
 *   1. the reference: `verifyPassword` of Gatehouse's own built code
 *      (dist/platform/passwords/hashing.js, so its parameters: argon2id, 19 MiB, t=2,
 *      p=1), awaited one after the other, in a child process pinned to the
 *      server's core with a threadpool of one thread: verifications per second
 *      of that core;
 *   2. password-realm logins: autocannon sends POST /oauth/token (grant
 *      http://auth0.com/oauth/grant-type/password-realm, realm = the
 *      connection, scope openid), each request for the next user in turn;
 *   3. authorization-code flows: BENCH_CONNECTIONS workers, each a browser
 *      with its own keep-alive connection and cookie jar, loop over GET
 *      /authorize (no cookie: a new visitor each time) → 302 /login?state= →
 *      GET /login (csrf_token) → POST /login (form) → 302 to the callback with
 *      the code → POST /oauth/token (authorization_code, PKCE verifier) → 200,
 *      for the next user in turn. autocannon cannot chain requests, hence the
 *      bench's own loop over node:http;
 *   4. SSO flows, an extra line: the same workers with the cookies of their
 *      last login, GET /authorize → 302 with a code → POST /oauth/token;
 *   5. client_credentials alone: autocannon with BENCH_CC_CONNECTIONS
 *      connections, the typical API's token;
 *   6. the same client_credentials load while password-realm logins run: two
 *      autocannon instances at once; the line reports the tokens/s kept (÷
 *      line 5 of the same round) and their p99.
 *
 * The table shows the medians of the rounds. The targets (reported, not
 * asserted): password-realm logins/s and full flows/s each at least 80% of the
 * reference's verifications/s.
 *
 * Settings (environment):
 *   BENCH_DURATION         seconds of measurement per line (default 5)
 *   BENCH_WARMUP           seconds of unrecorded load before each line (default min(2, ceil(duration/3)))
 *   BENCH_ROUNDS           rounds (default 3)
 *   BENCH_CONNECTIONS      autocannon connections and flow workers for the logins (default 8)
 *   BENCH_CC_CONNECTIONS   autocannon connections for client_credentials (default 50)
 *   BENCH_HASH_SECONDS     seconds of each argon2id reference loop (default min(5, duration))
 *   BENCH_USERS            users logging in, in turn (default 50)
 *   BENCH_PIN              0 pins nothing (default 1)
 *   BENCH_LOG_LEVEL        LOG_LEVEL of the Gatehouse process (default warn)
 *   BENCH_CPU_PROF         a directory: Gatehouse runs with --cpu-prof and writes its main thread's
 *                          profile there when the bench stops it (open it in Chrome DevTools)
 * UV_THREADPOOL_SIZE, when set, reaches Gatehouse (bin/gatehouse.cjs otherwise
 * sizes the pool to the cores it may use but one, at least one).
 *
 * Exit status: 0 when the bench ran (the targets are reported, not asserted);
 * 1 when it broke (a server did not start, a preflight failed, a line had no
 * success at all, or Gatehouse died); 2 for a bad setting.
 */
import { createHash, randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { SESSION_COOKIE } from '../src/authentication/cookies.js';
import {
  BenchError,
  ROOT,
  adminTokenBody,
  alternate,
  childEnv,
  envSeconds,
  failures,
  fmt,
  fmtInt,
  freePort,
  isRunning,
  loadLogLevel,
  loadSettings,
  log,
  logBusyWarning,
  logFailureBanner,
  logHeader,
  machineInfo,
  managementCall,
  measure,
  median,
  percentile,
  printGatehouseLog,
  printTable,
  readAdminCredentials,
  readCpuSeconds,
  readMachineCpu,
  readMainThreadCpuSeconds,
  readMemory,
  removeOnCleanup,
  request,
  requestToken,
  roundCells,
  runAutocannon,
  runMain,
  setUpPinning,
  setUpTypicalApi,
  startChild,
  startGatehouse,
  wasBusy,
  writeResults,
  type CaseResult,
  type Child,
  type Endpoint,
  type LoadCase,
  type MachineCpu,
  type Reply,
  BenchBrowser as Browser,
} from './lib.js';

// ---------------------------------------------------------------------------
// Settings

/** A hash-bound server needs only a few requests in flight to stay busy; more only lengthen the queue (and the latency). */
const SETTINGS = loadSettings({ duration: 5, connections: 8 });
const { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, rounds: ROUNDS } = SETTINGS;
const CC_CONNECTIONS = Math.round(envSeconds('BENCH_CC_CONNECTIONS', 50, 1, 1024));
const HASH_SECONDS = envSeconds('BENCH_HASH_SECONDS', Math.min(5, DURATION), 0.5, 60);
const USERS = Math.round(envSeconds('BENCH_USERS', 50, 1, 1000));
const LOG_LEVEL = loadLogLevel();
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF?.trim() ? path.resolve(process.env.BENCH_CPU_PROF.trim()) : undefined;
/** Logins and flows per second at least this share of the one-core verification rate. */
const TARGET_SHARE = 0.8;

const PASSWORD = 'correct horse battery staple';
const CONNECTION = 'bench-users';
/** Never contacted: the bench reads the code from the Location header. */
const CALLBACK = 'https://app.bench.example/callback';
const SCOPE = 'openid';
const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';

// ---------------------------------------------------------------------------
// 1. Reference: argon2id verifications per second on the server's core

interface HashReference {
  verificationsPerSecond: number;
  verifications: number;
  seconds: number;
  msPerVerification: number;
  /** The PHC prefix of the hash verified, e.g. `$argon2id$v=19$m=19456,t=2,p=1`. */
  parameters: string;
  /** The child's own CPU during the loop, in % of one core (about 100: one core, never more). */
  childCpuPercent: number;
  /** CPU milliseconds per verification. */
  cpuMsPerVerification: number;
  /** This process during the loop (idle: nothing else runs then), in % of one core. */
  benchCpuPercent: number;
  /** Processes other than the child and the bench during the loop, in % of one core. */
  otherCpuPercent: number;
  stealCpuPercent: number;
}

/**
 * Runs in a child process with UV_THREADPOOL_SIZE=1: Gatehouse's own hashPassword and
 * verifyPassword (the built module), one verification awaited after the other.
 */
const HASH_REFERENCE = String.raw`
const { hashPassword, verifyPassword } = await import(process.env.BENCH_HASHING_MODULE);
const password = process.env.BENCH_PASSWORD;
const hash = await hashPassword(password);
for (let i = 0; i < 3; i++) await verifyPassword(hash, password);
const cpu0 = process.cpuUsage();
const start = performance.now();
const end = start + Number(process.env.BENCH_SECONDS) * 1000;
let count = 0;
let now = start;
while (now < end) {
  if (!(await verifyPassword(hash, password)).ok) throw new Error('the reference hash did not verify');
  count++;
  now = performance.now();
}
const cpu = process.cpuUsage(cpu0);
const total = process.cpuUsage();
const parameters = hash.split('$').slice(0, 4).join('$');
process.stdout.write(
  JSON.stringify({ count, seconds: (now - start) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, totalCpuSeconds: (total.user + total.system) / 1e6, parameters }) + '\n',
);
`;

/** The reference loop in a child on `cpus` (the server's core), so that it measures the core the server runs on. */
async function hashReference(seconds: number, cpus: string | undefined): Promise<HashReference> {
  const env = childEnv({
    UV_THREADPOOL_SIZE: '1',
    BENCH_HASHING_MODULE: pathToFileURL(path.join(ROOT, 'dist', 'platform', 'passwords', 'hashing.js')).href,
    BENCH_PASSWORD: PASSWORD,
    BENCH_SECONDS: String(seconds),
  });
  const t0 = performance.now();
  const machine0 = readMachineCpu();
  const bench0 = process.cpuUsage();
  const child = startChild('argon2id reference', ['--input-type=module', '-e', HASH_REFERENCE], env, cpus ? { cpus } : {});
  const code = await child.exited;
  const wall = (performance.now() - t0) / 1000;
  const machine1 = readMachineCpu();
  const bench = process.cpuUsage(bench0);
  const line = child.output().trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new BenchError(`the argon2id reference exited with ${code}:\n${child.output()}`);
  const result = JSON.parse(line) as { count: number; seconds: number; cpuSeconds: number; totalCpuSeconds: number; parameters: string };
  // From the child's start to its exit: the whole machine less the child (as it reported) and the bench.
  const share = (field: keyof MachineCpu) => (machine0 && machine1 ? ((machine1[field] - machine0[field]) / wall) * 100 : NaN);
  const benchPercent = ((bench.user + bench.system) / 1e6 / wall) * 100;
  const own = (result.totalCpuSeconds / wall) * 100 + benchPercent;
  return {
    verificationsPerSecond: result.count / result.seconds,
    verifications: result.count,
    seconds: result.seconds,
    msPerVerification: (result.seconds * 1000) / result.count,
    parameters: result.parameters,
    childCpuPercent: (result.cpuSeconds / result.seconds) * 100,
    cpuMsPerVerification: (result.cpuSeconds * 1000) / result.count,
    benchCpuPercent: benchPercent,
    otherCpuPercent: Math.max(0, share('processes') - own),
    stealCpuPercent: share('steal'),
  };
}

// ---------------------------------------------------------------------------
// 2. Set-up through the Management API

interface LoginApp {
  clientId: string;
  clientSecret: string;
  emails: string[];
  /** Seconds taken to create the users (one argon2id hash each). */
  usersSeconds: number;
}

async function setUpLoginApp(endpoint: Endpoint, adminToken: string): Promise<LoginApp> {
  const call = <T>(urlPath: string, body: unknown) => managementCall<T>(endpoint, adminToken, 'POST', urlPath, body);
  const client = await call<{ client_id?: string; client_secret?: string }>('/clients', {
    name: 'Bench login app',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['authorization_code', PASSWORD_REALM_GRANT],
    callbacks: [CALLBACK],
    // The company's own application: no consent page.
    is_first_party: true,
  });
  if (typeof client.client_id !== 'string' || typeof client.client_secret !== 'string') {
    throw new BenchError('POST /api/v2/clients: no client_id or client_secret in the response');
  }
  await call('/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [client.client_id] });
  const emails = Array.from({ length: USERS }, (_, i) => `user${String(i + 1).padStart(4, '0')}@bench.example`);
  const t0 = performance.now();
  for (const email of emails) await call('/users', { connection: CONNECTION, email, password: PASSWORD });
  return { clientId: client.client_id, clientSecret: client.client_secret, emails, usersSeconds: (performance.now() - t0) / 1000 };
}

function passwordRealmBody(app: LoginApp, email: string): string {
  return JSON.stringify({
    grant_type: PASSWORD_REALM_GRANT,
    realm: CONNECTION,
    username: email,
    password: PASSWORD,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope: SCOPE,
  });
}

/** The token response of a successful login: an access token and, for `openid`, an ID token, both JWS. */
function checkTokens(body: string, what: string): void {
  const tokens = JSON.parse(body) as { access_token?: unknown; id_token?: unknown };
  const jws = (value: unknown) => typeof value === 'string' && value.split('.').length === 3;
  if (!jws(tokens.access_token) || !jws(tokens.id_token)) throw new FlowError(what, 200, `no access_token and id_token in ${body.slice(0, 200)}`);
}

// ---------------------------------------------------------------------------
// 3. The authorization-code flow, as a browser and its web app do it

class FlowError extends Error {
  constructor(
    readonly step: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${step} answered ${status}: ${detail}`);
  }

  /** What the failure tally groups by. */
  get kind(): string {
    return `${this.step} ${this.status}`;
  }
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function expectStatus(reply: Reply, status: number, step: string): void {
  if (reply.status !== status) throw new FlowError(step, reply.status, reply.body.slice(0, 200).replace(/\s+/g, ' '));
}

function hiddenField(body: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
  if (!match) throw new FlowError('GET /login', 200, `no ${name} in the page`);
  return match[1]!;
}

/** The code of a 302 to the callback, after checking the state came back. */
function codeFromRedirect(reply: Reply, state: string, step: string): string {
  expectStatus(reply, 302, step);
  const location = new URL(String(reply.headers.location ?? ''), 'https://invalid.invalid');
  const code = location.searchParams.get('code');
  if (`${location.origin}${location.pathname}` !== CALLBACK || location.searchParams.get('state') !== state || !code) {
    throw new FlowError(step, 302, `not a code for the callback: ${String(reply.headers.location)}`);
  }
  return code;
}

function authorizePath(app: LoginApp, state: string, challenge: string): string {
  const query = new URLSearchParams({
    client_id: app.clientId,
    response_type: 'code',
    redirect_uri: CALLBACK,
    scope: SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return `/authorize?${query}`;
}

async function exchangeCode(browser: Browser, app: LoginApp, code: string, verifier: string): Promise<void> {
  const step = 'POST /oauth/token';
  const reply = await browser.request('POST', '/oauth/token', {
    grant_type: 'authorization_code',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
  });
  expectStatus(reply, 200, step);
  checkTokens(reply.body, step);
}

/** A new visitor (no cookie): /authorize → /login → POST /login → code → token; the browser keeps the session cookie. */
async function fullFlow(browser: Browser, app: LoginApp, email: string): Promise<void> {
  browser.clearCookies();
  const { verifier, challenge } = pkce();
  const state = randomBytes(12).toString('base64url');
  const authorize = await browser.request('GET', authorizePath(app, state, challenge));
  expectStatus(authorize, 302, 'GET /authorize');
  const loginPath = String(authorize.headers.location ?? '');
  if (!loginPath.startsWith('/login?state=')) throw new FlowError('GET /authorize', 302, `not to the login page: ${loginPath}`);
  const page = await browser.request('GET', loginPath);
  expectStatus(page, 200, 'GET /login');
  // The identifier field is `username` (email or username) on the current page, `email` on the first one.
  const identifierField = /name="username"/.test(page.body) ? 'username' : 'email';
  const done = await browser.request('POST', '/login', {
    state: hiddenField(page.body, 'state'),
    csrf_token: hiddenField(page.body, 'csrf_token'),
    [identifierField]: email,
    password: PASSWORD,
  });
  const code = codeFromRedirect(done, state, 'POST /login');
  if (!browser.cookie(SESSION_COOKIE)) throw new FlowError('POST /login', 302, `no ${SESSION_COOKIE} cookie`);
  await exchangeCode(browser, app, code, verifier);
}

/** A returning visitor with a session: /authorize answers with a code at once → token. */
async function ssoFlow(browser: Browser, app: LoginApp): Promise<void> {
  const { verifier, challenge } = pkce();
  const state = randomBytes(12).toString('base64url');
  const reply = await browser.request('GET', authorizePath(app, state, challenge));
  await exchangeCode(browser, app, codeFromRedirect(reply, state, 'GET /authorize (session)'), verifier);
}

// ---------------------------------------------------------------------------
// 4. Loops of flows for a fixed time

interface Worker {
  browser: Browser;
}

interface FlowRun {
  /** Flows completed within the window. */
  completed: number;
  /** Flows completed, those that ended after the window included (what the CPU of the window paid for). */
  completedAll: number;
  /** Wall time of every flow that completed within the window, in ms. */
  latencies: Float64Array;
  failed: number;
  failures: Record<string, number>;
  firstFailure?: string;
}

/**
 * Every worker runs `flow` again and again until `seconds` have passed. A flow counts when it
 * completed within the window; those still running then are awaited but not counted.
 */
async function runFlows(workers: Worker[], seconds: number, flow: (worker: Worker) => Promise<void>): Promise<FlowRun> {
  const end = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const run: FlowRun = { completed: 0, completedAll: 0, latencies: new Float64Array(0), failed: 0, failures: {} };
  await Promise.all(
    workers.map(async (worker) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await flow(worker);
          run.completedAll++;
          const t1 = performance.now();
          if (t1 <= end) latencies.push(t1 - t0);
        } catch (error) {
          run.failed++;
          const kind = error instanceof FlowError ? error.kind : error instanceof Error ? error.message.slice(0, 80) : String(error);
          run.failures[kind] = (run.failures[kind] ?? 0) + 1;
          run.firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  run.latencies = Float64Array.from(latencies).sort();
  run.completed = latencies.length;
  return run;
}

// ---------------------------------------------------------------------------
// CPU of the server (whole process and main thread), the bench and the machine over a window

interface CpuShares {
  /** The server process, in % of one core. */
  server: number;
  /** Its main thread (the event loop); the rest is the threadpool (argon2, RS256) and V8's threads. */
  serverMainThread: number;
  /** This process: autocannon or the flow workers. */
  bench: number;
  /** Processes other than the server (or the reference child) and the bench: competition for the cores. */
  other: number;
  irq: number;
  steal: number;
  /** Everything, in % of one core; 100 × cores = saturated. */
  machine: number;
}

/** Starts measuring; the returned function ends the window and gives the shares over its wall time. */
function cpuWindow(pid: number): () => CpuShares & { seconds: number } {
  const t0 = performance.now();
  const server0 = readCpuSeconds(pid) ?? NaN;
  const main0 = readMainThreadCpuSeconds(pid) ?? NaN;
  const machine0 = readMachineCpu();
  const bench0 = process.cpuUsage();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const bench = process.cpuUsage(bench0);
    const server = (((readCpuSeconds(pid) ?? NaN) - server0) / seconds) * 100;
    const serverMainThread = (((readMainThreadCpuSeconds(pid) ?? NaN) - main0) / seconds) * 100;
    const machine1 = readMachineCpu();
    const share = (field: keyof MachineCpu) => (machine0 && machine1 ? ((machine1[field] - machine0[field]) / seconds) * 100 : NaN);
    const benchPercent = ((bench.user + bench.system) / 1e6 / seconds) * 100;
    const processes = share('processes');
    return {
      seconds,
      server,
      serverMainThread,
      bench: benchPercent,
      other: Math.max(0, processes - server - benchPercent),
      irq: share('irq'),
      steal: share('steal'),
      machine: processes + share('irq') + share('steal'),
    };
  };
}

// ---------------------------------------------------------------------------
// Lines: one measurement each

interface LineResult {
  line: LineKey;
  round: number;
  /** Successful logins, flows or tokens per second. */
  perSecond: number;
  successes: number;
  seconds: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Non-2xx responses or connection errors (autocannon), failed flows (flows). */
  failed: number;
  failures: Record<string, number>;
  cpu: CpuShares;
  /** Server CPU milliseconds per success: whole process, main thread, the other threads (threadpool, V8). */
  cpuMsPerSuccess: { server: number; mainThread: number; otherThreads: number };
  serverRssMB: number;
}

type LineKey = 'password-realm' | 'full flow' | 'SSO flow' | 'cc alone' | 'cc with logins' | 'logins with cc';

function cpuMsPer(window: CpuShares & { seconds: number }, successes: number): LineResult['cpuMsPerSuccess'] {
  const ms = (percent: number) => (percent * window.seconds * 10) / successes;
  return { server: ms(window.server), mainThread: ms(window.serverMainThread), otherThreads: ms(window.server - window.serverMainThread) };
}

function fromCase(line: LineKey, round: number, r: CaseResult, window: CpuShares & { seconds: number }): LineResult {
  return {
    line,
    round,
    perSecond: r.reqPerSec,
    successes: r.ok,
    seconds: r.seconds,
    latencyMs: { p50: r.latencyMs.p50, p90: r.latencyMs.p90, p99: r.latencyMs.p99, max: r.latencyMs.max },
    failed: failures(r),
    failures: { ...Object.fromEntries(Object.entries(r.statusCodes).filter(([code]) => !code.startsWith('2'))), ...(r.errors > 0 && { 'connection errors': r.errors }) },
    cpu: window,
    cpuMsPerSuccess: cpuMsPer(window, r.ok),
    serverRssMB: r.server.rssEndMB,
  };
}

/**
 * autocannon loads, all at once (one for a line, two for the mixed line): a shared warm-up, then
 * the measurement, with the server's CPU over the measurement window.
 */
async function autocannonLines(round: number, server: Child, loads: readonly { line: LineKey; load: LoadCase; connections: number }[]): Promise<LineResult[]> {
  if (WARMUP > 0) await Promise.all(loads.map((l) => runAutocannon(l.load, WARMUP, l.connections)));
  const end = cpuWindow(server.process.pid!);
  const results = await Promise.all(
    loads.map((l) => measure(l.load, { duration: DURATION, warmup: 0, connections: l.connections }, `round ${round}/${ROUNDS} ${l.line}`)),
  );
  const window = end();
  return results.map((r, i) => fromCase(loads[i]!.line, round, r, window));
}

async function flowLine(round: number, line: LineKey, workers: Worker[], server: Child, flow: (worker: Worker) => Promise<void>): Promise<LineResult> {
  if (WARMUP > 0) await runFlows(workers, WARMUP, flow);
  const end = cpuWindow(server.process.pid!);
  const run = await runFlows(workers, DURATION, flow);
  const window = end();
  log(
    `  round ${round}/${ROUNDS} ${line}: ${fmt(run.completed / DURATION)}/s, p50 ${fmt(percentile(run.latencies, 0.5), 1)} ms, p99 ${fmt(percentile(run.latencies, 0.99), 1)} ms, ` +
      `server CPU ${fmt(window.server, 0)}%, load ${fmt(window.bench, 0)}%, other processes ${fmt(window.other, 0)}%` +
      (run.failed ? `, ${run.failed} FAILED (first: ${run.firstFailure ?? ''})` : ''),
  );
  return {
    line,
    round,
    perSecond: run.completed / DURATION,
    successes: run.completed,
    seconds: DURATION,
    latencyMs: {
      p50: percentile(run.latencies, 0.5),
      p90: percentile(run.latencies, 0.9),
      p99: percentile(run.latencies, 0.99),
      max: run.latencies[run.latencies.length - 1] ?? NaN,
    },
    failed: run.failed,
    failures: run.failures,
    cpu: window,
    cpuMsPerSuccess: cpuMsPer(window, run.completedAll),
    serverRssMB: readMemory(server.process.pid!)?.rssMB ?? NaN,
  };
}

/** Rates: whole numbers from 100 up, one decimal below. */
const fmtRate = (n: number) => (n >= 100 ? fmtInt(n) : fmt(n));

/** Medians of one line over the rounds. */
function summarizeLine(results: readonly LineResult[]) {
  const of = (pick: (r: LineResult) => number) => median(results.map(pick));
  const rates = results.map((r) => r.perSecond);
  const perSecond = median(rates);
  return {
    perSecond,
    spreadPercent: ((Math.max(...rates) - Math.min(...rates)) / perSecond) * 100,
    p50Ms: of((r) => r.latencyMs.p50),
    p99Ms: of((r) => r.latencyMs.p99),
    serverCpuPercent: of((r) => r.cpu.server),
    serverMainThreadCpuPercent: of((r) => r.cpu.serverMainThread),
    loadCpuPercent: of((r) => r.cpu.bench),
    otherCpuPercent: of((r) => r.cpu.other),
    cpuMsPerSuccess: { server: of((r) => r.cpuMsPerSuccess.server), mainThread: of((r) => r.cpuMsPerSuccess.mainThread), otherThreads: of((r) => r.cpuMsPerSuccess.otherThreads) },
    failed: results.reduce((a, r) => a + r.failed, 0),
    successes: results.reduce((a, r) => a + r.successes, 0),
  };
}

// ---------------------------------------------------------------------------
// Main

const LINES: readonly { key: LineKey; label: string; target: 'hash' | 'kept' | 'hash (extra)' | 'none' }[] = [
  { key: 'password-realm', label: `password-realm  POST /oauth/token (${CONNECTIONS} connections)`, target: 'hash' },
  { key: 'full flow', label: `authorization-code flow, 5 requests (${CONNECTIONS} workers)`, target: 'hash' },
  { key: 'SSO flow', label: 'SSO flow (session cookie), 2 requests, no password (extra)', target: 'none' },
  { key: 'cc alone', label: `client_credentials, 3-scope API (${CC_CONNECTIONS} connections), alone`, target: 'none' },
  { key: 'cc with logins', label: 'client_credentials while password logins run', target: 'kept' },
  { key: 'logins with cc', label: '  password-realm logins meanwhile', target: 'hash (extra)' },
];

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const hashingJs = path.join(ROOT, 'dist', 'platform', 'passwords', 'hashing.js');
  if (!fs.existsSync(hashingJs)) throw new BenchError(`${hashingJs} is missing; run \`npm run build\` (npm run bench:logins does)`);
  const startedAt = new Date();
  logHeader(
    'Gatehouse login bench',
    `${ROUNDS} rounds × ${DURATION} s per line, warm-up ${WARMUP} s, ${CONNECTIONS} login connections/workers, ${CC_CONNECTIONS} client_credentials connections, ${USERS} users, plain HTTP`,
    pinning,
  );
  const cpus = pinning.serverCpus;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-logins-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  log(`\n[1/3] starting Gatehouse (bin/gatehouse.cjs${cpus ? `, core ${cpus}` : ''}, data dir ${dataDir})`);
  const started = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus, nodeArgs: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [] });
  const gatehouse = started.child;
  const g = started.endpoint;
  const serverPool = process.env.UV_THREADPOOL_SIZE ?? `${cpus ? 1 : Math.max(1, pinning.cpusAllowed.length - 1)} (bin/gatehouse.cjs)`;
  const admin = readAdminCredentials(dataDir);
  log(`  listening on http://localhost:${port} (pid ${gatehouse.process.pid}, threadpool ${serverPool}), tenant ${admin.domain}, ready in ${fmt(started.readyMs, 0)} ms`);
  const adminToken = (await requestToken(g, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const app = await setUpLoginApp(g, adminToken);
  const typical = await setUpTypicalApi(g, adminToken);
  log(
    `  created a regular web client (authorization_code, password-realm), connection ${CONNECTION} and ${USERS} users ` +
      `in ${fmt(app.usersSeconds, 2)} s (${fmt(USERS / app.usersSeconds)} users/s), and the typical API with its client_credentials client`,
  );

  // Preflight: one login of each kind and one token.
  const preflight = await request(g, 'POST', '/oauth/token', passwordRealmBody(app, app.emails[0]!));
  if (preflight.status !== 200) throw new BenchError(`preflight password-realm login answered ${preflight.status}: ${preflight.body.slice(0, 500)}`);
  await requestToken(g, '/oauth/token', typical.tokenBody, 'typical API client');
  const workers: Worker[] = Array.from({ length: CONNECTIONS }, () => ({ browser: new Browser(g) }));
  try {
    checkTokens(preflight.body, 'preflight password-realm');
    await fullFlow(workers[0]!.browser, app, app.emails[0]!);
    await ssoFlow(workers[0]!.browser, app);
  } catch (error) {
    throw new BenchError(`preflight: ${error instanceof Error ? error.message : String(error)}`);
  }
  log('  preflight: a password-realm login, a full authorization-code flow, an SSO flow and a client_credentials token succeeded');

  let turn = 0;
  const nextEmail = () => app.emails[turn++ % app.emails.length]!;
  const loginLoad: LoadCase = {
    name: 'password-realm',
    method: 'POST',
    path: '/oauth/token',
    bodies: app.emails.map((email) => passwordRealmBody(app, email)),
    endpoint: g,
    server: gatehouse,
  };
  const ccLoad: LoadCase = { name: 'client_credentials', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: g, server: gatehouse };
  const references: HashReference[] = [];
  const lines: LineResult[] = [];
  log(`\n[2/3] ${ROUNDS} round(s): reference, password-realm, full flow, SSO flow, client_credentials alone, client_credentials with logins`);
  try {
    await alternate<void>(ROUNDS, [
      {
        key: 'reference',
        run: async (round) => {
          const ref = await hashReference(HASH_SECONDS, cpus);
          references.push(ref);
          log(
            `  round ${round}/${ROUNDS} argon2id reference${cpus ? ` on core ${cpus}` : ''}: ${fmt(ref.verificationsPerSecond)} verifications/s ` +
              `(${fmt(ref.msPerVerification, 2)} ms each, ${ref.parameters}), child CPU ${fmt(ref.childCpuPercent, 0)}%, other processes ${fmt(ref.otherCpuPercent, 0)}%`,
          );
        },
      },
      { key: 'password-realm', run: async (round) => void lines.push(...(await autocannonLines(round, gatehouse, [{ line: 'password-realm', load: loginLoad, connections: CONNECTIONS }]))) },
      { key: 'full flow', run: async (round) => void lines.push(await flowLine(round, 'full flow', workers, gatehouse, (w) => fullFlow(w.browser, app, nextEmail()))) },
      { key: 'SSO flow', run: async (round) => void lines.push(await flowLine(round, 'SSO flow', workers, gatehouse, (w) => ssoFlow(w.browser, app))) },
      { key: 'cc alone', run: async (round) => void lines.push(...(await autocannonLines(round, gatehouse, [{ line: 'cc alone', load: ccLoad, connections: CC_CONNECTIONS }]))) },
      {
        key: 'cc with logins',
        run: async (round) =>
          void lines.push(
            ...(await autocannonLines(round, gatehouse, [
              { line: 'cc with logins', load: ccLoad, connections: CC_CONNECTIONS },
              { line: 'logins with cc', load: loginLoad, connections: CONNECTIONS },
            ])),
          ),
      },
    ]);
  } finally {
    for (const worker of workers) worker.browser.close();
  }
  const gatehouseAlive = isRunning(gatehouse);

  // ---- Report
  log(`\n[3/3] results`);
  const hashRate = median(references.map((r) => r.verificationsPerSecond));
  const hashRates = references.map((r) => r.verificationsPerSecond);
  const summaries = new Map(LINES.map((l) => [l.key, summarizeLine(lines.filter((r) => r.line === l.key))]));
  const ccAlone = summaries.get('cc alone')!;
  const ratioOf = (key: LineKey, target: (typeof LINES)[number]['target']) =>
    target === 'kept' ? summaries.get(key)!.perSecond / ccAlone.perSecond : target === 'hash' || target === 'hash (extra)' ? summaries.get(key)!.perSecond / hashRate : NaN;
  const verdict = (key: LineKey, target: (typeof LINES)[number]['target']) => {
    if (target !== 'hash') return '(no target)';
    const s = summaries.get(key)!;
    return `${s.perSecond >= TARGET_SHARE * hashRate ? 'PASS' : 'FAIL'}${s.failed ? '  <-- NOT TRUSTWORTHY: failures' : ''}`;
  };
  log('');
  log(`Medians of ${ROUNDS} round(s). ratio = the line ÷ the reference's verifications/s, except "kept": ÷ client_credentials alone.`);
  printTable(
    [
      ['line', '/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'ratio', `target ≥ ${TARGET_SHARE * 100}% of the hash rate`],
      [
        `argon2id verify${cpus ? `, core ${cpus}` : ''} (reference, ${references[0]?.parameters ?? ''})`,
        fmtRate(hashRate),
        fmt(((Math.max(...hashRates) - Math.min(...hashRates)) / hashRate / 2) * 100, 0),
        fmt(median(references.map((r) => r.msPerVerification)), 2),
        '',
        fmt(median(references.map((r) => r.childCpuPercent)), 0),
        fmt(median(references.map((r) => r.benchCpuPercent)), 0),
        fmt(median(references.map((r) => r.otherCpuPercent)), 0),
        '',
        '',
        '',
      ],
      ...LINES.map((l) => {
        const s = summaries.get(l.key)!;
        return [
          l.label,
          fmtRate(s.perSecond),
          ...roundCells(s, 1),
          s.failed ? `${s.failed} !!!` : '0',
          l.target === 'kept' ? `kept ${fmt(ratioOf(l.key, l.target) * 100, 0)}%` : l.target === 'none' ? '' : `${fmt(ratioOf(l.key, l.target) * 100, 0)}%`,
          verdict(l.key, l.target),
        ];
      }),
    ],
    'lrrrrrrrrrl',
  );
  log('');
  log(
    `/s counts successful logins (2xx token responses), completed flows or tokens; latencies are of those, a flow's from its first request to its token. ` +
      `Every login is ${SCOPE} scope: an access token and an ID token, RS256. The reference's p50 column is milliseconds per verification. ` +
      `±% is half the range over the rounds in % of the median. CPU in % of one core: server = Gatehouse (or the reference child), load = this process ` +
      `(autocannon and the flow workers), other = every other process on the machine.`,
  );
  log(
    `Server CPU per success, in ms (the reference spends ${fmt(median(references.map((r) => r.cpuMsPerVerification)), 1)} ms of CPU per verification; ` +
      `the threadpool runs argon2 and RS256, the main thread HTTP and SQLite; medians):`,
  );
  for (const l of LINES.filter((x) => x.key !== 'cc with logins' && x.key !== 'logins with cc')) {
    const ms = summaries.get(l.key)!.cpuMsPerSuccess;
    const main = summaries.get(l.key)!;
    log(
      `  ${l.key.padEnd(15)} ${fmt(ms.server, 1).padStart(5)} ms: main thread ${fmt(ms.mainThread, 1).padStart(5)} ms, other threads ${fmt(ms.otherThreads, 1).padStart(5)} ms ` +
        `(main thread busy ${fmt(main.serverMainThreadCpuPercent, 0)}% of the core)`,
    );
  }

  const busy = [
    ...references.map((r) => ({ what: 'reference', other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    ...lines.map((r) => ({ what: r.line, other: r.cpu.other, steal: r.cpu.steal })),
  ];
  logBusyWarning(
    busy.filter((b) => wasBusy(b.other, b.steal)),
    busy.length,
  );
  logFailureBanner(lines.filter((r) => r.failed > 0).map((r) => `${r.line} round ${r.round}: ${r.failed} failures: ${JSON.stringify(r.failures)}`));
  printGatehouseLog(gatehouse, LOG_LEVEL);

  const file = writeResults('logins-', startedAt, {
    bench: 'logins',
    environment: { ...machineInfo(pinning), serverThreadpoolSize: serverPool },
    settings: { ...SETTINGS, ccConnections: CC_CONNECTIONS, hashSeconds: HASH_SECONDS, users: USERS, logLevel: LOG_LEVEL, scope: SCOPE, targetShare: TARGET_SHARE },
    references,
    hashRateUsed: hashRate,
    usersCreatedSeconds: app.usersSeconds,
    lines: LINES.map((l) => ({
      line: l.key,
      label: l.label,
      summary: summaries.get(l.key),
      ratio: ratioOf(l.key, l.target),
      ratioOf: l.target,
      pass: l.target === 'hash' ? summaries.get(l.key)!.perSecond >= TARGET_SHARE * hashRate : undefined,
      rounds: lines.filter((r) => r.line === l.key),
    })),
    clientCredentialsKept: ratioOf('cc with logins', 'kept'),
    healthy: lines.every((r) => r.failed === 0) && gatehouseAlive,
    machineWasBusy: busy.some((b) => wasBusy(b.other, b.steal)),
  });
  log(`\nResults: ${file}`);
  if (CPU_PROF_DIR) log(`Gatehouse's CPU profile: ${CPU_PROF_DIR} (written when the bench stops it)`);

  const broken = LINES.filter((l) => summaries.get(l.key)!.successes === 0);
  if (broken.length) {
    console.error(`bench: no success at all in: ${broken.map((l) => l.key).join(', ')}`);
    return 1;
  }
  return gatehouseAlive ? 0 : 1;
}

await runMain(main);
