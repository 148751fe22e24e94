/**
 * Users created per second through SCIM (POST /scim/v2/connections/{id}/Users
 * with a connection's SCIM token, the default mapping) beside the Management
 * API's POST /api/v2/users (a database connection: Gatehouse creates users
 * through the API only there, so each one also costs an argon2id hash of its
 * password, which a SCIM user, who logs in at the identity provider, never
 * has), in the same run against one Gatehouse process: plain HTTP, SQLite,
 * rounds alternating between the two; medians printed. Every request
 * creates a new user (single-use bodies).
 *
 *   npm run bench:scim
 *   BENCH_DURATION=2 BENCH_ROUNDS=1 npm run bench:scim   (a quick smoke run)
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  adminTokenBody,
  alternate,
  BenchError,
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
  startGatehouse,
  summarize,
  wasBusy,
  writeResults,
  type CaseResult,
  type LoadCase,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 5, connections: 20 });
const LOG_LEVEL = loadLogLevel();
const PASSWORD = 'Bench-Horse-Battery-9';
const OIDC_METADATA = {
  issuer: 'https://idp.example.com',
  authorization_endpoint: 'https://idp.example.com/auth',
  token_endpoint: 'https://idp.example.com/token',
  jwks_uri: 'https://idp.example.com/jwks',
  id_token_signing_alg_values_supported: ['RS256'],
};

/** An endless supply of new users' bodies, one per request. */
function newUsers(body: (n: number) => unknown, headers: Record<string, string>): LoadCase['singleUse'] {
  let n = 0;
  return { next: () => ({ body: JSON.stringify(body(n++)), headers }) };
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build`');
  logHeader('Gatehouse bench: users created through SCIM and through the Management API', `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per case, warm-up ${SETTINGS.warmup} s, ${SETTINGS.connections} connections, plain HTTP, SQLite`, pinning);
  const { address: host } = await dns.lookup('localhost');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-scim-'));
  removeOnCleanup(dataDir);
  const port = await freePort(host);
  const gatehouse = await startGatehouse({ host, port, dataDir, logLevel: LOG_LEVEL, cpus: pinning.serverCpus });
  const admin = readAdminCredentials(dataDir);
  const adminToken = (await requestToken(gatehouse.endpoint, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const connection = await managementCall<{ id: string }>(gatehouse.endpoint, adminToken, 'POST', '/connections', { name: 'bench-oidc', strategy: 'oidc', options: { client_id: 'x', type: 'front_channel', oidc_metadata: OIDC_METADATA } });
  await managementCall(gatehouse.endpoint, adminToken, 'POST', '/connections', { name: 'bench-db', strategy: 'auth0' });
  await managementCall(gatehouse.endpoint, adminToken, 'POST', `/connections/${connection.id}/scim-configuration`, {});
  const { token } = await managementCall<{ token: string }>(gatehouse.endpoint, adminToken, 'POST', `/connections/${connection.id}/scim-configuration/tokens`, {});
  log(`  Gatehouse on port ${port}, ready in ${fmtInt(gatehouse.readyMs)} ms`);
  // Each case's request, once, before the load: a refusal is reported with its answer.
  const scimPreflight = await request(gatehouse.endpoint, 'POST', `/scim/v2/connections/${connection.id}/Users`, JSON.stringify({ userName: 'preflight@corp.example', externalId: 'preflight' }), { authorization: `Bearer ${token}` });
  if (scimPreflight.status !== 201) throw new BenchError(`SCIM POST /Users answered ${scimPreflight.status}: ${scimPreflight.body}`);
  await managementCall(gatehouse.endpoint, adminToken, 'POST', '/users', { connection: 'bench-db', email: 'preflight@corp.example', password: PASSWORD });

  const cases: LoadCase[] = [
    {
      name: 'SCIM POST /Users',
      method: 'POST',
      path: `/scim/v2/connections/${connection.id}/Users`,
      contentType: 'application/scim+json',
      singleUse: newUsers(
        (n) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `scim-${n}@corp.example`, externalId: `ext-${n}`, name: { givenName: 'Bench', familyName: `User ${n}` }, emails: [{ primary: true, type: 'work', value: `scim-${n}@corp.example` }], active: true }),
        { authorization: `Bearer ${token}` },
      ),
      endpoint: gatehouse.endpoint,
      server: gatehouse.child,
    },
    {
      name: 'Management POST /users',
      method: 'POST',
      path: '/api/v2/users',
      singleUse: newUsers((n) => ({ connection: 'bench-db', email: `mgmt-${n}@corp.example`, password: PASSWORD, given_name: 'Bench', family_name: `User ${n}` }), { authorization: `Bearer ${adminToken}` }),
      endpoint: gatehouse.endpoint,
      server: gatehouse.child,
    },
  ];

  log(`\nload: ${SETTINGS.rounds} round(s), the two cases in turn within each round`);
  const results = await alternate(
    SETTINGS.rounds,
    cases.map((c) => ({ key: c.name, run: async (round: number): Promise<CaseResult> => measure(c, SETTINGS, `round ${round}/${SETTINGS.rounds} ${c.name}`) })),
  );
  const summaries = Object.fromEntries([...results].map(([key, list]) => [key, summarize(list)]));
  const reference = summaries['Management POST /users']!;
  log('\nMedians of the rounds; users created per second; ratio = the row ÷ the Management API.');
  printTable(
    [
      ['case', 'users/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'per CPU-s', 'ratio'],
      ...Object.entries(summaries).map(([key, s]) => [key, fmtInt(s.reqPerSec), ...roundCells(s), fmtInt(s.failed), fmtInt(s.perCpuSecond), fmtRatio(s.reqPerSec / reference.reqPerSec)]),
    ],
    'lrrrrrrrrrr',
  );
  const all = [...results.values()].flat();
  logBusyWarning(
    all.filter((r) => wasBusy(r.otherCpuPercent, r.stealCpuPercent)).map((r) => ({ what: r.case, other: r.otherCpuPercent, steal: r.stealCpuPercent })),
    all.length,
  );
  const file = writeResults('scim', startedAt, { settings: SETTINGS, pinning, results: Object.fromEntries(results), summaries });
  log(`\nresults: ${file}`);
  return all.some((r) => r.ok === 0) ? 1 : 0;
}

await runMain(main);
