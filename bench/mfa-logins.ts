/**
 * MFA and passwordless login throughput (`npm run bench:mfa`), in one run
 * beside the password-realm figure they build on:
 *
 *   1. password-realm logins: POST /oauth/token (password-realm, scope
 *      openid) for users without a second factor, the next user each time;
 *   2. MFA OTP logins: the same grant for users with an authenticator app
 *      (403 mfa_required with the mfa_token), then POST /oauth/token
 *      (mfa-otp) with the code of the user's secret computed by otpauth
 *      (RFC 6238) for a time step the user has not used yet (a code works
 *      once: each user logs in at most three times per 30 s, hence
 *      BENCH_USERS users);
 *   3. passwordless OTP logins: POST /passwordless/start (send=code) for the
 *      next address of a pool, the code read from the server's outbox file
 *      as soon as it is written, then POST /oauth/token (passwordless/otp).
 *      Each start comes from another client address (X-Forwarded-For, with
 *      GATEHOUSE_TRUST_PROXY=127.0.0.1), so the per-IP limit of
 *      /passwordless/start is not what is measured; the per-address limit
 *      (10 an hour) is why the pool is large (10 × BENCH_USERS addresses), and
 *      so most of these logins are an address's first, which creates its user.
 *
 * Gatehouse (bin/gatehouse.cjs; plain HTTP, temporary data directory,
 * SQLite, LOG_LEVEL=warn, tenant rate limits out of the way, no SMTP: mail
 * goes to the outbox file) runs pinned to one core, the load (BENCH_CONNECTIONS
 * workers, each a loop of whole logins over node:http) on the other. The
 * tenant's MFA policy is `confidence-score`, which asks a second factor of
 * the users who have one, so lines 1 and 3 run without it. Each line runs
 * BENCH_ROUNDS rounds of BENCH_DURATION seconds after BENCH_WARMUP seconds of
 * unrecorded load; the table shows the medians. Nothing is asserted: line 2
 * costs one argon2id verification like line 1 plus a token request, so it
 * should come close to line 1; line 3 has no password hash to verify.
 *
 * Settings (environment): BENCH_DURATION (default 5), BENCH_WARMUP,
 * BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 8), BENCH_USERS (users
 * of each kind, default 600), BENCH_PIN (0 pins nothing), BENCH_LOG_LEVEL.
 *
 * Exit status: 0 when the bench ran; 1 when it broke; 2 for a bad setting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Secret, TOTP } from 'otpauth';
import {
  BenchError,
  adminTokenBody,
  envSeconds,
  fmt,
  fmtInt,
  freePort,
  loadLogLevel,
  loadSettings,
  log,
  managementCall,
  median,
  percentile,
  printGatehouseLog,
  printTable,
  readAdminCredentials,
  removeOnCleanup,
  request,
  requestToken,
  runMain,
  setUpPinning,
  sleep,
  startGatehouse,
  stopChild,
  type Endpoint,
} from './lib.js';

const PASSWORD = 'Bench-Password-42!';
const REALM = 'bench-users';
const GRANTS = {
  realm: 'http://auth0.com/oauth/grant-type/password-realm',
  otp: 'http://auth0.com/oauth/grant-type/mfa-otp',
  passwordless: 'http://auth0.com/oauth/grant-type/passwordless/otp',
};

interface LineResult {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/** Runs `login` in `workers` loops for `seconds`; logins per second and latency of whole logins. */
async function measure(workers: number, seconds: number, login: (worker: number) => Promise<boolean>): Promise<LineResult> {
  const deadline = performance.now() + seconds * 1000;
  const times: number[] = [];
  let failures = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const ok = await login(worker).catch(() => false);
        if (ok) times.push(performance.now() - t0);
        else failures++;
      }
    }),
  );
  const sorted = Float64Array.from(times).sort();
  return { perSecond: times.length / seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), failures };
}

/** The codes mailed by the server, read from its outbox file as it grows. */
class Outbox {
  #offset = 0;
  #pending = '';
  readonly #codes = new Map<string, string>();

  constructor(private readonly file: string) {}

  #read(): void {
    if (!fs.existsSync(this.file)) return;
    const fd = fs.openSync(this.file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= this.#offset) return;
      const buffer = Buffer.alloc(size - this.#offset);
      fs.readSync(fd, buffer, 0, buffer.length, this.#offset);
      this.#offset = size;
      const lines = (this.#pending + buffer.toString('utf8')).split('\n');
      this.#pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        const mail = JSON.parse(line) as { to: string; text: string };
        const code = /is (\d+)/.exec(mail.text)?.[1];
        if (code) this.#codes.set(mail.to, code);
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The code mailed to `to` since it was last taken (waits for the mail to be written). */
  async take(to: string): Promise<string> {
    const deadline = performance.now() + 5_000;
    for (;;) {
      this.#read();
      const code = this.#codes.get(to);
      if (code) {
        this.#codes.delete(to);
        return code;
      }
      if (performance.now() > deadline) throw new BenchError(`no code mailed to ${to}`);
      await sleep(1);
    }
  }
}

async function main(): Promise<number> {
  const settings = loadSettings({ duration: 5, connections: 8 });
  const users = Math.round(envSeconds('BENCH_USERS', 600, 10, 100_000));
  const logLevel = loadLogLevel();
  const pinning = setUpPinning();
  log(`MFA and passwordless logins: ${settings.rounds} round(s) of ${settings.duration} s per line (${settings.warmup} s warm-up), ${settings.connections} workers, ${users} users of each kind`);
  log(pinning.note);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-mfa-'));
  removeOnCleanup(dataDir);
  const port = await freePort('127.0.0.1');
  const server = await startGatehouse({ host: '127.0.0.1', port, dataDir, logLevel, cpus: pinning.serverCpus, extraEnv: { GATEHOUSE_TRUST_PROXY: '127.0.0.1' } });
  const endpoint: Endpoint = server.endpoint;
  try {
    const admin = readAdminCredentials(dataDir);
    const token = (await requestToken(endpoint, '/oauth/token', adminTokenBody(admin), 'admin token')).access_token;
    const api = <T>(method: string, url: string, body?: unknown) => managementCall<T>(endpoint, token, method, url, body);
    const client = await api<{ client_id: string; client_secret: string }>('POST', '/clients', {
      name: 'MFA bench app',
      app_type: 'regular_web',
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: [GRANTS.realm, GRANTS.otp, GRANTS.passwordless],
    });
    await api('POST', '/connections', { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
    await api('POST', '/connections', { name: 'email', strategy: 'email', enabled_clients: [client.client_id] });
    await api('PUT', '/guardian/factors/otp', { enabled: true });
    await api('PUT', '/guardian/policies', ['confidence-score']);

    log(`creating ${users} users without and ${users} with an authenticator app…`);
    const secrets: TOTP[] = [];
    for (let i = 0; i < users; i++) {
      await api('POST', '/users', { connection: REALM, email: `plain${i}@bench.example`, password: PASSWORD });
      const { user_id } = await api<{ user_id: string }>('POST', '/users', { connection: REALM, email: `mfa${i}@bench.example`, password: PASSWORD });
      const secret = new Secret({ size: 20 });
      await api('POST', `/users/${encodeURIComponent(user_id)}/authentication-methods`, { type: 'totp', totp_secret: secret.base32 });
      secrets.push(new TOTP({ secret }));
    }

    const post = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) => request(endpoint, 'POST', url, JSON.stringify(body), headers);
    const credentials = { client_id: client.client_id, client_secret: client.client_secret };
    let next = 0;
    const realmLogin = (email: string) => post('/oauth/token', { ...credentials, grant_type: GRANTS.realm, realm: REALM, username: email, password: PASSWORD, scope: 'openid' });

    const plainLogin = async () => (await realmLogin(`plain${next++ % users}@bench.example`)).status === 200;

    /** The time steps each MFA user has used: a code works once, and codes one step either side of now are accepted. */
    const used = new Map<number, Set<number>>();
    const freshStep = (user: number): number | undefined => {
      const now = Math.floor(Date.now() / 30_000);
      const steps = used.get(user) ?? new Set<number>();
      used.set(user, steps);
      for (const s of [...steps]) if (s < now - 1) steps.delete(s);
      const step = [now, now + 1, now - 1].find((s) => !steps.has(s));
      if (step !== undefined) steps.add(step);
      return step;
    };
    const mfaLogin = async () => {
      let user = next++ % users;
      let step = freshStep(user);
      for (let tries = 0; step === undefined && tries < users; tries++) step = freshStep((user = next++ % users));
      if (step === undefined) return false;
      const first = await realmLogin(`mfa${user}@bench.example`);
      if (first.status !== 403) return false;
      const { mfa_token } = JSON.parse(first.body) as { mfa_token: string };
      const otp = secrets[user]!.generate({ timestamp: step * 30_000 + 1 });
      return (await post('/oauth/token', { ...credentials, grant_type: GRANTS.otp, mfa_token, otp })).status === 200;
    };

    const outbox = new Outbox(path.join(dataDir, 'outbox.jsonl'));
    let sent = 0;
    const passwordlessLogin = async (worker: number) => {
      // Each worker keeps its own slice of the pool, so two workers never wait for one address's code.
      const email = `pl${worker}-${sent++ % Math.max(1, Math.floor((users * 10) / settings.connections))}@bench.example`;
      const ip = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
      const start = await post('/passwordless/start', { ...credentials, connection: 'email', email, send: 'code' }, { 'x-forwarded-for': ip });
      if (start.status !== 200) return false;
      const otp = await outbox.take(email);
      return (await post('/oauth/token', { ...credentials, grant_type: GRANTS.passwordless, realm: 'email', username: email, otp, scope: 'openid' })).status === 200;
    };

    const lines: [string, (worker: number) => Promise<boolean>][] = [
      ['password-realm logins', plainLogin],
      ['MFA OTP logins (password + mfa-otp)', mfaLogin],
      ['passwordless OTP logins (start + grant)', passwordlessLogin],
    ];
    const results = new Map<string, LineResult[]>(lines.map(([name]) => [name, []]));
    for (let round = 1; round <= settings.rounds; round++) {
      for (const [name, login] of lines) {
        if (settings.warmup > 0) await measure(settings.connections, settings.warmup, login);
        const result = await measure(settings.connections, settings.duration, login);
        results.get(name)!.push(result);
        log(`round ${round}: ${name}: ${fmt(result.perSecond)}/s (p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, ${result.failures} failed)`);
      }
    }

    const reference = median(results.get(lines[0]![0])!.map((r) => r.perSecond));
    const rows = [['line', 'logins/s', '÷ password-realm', 'p50 ms', 'p99 ms', 'failed']];
    for (const [name] of lines) {
      const r = results.get(name)!;
      const perSecond = median(r.map((x) => x.perSecond));
      rows.push([name, fmt(perSecond), `${fmt(perSecond / reference, 2)}x`, fmt(median(r.map((x) => x.p50))), fmt(median(r.map((x) => x.p99))), fmtInt(r.reduce((a, x) => a + x.failures, 0))]);
    }
    log('');
    printTable(rows, 'lrrrrr');
    return 0;
  } finally {
    printGatehouseLog(server.child, logLevel);
    await stopChild(server.child);
  }
}

await runMain(main);
