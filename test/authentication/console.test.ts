/**
 * The admin console, server side: its files and their headers, its
 * configuration, the built-in console client (invisible to the Management
 * API), the operator's token (exactly the RBAC scopes held on the
 * Management API, by code + PKCE), the Management API's third principal
 * kind, the one-time setup link, and the login page's live preview.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tempDir, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';
import { consoleClientId, OPERATOR_SCOPES } from '../../src/domain/console/client.js';
import { ADMINISTRATOR_ROLE_NAME, issueSetupLink } from '../../src/domain/console/setup.js';
import { CONSOLE_CSP } from '../../src/authentication/console/files.js';
import { postgresAvailable, POSTGRES_ADMIN_URL } from '../helpers/postgres.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CONSOLE = `https://${DOMAIN}/admin/`;
const AUDIENCE = `https://${DOMAIN}/api/v2/`;
const ROLE_SCOPES = ['read:users', 'read:clients', 'update:users'];

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function cookieOf(res: LightMyRequestResponse, name: string): string {
  const all = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  const found = all.find((c) => c.startsWith(`${name}=`));
  assert.ok(found, `no ${name} cookie`);
  return found.split(';')[0]!;
}

function hidden(body: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
  assert.ok(match, `no ${name} in the page`);
  return match[1]!;
}

describe('admin console: served files', () => {
  let t: TestApp;
  let missing: TestApp;
  const dir = tempDir('gatehouse-console-');

  before(async () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<!DOCTYPE html><title>Console</title><script src="app.js"></script>');
    fs.writeFileSync(path.join(dir, 'app.js'), 'console.log("app")');
    fs.writeFileSync(path.join(dir, 'app.css'), 'body{margin:0}');
    fs.writeFileSync(path.join(path.dirname(dir), 'secret.txt'), 'not for the web');
    t = await createTestApp({ env: { GATEHOUSE_CONSOLE_DIR: dir } });
    missing = await createTestApp({ env: { GATEHOUSE_CONSOLE_DIR: path.join(dir, 'nowhere') } });
  });
  after(async () => {
    await t.close();
    await missing.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (app: TestApp, url: string, host = DOMAIN) => app.app.inject({ method: 'GET', url, headers: { host } });

  it('GET /admin redirects to /admin/', async () => {
    const res = await get(t, '/admin');
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, '/admin/');
  });

  it('index.html, app.js and app.css with the strict CSP and their types', async () => {
    for (const [url, type, content] of [
      ['/admin/', 'text/html; charset=utf-8', '<!DOCTYPE html><title>Console</title><script src="app.js"></script>'],
      ['/admin/app.js', 'text/javascript; charset=utf-8', 'console.log("app")'],
      ['/admin/app.css', 'text/css; charset=utf-8', 'body{margin:0}'],
    ] as const) {
      const res = await get(t, url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.body, content);
      assert.equal(res.headers['content-type'], type);
      assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['cache-control'], 'no-cache');
    }
    assert.equal(
      CONSOLE_CSP,
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('nothing else of the directory or above it is served', async () => {
    for (const url of ['/admin/../secret.txt', '/admin/%2e%2e/secret.txt', '/admin/..%2fsecret.txt', '/admin/index.html', '/admin/app.js.map', '/admin/app.js/', '/admin//app.js']) {
      const res = await get(t, url);
      assert.notEqual(res.statusCode, 200, url);
      assert.ok(!res.body.includes('not for the web'), url);
    }
  });

  it('not built: 503 saying to run npm run build', async () => {
    for (const url of ['/admin/', '/admin/app.js', '/admin/app.css']) {
      const res = await get(missing, url);
      assert.equal(res.statusCode, 503, url);
      assert.match(res.body, /npm run build/);
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    }
  });

  it('an unknown host gets the usual 404', async () => {
    const res = await get(t, '/admin/', 'nobody.test');
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /No tenant is configured/);
  });

  it('config.json: the host, the console client, the Management API audience, every operator scope', async () => {
    const res = await get(t, '/admin/config.json');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json() as Record<string, string>;
    assert.deepEqual(Object.keys(body), ['domain', 'client_id', 'audience', 'scope', 'redirect_uri']);
    assert.equal(body.domain, DOMAIN);
    assert.equal(body.client_id, consoleClientId(t.tenant.id));
    assert.equal(body.audience, AUDIENCE);
    assert.equal(body.redirect_uri, CONSOLE);
    const scopes = body.scope!.split(' ');
    assert.deepEqual(scopes.slice(0, 3), ['openid', 'profile', 'email']);
    assert.ok(scopes.includes('read:users') && scopes.includes('create:clients') && scopes.includes('update:tenant_settings'));
    assert.ok(!scopes.some((s) => s.includes('current_user')), 'no *:current_user* scope');
    assert.equal(scopes.length, 3 + OPERATOR_SCOPES.length);
  });
});

describe('admin console: operators, their tokens and the Management API', () => {
  let t: TestApp;
  let consoleId: string;
  let roleId: string;
  let operatorId: string;
  let plainId: string;

  async function ok<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.body ? res.json() : {}) as T;
  }

  const get = (url: string, cookie?: string, host = DOMAIN) => t.app.inject({ method: 'GET', url, headers: { host, ...(cookie && { cookie }) } });

  /** /authorize as the console (or another client) → login page → POST /login; where the browser is sent back. */
  async function authorizeTo(email: string, params: Record<string, string>, clientId = consoleId, redirectUri = CONSOLE): Promise<{ location: URL; verifier: string }> {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri, state: 's1', code_challenge: challenge, code_challenge_method: 'S256', ...params });
    const start = await get(`/authorize?${query}`);
    assert.equal(start.statusCode, 302, start.body);
    const browser = cookieOf(start, '__Host-gh_browser');
    const page = await get(start.headers.location as string, browser);
    assert.equal(page.statusCode, 200, page.body);
    const done = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { host: DOMAIN, cookie: browser, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: email, password: PASSWORD }).toString(),
    });
    assert.equal(done.statusCode, 302, done.body);
    const location = new URL(done.headers.location as string);
    assert.equal(`${location.origin}${location.pathname}`, redirectUri);
    return { location, verifier };
  }

  /** The same, with a code expected. */
  async function authorize(email: string, params: Record<string, string>, clientId = consoleId, redirectUri = CONSOLE): Promise<{ code: string; verifier: string }> {
    const { location, verifier } = await authorizeTo(email, params, clientId, redirectUri);
    const code = location.searchParams.get('code');
    assert.ok(code, `no code: ${location.href}`);
    return { code, verifier };
  }

  const exchange = (code: string, verifier: string, clientId = consoleId, redirectUri = CONSOLE) =>
    tokenRequest(t.app, { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: redirectUri, code_verifier: verifier }, { form: true });

  async function consoleToken(email: string, scope = `openid profile email ${OPERATOR_SCOPES.join(' ')}`): Promise<{ access_token: string; scope: string; expires_in: number }> {
    const { code, verifier } = await authorize(email, { audience: AUDIENCE, scope });
    const res = await exchange(code, verifier);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { access_token: string; scope: string; expires_in: number };
  }

  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_DEFAULT_CONNECTION: '1' } });
    consoleId = consoleClientId(t.tenant.id);
    operatorId = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'ops@example.com', password: PASSWORD })).user_id;
    plainId = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'plain@example.com', password: PASSWORD })).user_id;
    roleId = (await ok<{ id: string }>('POST', '/api/v2/roles', { name: 'support' })).id;
    // The Management API's scopes can be given to a role like any API's.
    const granted = await t.management('POST', `/api/v2/roles/${roleId}/permissions`, {
      body: { permissions: ROLE_SCOPES.map((permission_name) => ({ resource_server_identifier: AUDIENCE, permission_name })) },
    });
    assert.equal(granted.statusCode, 201, granted.body);
    await ok('POST', `/api/v2/users/${encodeURIComponent(operatorId)}/roles`, { roles: [roleId] });
  });
  after(() => t.close());

  it('an operator gets exactly the role\'s scopes among those asked for, for at most an hour', async () => {
    const all = await consoleToken('ops@example.com');
    assert.equal(all.scope, `openid profile email ${OPERATOR_SCOPES.filter((s) => ROLE_SCOPES.includes(s)).join(' ')}`);
    assert.ok(all.expires_in <= 3600 && all.expires_in > 0, String(all.expires_in));
    const claims = decodeJwt(all.access_token);
    assert.equal(claims.azp, consoleId);
    assert.equal(claims.sub, operatorId);
    assert.deepEqual(claims.aud, [AUDIENCE, `https://${DOMAIN}/userinfo`]);
    assert.equal((claims.exp as number) - (claims.iat as number), 3600);
    // Asking for less gets only that much.
    const some = await consoleToken('ops@example.com', 'openid read:users create:clients');
    assert.equal(some.scope, 'openid read:users');
  });

  it('more database connections do not lock the console: operators log in on Username-Password-Authentication', async () => {
    const created = await ok<{ id: string }>('POST', '/api/v2/connections', { name: 'customers', strategy: 'auth0' });
    try {
      const other = await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: 'customers', email: 'elsewhere@example.com', password: PASSWORD });
      await ok('POST', `/api/v2/users/${encodeURIComponent(other.user_id)}/roles`, { roles: [roleId] });
      // The operator of the console's connection still gets in, with the role's scopes.
      assert.equal((await consoleToken('ops@example.com', 'openid read:users')).scope, 'openid read:users');
      // A user of another connection, even holding the role, is not found on the console's login.
      const { challenge } = pkce();
      const query = new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: CONSOLE, state: 's1', code_challenge: challenge, code_challenge_method: 'S256', audience: AUDIENCE, scope: 'openid read:users' });
      const start = await get(`/authorize?${query}`);
      const browser = cookieOf(start, '__Host-gh_browser');
      const page = await get(start.headers.location as string, browser);
      const refused = await t.app.inject({
        method: 'POST',
        url: '/login',
        headers: { host: DOMAIN, cookie: browser, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'elsewhere@example.com', password: PASSWORD }).toString(),
      });
      assert.equal(refused.statusCode, 400, refused.body);
    } finally {
      await ok('DELETE', `/api/v2/connections/${created.id}`);
    }
  });

  it('a user without the role is refused at the console with access_denied: no code, no token', async () => {
    const { location } = await authorizeTo('plain@example.com', { audience: AUDIENCE, scope: `openid ${OPERATOR_SCOPES.join(' ')}` });
    assert.equal(location.searchParams.get('code'), null);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('error_description'), 'The user is not an operator of this tenant.');
    assert.equal(location.searchParams.get('state'), 's1');
    // An operator asking only for scopes the role lacks is refused alike.
    const other = await authorizeTo('ops@example.com', { audience: AUDIENCE, scope: 'openid delete:clients' });
    assert.equal(other.location.searchParams.get('error'), 'access_denied');
  });

  it('the code exchange refuses an operator who lost the role after the code was issued', async () => {
    const id = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'leaving@example.com', password: PASSWORD })).user_id;
    await ok('POST', `/api/v2/users/${encodeURIComponent(id)}/roles`, { roles: [roleId] });
    const { code, verifier } = await authorize('leaving@example.com', { audience: AUDIENCE, scope: 'openid read:users' });
    await ok('DELETE', `/api/v2/users/${encodeURIComponent(id)}/roles`, { roles: [roleId] });
    const res = await exchange(code, verifier);
    assert.equal(res.statusCode, 403, res.body);
    assert.deepEqual(res.json(), { error: 'access_denied', error_description: 'The user is not an operator of this tenant.' });
  });

  it('another client asking for the Management API still gets only *:current_user* scopes', async () => {
    const spa = await insertClient(t, {
      app_type: 'spa',
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      config: { callbacks: ['https://app.example.com/cb'] },
    });
    const [connection] = await ok<{ id: string }[]>('GET', `/api/v2/connections?name=${REALM}`);
    await ok('PATCH', `/api/v2/connections/${connection!.id}/clients`, [{ client_id: spa.client_id, status: true }]);
    const { code, verifier } = await authorize('ops@example.com', { audience: AUDIENCE, scope: 'openid read:users read:current_user' }, spa.client_id, 'https://app.example.com/cb');
    const res = await exchange(code, verifier, spa.client_id, 'https://app.example.com/cb');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { scope: string }).scope, 'openid read:current_user');
    const token = (res.json() as { access_token: string }).access_token;
    assert.equal((await t.management('GET', '/api/v2/users', { token })).statusCode, 403);
  });

  it('the Management API takes a console token as an operator\'s: its scopes, per operation', async () => {
    const { access_token: token } = await consoleToken('ops@example.com');
    const users = await t.management('GET', '/api/v2/users', { token });
    assert.equal(users.statusCode, 200, users.body);
    assert.equal((await t.management('GET', '/api/v2/clients', { token })).statusCode, 200);
    // Another user's record, which a current_user token could never touch.
    assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(plainId)}`, { token })).statusCode, 200);
    const denied = await t.management('DELETE', `/api/v2/users/${encodeURIComponent(plainId)}`, { token });
    assert.equal(denied.statusCode, 403, denied.body);
    assert.equal((await t.management('POST', '/api/v2/clients', { token, body: { name: 'x' } })).statusCode, 403);
  });

  it('a blocked or deleted operator\'s token is refused at once', async () => {
    const id = (await ok<{ user_id: string }>('POST', '/api/v2/users', { connection: REALM, email: 'temp@example.com', password: PASSWORD })).user_id;
    await ok('POST', `/api/v2/users/${encodeURIComponent(id)}/roles`, { roles: [roleId] });
    const { access_token: token } = await consoleToken('temp@example.com');
    assert.equal((await t.management('GET', '/api/v2/users', { token })).statusCode, 200);
    await ok('PATCH', `/api/v2/users/${encodeURIComponent(id)}`, { blocked: true });
    const blocked = await t.management('GET', '/api/v2/users', { token });
    assert.equal(blocked.statusCode, 401, blocked.body);
    await ok('PATCH', `/api/v2/users/${encodeURIComponent(id)}`, { blocked: false });
    assert.equal((await t.management('GET', '/api/v2/users', { token })).statusCode, 200);
    await ok('DELETE', `/api/v2/users/${encodeURIComponent(id)}`);
    assert.equal((await t.management('GET', '/api/v2/users', { token })).statusCode, 401);
  });

  it('a console token is not another tenant\'s', async () => {
    await t.ctx.tenants.create({ domain: 'other.test' });
    const { access_token: token } = await consoleToken('ops@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/users', headers: { host: 'other.test', authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 401, res.body);
  });

  it('a ready custom domain is one of the console\'s hosts: its config.json and its callback', async () => {
    const custom = 'login.example.org';
    await t.ctx.stores.customDomains.insert({
      tenant_id: t.tenant.id,
      id: 'cd_console0000000001',
      domain: custom,
      type: 'self_managed_certs',
      status: 'ready',
      verification_record: 'x',
      edge_key_hash: null,
      custom_client_ip_header: null,
      tls_policy: 'recommended',
      domain_metadata: {},
      created_at: new Date().toISOString(),
    });
    const config = (await get('/admin/config.json', undefined, custom)).json() as Record<string, string>;
    assert.equal(config.domain, custom);
    assert.equal(config.redirect_uri, `https://${custom}/admin/`);
    assert.equal(config.client_id, consoleId);
    assert.equal(config.audience, AUDIENCE);
    const start = await get(`/authorize?${new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: config.redirect_uri!, state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`, undefined, custom);
    assert.equal(start.statusCode, 302, start.body);
    assert.match(start.headers.location as string, /^\/login\?state=/);
    // A host that is not the tenant's is no callback of the console.
    const foreign = await get(`/authorize?${new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: 'https://other.example.org/admin/', state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`);
    assert.equal(foreign.statusCode, 400);
  });

  it('the console client is not one of the tenant\'s applications', async () => {
    const clients = await ok<{ client_id: string }[]>('GET', '/api/v2/clients?per_page=100');
    assert.ok(clients.length > 0);
    assert.ok(!clients.some((c) => c.client_id === consoleId));
    assert.equal((await t.management('GET', `/api/v2/clients/${consoleId}`)).statusCode, 404);
    assert.equal((await t.management('PATCH', `/api/v2/clients/${consoleId}`, { body: { name: 'mine' } })).statusCode, 404);
    assert.equal((await t.management('DELETE', `/api/v2/clients/${consoleId}`)).statusCode, 404);
    const grants = await ok<{ client_id: string }[]>('GET', '/api/v2/client-grants?per_page=100');
    assert.ok(!grants.some((g) => g.client_id === consoleId));
    assert.equal((await t.management('POST', '/api/v2/client-grants', { body: { client_id: consoleId, audience: AUDIENCE, scope: ['read:users'] } })).statusCode, 404);
    const [connection] = await ok<{ id: string; enabled_clients?: string[] }[]>('GET', `/api/v2/connections?name=${REALM}`);
    assert.ok(connection);
    assert.ok(!(connection.enabled_clients ?? []).includes(consoleId));
    const enabled = await ok<{ clients: { client_id: string }[] }>('GET', `/api/v2/connections/${connection.id}/clients`);
    assert.ok(!enabled.clients.some((c) => c.client_id === consoleId));
  });

  it('the console client is public: no client_credentials, no implicit token, PKCE required', async () => {
    const cc = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: consoleId, audience: AUDIENCE });
    assert.ok(cc.statusCode >= 400 && cc.statusCode < 500, cc.body);
    const noPkce = await get(`/authorize?${new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: CONSOLE, state: 's' })}`);
    assert.equal(noPkce.statusCode, 302);
    assert.match(noPkce.headers.location as string, /^https:\/\/tenant\.test\/admin\/\?error=invalid_request/);
    const elsewhere = await get(`/authorize?${new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: 'https://evil.example/admin/', state: 's' })}`);
    assert.equal(elsewhere.statusCode, 400);
  });

  it('nobody signs up through the console: no signup link, its signup page goes to the login page, a post and /dbconnections/signup are refused', async () => {
    const { challenge } = pkce();
    const query = (extra: Record<string, string> = {}) =>
      new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: CONSOLE, state: 's1', code_challenge: challenge, code_challenge_method: 'S256', ...extra });
    const start = await get(`/authorize?${query()}`);
    const browser = cookieOf(start, '__Host-gh_browser');
    const login = await get(start.headers.location as string, browser);
    assert.equal(login.statusCode, 200, login.body);
    assert.match(login.body, /name="password"/);
    assert.doesNotMatch(login.body, /href="\/signup/);
    const state = hidden(login.body, 'state');
    // The signup address of the same transaction shows no form: it goes to the login page.
    const signupPage = await get(`/signup?state=${encodeURIComponent(state)}`, browser);
    assert.equal(signupPage.statusCode, 303, signupPage.body);
    assert.equal(signupPage.headers.location, `/login?state=${encodeURIComponent(state)}`);
    // screen_hint=signup opens the login page too.
    const hinted = await get(`/authorize?${query({ screen_hint: 'signup' })}`);
    assert.equal(new URL(hinted.headers.location as string, CONSOLE).pathname, '/login');
    // A post to the hosted signup form is refused and creates nothing.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/signup',
      headers: { host: DOMAIN, cookie: browser, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ state, csrf_token: hidden(login.body, 'csrf_token'), email: 'visitor@example.com', password: PASSWORD }).toString(),
    });
    assert.equal(posted.statusCode, 400, posted.body);
    assert.match(posted.body, /Public signup is disabled/);
    // The Authentication API's signup refuses the console's client in its error shape.
    const api = await t.app.inject({
      method: 'POST',
      url: '/dbconnections/signup',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { client_id: consoleId, connection: REALM, email: 'visitor@example.com', password: PASSWORD },
    });
    assert.equal(api.statusCode, 400, api.body);
    assert.deepEqual(api.json(), { name: 'BadRequestError', code: 'operation_not_allowed', description: 'Public signup is disabled', statusCode: 400 });
    assert.deepEqual(await ok('GET', `/api/v2/users-by-email?email=visitor%40example.com`), []);
    // Another application of the tenant still signs users up on the same connection.
    const app = await ok<{ client_id: string }>('POST', '/api/v2/clients', { name: 'Shop', app_type: 'spa', callbacks: ['https://shop.example/cb'] });
    const signup = await t.app.inject({
      method: 'POST',
      url: '/dbconnections/signup',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { client_id: app.client_id, connection: REALM, email: 'visitor@example.com', password: PASSWORD },
    });
    assert.equal(signup.statusCode, 200, signup.body);
  });
});

const pgSkip = (await postgresAvailable()) ? false : `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}`;

for (const postgres of [false, true]) describe(`admin console: the one-time setup link (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && pgSkip }, () => {
  let t: TestApp;

  const get = (url: string, host = DOMAIN) => t.app.inject({ method: 'GET', url, headers: { host } });
  const post = (form: Record<string, string>, host = DOMAIN) =>
    t.app.inject({ method: 'POST', url: '/admin/setup', headers: { host, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

  async function link(tenant = t.tenant): Promise<string> {
    const { url } = await issueSetupLink(t.ctx, tenant);
    return new URL(url).searchParams.get('ticket')!;
  }

  async function form(ticket: string): Promise<{ csrf: string; body: string }> {
    const res = await get(`/admin/setup?ticket=${ticket}`);
    assert.equal(res.statusCode, 200, res.body);
    return { csrf: hidden(res.body, 'csrf_token'), body: res.body };
  }

  const usersNamed = async (email: string) => (await t.management('GET', `/api/v2/users-by-email?email=${encodeURIComponent(email)}`)).json() as { user_id: string }[];

  before(async () => {
    t = await createTestApp({ postgres, env: { GATEHOUSE_DEFAULT_CONNECTION: '1' } });
  });
  after(() => t.close());

  it('the default tenant\'s first start wrote a link into its credentials file', () => {
    const file = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'admin-credentials.json'), 'utf8')) as { admin_console_setup_link?: string };
    assert.match(file.admin_console_setup_link ?? '', /^https:\/\/tenant\.test\/admin\/setup\?ticket=[A-Za-z0-9_-]{43}$/);
  });

  it('happy path: the form, the user with the administrator role, then the console lets them in; the link works once', async () => {
    const ticket = await link();
    const { csrf, body } = await form(ticket);
    assert.match(body, /Create the first administrator/);
    const res = await post({ ticket, csrf_token: csrf, email: 'first@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/admin/');
    const [user] = await usersNamed('first@example.com');
    assert.ok(user);
    const roles = (await t.management('GET', `/api/v2/users/${encodeURIComponent(user.user_id)}/roles`)).json() as { name: string }[];
    assert.deepEqual(roles.map((r) => r.name), [ADMINISTRATOR_ROLE_NAME]);

    // The answer signed the new administrator in: with its session cookie the console's /authorize gives a code at once, no login page.
    const session = cookieOf(res, '__Host-gh_session');
    const consoleId = consoleClientId(t.tenant.id);
    const { verifier, challenge } = pkce();
    const start = await t.app.inject({
      method: 'GET',
      url: `/authorize?${new URLSearchParams({ client_id: consoleId, response_type: 'code', redirect_uri: CONSOLE, state: 's', audience: AUDIENCE, scope: `openid ${OPERATOR_SCOPES.join(' ')}`, code_challenge: challenge, code_challenge_method: 'S256' })}`,
      headers: { host: DOMAIN, cookie: session },
    });
    assert.equal(start.statusCode, 302, start.body);
    const done = new URL(start.headers.location as string);
    assert.equal(`${done.origin}${done.pathname}`, CONSOLE);
    const code = done.searchParams.get('code')!;
    const token = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: consoleId, code, redirect_uri: CONSOLE, code_verifier: verifier }, { form: true });
    assert.equal(token.statusCode, 200, token.body);
    assert.equal((token.json() as { scope: string }).scope, `openid ${OPERATOR_SCOPES.join(' ')}`);
    assert.equal(decodeJwt((token.json() as { access_token: string }).access_token).sub, user.user_id);

    // Spent: the page and the form refuse it, nothing more is created.
    assert.equal((await get(`/admin/setup?ticket=${ticket}`)).statusCode, 400);
    const again = await post({ ticket, csrf_token: csrf, email: 'second@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(again.statusCode, 400);
    assert.equal(again.headers['set-cookie'], undefined);
    assert.deepEqual(await usersNamed('second@example.com'), []);
  });

  it('a wrong, expired or other tenant\'s ticket is refused and creates nothing', async () => {
    assert.equal((await get(`/admin/setup?ticket=${randomBytes(32).toString('base64url')}`)).statusCode, 400);
    assert.equal((await get('/admin/setup')).statusCode, 400);
    const old = await link();
    const { csrf } = await form(old);
    await withClockAdvanced(t, 8 * 24 * 3600 * 1000, async () => {
      assert.equal((await get(`/admin/setup?ticket=${old}`)).statusCode, 400);
      const res = await post({ ticket: old, csrf_token: csrf, email: 'late@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      assert.equal(res.statusCode, 400);
    });
    assert.deepEqual(await usersNamed('late@example.com'), []);
    const { tenant: other } = await t.ctx.tenants.create({ domain: 'elsewhere.test' });
    const foreign = await link(other);
    assert.equal((await get(`/admin/setup?ticket=${foreign}`)).statusCode, 400);
    const res = await post({ ticket: foreign, csrf_token: csrf, email: 'foreign@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.ok(res.statusCode === 400 || res.statusCode === 403, String(res.statusCode));
    assert.deepEqual(await usersNamed('foreign@example.com'), []);
  });

  it('CSRF is required; the password policy and the confirmation apply; a refusal leaves the link usable', async () => {
    const ticket = await link();
    const { csrf } = await form(ticket);
    const noCsrf = await post({ ticket, email: 'c@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(noCsrf.statusCode, 403);
    const badCsrf = await post({ ticket, csrf_token: 'x'.repeat(43), email: 'c@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(badCsrf.statusCode, 403);
    const weak = await post({ ticket, csrf_token: csrf, email: 'c@example.com', password: 'short', password_confirmation: 'short' });
    assert.equal(weak.statusCode, 400);
    assert.match(weak.body, /too weak/);
    const mismatch = await post({ ticket, csrf_token: csrf, email: 'c@example.com', password: PASSWORD, password_confirmation: `${PASSWORD}!` });
    assert.equal(mismatch.statusCode, 400);
    assert.match(mismatch.body, /do not match/);
    const badEmail = await post({ ticket, csrf_token: csrf, email: 'not an address', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(badEmail.statusCode, 400);
    assert.deepEqual(await usersNamed('c@example.com'), []);
    // Taken address: refused, the transaction rolled back, the link still works.
    await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'taken@example.com', password: PASSWORD } });
    const taken = await post({ ticket, csrf_token: csrf, email: 'taken@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(taken.statusCode, 409);
    // No refusal signs anyone in: not the owner of the taken address, not a failed CSRF check.
    for (const refused of [noCsrf, badCsrf, weak, mismatch, badEmail, taken]) assert.equal(refused.headers['set-cookie'], undefined);
    const done = await post({ ticket, csrf_token: csrf, email: 'c@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal((await usersNamed('c@example.com')).length, 1);
  });

  it('the setup page is a hosted page in the tenant\'s language', async () => {
    const ticket = await link();
    const res = await t.app.inject({ method: 'GET', url: `/admin/setup?ticket=${ticket}`, headers: { host: DOMAIN, 'accept-language': 'fr' } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /Créer le premier administrateur/);
    assert.match(res.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
  });
});

describe('admin console: the login page\'s live preview', () => {
  let t: TestApp;
  const get = (query: string) => t.app.inject({ method: 'GET', url: `/admin/preview/login?${query}`, headers: { host: DOMAIN } });

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('renders the login page with the overrides, inert, frameable by this origin only', async () => {
    const res = await get(new URLSearchParams({ primary: '#aa3300', page_background: '#102030', logo_url: 'https://cdn.example.com/logo.png', lang: 'fr' }).toString());
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /#aa3300/i);
    assert.match(res.body, /#102030/i);
    assert.match(res.body, /<img src="https:\/\/cdn\.example\.com\/logo\.png"/);
    assert.match(res.body, /<html lang="fr">/);
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /frame-ancestors 'self'/);
    assert.match(csp, /form-action 'none'/);
    assert.match(csp, /img-src https:\/\/cdn\.example\.com/);
    assert.equal(res.headers['x-frame-options'], undefined);
    // The tenant's stored branding is unchanged.
    assert.deepEqual(((await t.management('GET', '/api/v2/branding')).json() as { colors?: unknown }).colors, undefined);
  });

  it('bad values are refused with 400', async () => {
    for (const query of ['primary=red', 'primary=%23zzzzzz', 'page_background=url(x)', 'logo_url=http://cdn.example.com/a.png', 'logo_url=javascript:alert(1)', 'lang=xx']) {
      const res = await get(query);
      assert.equal(res.statusCode, 400, query);
    }
  });
});
