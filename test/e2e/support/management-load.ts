/**
 * Management API calls over HTTPS for the operations tests (backup, upgrades,
 * shutdown): a write loop that records every acknowledged write, and a
 * database user who logs in with the password-realm grant.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { ServerProcess } from '../../helpers/server-process.js';
import { httpsRequest, type HttpResult } from './https.js';

/** A Management API request to `server` (whose tenant serves `host`, its own domain unless given). */
export function api(server: ServerProcess, token: string, method: string, pathname: string, body?: unknown, host = server.domain): Promise<HttpResult> {
  return httpsRequest(`https://localhost:${server.port}${pathname}`, {
    ca: fs.readFileSync(server.certFile),
    method,
    headers: { host, authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

export interface AcknowledgedWrite {
  kind: 'clients' | 'users';
  id: string;
  /** performance.now() when the 201 arrived. */
  at: number;
}

/**
 * Writes through the Management API until `stop()`: new clients, and users of
 * `connection` when given, `concurrency` requests at a time. Only a 201 counts
 * as acknowledged; a refusal (429 under the rate limit) or a failure does not.
 */
export function writeLoad(server: ServerProcess, token: string, options: { connection?: string; concurrency?: number } = {}) {
  const acknowledged: AcknowledgedWrite[] = [];
  const failures: string[] = [];
  let running = true;
  let n = 0;
  const one = async (): Promise<void> => {
    const i = n++;
    const user = options.connection !== undefined && i % 2 === 1;
    const res = user
      ? await api(server, token, 'POST', '/api/v2/users', { connection: options.connection, email: `load-${i}-${randomBytes(3).toString('hex')}@example.com`, password: 'Load-test-password-1!' })
      : await api(server, token, 'POST', '/api/v2/clients', { name: `load ${i}` });
    if (res.status === 201) {
      const body = res.json<{ client_id?: string; user_id?: string }>();
      acknowledged.push({ kind: user ? 'users' : 'clients', id: (user ? body.user_id : body.client_id)!, at: performance.now() });
    } else if (res.status !== 429) failures.push(`${res.status} ${res.text}`);
  };
  const workers = Array.from({ length: options.concurrency ?? 2 }, async () => {
    while (running) await one().catch((error: unknown) => failures.push(String(error)));
  });
  return {
    acknowledged,
    failures,
    async stop(): Promise<void> {
      running = false;
      await Promise.all(workers);
    },
  };
}

export interface LoginSetup {
  clientId: string;
  clientSecret: string;
  realm: string;
  email: string;
  password: string;
}

/** A database connection, a client allowed the password-realm grant on it, and a user of it. */
export async function loginSetup(server: ServerProcess, token: string): Promise<LoginSetup> {
  const realm = `db-${randomBytes(3).toString('hex')}`;
  const client = await api(server, token, 'POST', '/api/v2/clients', {
    name: 'password login',
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['http://auth0.com/oauth/grant-type/password-realm'],
  });
  assert.equal(client.status, 201, client.text);
  const { client_id: clientId, client_secret: clientSecret } = client.json<{ client_id: string; client_secret: string }>();
  const connection = await api(server, token, 'POST', '/api/v2/connections', { name: realm, strategy: 'auth0', enabled_clients: [clientId] });
  assert.equal(connection.status, 201, connection.text);
  const email = `someone-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'Correct-horse-battery-9';
  const user = await api(server, token, 'POST', '/api/v2/users', { connection: realm, email, password });
  assert.equal(user.status, 201, user.text);
  const setup = { clientId, clientSecret, realm, email, password };
  const loggedIn = await passwordLogin(server, setup);
  assert.equal(loggedIn.status, 200, loggedIn.text);
  return setup;
}

/** The user of `setup` logs in (password-realm grant); returns the token endpoint's answer. */
export function passwordLogin(server: ServerProcess, setup: LoginSetup): Promise<HttpResult> {
  return httpsRequest(`https://localhost:${server.port}/oauth/token`, {
    ca: fs.readFileSync(server.certFile),
    method: 'POST',
    headers: { host: server.domain, 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      client_id: setup.clientId,
      client_secret: setup.clientSecret,
      username: setup.email,
      password: setup.password,
      realm: setup.realm,
      scope: 'openid',
    }),
  });
}
