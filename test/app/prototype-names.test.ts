/**
 * Where a request's value picks a handler, a type or a setting, only own
 * names are looked up: every name of Object.prototype (`constructor`,
 * `__proto__`, `toString`, `hasOwnProperty`, `isPrototypeOf`, …) given as a
 * grant type, response type or mode, prompt, client-authentication method,
 * assertion type, connection, strategy, factor, prompt text, template, log
 * type or setting is refused with the surface's 4xx (or ignored where the
 * name is a free-form one), never a 500, and stores nothing. Found by a
 * fuzz: `grant_type=constructor` made a log event without a type, and
 * `hasOwnProperty` as a samlp addon setting answered 500 while
 * `isPrototypeOf` was stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { keyAndCertificate } from '../helpers/saml.js';

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const CALLBACK = 'https://app.example.com/callback';
const hasPostgres = await postgresAvailable();

type Surface = 'oauth' | 'dbconnections' | 'management' | 'redirect';

/** What is wrong with an answer to a refused name, or undefined: a 4xx in the surface's shape (or /authorize's error redirect). */
function problem(res: LightMyRequestResponse, surface: Surface): string | undefined {
  if (surface === 'redirect' && res.statusCode === 302) {
    const location = res.headers.location ?? '';
    return location.startsWith(CALLBACK) && /[?#&]error=/.test(location) ? undefined : `redirect without an error: ${location}`;
  }
  if (res.statusCode < 400 || res.statusCode >= 500) return `${res.statusCode} ${res.body.slice(0, 200)}`;
  if (surface === 'redirect' && String(res.headers['content-type'] ?? '').startsWith('text/html')) return undefined;
  let body: Record<string, unknown>;
  try {
    body = res.json() as Record<string, unknown>;
  } catch {
    return `${res.statusCode} not JSON: ${res.body.slice(0, 200)}`;
  }
  if (surface === 'management') {
    return body.statusCode === res.statusCode && typeof body.error === 'string' && typeof body.message === 'string' ? undefined : `${res.statusCode} ${res.body.slice(0, 200)}`;
  }
  // /dbconnections answers as the service does there: { name, code, description, statusCode }.
  if (surface === 'dbconnections' && typeof body.code === 'string' && typeof body.description === 'string') return undefined;
  return typeof body.error === 'string' && typeof body.error_description === 'string' ? undefined : `${res.statusCode} ${res.body.slice(0, 200)}`;
}

for (const postgres of [false, true]) {
  describe(`names of Object.prototype as request values (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && !hasPostgres ? 'PostgreSQL is not reachable' : false }, () => {
    let t: TestApp;
    let client: TestClient;
    let token: string;
    before(async () => {
      t = await createTestApp({ postgres });
      client = await insertClient(t, { app_type: 'regular_web', grant_types: ['authorization_code', 'client_credentials', 'refresh_token'], config: { callbacks: [CALLBACK] } });
      token = await t.managementToken();
    });
    after(() => t?.close());

    /** Runs `send` for every name; collects what is wrong, so one failure names every offending name. */
    async function eachName(surface: Surface, send: (name: string) => Promise<LightMyRequestResponse>): Promise<string[]> {
      const failures: string[] = [];
      for (const name of NAMES) {
        const found = problem(await send(name), surface);
        if (found !== undefined) failures.push(`${name}: ${found}`);
      }
      return failures;
    }

    const post = (url: string, body: Record<string, unknown>, form = false) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { host: DOMAIN, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        payload: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
      });
    const management = (method: string, url: string, body?: unknown) => t.management(method, url, { token, ...(body !== undefined && { body }) });
    const count = async (url: string, key: string) => ((await management('GET', `${url}?include_totals=true&per_page=1`)).json() as Record<string, unknown>).total ?? key;

    it('grant_type: 400 unsupported_grant_type, JSON and form', async () => {
      for (const form of [false, true]) {
        const failures: string[] = [];
        for (const name of NAMES) {
          const res = await post('/oauth/token', { grant_type: name, client_id: client.client_id, client_secret: client.client_secret }, form);
          if (res.statusCode !== 400 || (res.json() as { error?: string }).error !== 'unsupported_grant_type') failures.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
        assert.deepEqual(failures, [], form ? 'form' : 'JSON');
      }
    });

    it('parameter limits: a parameter named after a member of Object.prototype gets the default bound (4096 bytes)', async () => {
      const failures: string[] = [];
      for (const name of NAMES) {
        const res = await post('/oauth/token', { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, [name]: 'x'.repeat(4097) }, true);
        const body = res.json() as { error_description?: string };
        if (res.statusCode !== 400 || body.error_description !== `Parameter ${name} is too long (at most 4096 bytes)`) failures.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      assert.deepEqual(failures, []);
    });

    it('client authentication: client_assertion_type and the method a client is registered with', async () => {
      assert.deepEqual(
        await eachName('oauth', (name) =>
          post('/oauth/token', { grant_type: 'client_credentials', client_id: client.client_id, client_assertion_type: name, client_assertion: 'a.b.c' }),
        ),
        [],
      );
      assert.deepEqual(
        await eachName('management', (name) => management('POST', '/api/v2/clients', { name: `m-${name}`, token_endpoint_auth_method: name })),
        [],
      );
      assert.deepEqual(
        await eachName('management', (name) => management('PATCH', `/api/v2/clients/${client.client_id}`, { client_authentication_methods: { [name]: { credentials: [] } } })),
        [],
      );
    });

    it('/authorize: response_type, response_mode, prompt, connection, ui_locales and code_challenge_method', async () => {
      const authorize = (params: Record<string, string>) =>
        t.app.inject({
          method: 'GET',
          url: `/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 's', ...params })}`,
          headers: { host: DOMAIN },
        });
      for (const parameter of ['response_type', 'response_mode', 'prompt', 'code_challenge_method']) {
        assert.deepEqual(await eachName('redirect', (name) => authorize({ [parameter]: name, code_challenge: 'x'.repeat(43) })), [], parameter);
      }
      // A connection that is not the client's, and a language the catalogue does not hold (the page falls back to English).
      for (const parameter of ['connection', 'ui_locales']) {
        const failures: string[] = [];
        for (const name of NAMES) {
          const res = await authorize({ [parameter]: name });
          if (res.statusCode >= 500) failures.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
        assert.deepEqual(failures, [], parameter);
      }
    });

    it('passwordless and database connections: connection, send and the signup members; no user created', async () => {
      const users = async () => ((await management('GET', '/api/v2/users?include_totals=true&per_page=1')).json() as { total: number }).total;
      const before = await users();
      assert.deepEqual(await eachName('oauth', (name) => post('/passwordless/start', { client_id: client.client_id, connection: name, email: 'a@example.com', send: 'code' })), []);
      assert.deepEqual(await eachName('oauth', (name) => post('/passwordless/start', { client_id: client.client_id, connection: 'email', email: 'a@example.com', send: name })), []);
      assert.deepEqual(await eachName('dbconnections', (name) => post('/dbconnections/signup', { client_id: client.client_id, connection: name, email: 'a@example.com', password: 'Secret-pass-123' })), []);
      assert.deepEqual(
        await eachName('dbconnections', (name) => post('/dbconnections/change_password', { client_id: client.client_id, connection: name, email: 'a@example.com' })),
        [],
      );
      assert.equal(await users(), before);
    });

    it('the samlp addon: a prototype name as a setting is refused, nothing stored', async () => {
      const before = await count('/api/v2/clients', 'clients');
      assert.deepEqual(await eachName('management', (name) => management('POST', '/api/v2/clients', { name: 'saml', addons: { samlp: { [name]: true } } })), []);
      assert.deepEqual(
        await eachName('management', (name) => management('PATCH', `/api/v2/clients/${client.client_id}`, { addons: { samlp: { logout: { [name]: true } } } })),
        [],
      );
      assert.equal(await count('/api/v2/clients', 'clients'), before);
      const stored = (await management('GET', `/api/v2/clients/${client.client_id}`)).json() as { addons?: unknown };
      assert.equal(stored.addons, undefined);
    });

    it('connections: strategy and options; nothing stored', async () => {
      const before = await count('/api/v2/connections', 'connections');
      assert.deepEqual(await eachName('management', (name) => management('POST', '/api/v2/connections', { name: `c-${NAMES.indexOf(name)}`, strategy: name })), []);
      assert.equal(await count('/api/v2/connections', 'connections'), before);
      // samlp checks its options (a name of Object.prototype is no option: 400); the others keep free-form options as data.
      const samlp = { signInEndpoint: 'https://idp.example.com/sso', signingCert: (await keyAndCertificate('idp.example.com')).certificateBase64 };
      const required: Record<string, Record<string, unknown>> = { samlp, sms: { totp: { length: 6, time_step: 300 } } };
      for (const strategy of ['auth0', 'email', 'sms', 'samlp']) {
        const failures: string[] = [];
        for (const name of NAMES) {
          const options = { ...required[strategy], [name]: true };
          const res = await management('POST', '/api/v2/connections', { name: `o-${strategy}-${NAMES.indexOf(name)}`, strategy, options });
          if (strategy === 'samlp' && res.statusCode !== 400) failures.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          if (res.statusCode >= 500) failures.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          else if (res.statusCode < 300) {
            const options = (res.json() as { options?: Record<string, unknown> }).options ?? {};
            // Accepted as a free-form option: kept as plain data under its own name, or dropped.
            if (Object.hasOwn(options, name) && options[name] !== true) failures.push(`${name}: stored as ${JSON.stringify(options[name])}`);
          } else {
            const found = problem(res, 'management');
            if (found !== undefined) failures.push(`${name}: ${found}`);
          }
        }
        assert.deepEqual(failures, [], strategy);
      }
    });

    it('Management API bodies: a prototype name as a member is refused, or kept as plain data where the member is free-form', async () => {
      const connection = await management('POST', '/api/v2/connections', { name: 'proto-users', strategy: 'auth0' });
      assert.equal(connection.statusCode, 201, connection.body);
      const user = await management('POST', '/api/v2/users', { connection: 'proto-users', email: 'proto@example.com', password: 'Secret-pass-123!x' });
      assert.equal(user.statusCode, 201, user.body);
      const userId = (user.json() as { user_id: string }).user_id;
      const bodies: [string, string, (name: string) => unknown, string?][] = [
        ['PATCH', '/api/v2/tenants/settings', (name) => ({ [name]: true }), '/api/v2/tenants/settings'],
        ['PATCH', '/api/v2/tenants/settings', (name) => ({ flags: { [name]: true } }), '/api/v2/tenants/settings'],
        ['PATCH', '/api/v2/branding', (name) => ({ colors: { [name]: '#ffffff' } }), '/api/v2/branding'],
        ['PATCH', '/api/v2/prompts', (name) => ({ [name]: 'x' }), '/api/v2/prompts'],
        ['PATCH', '/api/v2/attack-protection/brute-force-protection', (name) => ({ [name]: true }), '/api/v2/attack-protection/brute-force-protection'],
        ['PATCH', '/api/v2/attack-protection/suspicious-ip-throttling', (name) => ({ stage: { [name]: { max_attempts: 1 } } }), '/api/v2/attack-protection/suspicious-ip-throttling'],
        ['PUT', '/api/v2/guardian/policies', (name) => [name]],
        ['POST', '/api/v2/roles', (name) => ({ name: `r-${NAMES.indexOf(name)}`, [name]: 'x' })],
        ['POST', '/api/v2/resource-servers', (name) => ({ identifier: `https://api-${NAMES.indexOf(name)}.example.com`, [name]: 'x' })],
        ['POST', '/api/v2/organizations', (name) => ({ name: `org-${NAMES.indexOf(name)}`, metadata: {}, branding: { colors: { [name]: '#ffffff' } } })],
        ['POST', '/api/v2/log-streams', (name) => ({ name: 's', type: name, sink: { httpEndpoint: 'https://logs.example.com' } })],
        ['POST', '/api/v2/email-templates', (name) => ({ template: name, body: 'x', from: 'a@example.com', subject: 's', syntax: 'liquid', enabled: true })],
        ['PATCH', '/api/v2/email-templates/verify_email', (name) => ({ [name]: 'x' })],
        ['POST', '/api/v2/clients', (name) => ({ name: 'c', client_metadata: { [name]: 'x' } })],
        ['PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, (name) => ({ user_metadata: { [name]: 'x' }, app_metadata: { [name]: { [name]: 1 } } }), `/api/v2/users/${encodeURIComponent(userId)}`],
      ];
      for (const [method, url, body, readBack] of bodies) {
        const failures: string[] = [];
        for (const name of NAMES) {
          const res = await management(method, url, body(name));
          if (res.statusCode < 300) {
            if (readBack !== undefined) {
              const read = await management('GET', readBack);
              if (read.statusCode !== 200) failures.push(`${name}: read back ${read.statusCode} ${read.body.slice(0, 200)}`);
              // Free-form metadata keeps the name as data of its own.
              const metadata = (JSON.parse(read.body) as { user_metadata?: Record<string, unknown> }).user_metadata;
              if (url.startsWith('/api/v2/users/') && !(metadata && Object.hasOwn(metadata, name) && metadata[name] === 'x')) failures.push(`${name}: user_metadata ${JSON.stringify(metadata)}`);
            }
            continue;
          }
          const found = problem(res, 'management');
          if (found !== undefined) failures.push(`${name}: ${found}`);
        }
        assert.deepEqual(failures, [], `${method} ${url}`);
      }
    });

    it('Management API names in paths: guardian factors, prompts, custom texts, email templates, attack protection', async () => {
      const paths: [string, (name: string) => string, unknown?][] = [
        ['PUT', (name) => `/api/v2/guardian/factors/${name}`, { enabled: true }],
        ['GET', (name) => `/api/v2/guardian/factors/${name}/providers/twilio`],
        ['GET', (name) => `/api/v2/prompts/${name}/custom-text/en`],
        ['PUT', (name) => `/api/v2/prompts/${name}/custom-text/en`, { login: { title: 'x' } }],
        ['GET', (name) => `/api/v2/prompts/login/custom-text/${name}`],
        ['PUT', (name) => `/api/v2/prompts/login/custom-text/${name}`, { login: { title: 'x' } }],
        ['PUT', () => '/api/v2/prompts/login/custom-text/en', undefined],
        ['GET', (name) => `/api/v2/email-templates/${name}`],
        ['PATCH', (name) => `/api/v2/email-templates/${name}`, { body: 'x' }],
        ['GET', (name) => `/api/v2/attack-protection/${name}`],
        ['GET', (name) => `/api/v2/${name}`],
        ['GET', (name) => `/api/v2/logs?q=${encodeURIComponent(`type:${name}`)}`],
      ];
      for (const [method, url, body] of paths) {
        if (body === undefined && method === 'PUT') {
          // Prompt texts keyed by a prototype name: refused as an unknown screen or key.
          assert.deepEqual(await eachName('management', (name) => management('PUT', url(name), { [name]: { title: 'x' } })), [], 'screen');
          assert.deepEqual(await eachName('management', (name) => management('PUT', url(name), { login: { [name]: 'x' } })), [], 'text key');
          continue;
        }
        const failures: string[] = [];
        for (const name of NAMES) {
          const res = await management(method, url(name), body);
          if (res.statusCode === 200 && method === 'GET' && url(name).includes('/logs')) continue;
          const found = problem(res, 'management');
          if (found !== undefined) failures.push(`${name}: ${found}`);
        }
        assert.deepEqual(failures, [], `${method} ${url('NAME')}`);
      }
    });
  });
}
