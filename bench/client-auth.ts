/**
 * Strong client authentication at the token endpoint, beside plain
 * client_credentials in the same run (issue: at least 60% of the plain rate,
 * one extra signature verification per request):
 *
 * - `secret`: client_credentials with client_id and client_secret;
 * - `private_key_jwt`: the same grant, the client authenticated by an RS256
 *   client assertion (a fresh `jti` each: single use is enforced);
 * - `dpop`: the secret client with a DPoP proof (ES256, server nonce, fresh
 *   `jti`), answered with a DPoP-bound token.
 *
 * Assertions and proofs are signed before each measurement (not by the load
 * generator while it runs), enough for the warm-up and the run at up to
 * BENCH_MAX_RATE requests/s; each is sent once. The server is pinned to one
 * core, the load to the other, plain HTTP; rounds alternate; medians printed.
 *
 *   npm run build --silent && node --import tsx bench/client-auth.ts
 *   BENCH_DURATION=2 BENCH_ROUNDS=1 …   (a quick smoke run)
 */
import { randomUUID } from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import {
  adminTokenBody,
  alternate,
  BenchError,
  envSeconds,
  fmt,
  fmtInt,
  fmtRatio,
  freePort,
  loadLogLevel,
  loadSettings,
  log,
  logBusyWarning,
  logHeader,
  managementCall,
  measure,
  printTable,
  readAdminCredentials,
  removeOnCleanup,
  request,
  requestToken,
  roundCells,
  ROOT,
  runMain,
  setUpPinning,
  setUpTypicalApi,
  startGatehouse,
  summarize,
  TYPICAL_AUDIENCE,
  TYPICAL_SCOPES,
  wasBusy,
  writeResults,
  type CaseResult,
  type Endpoint,
  type LoadCase,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 5, connections: 50 });
const LOG_LEVEL = loadLogLevel();
const MAX_RATE = envSeconds('BENCH_MAX_RATE', 3000, 100, 100_000);
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Single-use requests made ahead, handed out once each. */
function pool(items: { body: string; headers?: Record<string, string> }[]): LoadCase['singleUse'] {
  let i = 0;
  return {
    next: () => {
      const item = items[i] ?? items[items.length - 1]!;
      i++;
      return item;
    },
  };
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build`');
  logHeader(
    'Gatehouse bench: client authentication (secret, private_key_jwt, DPoP)',
    `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per case, warm-up ${SETTINGS.warmup} s, ${SETTINGS.connections} connections, plain HTTP`,
    pinning,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-auth-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  const gatehouse = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus: pinning.serverCpus });
  const g: Endpoint = gatehouse.endpoint;
  const admin = readAdminCredentials(dataDir);
  const adminToken = (await requestToken(g, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const typical = await setUpTypicalApi(g, adminToken);

  // A private_key_jwt client with its key registered through the Management API.
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const pkj = await managementCall<{ client_id: string }>(g, adminToken, 'POST', '/clients', {
    name: 'Bench private_key_jwt client',
    app_type: 'non_interactive',
    grant_types: ['client_credentials'],
    client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', pem: await exportSPKI(rsa.publicKey), alg: 'RS256' }] } },
  });
  await managementCall(g, adminToken, 'POST', '/client-grants', { client_id: pkj.client_id, audience: TYPICAL_AUDIENCE, scope: TYPICAL_SCOPES });
  const issuer = `https://localhost:${port}/`;
  const tokenUrl = `${issuer}oauth/token`;

  const dpop = await generateKeyPair('ES256', { extractable: true });
  const dpopJwk: JWK = await exportJWK(dpop.publicKey);
  const jkt = await calculateJwkThumbprint(dpopJwk);
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const FORM = 'application/x-www-form-urlencoded';
  const secretBody = form({ grant_type: 'client_credentials', client_id: typical.clientId, client_secret: typical.clientSecret, audience: TYPICAL_AUDIENCE });

  const assertion = (now: number) =>
    new SignJWT({ iss: pkj.client_id, sub: pkj.client_id, aud: issuer, jti: randomUUID(), iat: now, exp: now + 300 }).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey as CryptoKey);
  const proof = (now: number, nonce: string) =>
    new SignJWT({ htm: 'POST', htu: tokenUrl, iat: now, jti: randomUUID(), nonce }).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpopJwk }).sign(dpop.privateKey as CryptoKey);
  const currentNonce = async () => {
    const reply = await request(g, 'POST', '/oauth/token', secretBody, { dpop: await proof(Math.floor(Date.now() / 1000), 'none') }, FORM);
    const nonce = reply.headers['dpop-nonce'];
    if (typeof nonce !== 'string') throw new BenchError(`no DPoP-Nonce from the token endpoint (${reply.status})`);
    return nonce;
  };

  // Preflight: each kind answers 200 with the expected token type.
  const check = async (what: string, body: string, headers: Record<string, string>, tokenType: string) => {
    const reply = await request(g, 'POST', '/oauth/token', body, headers, FORM);
    if (reply.status !== 200) throw new BenchError(`${what}: ${reply.status} ${reply.body}`);
    const json = JSON.parse(reply.body) as { token_type?: string; access_token?: string };
    if (json.token_type !== tokenType) throw new BenchError(`${what}: token_type ${json.token_type}`);
    log(`  preflight ${what}: 200, token_type ${tokenType}`);
  };
  const now0 = Math.floor(Date.now() / 1000);
  await check('secret', secretBody, {}, 'Bearer');
  await check('private_key_jwt', form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: await assertion(now0), audience: TYPICAL_AUDIENCE }), {}, 'Bearer');
  await check('DPoP', secretBody, { dpop: await proof(now0, await currentNonce()) }, 'DPoP');
  log(`  DPoP key thumbprint ${jkt}`);

  const perMeasurement = Math.ceil(MAX_RATE * (SETTINGS.warmup + SETTINGS.duration));
  const cases: Record<string, LoadCase> = {
    secret: { name: 'secret', method: 'POST', path: '/oauth/token', body: secretBody, contentType: FORM, endpoint: g, server: gatehouse.child },
    private_key_jwt: { name: 'private_key_jwt', method: 'POST', path: '/oauth/token', contentType: FORM, endpoint: g, server: gatehouse.child },
    dpop: { name: 'dpop', method: 'POST', path: '/oauth/token', contentType: FORM, endpoint: g, server: gatehouse.child },
  };
  const prepare: Record<string, () => Promise<void>> = {
    secret: async () => {},
    private_key_jwt: async () => {
      const t0 = performance.now();
      const now = Math.floor(Date.now() / 1000);
      const items = [];
      for (let i = 0; i < perMeasurement; i++) {
        items.push({ body: form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: await assertion(now), audience: TYPICAL_AUDIENCE }) });
      }
      cases.private_key_jwt!.singleUse = pool(items);
      log(`    signed ${fmtInt(perMeasurement)} client assertions in ${fmt((performance.now() - t0) / 1000)} s (not measured)`);
    },
    dpop: async () => {
      const t0 = performance.now();
      const nonce = await currentNonce();
      const now = Math.floor(Date.now() / 1000);
      const items = [];
      for (let i = 0; i < perMeasurement; i++) items.push({ body: secretBody, headers: { dpop: await proof(now, nonce) } });
      cases.dpop!.singleUse = pool(items);
      log(`    signed ${fmtInt(perMeasurement)} DPoP proofs in ${fmt((performance.now() - t0) / 1000)} s (not measured)`);
    },
  };

  log(`\nload: ${SETTINGS.rounds} round(s), the three kinds in turn within each round`);
  const results = await alternate(
    SETTINGS.rounds,
    Object.keys(cases).map((key) => ({
      key,
      run: async (round: number): Promise<CaseResult> => {
        await prepare[key]!();
        return measure(cases[key]!, SETTINGS, `round ${round}/${SETTINGS.rounds} ${key}`);
      },
    })),
  );

  const summaries = Object.fromEntries([...results].map(([key, list]) => [key, summarize(list)]));
  const plain = summaries.secret!.reqPerSec;
  log('\nMedians of the rounds; ratio = the row ÷ client_secret (target for private_key_jwt and DPoP: at least 0.60).');
  printTable(
    [
      ['kind', 'req/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'ratio'],
      ...Object.entries(summaries).map(([key, s]) => [key, fmtInt(s.reqPerSec), ...roundCells(s), fmtInt(s.failed), fmtRatio(s.reqPerSec / plain)]),
    ],
    'lrrrrrrrrr',
  );
  const all = [...results.values()].flat();
  logBusyWarning(
    all.filter((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)).map((r) => ({ what: r.case, other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    all.length,
  );
  const file = writeResults('client-auth', startedAt, { settings: SETTINGS, maxRate: MAX_RATE, pinning, results: Object.fromEntries(results), summaries });
  log(`\nresults: ${file}`);
  return all.some((r) => r.ok === 0) ? 1 : 0;
}

await runMain(main);
