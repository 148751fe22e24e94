/**
 * Tenant logs and log streams through the official `auth0` SDK over real
 * HTTPS against the built server running as its own process: logs.list with
 * `search` and paging, logs.get, users.logs.list, the failed and the
 * successful password-realm login found by `user_name`, and the log stream
 * operations.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, httpsRequest, managementToken, runNode } from './support/https.js';
import type { LogView } from '../helpers/log-view.js';

type Log = LogView;

const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Correct-Horse-9-battery';

describe('auth0 SDK: logs and log streams', () => {
  let server: ServerProcess;
  let out: Record<string, any>;
  let userId: string;
  let realmClient: { client_id: string; client_secret: string };
  let connectionId: string;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    const admin = server.admin();
    const token = await managementToken(server);
    const call = (method: string, url: string, body: unknown) =>
      httpsRequest(`${server.baseUrl}/api/v2${url}`, {
        ca: fs.readFileSync(server.certFile),
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const client = await call('POST', '/clients', { name: 'E2E Realm App', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', grant_types: [PASSWORD_REALM] });
    assert.equal(client.status, 201, client.text);
    realmClient = client.json<{ client_id: string; client_secret: string }>();
    const connection = await call('POST', '/connections', { name: 'e2e-db', strategy: 'auth0', enabled_clients: [realmClient.client_id] });
    assert.equal(connection.status, 201, connection.text);
    connectionId = connection.json<{ id: string }>().id;
    const user = await call('POST', '/users', { connection: 'e2e-db', email: 'logs@example.com', password: PASSWORD });
    assert.equal(user.status, 201, user.text);
    userId = user.json<{ user_id: string }>().user_id;
    // A failed and a successful password-realm login of that user, over HTTPS.
    for (const [password, status] of [['Wrong-Horse-1-battery', 403], [PASSWORD, 200]] as const) {
      const login = await httpsRequest(`${server.baseUrl}/oauth/token`, {
        ca: fs.readFileSync(server.certFile),
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'e2e-realm-login/1.0' },
        body: JSON.stringify({ grant_type: PASSWORD_REALM, client_id: realmClient.client_id, client_secret: realmClient.client_secret, realm: 'e2e-db', username: 'logs@example.com', password }),
      });
      assert.equal(login.status, status, login.text);
    }
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-logs.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, userId, userName: 'logs@example.com' })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    out = JSON.parse(run.stdout) as Record<string, any>;
  });
  after(() => cleanUp([server], [server.dataDir]));

  it('logs.list with search pages through the Management API operations, each sapi', () => {
    const sapi = out.sapi as Log[];
    assert.equal(out.firstPage, 2, JSON.stringify({ polls: out.polls, waitedMs: out.waitedMs }));
    assert.equal(sapi.length, 3, JSON.stringify({ polls: out.polls, waitedMs: out.waitedMs, sapi }));
    assert.ok(sapi.every((l) => l.type === 'sapi' && l.description === 'POST /api/v2/roles' && l.client_id === server.admin().client_id));
    assert.equal(new Set(sapi.map((l) => l.log_id)).size, 3);
  });

  it('the SDK’s own client-credentials exchanges are seccft events; logs.get reads one', () => {
    const seccft = out.seccft as Log[];
    assert.ok(seccft.length >= 1);
    assert.ok(seccft.every((l) => l.type === 'seccft'));
    assert.deepEqual(out.one, (out.sapi as Log[])[0]);
  });

  it('logs.list with search user_name finds the failed (fepft) and the successful (sepft) password-realm login, with the members of a login event', () => {
    const byName = out.byUserName as Log[];
    assert.deepEqual(byName.map((l) => l.type).sort(), ['fepft', 'sepft'], JSON.stringify(byName));
    for (const event of byName) {
      assert.equal(event.user_name, 'logs@example.com');
      assert.equal(event.user_id, userId, event.type);
      assert.equal(event.connection, 'e2e-db');
      assert.equal(event.connection_id, connectionId);
      assert.equal(event.strategy, 'auth0');
      assert.equal(event.strategy_type, 'database');
      assert.equal(event.client_id, realmClient.client_id);
      assert.equal(event.client_name, 'E2E Realm App');
      assert.equal(event.user_agent, 'e2e-realm-login/1.0');
      assert.ok(event.ip);
    }
    assert.equal(byName.find((l) => l.type === 'fepft')!.description, 'Wrong email or password.');
    assert.ok(!JSON.stringify(out).includes('Wrong-Horse-1-battery') && !JSON.stringify(out).includes(PASSWORD), 'no password in an event');
  });

  it("users.logs.list answers the user's events: the two logins", () => {
    assert.deepEqual((out.userLogs as Log[]).map((l) => l.type).sort(), ['fepft', 'sepft']);
  });

  it('log streams: create, list, get, update, delete; the authorization never returned; other types refused', () => {
    const created = out.created as Record<string, any>;
    assert.match(created.id, /^lst_/);
    assert.equal(created.type, 'http');
    assert.equal(created.status, 'active');
    assert.deepEqual(created.sink, { httpEndpoint: 'https://logs.example.com/in', httpContentType: 'application/json', httpContentFormat: 'JSONARRAY' });
    assert.ok(!JSON.stringify(out).includes('e2e-stream-secret'));
    assert.deepEqual(out.listed, [created]);
    assert.deepEqual(out.got, created);
    assert.equal(out.updated.status, 'paused');
    assert.equal(out.afterDelete, 404);
    assert.equal(out.datadog, 400);
  });
});
