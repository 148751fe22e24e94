/**
 * Gatehouse benchmark (`npm run bench`): the built server against references
 * that do the same work, measured in the same run, under the same load, on the
 * same core.
 *
 * Every server runs in its own process pinned to one core (`taskset -c 0`) and
 * serves plain HTTP (GATEHOUSE_HTTP=1 for Gatehouse), so TLS does not dominate;
 * autocannon runs in this process, pinned to the other core. The cases:
 *
 *   client_credentials, 3-scope API   Gatehouse vs a minimal jose token server (the signing
 *                                     limit, bench/references/jose-token-server.mjs) vs
 *                                     node-oidc-provider (bench/references/oidc-provider-server.mjs),
 *                                     plus two Gatehouse rows labelled as such: unpinned (server and
 *                                     load share both cores) and over HTTPS
 *   JWKS, discovery                   Gatehouse vs a bare node:http server answering the same bytes
 *                                     (bench/references/static-json-server.mjs)
 *   Management API token              Gatehouse only (the admin client, every management scope)
 *   RBAC user token                   Gatehouse only: refresh_token grant for a user whose 3 roles
 *                                     hold 50 permissions of an API with enforce_policies (skipped,
 *                                     saying why, when the roles endpoints answer 404)
 *   login page                        Gatehouse only: GET /login of one transaction with the tenant's
 *                                     page template and two prompt partials, then without (bench/login-page.ts)
 *   password-login flood              Gatehouse only: client_credentials alone, password-realm logins
 *                                     alone (BENCH_LOGIN_CONNECTIONS connections, 20 users with argon2id
 *                                     hashes), then both at once: what each class keeps of its rate
 *
 * Each case runs BENCH_ROUNDS rounds; a round measures every server of the case
 * once, in turn (A B C, A B C, …), each after an unrecorded warm-up; the table
 * shows medians and the ratios Gatehouse ÷ each other row. Then the footprint:
 * start to the first 200 (Gatehouse restarted on its existing data directory,
 * timed from spawn) and idle RSS of every server after start and after the
 * load. The targets (issue 33; reported, not asserted) close the output, one
 * line each with its verdict (met / not met): client_credentials ≥ 0.95 of the
 * jose server's rate with p99 ≤ 1.25x its p99; during the login flood tokens
 * keep ≥ 0.85 of their rate with p99 ≤ 2x alone and logins keep ≥ 0.5 of
 * theirs; JWKS ≥ 0.9 of bare node:http; idle RSS ≤ 70 MiB; ready on an
 * existing data directory ≤ 500 ms. Results go to bench/results/<timestamp>.json.
 *
 * Settings (environment):
 *   BENCH_DURATION      seconds per measurement (default 5)
 *   BENCH_WARMUP        seconds of unrecorded load before each measurement (default min(2, ceil(duration/3)))
 *   BENCH_ROUNDS        rounds per case (default 3)
 *   BENCH_CONNECTIONS   autocannon connections (default 50)
 *   BENCH_HTTPS         0 leaves out the Gatehouse-over-HTTPS row (default 1)
 *   BENCH_LOGIN_CONNECTIONS  connections sending password-realm logins in the flood case (default 8)
 *   BENCH_LOGIN_TIMEOUT  seconds a login client waits before it gives up and reconnects (default 10)
 *   BENCH_FLOOD_DURATION     seconds of each line of the flood case (default twice BENCH_DURATION, at least 10)
 *   BENCH_CASES         comma-separated cases to measure (client_credentials, jwks, discovery,
 *                       management_token, rbac_user_token, login_page, login_flood); every case by default
 *   BENCH_PIN           0 pins nothing (default 1)
 *   BENCH_LOG_LEVEL     LOG_LEVEL of the Gatehouse processes (default warn)
 *
 * Exit status: 0 when the bench ran (targets are reported, not asserted);
 * 1 when it broke (a server did not start, a preflight request failed, a
 * case got no successful response at all, or a server died); 2 for a bad
 * setting.
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BenchError,
  LOAD_SATURATED_PERCENT,
  NO_RATE_LIMIT,
  ROOT,
  StatusError,
  TYPICAL_AUDIENCE,
  TYPICAL_SCOPES,
  adminTokenBody,
  alternate,
  envSeconds,
  failureLine,
  failures,
  fmt,
  fmtInt,
  fmtRatio,
  freePort,
  idleRssMB,
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
  printGatehouseLog,
  printTable,
  readAdminCredentials,
  readCpuSeconds,
  readMainThreadCpuSeconds,
  readMemory,
  removeOnCleanup,
  repin,
  request,
  requestToken,
  roundCells,
  runMain,
  setUpPinning,
  setUpTypicalApi,
  sleep,
  startGatehouse,
  startReference,
  stopChild,
  summarize,
  verifyAccessToken,
  wasBusy,
  writeResults,
  type CaseResult,
  type Endpoint,
  type LoadCase,
  type Pinning,
  type StartedServer,
  type TokenReply,
  type Summary,
  type VerifiedToken,
} from './lib.js';
import { openLoginPage, setTemplated, setUpLoginPages } from './login-page.js';

// ---------------------------------------------------------------------------
// Settings and targets

const SETTINGS = loadSettings({ duration: 5, connections: 50 });
const LOG_LEVEL = loadLogLevel();
const HTTPS_ROW = process.env.BENCH_HTTPS?.trim() !== '0';

/** The targets of issue 33 (reported, not asserted): every one a ratio to a reference or a bound measured in this run. */
const TARGETS = {
  /** client_credentials req/s at least this share of the minimal jose server's (the signing limit). */
  vsJose: 0.95,
  /** client_credentials p99 at most this multiple of the minimal jose server's p99, at BENCH_CONNECTIONS connections. */
  p99VsJose: 1.25,
  /** During a password-login flood: client_credentials keeps at least this share of its rate alone… */
  floodTokensKept: 0.85,
  /** …with its p99 at most this multiple of its p99 alone… */
  floodTokensP99: 2,
  /** …and the logins keep at least this share of their rate alone. */
  floodLoginsKept: 0.5,
  /** The login page with a page template and partials: at most this multiple of the time of the page without (issue 31). */
  templatedPage: 1.5,
  /** JWKS req/s at least this share of the bare node:http server's. */
  vsBare: 0.9,
  idleRssMiB: 70,
  readyMs: 500,
};

/** The password-login flood: connections sending password-realm logins (each for the next of LOGIN_USERS users). */
const LOGIN_CONNECTIONS = Math.round(envSeconds('BENCH_LOGIN_CONNECTIONS', 8, 1, 256));
/** BENCH_LOGIN_TIMEOUT: seconds a login client waits before it gives up and reconnects (autocannon's timeout). */
const LOGIN_TIMEOUT = envSeconds('BENCH_LOGIN_TIMEOUT', 10, 0.5, 60);
/**
 * Seconds of each line of the flood (default twice BENCH_DURATION, at least 10): a login during
 * the flood takes several turns of a busy event loop and a share of the core, and on a shared
 * machine that can be seconds; a window shorter than that counts none of them.
 */
const FLOOD_DURATION = envSeconds('BENCH_FLOOD_DURATION', Math.max(10, 2 * SETTINGS.duration), 1, 600);
const LOGIN_USERS = 20;
/** BENCH_CASES: a comma-separated subset of the cases to measure (e.g. `client_credentials,login_flood` while profiling); every case by default. */
const ONLY_CASES = process.env.BENCH_CASES?.trim() ? new Set(process.env.BENCH_CASES.split(',').map((c) => c.trim())) : undefined;

const OIDC_PROVIDER_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'oidc-provider', 'package.json'), 'utf8')) as { version: string }).version;

// ---------------------------------------------------------------------------
// The RBAC user token case

const RBAC_AUDIENCE = 'https://bench-rbac.example.com/';
const RBAC_PERMISSIONS = Array.from({ length: 50 }, (_, i) => `perm:${String(i).padStart(2, '0')}`);
const RBAC_REALM = 'bench-users';
const RBAC_EMAIL = 'bench@example.com';
const RBAC_PASSWORD = 'Bench-password-1234';

/**
 * Creates, through the Management API, an API with 50 scopes, RBAC on
 * (`enforce_policies`) and the `access_token_authz` dialect (so every token
 * carries a `permissions` claim); three roles holding 20, 20 and 10 of the
 * permissions; a database connection, a user holding the three roles, and a
 * confidential client with non-rotating refresh tokens. Logs the user in
 * once (password-realm, offline_access) and returns the body of a
 * `refresh_token` request: every such request issues a user token whose
 * scopes and permissions are computed from the user's roles, without an
 * argon2 verification. A 404 from an endpoint this needs (the roles'
 * permissions and the user's roles may not be in this build yet) returns the
 * reason to skip the case instead.
 */
async function setUpRbacUserToken(endpoint: Endpoint, adminToken: string): Promise<{ body: string } | { skipped: string }> {
  const call = <T>(method: string, urlPath: string, body: unknown) => managementCall<T>(endpoint, adminToken, method, urlPath, body);
  try {
    await call('POST', '/resource-servers', {
      name: 'Bench RBAC API',
      identifier: RBAC_AUDIENCE,
      scopes: RBAC_PERMISSIONS.map((value) => ({ value, description: value })),
      enforce_policies: true,
      token_dialect: 'access_token_authz',
      allow_offline_access: true,
    });
    const client = await call<{ client_id: string; client_secret: string }>('POST', '/clients', {
      name: 'Bench RBAC app',
      app_type: 'regular_web',
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['http://auth0.com/oauth/grant-type/password-realm', 'refresh_token'],
      refresh_token: { rotation_type: 'non-rotating', expiration_type: 'non-expiring' },
    });
    await call('POST', '/connections', { name: RBAC_REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
    const user = await call<{ user_id: string }>('POST', '/users', { connection: RBAC_REALM, email: RBAC_EMAIL, password: RBAC_PASSWORD, verify_email: false });
    const roleIds: string[] = [];
    for (const [index, slice] of [RBAC_PERMISSIONS.slice(0, 20), RBAC_PERMISSIONS.slice(20, 40), RBAC_PERMISSIONS.slice(40)].entries()) {
      const role = await call<{ id: string }>('POST', '/roles', { name: `bench-role-${index}` });
      await call('POST', `/roles/${role.id}/permissions`, {
        permissions: slice.map((permission_name) => ({ resource_server_identifier: RBAC_AUDIENCE, permission_name })),
      });
      roleIds.push(role.id);
    }
    await call('POST', `/users/${encodeURIComponent(user.user_id)}/roles`, { roles: roleIds });
    const login = await requestToken(
      endpoint,
      '/oauth/token',
      JSON.stringify({
        grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
        client_id: client.client_id,
        client_secret: client.client_secret,
        username: RBAC_EMAIL,
        password: RBAC_PASSWORD,
        realm: RBAC_REALM,
        audience: RBAC_AUDIENCE,
        scope: `offline_access ${RBAC_PERMISSIONS.join(' ')}`,
      }),
      "the RBAC user's login",
    );
    if (typeof login.refresh_token !== 'string') throw new BenchError("the RBAC user's login returned no refresh_token");
    return { body: JSON.stringify({ grant_type: 'refresh_token', client_id: client.client_id, client_secret: client.client_secret, refresh_token: login.refresh_token }) };
  } catch (error) {
    if (error instanceof StatusError && error.status === 404) return { skipped: `${error.what.replace(/\/[A-Za-z0-9_%|.-]{16,}/g, '/{id}')} answered 404 (not in this build)` };
    throw error;
  }
}

// ---------------------------------------------------------------------------
// The password-login flood

const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
const LOGIN_REALM = 'bench-logins';
const LOGIN_PASSWORD = 'correct horse battery staple';

/**
 * Through the Management API: a first-party client allowed the password-realm
 * grant, a database connection enabled for it and LOGIN_USERS users (argon2id
 * hashes, as every user created through the API). Returns one password-realm
 * body per user (scope `openid`: an access and an ID token per login), sent in
 * turn so that no user is verified twice in a row.
 */
async function setUpPasswordLogins(endpoint: Endpoint, adminToken: string): Promise<string[]> {
  const call = <T>(urlPath: string, body: unknown) => managementCall<T>(endpoint, adminToken, 'POST', urlPath, body);
  const client = await call<{ client_id: string; client_secret: string }>('/clients', {
    name: 'Bench login app',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: [PASSWORD_REALM_GRANT],
    is_first_party: true,
  });
  await call('/connections', { name: LOGIN_REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
  const bodies: string[] = [];
  for (let i = 1; i <= LOGIN_USERS; i++) {
    const email = `login${String(i).padStart(3, '0')}@bench.example`;
    await call('/users', { connection: LOGIN_REALM, email, password: LOGIN_PASSWORD, verify_email: false });
    bodies.push(
      JSON.stringify({ grant_type: PASSWORD_REALM_GRANT, realm: LOGIN_REALM, username: email, password: LOGIN_PASSWORD, client_id: client.client_id, client_secret: client.client_secret, scope: 'openid' }),
    );
  }
  return bodies;
}

interface FloodOutcome {
  /** During the flood (median over the rounds): the share of the server's CPU its main thread (the event loop: tokens and the rest of each login) used; the rest is mostly the hashing threads. */
  mainThreadShare: number;
  tokensAlone: Summary;
  loginsAlone: Summary;
  tokensDuring: Summary;
  loginsDuring: Summary;
  results: CaseResult[];
}

/**
 * Each round, in turn: client_credentials alone (BENCH_CONNECTIONS), password-realm logins alone
 * (BENCH_LOGIN_CONNECTIONS), then both at once (both measured over the
 * same seconds, without a warm-up; the logins' connections open a second after the tokens'). What
 * each class keeps is its rate during the flood ÷ its rate alone.
 */
async function runLoginFlood(tokens: LoadCase, logins: LoadCase, index: number, count: number): Promise<FloodOutcome> {
  log(`\n[case ${index}/${count}] password-login flood: ${SETTINGS.rounds} round(s) of client_credentials alone, logins alone, both at once (${FLOOD_DURATION} s each)`);
  const settings = { ...SETTINGS, duration: FLOOD_DURATION };
  const loginSettings = { ...settings, connections: LOGIN_CONNECTIONS };
  const tag = (round: number, what: string) => `round ${round}/${SETTINGS.rounds} ${what}`;
  const pid = tokens.server.process.pid!;
  const mainThreadShares: number[] = [];
  const results = await alternate<CaseResult[]>(SETTINGS.rounds, [
    { key: 'tokens', run: async (round) => [await measure(tokens, settings, tag(round, 'client_credentials alone'))] },
    { key: 'logins', run: async (round) => [await measure(logins, loginSettings, tag(round, `password-realm logins alone (${LOGIN_CONNECTIONS} connections)`))] },
    {
      key: 'both',
      run: async (round) => {
        // No warm-up of its own: the server is warm from the two lines before, and the logins a
        // warm-up leaves in flight when its connections close would still take the hashing threads
        // during the measurement (the server does not cancel them).
        const [process0, main0] = [readCpuSeconds(pid) ?? NaN, readMainThreadCpuSeconds(pid) ?? NaN];
        // The logins' connections open a second after the tokens' (whose line lasts that second
        // longer): when two sets of connections open in the same instant at a server whose event loop
        // is saturated, the set that opened a few milliseconds later can get almost nothing for
        // seconds (measured with a bare node:http server signing on its event loop too), whatever
        // its requests are: that would measure the burst, not the share of each class.
        const tokensLine = measure(tokens, { ...settings, duration: settings.duration + 1, warmup: 0 }, tag(round, 'client_credentials during the flood'));
        await sleep(1_000);
        const both = await Promise.all([tokensLine, measure(logins, { ...loginSettings, warmup: 0 }, tag(round, 'password-realm logins during the flood'))]);
        const share = ((readMainThreadCpuSeconds(pid) ?? NaN) - main0) / ((readCpuSeconds(pid) ?? NaN) - process0);
        mainThreadShares.push(share);
        log(`  round ${round}/${SETTINGS.rounds} during the flood, the server's event loop used ${fmt(100 * share, 0)}% of its CPU, its other threads (password hashing) ${fmt(100 * (1 - share), 0)}%`);
        return both;
      },
    },
  ]);
  const of = (key: string, i = 0) => results.get(key)!.map((r) => r[i]!);
  return {
    mainThreadShare: median(mainThreadShares),
    tokensAlone: summarize(of('tokens')),
    loginsAlone: summarize(of('logins')),
    tokensDuring: summarize(of('both', 0)),
    loginsDuring: summarize(of('both', 1)),
    results: [...results.values()].flat(2),
  };
}

// ---------------------------------------------------------------------------
// Cases and their servers

/** One server's line in a case. */
interface Contender {
  key: string;
  label: string;
  load: LoadCase;
  /** Called before and after each of its measurements (the unpinned row widens the affinities; the templated login page puts its template). */
  before?: () => void | Promise<void>;
  after?: () => void | Promise<void>;
}

interface CaseSpec {
  key: string;
  label: string;
  /** The first contender is Gatehouse as deployed here (pinned, plain HTTP): the numerator of every ratio. */
  contenders: Contender[];
  skipped?: string;
}

interface CaseOutcome {
  spec: CaseSpec;
  rows: { contender: Contender; results: CaseResult[]; summary: Summary }[];
}

async function runCase(spec: CaseSpec, index: number, count: number): Promise<CaseOutcome> {
  log(`\n[case ${index}/${count}] ${spec.label}: ${SETTINGS.rounds} round(s) of ${spec.contenders.map((c) => c.key).join(', ')}`);
  const results = await alternate(
    SETTINGS.rounds,
    spec.contenders.map((contender) => ({
      key: contender.key,
      run: async (round: number) => {
        await contender.before?.();
        try {
          return await measure(contender.load, SETTINGS, `round ${round}/${SETTINGS.rounds} ${contender.key}`);
        } finally {
          await contender.after?.();
        }
      },
    })),
  );
  return {
    spec,
    rows: spec.contenders.map((contender) => {
      const list = results.get(contender.key)!;
      return { contender, results: list, summary: summarize(list) };
    }),
  };
}

// ---------------------------------------------------------------------------
// Main

interface Footprint {
  label: string;
  readyMs: number;
  /** Each restart's time to the first 200, for Gatehouse on its existing data directory. */
  readyMsRuns?: number[];
  firstTokenMs?: number;
  idleRssAfterStartMiB: number;
  idleRssAfterLoadMiB: number;
  hwmMiB: number;
}

async function main(): Promise<number> {
  const pinning: Pinning = setUpPinning();
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build` (npm run bench does)');
  logHeader(
    'Gatehouse bench',
    `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per server and case, warm-up ${SETTINGS.warmup} s, ${SETTINGS.connections} connections, plain HTTP`,
    pinning,
  );
  const cpus = pinning.serverCpus;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  removeOnCleanup(dataDir);
  // The servers listen on the address `localhost` resolves to, which is what the clients dial.
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);

  // ---- 1. First start on an empty data directory: the tenant, its keys and the bench's objects.
  log(`\n[1/4] Gatehouse, first start (empty data directory ${dataDir}): creating the bench's API, clients and users`);
  const first = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus });
  const admin = readAdminCredentials(dataDir);
  const adminToken = (await requestToken(first.endpoint, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const typical = await setUpTypicalApi(first.endpoint, adminToken);
  let rbac = await setUpRbacUserToken(first.endpoint, adminToken);
  const loginBodies = await setUpPasswordLogins(first.endpoint, adminToken);
  const pages = await setUpLoginPages(first.endpoint, adminToken);
  log(`  ready in ${fmtInt(first.readyMs)} ms; created ${TYPICAL_AUDIENCE} (${TYPICAL_SCOPES.length} scopes) with a client and its grant`);
  log(`  created a database connection with ${LOGIN_USERS} users and a first-party client allowed the password-realm grant (the login flood)`);
  log('skipped' in rbac ? `  RBAC user token: skipped: ${rbac.skipped}` : `  created ${RBAC_AUDIENCE} (${RBAC_PERMISSIONS.length} scopes, RBAC), 3 roles and a user holding them`);
  await stopChild(first.child);

  // ---- 2. Restarts on the existing data directory: time to the first 200 and idle RSS.
  log(`\n[2/4] Gatehouse restarted ${SETTINGS.rounds} time(s) on its existing data directory: spawn to the first 200 of GET /health, idle RSS 1 s later`);
  const restarts: { readyMs: number; rss: number; firstTokenMs: number }[] = [];
  let gatehouse!: StartedServer;
  for (let i = 1; i <= SETTINGS.rounds; i++) {
    gatehouse = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus });
    const rss = await idleRssMB(gatehouse.child);
    const firstTokenMs = (await requestToken(gatehouse.endpoint, '/oauth/token', typical.tokenBody, 'typical API client')).ms;
    restarts.push({ readyMs: gatehouse.readyMs, rss, firstTokenMs });
    log(`  start ${i}: first 200 after ${fmtInt(gatehouse.readyMs)} ms, idle RSS ${fmt(rss)} MiB, then the first token request took ${fmt(firstTokenMs, 1)} ms`);
    if (i < SETTINGS.rounds) await stopChild(gatehouse.child);
  }
  const g = gatehouse.endpoint;

  // ---- 3. The references and the HTTPS Gatehouse, each started and checked.
  log(`\n[3/4] references (each its own process${cpus ? `, on core ${cpus}` : ''}) and preflight checks`);
  const jwksBody = (await request(g, 'GET', '/.well-known/jwks.json')).body;
  const discoveryBody = (await request(g, 'GET', '/.well-known/openid-configuration')).body;
  const bodiesFile = path.join(dataDir, 'bench-static-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify({ '/.well-known/jwks.json': jwksBody, '/.well-known/openid-configuration': discoveryBody }));
  const referenceEnv = {
    BENCH_CLIENT_ID: typical.clientId,
    BENCH_CLIENT_SECRET: typical.clientSecret,
    BENCH_AUDIENCE: TYPICAL_AUDIENCE,
    BENCH_SCOPE: TYPICAL_SCOPES.join(' '),
  };
  const issuer = `https://localhost:${port}/`;
  const josePort = await freePort(host);
  const jose = await startReference('jose token server', 'jose-token-server.mjs', host, josePort, '/.well-known/jwks.json', cpus, { ...referenceEnv, BENCH_ISSUER: issuer });
  const oidcPort = await freePort(host);
  const oidc = await startReference('oidc-provider', 'oidc-provider-server.mjs', host, oidcPort, '/.well-known/openid-configuration', cpus, {
    ...referenceEnv,
    BENCH_ISSUER: `http://localhost:${oidcPort}`,
  });
  const bare = await startReference('bare node:http', 'static-json-server.mjs', host, await freePort(host), '/.well-known/jwks.json', cpus, { BENCH_BODIES: bodiesFile });
  const secure = HTTPS_ROW ? await startGatehouse({ host, port: await freePort(host), dataDir, logLevel: LOG_LEVEL, cpus, https: true, domainPort: port }) : undefined;
  // Idle RSS of each, at least 1 s after its first 200 (the last one started waits 1 s; the others waited longer).
  const referenceRss = new Map<StartedServer, number>();
  await sleep(1_000);
  for (const server of [jose, oidc, bare, ...(secure ? [secure] : [])]) referenceRss.set(server, readMemory(server.child.process.pid!)?.rssMB ?? NaN);
  const oidcWarning = /WARNING: Unsupported runtime[^\n]*/.exec(oidc.child.output())?.[0];
  if (oidcWarning) log(`  node-oidc-provider ${OIDC_PROVIDER_VERSION} says "${oidcWarning.trim()}" on Node ${process.version}; it runs, and its tokens are checked below`);

  // Preflight: every token verifies against its server's published key, with the expected audience and scopes.
  const oidcBody = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: typical.clientId,
    client_secret: typical.clientSecret,
    resource: TYPICAL_AUDIENCE,
    scope: TYPICAL_SCOPES.join(' '),
  }).toString();
  const FORM = 'application/x-www-form-urlencoded';
  const expectTypical = (what: string, iss?: string) => ({ audience: TYPICAL_AUDIENCE, scopes: TYPICAL_SCOPES, what, ...(iss !== undefined && { issuer: iss }) });
  const tokens: Record<string, VerifiedToken> = {};
  tokens.gatehouse = await verifyAccessToken((await requestToken(g, '/oauth/token', typical.tokenBody, 'Gatehouse')).access_token, g, '/.well-known/jwks.json', expectTypical('Gatehouse', issuer));
  const joseToken = await requestToken(jose.endpoint, '/oauth/token', typical.tokenBody, 'jose server');
  tokens.jose = await verifyAccessToken(joseToken.access_token, jose.endpoint, '/.well-known/jwks.json', expectTypical('the jose server', issuer));
  const oidcToken = await requestToken(oidc.endpoint, '/token', oidcBody, 'oidc-provider', FORM);
  tokens.oidcProvider = await verifyAccessToken(oidcToken.access_token, oidc.endpoint, '/jwks', expectTypical('oidc-provider', `http://localhost:${oidcPort}`));
  const claimNames = (t: VerifiedToken) => `${Object.keys(t.header).sort().join(',')} / ${Object.keys(t.payload).sort().join(',')}`;
  if (claimNames(tokens.jose) !== claimNames(tokens.gatehouse)) {
    throw new BenchError(`the jose server's token has other header fields or claims than Gatehouse's: ${claimNames(tokens.jose)} vs ${claimNames(tokens.gatehouse)}`);
  }
  if (secure) {
    // Over HTTPS with certificate verification against the generated certificate (autocannon does not verify).
    const t = await requestToken(secure.endpoint, '/oauth/token', typical.tokenBody, 'Gatehouse over HTTPS');
    tokens.gatehouseHttps = await verifyAccessToken(t.access_token, secure.endpoint, '/.well-known/jwks.json', expectTypical('Gatehouse over HTTPS', issuer));
  }
  const adminVerified = await verifyAccessToken((await requestToken(g, '/oauth/token', adminTokenBody(admin), 'admin')).access_token, g, '/.well-known/jwks.json', {
    audience: admin.audience,
    issuer,
    what: 'the admin client',
  });
  let rbacVerified: VerifiedToken | undefined;
  if ('body' in rbac) {
    rbacVerified = await verifyAccessToken((await requestToken(g, '/oauth/token', rbac.body, 'RBAC user')).access_token, g, '/.well-known/jwks.json', {
      audience: RBAC_AUDIENCE,
      issuer,
      what: 'the RBAC user (refresh_token)',
    });
    const permissions = rbacVerified.payload.permissions;
    if (!Array.isArray(permissions) || permissions.length !== RBAC_PERMISSIONS.length) {
      // The roles endpoints answered, but this build does not put the roles' permissions in user tokens yet.
      rbac = { skipped: `the user token carries ${Array.isArray(permissions) ? permissions.length : 'no'} permissions, not the ${RBAC_PERMISSIONS.length} of its roles` };
      log(`  RBAC user token: skipped: ${rbac.skipped}`);
      rbacVerified = undefined;
    }
  }
  for (const [pathName, body] of [
    ['/.well-known/jwks.json', jwksBody],
    ['/.well-known/openid-configuration', discoveryBody],
  ] as const) {
    const reply = await request(bare.endpoint, 'GET', pathName);
    if (reply.status !== 200 || reply.body !== body) throw new BenchError(`the bare server's ${pathName} is not Gatehouse's (${reply.status})`);
    JSON.parse(reply.body);
  }
  const loginPage = await openLoginPage(g, pages.clientId);
  const login = (await requestToken(g, '/oauth/token', loginBodies[0]!, 'password-realm login')) as TokenReply & { id_token?: unknown };
  if (typeof login.id_token !== 'string') throw new BenchError('the password-realm login answered without an id_token');
  for (const [name, t] of Object.entries(tokens)) {
    log(`  ${name}: ${t.bytes}-byte ${String(t.header.alg)} ${String(t.header.typ)} token, verified; claims ${Object.keys(t.payload).join(' ')}`);
  }
  log(`  bare node:http serves Gatehouse's JWKS (${jwksBody.length} bytes) and discovery document (${discoveryBody.length} bytes), byte for byte`);

  // ---- 4. Load.
  const gatehouseCase = (name: string, body: string): LoadCase => ({ name, method: 'POST', path: '/oauth/token', body, endpoint: g, server: gatehouse.child });
  const unpinned: Contender | undefined = pinning.pinned
    ? {
        key: 'gatehouse, unpinned',
        label: 'gatehouse UNPINNED: server and load share both cores',
        load: gatehouseCase('client_credentials unpinned', typical.tokenBody),
        // The same process, its threads allowed on every core, and so is the load generator: as the previous bench ran.
        before: () => {
          repin(gatehouse.child.process.pid!, pinning.allCpus);
          repin(process.pid, pinning.allCpus);
        },
        after: () => {
          repin(gatehouse.child.process.pid!, pinning.serverCpus!);
          repin(process.pid, pinning.loadCpus!);
        },
      }
    : undefined;
  const specs: CaseSpec[] = [
    {
      key: 'client_credentials',
      label: `client_credentials, 3-scope API (POST /oauth/token)`,
      contenders: [
        { key: 'gatehouse', label: 'gatehouse', load: gatehouseCase('client_credentials', typical.tokenBody) },
        {
          key: 'jose',
          label: 'minimal jose server (signing limit)',
          load: { name: 'client_credentials jose', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: jose.endpoint, server: jose.child },
        },
        {
          key: 'oidc-provider',
          label: `node-oidc-provider ${OIDC_PROVIDER_VERSION} (POST /token, form)`,
          load: { name: 'client_credentials oidc-provider', method: 'POST', path: '/token', body: oidcBody, contentType: FORM, endpoint: oidc.endpoint, server: oidc.child },
        },
        ...(unpinned ? [unpinned] : []),
        ...(secure
          ? [
              {
                key: 'gatehouse, https',
                label: `gatehouse over HTTPS (TLS${cpus ? `, core ${cpus}` : ''})`,
                load: { name: 'client_credentials https', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: secure.endpoint, server: secure.child },
              } satisfies Contender,
            ]
          : []),
      ],
    },
    ...(['jwks', 'discovery'] as const).map((key) => {
      const urlPath = key === 'jwks' ? '/.well-known/jwks.json' : '/.well-known/openid-configuration';
      return {
        key,
        label: `${key === 'jwks' ? 'JWKS' : 'discovery'} (GET ${urlPath})`,
        contenders: [
          { key: 'gatehouse', label: 'gatehouse', load: { name: key, method: 'GET', path: urlPath, endpoint: g, server: gatehouse.child } },
          { key: 'bare', label: 'bare node:http, same bytes', load: { name: `${key} bare`, method: 'GET', path: urlPath, endpoint: bare.endpoint, server: bare.child } },
        ],
      } satisfies CaseSpec;
    }),
    {
      key: 'management_token',
      label: 'Management API token (admin client, every scope)',
      contenders: [{ key: 'gatehouse', label: 'gatehouse', load: gatehouseCase('management token', adminTokenBody(admin)) }],
    },
    {
      key: 'rbac_user_token',
      label: `RBAC user token (refresh_token; 3 roles, ${RBAC_PERMISSIONS.length} permissions)`,
      contenders: 'body' in rbac ? [{ key: 'gatehouse', label: 'gatehouse', load: gatehouseCase('rbac user token', rbac.body) }] : [],
      ...('skipped' in rbac && { skipped: rbac.skipped }),
    },
    {
      key: 'login_page',
      label: 'login page (GET /login): page template + 2 partials vs none',
      contenders: [
        {
          key: 'gatehouse',
          label: 'gatehouse, template + 2 partials',
          load: { name: 'login page templated', method: 'GET', path: loginPage.path, headers: loginPage.headers, endpoint: g, server: gatehouse.child },
          before: () => setTemplated(g, adminToken, loginPage, true),
          after: () => setTemplated(g, adminToken, loginPage, false),
        },
        { key: 'plain', label: 'gatehouse, no template', load: { name: 'login page plain', method: 'GET', path: loginPage.path, headers: loginPage.headers, endpoint: g, server: gatehouse.child } },
      ],
    },
  ];
  log(`\n[4/4] load: ${SETTINGS.rounds} round(s) per case, servers in turn within each round`);
  const outcomes: CaseOutcome[] = [];
  const wanted = (key: string) => !ONLY_CASES || ONLY_CASES.has(key);
  const measured = specs.filter((s) => !s.skipped && wanted(s.key));
  const floodWanted = wanted('login_flood');
  const caseCount = measured.length + (floodWanted ? 1 : 0);
  for (const [i, spec] of measured.entries()) outcomes.push(await runCase(spec, i + 1, caseCount));
  const flood = floodWanted
    ? await runLoginFlood(
        gatehouseCase('client_credentials', typical.tokenBody),
        { name: 'password-realm logins', method: 'POST', path: '/oauth/token', bodies: loginBodies, endpoint: g, server: gatehouse.child, timeoutSeconds: LOGIN_TIMEOUT },
        caseCount,
        caseCount,
      )
    : undefined;
  const alive = [gatehouse, jose, oidc, bare, ...(secure ? [secure] : [])].every((s) => isRunning(s.child));

  // Idle RSS after the load, after the same settling time as after start.
  const afterLoad = new Map<StartedServer, number>();
  await sleep(1_000);
  for (const server of [gatehouse, jose, oidc, bare, ...(secure ? [secure] : [])]) afterLoad.set(server, readMemory(server.child.process.pid!)?.rssMB ?? NaN);

  // ---- Report: load
  log('');
  log(`Load: medians of ${SETTINGS.rounds} round(s); ratio = Gatehouse (the case's first row) ÷ the row, for req/s and for p99.`);
  const table: string[][] = [
    ['case', 'server', 'req/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'RSS MiB', 'failed', 'req/s ratio', 'p99 ratio', 'req/CPU-s', 'ratio'],
  ];
  for (const spec of specs) {
    const outcome = outcomes.find((o) => o.spec === spec);
    if (!outcome) {
      table.push([spec.label, 'skipped (see below)']);
      continue;
    }
    const [head] = outcome.rows;
    for (const [i, row] of outcome.rows.entries()) {
      const s = row.summary;
      table.push([
        i === 0 ? spec.label : '',
        row.contender.label,
        `${fmtInt(s.reqPerSec)}${s.loadCpuPercent >= LOAD_SATURATED_PERCENT ? '*' : ''}`,
        ...roundCells(s),
        fmt(s.rssEndMB),
        s.failed ? `${s.failed} !!!` : '0',
        i === 0 ? '' : fmtRatio(head!.summary.reqPerSec / s.reqPerSec),
        i === 0 ? '' : fmtRatio(head!.summary.p99Ms / s.p99Ms),
        fmtInt(s.perCpuSecond),
        i === 0 ? '' : fmtRatio(head!.summary.perCpuSecond / s.perCpuSecond),
      ]);
    }
  }
  printTable(table, 'llrrrrrrrrrrrrr');
  for (const spec of specs.filter((x) => x.skipped)) log(`${spec.label}: skipped: ${spec.skipped}`);
  log(
    `req/s counts 2xx responses only; ±% is half the range of req/s over the rounds, in % of the median; latencies are of 2xx responses. ` +
      `CPU in % of one core: server = the server process (threadpool included; ~100 when pinned and saturated), load = autocannon's process, ` +
      `other = every other process on the machine (other engineers' tests, builds). * = autocannon used ≥ ${LOAD_SATURATED_PERCENT}% of its core: ` +
      `that rate may be the load generator's limit, not the server's. RSS is VmRSS at the end of the last round. ` +
      `req/CPU-s = 2xx responses per CPU-second of the server: when other processes take the server's core, req/s falls with the CPU the server gets, ` +
      `and this column (with its ratio) shows what it did with that CPU.`,
  );

  // ---- Report: footprint
  const gatehouseFootprint: Footprint = {
    label: 'gatehouse (restart, existing data dir)',
    readyMs: median(restarts.map((r) => r.readyMs)),
    readyMsRuns: restarts.map((r) => r.readyMs),
    firstTokenMs: median(restarts.map((r) => r.firstTokenMs)),
    idleRssAfterStartMiB: median(restarts.map((r) => r.rss)),
    idleRssAfterLoadMiB: afterLoad.get(gatehouse)!,
    hwmMiB: readMemory(gatehouse.child.process.pid!)?.hwmMB ?? NaN,
  };
  const footprintOf = (label: string, server: StartedServer): Footprint => ({
    label,
    readyMs: server.readyMs,
    idleRssAfterStartMiB: referenceRss.get(server)!,
    idleRssAfterLoadMiB: afterLoad.get(server)!,
    hwmMiB: readMemory(server.child.process.pid!)?.hwmMB ?? NaN,
  });
  const footprints: Footprint[] = [
    gatehouseFootprint,
    { label: 'gatehouse, first start (empty data dir)', readyMs: first.readyMs, idleRssAfterStartMiB: NaN, idleRssAfterLoadMiB: NaN, hwmMiB: NaN },
    ...(secure ? [footprintOf('gatehouse over HTTPS', secure)] : []),
    footprintOf('minimal jose server', jose),
    footprintOf(`node-oidc-provider ${OIDC_PROVIDER_VERSION}`, oidc),
    footprintOf('bare node:http', bare),
  ];
  /** The first start's line has only its time to the first 200. */
  const blankIfNaN = (n: number) => (Number.isNaN(n) ? '' : fmt(n));
  log('');
  log(`Footprint: spawn to the first 200 (polled every 10 ms), idle RSS 1 s after start and 1 s after the load; ratio = Gatehouse ÷ the row (idle RSS after start).`);
  printTable(
    [
      ['server', 'first 200 ms', 'idle RSS after start MiB', 'idle RSS after load MiB', 'peak RSS MiB', 'RSS ratio'],
      ...footprints.map((f, i) => [
        f.label,
        `${fmtInt(f.readyMs)}${f.readyMsRuns && f.readyMsRuns.length > 1 ? ` (${f.readyMsRuns.map(fmtInt).join(', ')})` : ''}`,
        blankIfNaN(f.idleRssAfterStartMiB),
        blankIfNaN(f.idleRssAfterLoadMiB),
        blankIfNaN(f.hwmMiB),
        i === 0 ? '' : fmtRatio(gatehouseFootprint.idleRssAfterStartMiB / f.idleRssAfterStartMiB),
      ]),
    ],
    'lrrrrr',
  );
  log(
    `Gatehouse: the median of ${restarts.length} restart(s) (each run in brackets); its first token request after start took ${fmt(gatehouseFootprint.firstTokenMs!, 1)} ms (median). ` +
      `Readiness: GET /health for Gatehouse, /.well-known/jwks.json for the jose and bare servers, /.well-known/openid-configuration for oidc-provider.`,
  );

  // ---- Report: the password-login flood
  if (flood) {
    log('');
    log(`Password-login flood: medians of ${SETTINGS.rounds} round(s); kept = the rate during the flood ÷ the same class alone; p99 ratio = during ÷ alone.`);
    const floodRow = (label: string, s: Summary, alone?: Summary) => [
      label,
      fmtInt(s.reqPerSec),
      ...roundCells(s),
      s.failed ? `${s.failed} !!!` : '0',
      alone ? fmtRatio(s.reqPerSec / alone.reqPerSec) : '',
      alone ? fmtRatio(s.p99Ms / alone.p99Ms) : '',
    ];
    printTable(
      [
        ['line', '/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'kept', 'p99 ratio'],
        floodRow(`client_credentials alone (${SETTINGS.connections} connections)`, flood.tokensAlone),
        floodRow(`password-realm logins alone (${LOGIN_CONNECTIONS} connections, argon2id)`, flood.loginsAlone),
        floodRow('client_credentials during the flood', flood.tokensDuring, flood.tokensAlone),
        floodRow('password-realm logins during the flood', flood.loginsDuring, flood.loginsAlone),
      ],
      'lrrrrrrrrrr',
    );
    log(
      `  the two lines during the flood ran over the same seconds; their server CPU % is the same process's, counted in each line: ` +
        `${fmt(100 * flood.mainThreadShare, 0)}% of it on the event loop (tokens, and the logins' requests), ${fmt(100 * (1 - flood.mainThreadShare), 0)}% on other threads (password hashing).`,
    );
  }

  // ---- Targets
  const summaryOf = (caseKey: string, contender: string) => outcomes.find((o) => o.spec.key === caseKey)?.rows.find((r) => r.contender.key === contender)?.summary;
  const ratio = (caseKey: string, reference: string) => (summaryOf(caseKey, 'gatehouse')?.reqPerSec ?? NaN) / (summaryOf(caseKey, reference)?.reqPerSec ?? NaN);
  const cc = summaryOf('client_credentials', 'gatehouse');
  const signingLimit = summaryOf('client_credentials', 'jose');
  const oidcProvider = summaryOf('client_credentials', 'oidc-provider');
  const oidcFootprint = footprints.find((f) => f.label.startsWith('node-oidc-provider'));
  const p99VsJose = (cc?.p99Ms ?? NaN) / (signingLimit?.p99Ms ?? NaN);
  const tokensKept = flood ? flood.tokensDuring.reqPerSec / flood.tokensAlone.reqPerSec : NaN;
  const tokensP99 = flood ? flood.tokensDuring.p99Ms / flood.tokensAlone.p99Ms : NaN;
  const loginsKept = flood ? flood.loginsDuring.reqPerSec / flood.loginsAlone.reqPerSec : NaN;
  const rate = (s: Summary | undefined) => `${fmtInt(s?.reqPerSec ?? NaN)}/s`;
  const ms = (s: Summary | undefined) => `${fmt(s?.p99Ms ?? NaN, 1)} ms`;
  /** Each target: its value and what it was computed from; a target whose case did not run is "not measured". */
  const targetList = [
    {
      name: `client_credentials req/s ≥ ${TARGETS.vsJose} × the minimal jose server's (signing limit)`,
      value: ratio('client_credentials', 'jose'),
      pass: ratio('client_credentials', 'jose') >= TARGETS.vsJose,
      shown: `${fmtRatio(ratio('client_credentials', 'jose'))} (${rate(cc)} ÷ ${rate(signingLimit)}; node-oidc-provider ${rate(oidcProvider)})`,
    },
    {
      name: `client_credentials p99 ≤ ${TARGETS.p99VsJose} × the jose server's at ${SETTINGS.connections} connections`,
      value: p99VsJose,
      pass: p99VsJose <= TARGETS.p99VsJose,
      shown: `${fmtRatio(p99VsJose)} (${ms(cc)} ÷ ${ms(signingLimit)})`,
    },
    {
      name: `login flood: client_credentials keeps ≥ ${TARGETS.floodTokensKept} of its rate alone`,
      value: tokensKept,
      pass: tokensKept >= TARGETS.floodTokensKept,
      shown: `${fmt(tokensKept, 2)} (${rate(flood?.tokensDuring)} ÷ ${rate(flood?.tokensAlone)})`,
    },
    {
      name: `login flood: client_credentials p99 ≤ ${TARGETS.floodTokensP99} × its p99 alone`,
      value: tokensP99,
      pass: tokensP99 <= TARGETS.floodTokensP99,
      shown: `${fmtRatio(tokensP99)} (${ms(flood?.tokensDuring)} ÷ ${ms(flood?.tokensAlone)})`,
    },
    {
      name: `login flood: the logins keep ≥ ${TARGETS.floodLoginsKept} of their rate alone`,
      value: loginsKept,
      pass: loginsKept >= TARGETS.floodLoginsKept,
      shown: `${fmt(loginsKept, 2)} (${rate(flood?.loginsDuring)} ÷ ${rate(flood?.loginsAlone)})`,
    },
    {
      name: `login page with a template and partials: time ≤ ${TARGETS.templatedPage} × without`,
      value: 1 / ratio('login_page', 'plain'),
      pass: 1 / ratio('login_page', 'plain') <= TARGETS.templatedPage,
      shown: `${fmtRatio(1 / ratio('login_page', 'plain'))} (${rate(summaryOf('login_page', 'plain'))} without ÷ ${rate(summaryOf('login_page', 'gatehouse'))} with; p50 ${fmt(summaryOf('login_page', 'gatehouse')?.p50Ms ?? NaN, 1)} vs ${fmt(summaryOf('login_page', 'plain')?.p50Ms ?? NaN, 1)} ms; CPU per page ${fmtRatio((summaryOf('login_page', 'plain')?.perCpuSecond ?? NaN) / (summaryOf('login_page', 'gatehouse')?.perCpuSecond ?? NaN))})`,
    },
    {
      name: `JWKS req/s ≥ ${TARGETS.vsBare} × bare node:http's`,
      value: ratio('jwks', 'bare'),
      pass: ratio('jwks', 'bare') >= TARGETS.vsBare,
      shown: `${fmtRatio(ratio('jwks', 'bare'))} (${rate(summaryOf('jwks', 'gatehouse'))} ÷ ${rate(summaryOf('jwks', 'bare'))})`,
    },
    {
      name: `idle RSS after start ≤ ${TARGETS.idleRssMiB} MiB`,
      value: gatehouseFootprint.idleRssAfterStartMiB,
      pass: gatehouseFootprint.idleRssAfterStartMiB <= TARGETS.idleRssMiB,
      shown: `${fmt(gatehouseFootprint.idleRssAfterStartMiB)} MiB (node-oidc-provider ${fmt(oidcFootprint?.idleRssAfterStartMiB ?? NaN)} MiB; Gatehouse after the load ${fmt(gatehouseFootprint.idleRssAfterLoadMiB)} MiB)`,
    },
    {
      name: `ready on an existing data directory ≤ ${TARGETS.readyMs} ms`,
      value: gatehouseFootprint.readyMs,
      pass: gatehouseFootprint.readyMs <= TARGETS.readyMs,
      shown: `${fmtInt(gatehouseFootprint.readyMs)} ms (spawn to the first 200, median of ${restarts.length})`,
    },
  ].map((t) => ({ ...t, verdict: Number.isNaN(t.value) ? 'not measured' : t.pass ? 'met' : 'not met' }));
  log('');
  log('Targets (reported, not asserted):');
  const nameWidth = Math.max(...targetList.map((t) => t.name.length));
  const verdictWidth = Math.max(...targetList.map((t) => t.verdict.length));
  for (const t of targetList) log(`  ${t.name.padEnd(nameWidth)}  ${t.verdict.padEnd(verdictWidth)}  ${t.shown}`);
  if (signingLimit) {
    log(
      `  with ${SETTINGS.connections} connections each waiting for its answer, the mean latency of any server is at least connections ÷ rate` +
        ` (Little's law): ${fmt((1000 * SETTINGS.connections) / signingLimit.reqPerSec, 1)} ms at the signing limit's rate (its own p99 ${fmt(signingLimit.p99Ms, 1)} ms)`,
    );
  }
  if (flood) {
    log(
      `  one core serves both classes: client_credentials alone used ${fmt(flood.tokensAlone.serverCpuPercent, 0)}% of it and the logins alone ${fmt(flood.loginsAlone.serverCpuPercent, 0)}%, ` +
        `so the shares kept during the flood add up to about 1 at most (here ${fmt(tokensKept + loginsKept, 2)}: tokens ${fmt(tokensKept, 2)} + logins ${fmt(loginsKept, 2)})`,
    );
  }
  if (!pinning.pinned) log(`  (${pinning.note}: the ratios compare servers that shared the cores with the load generator)`);

  // ---- Warnings
  const all = [...outcomes.flatMap((o) => o.rows.flatMap((r) => r.results)), ...(flood?.results ?? [])];
  logBusyWarning(
    all.filter((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)).map((r) => ({ what: r.case, other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    all.length,
  );
  const withFailures = all.filter((r) => failures(r) > 0);
  logFailureBanner(withFailures.map(failureLine));
  for (const server of [gatehouse, ...(secure ? [secure] : [])]) printGatehouseLog(server.child, LOG_LEVEL);

  // ---- JSON
  const file = writeResults('', startedAt, {
    bench: 'run',
    environment: machineInfo(pinning),
    settings: { ...SETTINGS, logLevel: LOG_LEVEL, https: HTTPS_ROW, rateLimits: NO_RATE_LIMIT, database: 'sqlite (temporary data dir)', oidcProvider: OIDC_PROVIDER_VERSION },
    preflight: {
      tokens: Object.fromEntries(Object.entries(tokens).map(([k, t]) => [k, { bytes: t.bytes, header: t.header, claims: Object.keys(t.payload) }])),
      adminTokenBytes: adminVerified.bytes,
      rbacTokenBytes: rbacVerified?.bytes,
      jwksBytes: jwksBody.length,
      discoveryBytes: discoveryBody.length,
    },
    cases: specs.map((spec) => {
      const outcome = outcomes.find((o) => o.spec === spec);
      return {
        case: spec.key,
        label: spec.label,
        skipped: spec.skipped,
        servers: outcome?.rows.map((r) => ({ server: r.contender.key, label: r.contender.label, summary: r.summary, rounds: r.results })),
      };
    }),
    loginFlood: flood && { connections: LOGIN_CONNECTIONS, users: LOGIN_USERS, mainThreadShare: flood.mainThreadShare, tokensAlone: flood.tokensAlone, loginsAlone: flood.loginsAlone, tokensDuring: flood.tokensDuring, loginsDuring: flood.loginsDuring },
    footprint: footprints,
    targets: { thresholds: TARGETS, results: targetList },
    healthy: withFailures.length === 0 && alive,
    machineWasBusy: all.some((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)),
  });
  log(`\nResults: ${file}`);

  const broken = all.filter((r) => r.ok === 0);
  if (broken.length) {
    console.error(`bench: no successful response at all in: ${broken.map((r) => r.case).join(', ')}`);
    return 1;
  }
  return alive ? 0 : 1;
}

await runMain(main);
