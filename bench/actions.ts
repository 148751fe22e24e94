/**
 * What Actions cost (`npm run bench:actions`): password-realm logins with
 * one trivial post-login action bound beside none, and client_credentials
 * with one trivial credentials-exchange action beside none, in the same run.
 *
 * Gatehouse (bin/gatehouse.cjs, plain HTTP, temporary data directory,
 * SQLite; pinned as the other benches pin it, its sandbox processes
 * inheriting the pinning) gets, through the Management API, the typical API
 * and its client_credentials client (bench/lib.ts), a database connection
 * with BENCH_USERS users, a password-realm client, and two deployed actions:
 * a post-login one setting one ID token claim, a credentials-exchange one
 * setting one access token claim. In each of BENCH_ROUNDS rounds, in turn:
 * logins with no action bound, logins with the action bound, tokens with no
 * action bound, tokens with the action bound (the bindings are changed
 * through the Management API between lines; a preflight checks the claim is
 * there, or not).
 *
 * The table shows the medians of the rounds, the ratio of each bound line
 * to its unbound one (targets, reported, not asserted: logins at least 0.8,
 * client_credentials at least 0.7), and the overhead per invocation: the
 * difference of the median latencies (p50) and of the time per request at
 * the measured rates (1000 / rate).
 *
 * Settings (environment): BENCH_DURATION, BENCH_WARMUP, BENCH_ROUNDS,
 * BENCH_CONNECTIONS (see bench/lib.ts), BENCH_USERS (default 50).
 */
import dns from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BenchError,
  ROOT,
  adminTokenBody,
  alternate,
  envSeconds,
  fmt,
  fmtInt,
  freePort,
  loadSettings,
  TYPICAL_AUDIENCE,
  log,
  logHeader,
  managementCall,
  measure,
  printTable,
  readAdminCredentials,
  removeOnCleanup,
  request,
  requestToken,
  roundCells,
  runMain,
  setUpPinning,
  setUpTypicalApi,
  startGatehouse,
  summarize,
  writeResults,
  type CaseResult,
  type Endpoint,
  type LoadCase,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 5, connections: 8 });
const USERS = Math.round(envSeconds('BENCH_USERS', 50, 1, 1000));
const PASSWORD = 'correct horse battery staple';
const CONNECTION = 'bench-users';
const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
const CLAIM = 'https://bench.example/claim';
const TARGETS: Record<string, number> = { logins: 0.8, client_credentials: 0.7 };

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const startedAt = new Date();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) throw new BenchError('dist/server/main.js is missing; run `npm run build`');
  logHeader('Gatehouse bench: Actions (one trivial action bound beside none)', `${SETTINGS.rounds} rounds × ${SETTINGS.duration} s per line, ${SETTINGS.connections} connections, plain HTTP`, pinning);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-actions-'));
  removeOnCleanup(dataDir);
  const { address: host } = await dns.lookup('localhost');
  const port = await freePort(host);
  const gatehouse = await startGatehouse({ host, port, dataDir, logLevel: 'warn', cpus: pinning.serverCpus });
  const g: Endpoint = gatehouse.endpoint;
  const admin = readAdminCredentials(dataDir);
  const adminToken = async () => (await requestToken(g, '/oauth/token', adminTokenBody(admin), 'admin client')).access_token;
  const token = await adminToken();
  const typical = await setUpTypicalApi(g, token);

  const app = await managementCall<{ client_id: string; client_secret: string }>(g, token, 'POST', '/clients', {
    name: 'Bench login client',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: [PASSWORD_REALM_GRANT],
  });
  await managementCall(g, token, 'POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [app.client_id] });
  for (let i = 0; i < USERS; i++) await managementCall(g, token, 'POST', '/users', { connection: CONNECTION, email: `user${i}@bench.example`, password: PASSWORD });
  const loginBodies = Array.from({ length: USERS }, (_, i) =>
    JSON.stringify({ grant_type: PASSWORD_REALM_GRANT, client_id: app.client_id, client_secret: app.client_secret, username: `user${i}@bench.example`, password: PASSWORD, realm: CONNECTION, scope: 'openid' }),
  );

  const deploy = async (name: string, trigger: string, version: string, code: string) =>
    (await managementCall<{ id: string }>(g, token, 'POST', '/actions/actions', { name, supported_triggers: [{ id: trigger, version }], code, runtime: 'node22', deploy: true })).id;
  const postLogin = await deploy('bench-post-login', 'post-login', 'v3', `exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim('${CLAIM}', event.user.email); };`);
  const credentials = await deploy(
    'bench-credentials-exchange',
    'credentials-exchange',
    'v2',
    // The admin client's own Management API tokens (the bench's binding calls) stay as they are.
    `exports.onExecuteCredentialsExchange = async (event, api) => { if (event.resource_server.identifier === '${TYPICAL_AUDIENCE}') api.accessToken.setCustomClaim('${CLAIM}', event.client.client_id); };`,
  );
  const bind = async (trigger: string, actionId: string | undefined) =>
    managementCall(g, await adminToken(), 'PATCH', `/actions/triggers/${trigger}/bindings`, { bindings: actionId ? [{ ref: { type: 'action_id', value: actionId }, display_name: trigger }] : [] });

  /** The claim is in the token exactly when the action is bound. */
  const preflight = async (what: string, body: string, tokenMember: 'id_token' | 'access_token', bound: boolean) => {
    const reply = await request(g, 'POST', '/oauth/token', body, {});
    if (reply.status !== 200) throw new BenchError(`${what}: ${reply.status} ${reply.body}`);
    const jwt = (JSON.parse(reply.body) as Record<string, string>)[tokenMember]!;
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    if ((claims[CLAIM] !== undefined) !== bound) throw new BenchError(`${what}: the claim is ${bound ? 'missing' : 'there without the action'}`);
  };

  const lines: { key: string; trigger: string; action: string | undefined; load: LoadCase; member: 'id_token' | 'access_token' }[] = [
    { key: 'logins, none', trigger: 'post-login', action: undefined, member: 'id_token', load: { name: 'logins', method: 'POST', path: '/oauth/token', bodies: loginBodies, endpoint: g, server: gatehouse.child } },
    { key: 'logins, 1 action', trigger: 'post-login', action: postLogin, member: 'id_token', load: { name: 'logins+action', method: 'POST', path: '/oauth/token', bodies: loginBodies, endpoint: g, server: gatehouse.child } },
    { key: 'client_credentials, none', trigger: 'credentials-exchange', action: undefined, member: 'access_token', load: { name: 'cc', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: g, server: gatehouse.child } },
    { key: 'client_credentials, 1 action', trigger: 'credentials-exchange', action: credentials, member: 'access_token', load: { name: 'cc+action', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: g, server: gatehouse.child } },
  ];

  log(`\nload: ${SETTINGS.rounds} round(s), the four lines in turn within each round`);
  const results = await alternate(
    SETTINGS.rounds,
    lines.map((line) => ({
      key: line.key,
      run: async (round: number): Promise<CaseResult> => {
        await bind(line.trigger, line.action);
        await preflight(line.key, line.load.bodies?.[0] ?? line.load.body!, line.member, line.action !== undefined);
        return measure(line.load, SETTINGS, `round ${round}/${SETTINGS.rounds} ${line.key}`);
      },
    })),
  );
  const summaries = Object.fromEntries([...results].map(([key, list]) => [key, summarize(list)]));
  const rows: string[][] = [];
  const overhead: Record<string, { ratio: number; p50Ms: number; perRequestMs: number }> = {};
  for (const kind of ['logins', 'client_credentials']) {
    const none = summaries[`${kind}, none`]!;
    const bound = summaries[`${kind}, 1 action`]!;
    overhead[kind] = { ratio: bound.reqPerSec / none.reqPerSec, p50Ms: bound.p50Ms - none.p50Ms, perRequestMs: 1000 / bound.reqPerSec - 1000 / none.reqPerSec };
    for (const [label, s] of [[`${kind}, none`, none], [`${kind}, 1 action`, bound]] as const) {
      rows.push([label, fmtInt(s.reqPerSec), ...roundCells(s), fmtInt(s.failed), s === bound ? `${fmt(overhead[kind].ratio, 2)} (target ${TARGETS[kind]})` : '']);
    }
  }
  log('\nMedians of the rounds; ratio = with the action ÷ without.');
  printTable([['line', 'req/s', '±%', 'p50 ms', 'p99 ms', 'server CPU %', 'load CPU %', 'other CPU %', 'failed', 'ratio'], ...rows], 'lrrrrrrrrr');
  log('\nOverhead per invocation (ms): p50 latency with − without; time per request at the measured rates (1000/rate) with − without.');
  printTable([['trigger', 'p50 Δ ms', '1000/rate Δ ms'], ...Object.entries(overhead).map(([kind, o]) => [kind, fmt(o.p50Ms, 2), fmt(o.perRequestMs, 2)])], 'lrr');
  const file = writeResults('actions', startedAt, { settings: SETTINGS, pinning, results: Object.fromEntries(results), summaries, overhead });
  log(`\nresults: ${file}`);
  return [...results.values()].flat().some((r) => r.ok === 0) ? 1 : 0;
}

await runMain(main);
