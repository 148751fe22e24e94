/**
 * Federated logins (`npm run bench:federation`): complete logins per second
 * through an `oidc` connection (back_channel: PKCE, the code exchanged at
 * the provider, the id_token verified against its JWKS, the user refreshed,
 * the upstream tokens sealed, the hop) beside password logins through the
 * hosted login page, in the same run, against the same server.
 *
 * Gatehouse (bin/gatehouse.cjs over HTTPS, temporary data directory, SQLite)
 * and a real OpenID provider (node-oidc-provider, in this process, HTTPS on
 * 127.0.0.1, which GATEHOUSE_OUTBOUND_ALLOW lets Gatehouse reach) share the
 * machine. Each of BENCH_CONNECTIONS workers is a scripted browser that logs
 * in from `/authorize` to the application's callback with a code, then
 * redeems the code at /oauth/token: federated logins go through the
 * provider's login page, password logins through Gatehouse's. Each login is
 * a new browser, which keeps its connections alive across the login's
 * requests as a browser does (the federated login makes more requests to
 * Gatehouse than the password login: a TLS handshake per request would
 * charge it for the load generator's habit, not for its own work). The phases
 * alternate for BENCH_ROUNDS rounds of BENCH_DURATION seconds each.
 *
 * Besides logins per second (which include the provider's work and the
 * password hash), the table shows Gatehouse's own CPU time per login (from
 * /proc/{pid}/stat, utime + stime): the cost on the Gatehouse side. The
 * password login's includes its Argon2id hash; the federated one has none.
 *
 * The comparison is the Gatehouse side of a federated login against
 * a password login *without* its hash. The hash is measured alone in the
 * same run: the CPU time of Gatehouse's own Argon2id verification
 * (src/platform/passwords/hash-worker.ts with its parameters, the same
 * synchronous call a hashing thread makes, one per password login) in this
 * process, three batches before and three after the rounds (the median of
 * each), while nothing else of the bench runs. A password login without its
 * hash is the password login's CPU per login less the mean of the two; the ratio printed last is the
 * federated login's CPU per login to it.
 *
 * Settings: BENCH_DURATION (5), BENCH_ROUNDS (2), BENCH_CONNECTIONS (4).
 */
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { loginRounds, pinServer } from './login-rounds.js';
import runHashTask from '../src/platform/passwords/hash-worker.js';
import { ARGON2_PARAMETERS } from '../src/platform/passwords/hashing.js';
import { startServerProcess } from '../test/helpers/server-process.js';
import { FederationBrowser, grantEverything, sharedTls } from '../test/e2e/support/federation.js';
import { httpsRequest, managementToken } from '../test/e2e/support/https.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const APP = 'https://portal.example';
const CALLBACK = `${APP}/callback`;
const SECRET = 'upstream-secret-0123456789abcdef';
const PASSWORD = 'Correct-Horse-Battery-9';
const HASH_BATCH = 10;

/** CPU milliseconds of one Argon2id verification as a password login makes it: the median of three batches. */
function verifyCpuMs(hash: string): number {
  const batches: number[] = [];
  for (let batch = 0; batch < 3; batch++) {
    const before = process.cpuUsage();
    for (let i = 0; i < HASH_BATCH; i++) if (runHashTask({ op: 'verify', family: 'argon2', hash, password: PASSWORD }) !== true) throw new Error('the verification failed');
    const used = process.cpuUsage(before);
    batches.push((used.user + used.system) / 1000 / HASH_BATCH);
  }
  return batches.sort((a, b) => a - b)[1]!;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-federation-'));
  const { tls, certFile } = await sharedTls(dataDir, ['localhost', '127.0.0.1', '::1']);

  let provider: Provider | undefined;
  const upstream = https.createServer(tls, (req, res) => (provider ? provider.callback()(req, res) : res.end()));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const issuer = `https://localhost:${(upstream.address() as AddressInfo).port}`;
  const server = await startServerProcess({ dataDir, env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.1/32,::1/128', GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '100000/100000' } });
  const pinned = pinServer(server.child.pid!);
  try {
    const ca = fs.readFileSync(server.certFile);
    provider = new Provider(issuer, {
      clients: [{ client_id: 'gatehouse', client_secret: SECRET, redirect_uris: [`${server.baseUrl}/login/callback`], response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_post' }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@upstream.example`, email_verified: true, name: sub }) }),
      loadExistingGrant: grantEverything,
      cookies: { keys: ['bench-upstream-cookie-key'] },
      conformIdTokenClaims: false,
    });
    const token = await managementToken(server);
    const api = async (method: string, apiPath: string, body: unknown) => {
      const res = await httpsRequest(`${server.baseUrl}/api/v2${apiPath}`, { ca, method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${method} ${apiPath}: ${res.status} ${res.text}`);
      return res.json<Record<string, string>>();
    };
    const client = await api('POST', '/clients', { name: 'Portal', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] });
    await api('POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0', enabled_clients: [client.client_id] });
    await api('POST', '/connections', { name: 'upstream', strategy: 'oidc', enabled_clients: [client.client_id], options: { client_id: 'gatehouse', client_secret: SECRET, type: 'back_channel', discovery_url: `${issuer}/.well-known/openid-configuration` } });
    for (let i = 0; i < CONNECTIONS; i++) await api('POST', '/users', { connection: 'Username-Password-Authentication', email: `user${i}@bench.example`, password: PASSWORD });

    const authorize = (connection: string) => `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id!, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', connection, state: 's' })}`;
    const redeem = async (arrived: URL | undefined) => {
      const code = arrived?.searchParams.get('code');
      if (!code) throw new Error(`no code: ${arrived?.href}`);
      const res = await httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: CALLBACK }) });
      if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
    };
    const logins = {
      federated: async (worker: number) => {
        const b = new FederationBrowser(ca, APP, { keepAlive: true });
        try {
          const page = await b.navigate(authorize('upstream'));
          const done = await b.submit(page.last!, page.urls.at(-1)!, { login: `fed${worker}`, password: 'x' });
          await redeem(done.arrived);
        } finally {
          b.close();
        }
      },
      password: async (worker: number) => {
        const b = new FederationBrowser(ca, APP, { keepAlive: true });
        try {
          const page = await b.navigate(authorize('Username-Password-Authentication'));
          const done = await b.submit(page.last!, page.urls.at(-1)!, { username: `user${worker}@bench.example`, password: PASSWORD });
          await redeem(done.arrived);
        } finally {
          b.close();
        }
      },
    };
    // Preflight: one of each.
    await logins.federated(0);
    await logins.password(0);

    const hash = runHashTask({ op: 'hash', password: PASSWORD, ...ARGON2_PARAMETERS }) as string;
    const hashCpu = [verifyCpuMs(hash)];
    const { federated: fed, password: pwd } = await loginRounds(server.child.pid!, logins, { rounds: ROUNDS, durationS: DURATION_S, connections: CONNECTIONS });
    hashCpu.push(verifyCpuMs(hash));
    console.log(`\nFederated and password logins (${ROUNDS} rounds of ${DURATION_S} s, ${CONNECTIONS} browsers; ${pinned}; the provider runs with the load)\n`);
    console.log('| Login | logins/s (median) | Gatehouse CPU ms/login (median) |');
    console.log('|---|---:|---:|');
    console.log(`| federated (oidc back_channel, real OpenID provider) | ${fed.rate.toFixed(1)} | ${fed.cpu.toFixed(2)} |`);
    console.log(`| password (hosted login page, Argon2id) | ${pwd.rate.toFixed(1)} | ${pwd.cpu.toFixed(2)} |`);
    const hashMs = (hashCpu[0]! + hashCpu[1]!) / 2;
    const withoutHash = pwd.cpu - hashMs;
    console.log(`| password without its hash (less one Argon2id verification, ${hashMs.toFixed(2)} ms measured alone, the mean of ${hashCpu.map((v) => v.toFixed(2)).join(' and ')} ms before and after) | | ${withoutHash.toFixed(2)} |`);
    console.log(`\nratio federated/password: ${(fed.rate / pwd.rate).toFixed(2)} in logins/s; ${(fed.cpu / pwd.cpu).toFixed(2)} in Gatehouse CPU per login`);
    console.log(`ratio federated/password without its hash, in Gatehouse CPU per login: ${(fed.cpu / withoutHash).toFixed(2)} (target: at most 1)`);
  } finally {
    upstream.closeAllConnections();
    upstream.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
