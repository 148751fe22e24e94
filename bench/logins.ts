/**
 * Login throughput (`npm run bench:logins`): how close Gatehouse's password
 * logins come to the rate at which one core verifies argon2id hashes, the
 * cost every login must pay (src/passwords/hashing.ts). In one run:
 *
 *   1. the reference: `verifyPassword` of Gatehouse's own built code
 *      (dist/passwords/hashing.js, so the parameters are Gatehouse's: argon2id,
 *      19 MiB, t=2, p=1), awaited one after the other in a child process whose
 *      libuv threadpool has one thread: verifications per second on one core;
 *   2. Gatehouse (bin/gatehouse.cjs, as `npm start` runs it; temporary data
 *      directory, SQLite, LOG_LEVEL=warn, rate limits out of the way) in its own
 *      process. Through the Management API (admin token) the bench creates a
 *      first-party regular web client (client_secret_post, grants
 *      authorization_code and password-realm, one callback), a database
 *      connection enabled for it, and BENCH_USERS users with one password;
 *   3. password-realm logins: autocannon sends POST /oauth/token
 *      (grant_type http://auth0.com/oauth/grant-type/password-realm, realm =
 *      the connection, scope openid), each request for the next user in turn,
 *      all with the right password;
 *   4. authorization-code flows: BENCH_CONNECTIONS workers, each a browser
 *      with its own keep-alive connection and cookie jar, loop over GET
 *      /authorize (no cookie: a new visitor each time) → 302 /login?state= →
 *      GET /login (csrf_token) → POST /login (form) → 302 to the callback with
 *      the code → POST /oauth/token (authorization_code, PKCE verifier) → 200,
 *      for the next user in turn. autocannon cannot chain requests, hence the
 *      bench's own loop over node:https;
 *   5. SSO flows, an extra line: the same workers with the cookies of their
 *      last login, GET /authorize → 302 with a code → POST /oauth/token. No
 *      password is checked, so this line has no target.
 *
 * The target (reported, not asserted): password-realm logins/s and full
 * flows/s each at least 80% of the reference's verifications/s. The reference
 * is measured again after the load; the ratios use the higher of the two
 * figures, so that a slow reference cannot flatter them, and a gap between
 * the two is reported as noise.
 *
 * Settings (environment):
 *   BENCH_DURATION      seconds of measurement per case (default 10)
 *   BENCH_WARMUP        seconds of unrecorded load before each case (default min(2, ceil(duration/3)))
 *   BENCH_CONNECTIONS   autocannon connections and flow workers (default 8)
 *   BENCH_HASH_SECONDS  seconds of each argon2id reference loop (default min(5, duration))
 *   BENCH_USERS         users logging in, in turn (default 50)
 *   BENCH_LOG_LEVEL     LOG_LEVEL of the Gatehouse process (default warn)
 *   BENCH_CPU_PROF      a directory: Gatehouse runs with --cpu-prof and writes its main thread's
 *                       profile there when the bench stops it (open it in Chrome DevTools)
 * UV_THREADPOOL_SIZE, when set, reaches Gatehouse (bin/gatehouse.cjs otherwise
 * sizes the pool to the cores but one).
 *
 * Exit status: 0 when the bench ran (the targets are reported, not asserted);
 * 1 when it broke (a server did not start, a preflight failed, a case had no
 * success at all, or Gatehouse died); 2 for a bad setting.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { AdminCredentials } from '../src/app/context.js';
import {
  BenchError,
  OTHER_CPU_WARN_PERCENT,
  RESULTS_DIR,
  ROOT,
  cleanup,
  envSeconds,
  failures,
  fmt,
  freePort,
  httpsRequest,
  loadLogLevel,
  log,
  measure,
  percentile,
  readCpuSeconds,
  readMachineCpu,
  readMainThreadCpuSeconds,
  readMemory,
  removeOnCleanup,
  runAutocannon,
  startChild,
  startGatehouse,
  type Child,
  type LoadCase,
  type MachineCpu,
  type Reply,
} from './lib.js';

// ---------------------------------------------------------------------------
// Settings

const DURATION = envSeconds('BENCH_DURATION', 10, 1, 600);
const WARMUP = envSeconds('BENCH_WARMUP', Math.min(2, Math.ceil(DURATION / 3)), 0, 60);
/** A hash-bound server needs only a few requests in flight to stay busy; more only lengthen the queue (and the latency). */
const CONNECTIONS = Math.round(envSeconds('BENCH_CONNECTIONS', 8, 1, 256));
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
const SESSION_COOKIE = 'gh_session';
const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
const REQUEST_TIMEOUT_MS = 30_000;

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
// 1. Reference: argon2id verifications per second on one core

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

async function hashReference(seconds: number): Promise<HashReference> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    UV_THREADPOOL_SIZE: '1',
    BENCH_HASHING_MODULE: pathToFileURL(path.join(ROOT, 'dist', 'passwords', 'hashing.js')).href,
    BENCH_PASSWORD: PASSWORD,
    BENCH_SECONDS: String(seconds),
  };
  delete env.NODE_OPTIONS;
  const t0 = performance.now();
  const machine0 = readMachineCpu();
  const bench0 = process.cpuUsage();
  const child = startChild('argon2id reference', ['--input-type=module', '-e', HASH_REFERENCE], env);
  const code = await child.exited;
  const wall = (performance.now() - t0) / 1000;
  const machine1 = readMachineCpu();
  const bench = process.cpuUsage(bench0);
  const line = child.output().trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new BenchError(`the argon2id reference exited with ${code}:\n${child.output()}`);
  const result = JSON.parse(line) as { count: number; seconds: number; cpuSeconds: number; totalCpuSeconds: number; parameters: string };
  // From the child's start to its exit: the whole machine less the child (as it reported) and the bench.
  const share = (field: keyof MachineCpu) => (machine0 && machine1 ? ((machine1[field] - machine0[field]) / wall) * 100 : NaN);
  const own = ((result.totalCpuSeconds + (bench.user + bench.system) / 1e6) / wall) * 100;
  return {
    verificationsPerSecond: result.count / result.seconds,
    verifications: result.count,
    seconds: result.seconds,
    msPerVerification: (result.seconds * 1000) / result.count,
    parameters: result.parameters,
    childCpuPercent: (result.cpuSeconds / result.seconds) * 100,
    cpuMsPerVerification: (result.cpuSeconds * 1000) / result.count,
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

async function setUpLoginApp(port: number, ca: Buffer, adminToken: string): Promise<LoginApp> {
  const call = async <T>(urlPath: string, body: unknown): Promise<T> => {
    const reply = await httpsRequest(port, ca, 'POST', `/api/v2${urlPath}`, JSON.stringify(body), { authorization: `Bearer ${adminToken}` });
    if (reply.status !== 201 && reply.status !== 200) throw new BenchError(`POST /api/v2${urlPath} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
    return JSON.parse(reply.body) as T;
  };
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

/**
 * One browser: its own keep-alive connection and cookie jar (every cookie the server sets is
 * sent back); requests verify the server certificate.
 */
class Browser {
  readonly #agent: https.Agent;
  readonly #cookies = new Map<string, string>();

  constructor(
    private readonly port: number,
    private readonly ca: Buffer,
  ) {
    this.#agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
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
    const headers: Record<string, string> = { host: `localhost:${this.port}` };
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const req = https.request(
        { host: 'localhost', port: this.port, method, path: urlPath, headers, ca: this.ca, servername: 'localhost', agent: this.#agent, timeout: REQUEST_TIMEOUT_MS },
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
      req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
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
// Results

interface LineResult {
  case: string;
  label: string;
  /** Successful logins or flows per second. */
  perSecond: number;
  successes: number;
  seconds: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Non-2xx responses or connection errors (password-realm), failed flows (flows). */
  failed: number;
  failures: Record<string, number>;
  cpu: CpuShares;
  /** Server CPU milliseconds per success: whole process, main thread, the other threads (threadpool, V8). */
  cpuMsPerSuccess: { server: number; mainThread: number; otherThreads: number };
  serverRssMB: number;
  /** Whether the line is held to the target. */
  target: boolean;
}

function cpuMsPer(window: CpuShares & { seconds: number }, successes: number): LineResult['cpuMsPerSuccess'] {
  const ms = (percent: number) => (percent * window.seconds * 10) / successes;
  return { server: ms(window.server), mainThread: ms(window.serverMainThread), otherThreads: ms(window.server - window.serverMainThread) };
}

async function passwordRealmCase(app: LoginApp, port: number, ca: Buffer, server: Child): Promise<LineResult> {
  const c: LoadCase = {
    name: 'password-realm',
    method: 'POST',
    path: '/oauth/token',
    bodies: app.emails.map((email) => passwordRealmBody(app, email)),
    port,
    ca,
    server,
  };
  if (WARMUP > 0) {
    log(`  password-realm: warm-up ${WARMUP} s`);
    await runAutocannon(c, WARMUP, CONNECTIONS);
  }
  const end = cpuWindow(server.process.pid!);
  const r = await measure(c, { duration: DURATION, warmup: 0, connections: CONNECTIONS });
  const window = end();
  return {
    case: 'password-realm',
    label: `password-realm  POST /oauth/token (${CONNECTIONS} connections)`,
    perSecond: r.reqPerSec,
    successes: r.ok,
    seconds: r.seconds,
    latencyMs: { p50: r.latencyMs.p50, p90: r.latencyMs.p90, p99: r.latencyMs.p99, max: r.latencyMs.max },
    failed: failures(r),
    failures: { ...Object.fromEntries(Object.entries(r.statusCodes).filter(([code]) => !code.startsWith('2'))), ...(r.errors > 0 && { 'connection errors': r.errors }) },
    cpu: window,
    cpuMsPerSuccess: cpuMsPer(window, r.ok),
    serverRssMB: r.server.rssEndMB,
    target: true,
  };
}

async function flowCase(
  name: string,
  label: string,
  target: boolean,
  workers: Worker[],
  server: Child,
  flow: (worker: Worker) => Promise<void>,
): Promise<LineResult> {
  if (WARMUP > 0) {
    log(`  ${name}: warm-up ${WARMUP} s`);
    await runFlows(workers, WARMUP, flow);
  }
  log(`  ${name}: measuring ${DURATION} s with ${workers.length} workers`);
  const end = cpuWindow(server.process.pid!);
  const run = await runFlows(workers, DURATION, flow);
  const window = end();
  if (run.firstFailure) log(`  ${name}: first failure: ${run.firstFailure}`);
  return {
    case: name,
    label,
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
    target,
  };
}

function printTable(rows: string[][], align: string): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (align[i] === 'l' ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  log(line(rows[0]!));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows.slice(1)) log(line(row));
}

const loadAverage = () => os.loadavg().map((v) => fmt(v, 2)).join(' ');

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const hashingJs = path.join(ROOT, 'dist', 'passwords', 'hashing.js');
  if (!fs.existsSync(hashingJs)) throw new BenchError(`${hashingJs} is missing; run \`npm run build\` (npm run bench:logins does)`);
  const startedAt = new Date();
  const cpus = os.availableParallelism();
  const serverPool = process.env.UV_THREADPOOL_SIZE ?? String(Math.max(1, cpus - 1));
  const loadBefore = os.loadavg();
  log(
    `Gatehouse login bench: ${DURATION} s per case, warm-up ${WARMUP} s, ${CONNECTIONS} connections/workers, ${USERS} users, ` +
      `${cpus} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; load average ${loadAverage()}`,
  );

  log(`\n[1/5] argon2id reference: Gatehouse's verifyPassword, awaited in turn, in a child process with UV_THREADPOOL_SIZE=1, for ${HASH_SECONDS} s`);
  const reference = await hashReference(HASH_SECONDS);
  log(
    `  ${fmt(reference.verificationsPerSecond)} verifications/s (${fmt(reference.msPerVerification, 2)} ms each, ${reference.parameters}); ` +
      `child CPU ${fmt(reference.childCpuPercent, 0)}%, other processes ${fmt(reference.otherCpuPercent, 0)}%`,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-logins-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  log(`\n[2/5] starting Gatehouse (bin/gatehouse.cjs, UV_THREADPOOL_SIZE ${serverPool}, data dir ${dataDir})`);
  const port = await freePort(host);
  const gatehouse = await startGatehouse(host, port, dataDir, LOG_LEVEL, {}, CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []);
  const ca = fs.readFileSync(path.join(dataDir, 'tls', 'cert.pem'));
  const admin = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-credentials.json'), 'utf8')) as AdminCredentials;
  log(`  listening on https://localhost:${port} (pid ${gatehouse.process.pid}), tenant ${admin.domain}`);
  const adminReply = await httpsRequest(
    port,
    ca,
    'POST',
    '/oauth/token',
    JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: `https://localhost:${port}/api/v2/` }),
  );
  if (adminReply.status !== 200) throw new BenchError(`the admin token request answered ${adminReply.status}: ${adminReply.body.slice(0, 500)}`);
  const app = await setUpLoginApp(port, ca, (JSON.parse(adminReply.body) as { access_token: string }).access_token);
  log(
    `  created a regular web client (authorization_code, password-realm), connection ${CONNECTION} and ${USERS} users ` +
      `in ${fmt(app.usersSeconds, 2)} s (${fmt(USERS / app.usersSeconds)} users/s)`,
  );

  // Preflight: one login of each kind through verifying clients.
  const preflight = await httpsRequest(port, ca, 'POST', '/oauth/token', passwordRealmBody(app, app.emails[0]!));
  if (preflight.status !== 200) throw new BenchError(`preflight password-realm login answered ${preflight.status}: ${preflight.body.slice(0, 500)}`);
  const workers: Worker[] = Array.from({ length: CONNECTIONS }, () => ({ browser: new Browser(port, ca) }));
  try {
    checkTokens(preflight.body, 'preflight password-realm');
    await fullFlow(workers[0]!.browser, app, app.emails[0]!);
    await ssoFlow(workers[0]!.browser, app);
  } catch (error) {
    throw new BenchError(`preflight: ${error instanceof Error ? error.message : String(error)}`);
  }
  log('  preflight: a password-realm login, a full authorization-code flow and an SSO flow succeeded');

  let turn = 0;
  const nextEmail = () => app.emails[turn++ % app.emails.length]!;
  const results: LineResult[] = [];
  try {
    log(`\n[3/5] password-realm logins (autocannon)`);
    results.push(await passwordRealmCase(app, port, ca, gatehouse));
    log(`\n[4/5] authorization-code flows`);
    results.push(
      await flowCase('full flow', `authorization-code flow, 5 requests (${CONNECTIONS} workers)`, true, workers, gatehouse, (worker) =>
        fullFlow(worker.browser, app, nextEmail()),
      ),
    );
    results.push(
      await flowCase('SSO flow', `SSO flow (session cookie), 2 requests, no password (extra)`, false, workers, gatehouse, (worker) =>
        ssoFlow(worker.browser, app),
      ),
    );
  } finally {
    for (const worker of workers) worker.browser.close();
  }
  const gatehouseAlive = gatehouse.process.exitCode === null && gatehouse.process.signalCode === null;
  const loadAfterLoad = os.loadavg();

  log(`\n[5/5] argon2id reference again, after the load, for ${HASH_SECONDS} s`);
  const referenceAfter = await hashReference(HASH_SECONDS);
  log(`  ${fmt(referenceAfter.verificationsPerSecond)} verifications/s (${fmt(referenceAfter.msPerVerification, 2)} ms each), other processes ${fmt(referenceAfter.otherCpuPercent, 0)}%`);

  // ---- Report
  // The higher of the two reference figures, so that a slow reference cannot flatter the ratios.
  const hashReferenceUsed = referenceAfter.verificationsPerSecond > reference.verificationsPerSecond ? referenceAfter : reference;
  const hashRate = hashReferenceUsed.verificationsPerSecond;
  const verdict = (r: LineResult) => {
    if (!r.target) return '(no target)';
    const pass = r.perSecond >= TARGET_SHARE * hashRate;
    return `${pass ? 'PASS' : 'FAIL'}${r.failed ? '  <-- NOT TRUSTWORTHY: failures' : ''}`;
  };
  log('');
  printTable(
    [
      ['case', '/s', 'p50 ms', 'p99 ms', 'failed', `÷ hash rate`, `target ≥ ${TARGET_SHARE * 100}%`],
      [
        `argon2id verify, 1 core (reference: before ${fmt(reference.verificationsPerSecond)}, after ${fmt(referenceAfter.verificationsPerSecond)})`,
        fmt(hashRate),
        fmt(hashReferenceUsed.msPerVerification, 2),
        '',
        '',
        '',
        '',
      ],
      ...results.map((r) => [
        r.label,
        fmt(r.perSecond),
        fmt(r.latencyMs.p50, 1),
        fmt(r.latencyMs.p99, 1),
        r.failed ? `${r.failed} !!!` : '0',
        `${fmt((r.perSecond / hashRate) * 100, 0)}%`,
        verdict(r),
      ]),
    ],
    'lrrrrrl',
  );
  log('');
  log(
    `/s counts successful logins (2xx token responses) or completed flows; latencies are of those, a flow's from its first request to its token. ` +
      `Every login is ${SCOPE} scope: an access token and an ID token, RS256. The ratios are to the higher of the two reference figures.`,
  );
  log(`CPU during each case, in % of one core (${cpus} cores = ${cpus * 100}%; the server's threadpool has ${serverPool} thread(s)):`);
  for (const r of results) {
    log(
      `  ${r.case.padEnd(14)} server ${fmt(r.cpu.server, 0).padStart(3)}% (main thread ${fmt(r.cpu.serverMainThread, 0).padStart(3)}%, other threads ${fmt(r.cpu.server - r.cpu.serverMainThread, 0).padStart(3)}%), ` +
        `bench ${fmt(r.cpu.bench, 0).padStart(3)}%, other processes ${fmt(r.cpu.other, 0).padStart(3)}%, irq ${fmt(r.cpu.irq, 0).padStart(2)}%, ` +
        `steal ${fmt(r.cpu.steal, 0).padStart(2)}%, machine total ${fmt(r.cpu.machine, 0).padStart(3)}%`,
    );
  }
  log(
    `Server CPU per success, in ms (the reference spends ${fmt(reference.cpuMsPerVerification, 1)} ms of CPU per verification; ` +
      `the threadpool runs argon2 and RS256, the main thread HTTP, TLS and SQLite):`,
  );
  for (const r of results) {
    const ms = r.cpuMsPerSuccess;
    log(`  ${r.case.padEnd(14)} ${fmt(ms.server, 1).padStart(5)} ms: main thread ${fmt(ms.mainThread, 1).padStart(5)} ms, other threads ${fmt(ms.otherThreads, 1).padStart(5)} ms`);
  }
  log(`Load average (1, 5, 15 min): before ${loadBefore.map((v) => fmt(v, 2)).join(' ')}, after the load ${loadAfterLoad.map((v) => fmt(v, 2)).join(' ')}.`);

  const busy = [
    ...[reference, referenceAfter]
      .filter((ref) => ref.otherCpuPercent > OTHER_CPU_WARN_PERCENT || ref.stealCpuPercent > OTHER_CPU_WARN_PERCENT)
      .map((ref) => `a reference (other processes ${fmt(ref.otherCpuPercent, 0)}%, steal ${fmt(ref.stealCpuPercent, 0)}%)`),
    ...results
      .filter((r) => r.cpu.other > OTHER_CPU_WARN_PERCENT || r.cpu.steal > OTHER_CPU_WARN_PERCENT)
      .map((r) => `${r.case} (other processes ${fmt(r.cpu.other, 0)}%, steal ${fmt(r.cpu.steal, 0)}%)`),
  ];
  const drift = Math.abs(referenceAfter.verificationsPerSecond - reference.verificationsPerSecond) / hashRate;
  if (busy.length) {
    log('');
    log(
      `!!! The machine was not idle: during ${busy.join(', ')} of a core. ` +
        'Those numbers are understated and the ratios unreliable; rerun on a quiet machine before comparing.',
    );
  }
  if (drift > 0.1) {
    log('');
    log(`!!! The reference moved by ${fmt(drift * 100, 0)}% between the start and the end of the run: the ratios carry at least that much noise.`);
  }
  const withFailures = results.filter((r) => r.failed > 0);
  if (withFailures.length) {
    log('');
    log('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
    for (const r of withFailures) log(`!!! ${r.case}: ${r.failed} failures: ${JSON.stringify(r.failures)}`);
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
  const file = path.join(RESULTS_DIR, `logins-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = undefined;
  }
  const report = {
    bench: 'logins',
    startedAt: startedAt.toISOString(),
    commit,
    environment: {
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpus,
      cpuModel: os.cpus()[0]?.model,
      totalMemoryMB: Math.round(os.totalmem() / 1048576),
      loadAverageBefore: loadBefore,
      loadAverageAfterLoad: loadAfterLoad,
      serverThreadpoolSize: Number(serverPool),
    },
    settings: { durationSeconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS, hashSeconds: HASH_SECONDS, users: USERS, logLevel: LOG_LEVEL, scope: SCOPE, targetShare: TARGET_SHARE },
    reference,
    referenceAfterLoad: referenceAfter,
    hashRateUsed: hashRate,
    usersCreatedSeconds: app.usersSeconds,
    cases: results.map((r) => ({ ...r, shareOfHashRate: r.perSecond / hashRate, pass: r.target ? r.perSecond >= TARGET_SHARE * hashRate : undefined })),
    healthy: withFailures.length === 0 && gatehouseAlive,
    machineWasBusy: busy.length > 0,
    referenceDrift: drift,
  };
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  log(`\nResults: ${path.relative(process.cwd(), file)}`);
  if (CPU_PROF_DIR) log(`Gatehouse's CPU profile: ${CPU_PROF_DIR} (written when the bench stops it)`);

  const broken = results.filter((r) => r.successes === 0);
  if (broken.length) {
    console.error(`bench: no success at all in: ${broken.map((r) => r.case).join(', ')}`);
    return 1;
  }
  return gatehouseAlive ? 0 : 1;
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
