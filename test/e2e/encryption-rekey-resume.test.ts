/**
 * A rekey survives its process being killed: the built server (its own
 * process, real HTTPS, SQLite in its data directory) holds secrets of every
 * kind (client secrets, an API signing secret, action secrets, a log stream's
 * authorization, SNS and SMTP credentials, upstream tokens, its signing
 * keys). A first rekey moves the values the server sealed under the
 * environment root key (`v1`) under a tenant encryption key. A second rekey
 * is SIGKILLed half way (some values under the new key, some under the old,
 * the old key still `deactivated`); started again on the same data, the job
 * resumes, moves the rest, and only then destroys the old key. Every secret
 * is read back through the server and through a census that opens every
 * sealed value; a wrong master key is still refused at start.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createContext, createLogger } from '../../src/app/context.js';
import { sealedValueCensus } from '../../src/domain/encryption/rekey.js';
import { keepUpstreamTokens } from '../../src/domain/upstream-tokens/vault.js';
import { loadConfig } from '../../src/platform/config.js';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, managementToken, runNode, waitFor } from './support/https.js';

const CLIENTS = 40;

interface Key {
  kid: string;
  type: string;
  state: string;
  created_at: string;
}

describe('encryption rekey: a killed process, resumed', () => {
  const servers: ServerProcess[] = [];
  after(() => cleanUp(servers, servers.slice(0, 1).map((s) => s.dataDir)));

  it('moves every sealed value and retires the old key only after, across a SIGKILL', { timeout: 240_000 }, async () => {
    const env = {
      GATEHOUSE_JOB_LEASE: '2',
      GATEHOUSE_ENCRYPTION_KEYS_REFRESH: '1',
      GATEHOUSE_REKEY_BATCH: '2',
      GATEHOUSE_REKEY_PAUSE: '0.15',
      GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000',
      GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '100000/100000',
    };
    const first = await startServerProcess({ env });
    servers.push(first);
    const fetch = caFetch(fs.readFileSync(first.certFile));
    const call = async (server: ServerProcess, method: string, url: string, body?: unknown) => {
      const res = await fetch(`${server.baseUrl}/api/v2${url}`, {
        method,
        headers: { authorization: `Bearer ${await managementToken(server)}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, text, json: () => JSON.parse(text) };
    };

    // Secrets of every kind, sealed by the server.
    const clients: { client_id: string; client_secret: string }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const created = await call(first, 'POST', '/clients', { name: `sealed ${i}`, app_type: 'non_interactive' });
      assert.equal(created.status, 201, created.text);
      clients.push(created.json());
    }
    const api = await call(first, 'POST', '/resource-servers', { identifier: 'https://hs.example/', signing_alg: 'HS256' });
    assert.equal(api.status, 201, api.text);
    const action = await call(first, 'POST', '/actions/actions', { name: 'sealed', supported_triggers: [{ id: 'post-login', version: 'v3' }], code: 'exports.onExecutePostLogin = async () => {};', secrets: [{ name: 'KEY', value: 'action-secret' }] });
    assert.equal(action.status, 201, action.text);
    assert.equal((await call(first, 'POST', '/log-streams', { name: 'SIEM', type: 'http', sink: { httpEndpoint: 'https://siem.example.com/in', httpContentFormat: 'JSONARRAY', httpAuthorization: 'Bearer stream-secret' } })).status, 200);
    assert.equal((await call(first, 'PUT', '/guardian/factors/push-notification/providers/sns', { aws_access_key_id: 'AKIAEXAMPLEKEYID0001', aws_secret_access_key: 'aws-secret', aws_region: 'us-west-1' })).status, 200);
    assert.equal((await call(first, 'POST', '/emails/provider', { name: 'smtp', enabled: false, credentials: { smtp_host: '127.0.0.1', smtp_port: 2525, smtp_user: 'mailer', smtp_pass: 'smtp-secret' } })).status, 201);
    const connection = (await call(first, 'POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0' })).json() as { id: string };
    const user = await call(first, 'POST', '/users', { connection: 'Username-Password-Authentication', email: 'sealed@example.com', password: 'correct horse battery staple' });
    assert.equal(user.status, 201, user.text);

    // The census runs Gatehouse's own code on the server's data directory (its master key file, its SQLite file).
    const config = loadConfig({ GATEHOUSE_DATA_DIR: first.dataDir, GATEHOUSE_DOMAIN: first.domain, LOG_LEVEL: 'silent' });
    const offline = async <T>(work: (ctx: Awaited<ReturnType<typeof createContext>>) => Promise<T>) => {
      const ctx = await createContext(config, createLogger(config));
      try {
        return await work(ctx);
      } finally {
        await ctx.close();
      }
    };
    const tenantId = await offline(async (ctx) => {
      const [tenant] = await ctx.tenants.list();
      // Upstream tokens as a federated login keeps them (sealed by the same code, under the same keys).
      await keepUpstreamTokens(ctx, tenant!.id, user.json().user_id, { id: connection.id, name: 'Username-Password-Authentication' }, { access_token: 'upstream-access', refresh_token: 'upstream-refresh' });
      return tenant!.id;
    });
    const census = () => offline((ctx) => sealedValueCensus(ctx, tenantId));
    const keys = async (server: ServerProcess) => (await call(server, 'GET', '/keys/encryption')).json() as Key[];
    const rootKid = (await keys(first)).find((k) => k.type === 'environment-root-key')!.kid;
    const initial = await census();
    assert.deepEqual(Object.keys(initial.byKid), [rootKid], 'the server sealed every value under the environment root key (v1)');
    assert.equal(initial.unreadable, 0);
    const valueCount = initial.byKid[rootKid]!;
    assert.ok(valueCount >= CLIENTS + 8, `${valueCount} sealed values`);

    // A first rekey, left to finish: the v1 values move under the tenant's first encryption key. A rekey is
    // refused (409) while one runs, so the second one starts as soon as the first has ended.
    assert.equal((await call(first, 'POST', '/keys/encryption/rekey')).status, 204);
    assert.ok(await waitFor(async () => (await call(first, 'POST', '/keys/encryption/rekey')).status === 204, 120_000), 'the first rekey did not end');
    const encryptionKeys = (await keys(first)).filter((k) => k.type === 'tenant-encryption-key');
    assert.equal(encryptionKeys.length, 2);
    const [old, fresh] = encryptionKeys as [Key, Key];
    assert.equal(fresh.state === 'pre-activation' || fresh.state === 'active', true, JSON.stringify(encryptionKeys));

    // The second rekey (started just above) is killed once some values are under the new key and some under the old one.
    const sqlite = new Database(path.join(first.dataDir, 'gatehouse.db'), { readonly: true, fileMustExist: true });
    const counts = () => {
      const rows = sqlite.prepare("select substr(client_secret_enc, 4, 36) as kid, count(*) as n from clients where client_secret_enc like 'v2.%' group by 1").all() as { kid: string; n: number }[];
      return Object.fromEntries(rows.map((r) => [r.kid, r.n]));
    };
    const stateOf = (kid: string) => (sqlite.prepare('select state from encryption_keys where kid = ?').get(kid) as { state: string }).state;
    let seen: Record<string, number> = {};
    const halfway = await waitFor(() => {
      seen = counts();
      return (seen[fresh.kid] ?? 0) > 0 && (seen[old.kid] ?? 0) > 0;
    }, 60_000);
    first.child.kill('SIGKILL');
    await new Promise<void>((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve() : first.child.once('exit', () => resolve())));
    assert.ok(halfway, `the rekey never got half way: ${JSON.stringify(seen)}`);
    const atKill = counts();
    assert.ok(atKill[old.kid]! > 0 && atKill[old.kid]! < CLIENTS + 2, `killed half way: ${JSON.stringify(atKill)}`);
    assert.equal(stateOf(old.kid), 'deactivated', 'the old key is kept while values remain under it');
    assert.equal((sqlite.prepare("select count(*) as n from clients where client_secret_enc like 'v1.%'").get() as { n: number }).n, 0, 'the first rekey moved every v1 value');
    const newKid = fresh.kid;
    sqlite.close();

    // Started again on the same data: the job resumes once the dead process's lease ran out.
    const second = await startServerProcess({ env, dataDir: first.dataDir, port: first.port });
    servers.push(second);
    // While it runs, every secret already reads.
    const midway = await call(second, 'GET', `/clients/${clients[0]!.client_id}`);
    assert.equal(midway.json().client_secret, clients[0]!.client_secret);
    let states: Key[] = [];
    const retired = await waitFor(async () => {
      states = await keys(second);
      return states.find((k) => k.kid === old.kid)?.state === 'destroyed';
    }, 120_000);
    assert.ok(retired, `the old key was not retired: ${JSON.stringify(states)}`);
    assert.equal(states.find((k) => k.kid === newKid)?.state, 'active');
    const final = await census();
    assert.deepEqual(final, { byKid: { [newKid]: valueCount }, unreadable: 0 }, 'every value is under the new key and opens');

    // Through the server: every client secret, the API's signing secret, the SNS key id, tokens signed with the (re-sealed) signing key.
    for (const client of clients) assert.equal((await call(second, 'GET', `/clients/${client.client_id}`)).json().client_secret, client.client_secret);
    assert.equal((await call(second, 'GET', `/resource-servers/${api.json().id}`)).json().signing_secret, api.json().signing_secret);
    assert.equal((await call(second, 'GET', '/guardian/factors/push-notification/providers/sns')).json().aws_access_key_id, 'AKIAEXAMPLEKEYID0001');
    const token = await fetch(`${second.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: clients[1]!.client_id, client_secret: clients[1]!.client_secret, audience: 'https://hs.example/' }),
    });
    // No client grant: the secret is checked (401 would mean it no longer opens) and the grant is what is refused.
    assert.equal(token.status, 403, await token.text());
    assert.equal(await second.stop(), 0);

    // Every client secret is now sealed under a tenant key: the start-up check tries the master key on the wrapped tenant master key.
    const wrongKey = await runNode([path.join(ROOT, 'bin/gatehouse.cjs')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(second.port), GATEHOUSE_DATA_DIR: first.dataDir, LOG_LEVEL: 'info', GATEHOUSE_MASTER_KEY: randomBytes(32).toString('hex') },
      timeoutMs: 60_000,
    });
    assert.notEqual(wrongKey.code, 0);
    assert.match(wrongKey.stderr, /GATEHOUSE_MASTER_KEY: the master key does not open the secrets sealed in the SQLite database/);
  });
});
