/**
 * Tenant logs and log streams through the official `auth0` SDK over real
 * HTTPS against the built server running as its own process: logs.list with
 * `search` and paging, logs.get, users.logs.list, and the log stream
 * operations.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, httpsRequest, managementToken, runNode } from './support/https.js';

type Log = { log_id: string; type: string; description?: string; client_id?: string; user_id?: string };

describe('auth0 SDK: logs and log streams', () => {
  let server: ServerProcess;
  let out: Record<string, any>;
  let userId: string;

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
    assert.equal((await call('POST', '/connections', { name: 'e2e-db', strategy: 'auth0' })).status, 201);
    const user = await call('POST', '/users', { connection: 'e2e-db', email: 'logs@example.com', password: 'Correct-Horse-9-battery' });
    assert.equal(user.status, 201, user.text);
    userId = user.json<{ user_id: string }>().user_id;
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-logs.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, userId })],
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

  it('users.logs.list answers an array: empty for a user with no events', () => {
    assert.deepEqual(out.userLogs, []);
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
