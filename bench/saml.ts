/**
 * SAML logins (`npm run bench:saml`): how many SP-initiated SAML logins per
 * second Gatehouse answers for browsers that already have an SSO session,
 * each a signed samlp:Response (RSA-SHA256 over the assertion, exclusive
 * c14n, xml-crypto), beside the rate at which the same core signs RS256 JWTs.
 *
 * Gatehouse (bin/gatehouse.cjs, plain HTTP, temporary data directory,
 * SQLite, rate limits out of the way) runs pinned to one core (`taskset -c
 * 0`); the load runs on the other. Through the Management API the bench
 * creates a database connection, one user, and a client with the `samlp`
 * addon (default settings: signed assertion, RSA-SHA256, SHA-256 digest).
 * Each of BENCH_CONNECTIONS workers is a browser (its own keep-alive
 * connection and cookies) that logs in once through the hosted login page;
 * the preflight checks one Response with @node-saml/node-saml against the
 * tenant's certificate (GET /pem). Then, in each of BENCH_ROUNDS rounds, in
 * turn:
 *
 *   1. the reference: jose's SignJWT with RS256 and a 2048-bit key (as
 *      Gatehouse signs its tokens), awaited one after the other for
 *      BENCH_HASH_SECONDS, in a child process pinned to the server's core with
 *      a threadpool of one thread: signatures per second of that core;
 *   2. SAML SSO logins: every worker loops over GET /samlp/{client_id} with a
 *      fresh HTTP-Redirect AuthnRequest (its own ID) and its session cookie,
 *      answered at once by the auto-submitting form with the signed
 *      Response (200, `SAMLResponse` in it). A login counts when it completes
 *      within the window.
 *
 * The table shows the medians of the rounds; the target (reported, not
 * asserted): SAML logins/s at least 50% of the RS256 signatures/s.
 *
 * Settings: BENCH_DURATION (5), BENCH_WARMUP, BENCH_ROUNDS (3),
 * BENCH_CONNECTIONS (8), BENCH_HASH_SECONDS (min(5, duration)), BENCH_PIN,
 * BENCH_LOG_LEVEL, as bench/README.md describes.
 */
import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { deflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import {
  BenchError,
  adminTokenBody,
  alternate,
  childEnv,
  envSeconds,
  fmt,
  fmtInt,
  fmtRatio,
  freePort,
  loadLogLevel,
  loadSettings,
  log,
  logHeader,
  managementCall,
  median,
  percentile,
  printTable,
  readAdminCredentials,
  readCpuSeconds,
  removeOnCleanup,
  request,
  requestToken,
  runMain,
  setUpPinning,
  startChild,
  startGatehouse,
  writeResults,
  BenchBrowser as Browser,
} from './lib.js';

const { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, rounds: ROUNDS } = loadSettings({ duration: 5, connections: 8 });
const SIGN_SECONDS = envSeconds('BENCH_HASH_SECONDS', Math.min(5, DURATION), 0.5, 60);
const LOG_LEVEL = loadLogLevel();
const TARGET_SHARE = 0.5;
const PASSWORD = 'correct horse battery staple';
const EMAIL = 'saml-bench@example.com';
const ACS = 'https://sp.bench.example/saml/acs';
const SP_ENTITY = 'urn:sp.bench.example';

// ---------------------------------------------------------------------------
// 1. Reference: RS256 signatures per second on the server's core

const SIGN_REFERENCE = String.raw`
const { generateKeyPair, SignJWT } = await import('jose');
const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
const claims = { iss: 'https://localhost/', sub: 'auth0|0123456789abcdef01234567', aud: 'client', email: 'a@example.com', name: 'A' };
const sign = () => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'k' }).setIssuedAt().setExpirationTime('1h').sign(privateKey);
for (let i = 0; i < 20; i++) await sign();
const start = performance.now();
const end = start + Number(process.env.BENCH_SECONDS) * 1000;
let count = 0;
let now = start;
while (now < end) { await sign(); count++; now = performance.now(); }
process.stdout.write(JSON.stringify({ count, seconds: (now - start) / 1000 }) + '\n');
`;

async function signReference(cpus: string | undefined): Promise<number> {
  const child = startChild('RS256 reference', ['--input-type=module', '-e', SIGN_REFERENCE], childEnv({ UV_THREADPOOL_SIZE: '1', BENCH_SECONDS: String(SIGN_SECONDS) }), cpus ? { cpus } : {});
  const code = await child.exited;
  const line = child.output().trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new BenchError(`the RS256 reference exited with ${code}:\n${child.output()}`);
  const result = JSON.parse(line) as { count: number; seconds: number };
  return result.count / result.seconds;
}

// ---------------------------------------------------------------------------
// 2. Browsers with a session

const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];

/** A fresh HTTP-Redirect AuthnRequest for the bench's SP: the URL path and query. */
function authnRequestPath(clientId: string, port: number): string {
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="https://localhost:${port}/samlp/${clientId}" ` +
    `AssertionConsumerServiceURL="${ACS}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"><saml:Issuer>${SP_ENTITY}</saml:Issuer></samlp:AuthnRequest>`;
  return `/samlp/${clientId}?${new URLSearchParams({ SAMLRequest: deflateRawSync(xml).toString('base64'), RelayState: 'bench' })}`;
}

async function login(browser: Browser, clientId: string, port: number): Promise<void> {
  const first = await browser.request('GET', authnRequestPath(clientId, port));
  if (first.status !== 302) throw new BenchError(`GET /samlp answered ${first.status}: ${first.body.slice(0, 300)}`);
  const page = await browser.request('GET', first.headers.location as string);
  const state = hidden(page.body, 'state');
  const csrf = hidden(page.body, 'csrf_token');
  if (!state || !csrf) throw new BenchError(`no login form: ${page.body.slice(0, 300)}`);
  const done = await browser.request('POST', '/login', { state, csrf_token: csrf, username: EMAIL, password: PASSWORD });
  if (done.status !== 200 || !done.body.includes('name="SAMLResponse"')) throw new BenchError(`the login answered ${done.status}: ${done.body.slice(0, 300)}`);
}

/** One SSO login: the Response for a fresh request, from the session. */
async function ssoLogin(browser: Browser, clientId: string, port: number): Promise<string> {
  const res = await browser.request('GET', authnRequestPath(clientId, port));
  const response = res.status === 200 ? hidden(res.body, 'SAMLResponse') : undefined;
  if (!response) throw new Error(`GET /samlp answered ${res.status}: ${res.body.slice(0, 200)}`);
  return response;
}

async function loginLoad(browsers: Browser[], seconds: number, clientId: string, port: number) {
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    browsers.map(async (browser) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await ssoLogin(browser, clientId, port);
          const t1 = performance.now();
          if (t1 <= end) latencies.push(t1 - t0);
        } catch (error) {
          failed++;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  return { completed: latencies.length, latencies: Float64Array.from(latencies).sort(), failed, firstFailure };
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const startedAt = new Date();
  logHeader('Gatehouse SAML login bench', `${ROUNDS} rounds × ${DURATION} s, warm-up ${WARMUP} s, ${CONNECTIONS} browsers with an SSO session, plain HTTP`, pinning);
  const cpus = pinning.serverCpus;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-saml-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  const started = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus });
  const g = started.endpoint;
  const server = started.child;
  const admin = readAdminCredentials(dataDir);
  log(`  Gatehouse on http://localhost:${port} (pid ${server.process.pid}), ready in ${fmt(started.readyMs, 0)} ms`);
  const token = (await requestToken(g, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const client = await managementCall<{ client_id: string }>(g, token, 'POST', '/clients', { name: 'Bench SAML app', app_type: 'regular_web', callbacks: [ACS], addons: { samlp: {} } });
  await managementCall(g, token, 'POST', '/connections', { name: 'bench-saml-users', strategy: 'auth0', enabled_clients: [client.client_id] });
  await managementCall(g, token, 'POST', '/users', { connection: 'bench-saml-users', email: EMAIL, password: PASSWORD });

  const browsers = Array.from({ length: CONNECTIONS }, () => new Browser(g));
  for (const browser of browsers) await login(browser, client.client_id, port);
  // Preflight: node-saml accepts a Response signed with the tenant's certificate.
  const pem = await request(g, 'GET', '/pem');
  const sp = new SAML({ callbackUrl: ACS, issuer: SP_ENTITY, audience: SP_ENTITY, idpCert: pem.body, wantAuthnResponseSigned: false, validateInResponseTo: ValidateInResponseTo.never });
  const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: await ssoLogin(browsers[0]!, client.client_id, port) });
  if (profile?.['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'] !== EMAIL) throw new BenchError('preflight: the Response did not carry the user');
  log(`  preflight: ${CONNECTIONS} browsers logged in through the login page; node-saml accepted an SSO Response (RSA-SHA256, signed assertion)`);

  const results = await alternate<{ rate: number; p50?: number; p99?: number; failed?: number; serverCpu?: number }>(ROUNDS, [
    {
      key: 'reference',
      run: async (round) => {
        const rate = await signReference(cpus);
        log(`  round ${round}/${ROUNDS} RS256 reference${cpus ? ` on core ${cpus}` : ''}: ${fmt(rate)} signatures/s`);
        return { rate };
      },
    },
    {
      key: 'saml',
      run: async (round) => {
        if (WARMUP > 0) await loginLoad(browsers, WARMUP, client.client_id, port);
        const cpu0 = readCpuSeconds(server.process.pid!) ?? NaN;
        const run = await loginLoad(browsers, DURATION, client.client_id, port);
        const serverCpu = (((readCpuSeconds(server.process.pid!) ?? NaN) - cpu0) / DURATION) * 100;
        const rate = run.completed / DURATION;
        log(
          `  round ${round}/${ROUNDS} SAML SSO logins: ${fmt(rate)}/s, p50 ${fmt(percentile(run.latencies, 0.5))} ms, p99 ${fmt(percentile(run.latencies, 0.99))} ms, server CPU ${fmt(serverCpu, 0)}%` +
            (run.failed ? `, ${run.failed} FAILED (first: ${run.firstFailure})` : ''),
        );
        return { rate, p50: percentile(run.latencies, 0.5), p99: percentile(run.latencies, 0.99), failed: run.failed, serverCpu };
      },
    },
  ]);
  for (const browser of browsers) browser.close();

  const reference = median(results.get('reference')!.map((r) => r.rate));
  const saml = results.get('saml')!;
  const samlRate = median(saml.map((r) => r.rate));
  const share = samlRate / reference;
  log('');
  printTable(
    [
      ['line', 'per second', 'p50 ms', 'p99 ms', 'server CPU %', 'failed', 'ratio to RS256'],
      ['RS256 JWT signatures, one core (reference)', fmtInt(reference), '', '', '', '', ''],
      [
        `SAML SSO logins, signed Response (${CONNECTIONS} browsers)`,
        fmtInt(samlRate),
        fmt(median(saml.map((r) => r.p50!))),
        fmt(median(saml.map((r) => r.p99!))),
        fmt(median(saml.map((r) => r.serverCpu!)), 0),
        String(saml.reduce((a, r) => a + r.failed!, 0)),
        fmtRatio(share),
      ],
    ],
    'lrrrrrr',
  );
  log(`\nTarget: SAML SSO logins/s ≥ ${TARGET_SHARE * 100}% of the RS256 signing rate: ${share >= TARGET_SHARE ? 'MET' : 'NOT MET'} (${fmt(share * 100, 0)}%).`);
  const file = writeResults('saml-', startedAt, { pinning, settings: { DURATION, WARMUP, ROUNDS, CONNECTIONS, SIGN_SECONDS }, reference: results.get('reference'), saml, share });
  log(`Results: ${file}`);
  return 0;
}

await runMain(main);
