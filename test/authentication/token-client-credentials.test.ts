/**
 * POST /oauth/token with grant_type=client_credentials, through app.inject on
 * the real app and database: success shapes, client authentication, and each
 * refusal with its exact status and body.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, jwtVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const API = 'https://api.example.com/';

describe('POST /oauth/token client_credentials', () => {
  let t: TestApp;
  let m2m: TestClient;

  before(async () => {
    t = await createTestApp();
    const created = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier: API, name: 'Example API', scopes: [{ value: 'read:things' }, { value: 'write:things' }, { value: 'admin' }], token_lifetime: 3600 },
    });
    assert.equal(created.statusCode, 201, created.body);
    m2m = await insertClient(t);
    const grant = await t.management('POST', '/api/v2/client-grants', {
      body: { client_id: m2m.client_id, audience: API, scope: ['read:things', 'write:things'] },
    });
    assert.equal(grant.statusCode, 201, grant.body);
  });
  after(() => t.close());

  const body = (client: TestClient, extra: Record<string, string> = {}) => ({
    grant_type: 'client_credentials',
    client_id: client.client_id,
    client_secret: client.client_secret,
    audience: API,
    ...extra,
  });

  it('issues an RS256 JWT shaped like the service’s, with Cache-Control: no-store', async () => {
    const res = await tokenRequest(t.app, body(m2m));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['content-type'], 'application/json');
    const json = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['access_token', 'scope', 'expires_in', 'token_type']);
    assert.equal(json.token_type, 'Bearer');
    assert.equal(json.expires_in, 3600);
    assert.equal(json.scope, 'read:things write:things');

    const token = json.access_token as string;
    const header = decodeProtectedHeader(token);
    assert.equal(header.alg, 'RS256');
    assert.equal(header.typ, 'JWT');
    assert.equal(typeof header.kid, 'string');
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet;
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: `https://${DOMAIN}/`, audience: API });
    assert.deepEqual(Object.keys(payload), ['iss', 'sub', 'aud', 'iat', 'exp', 'scope', 'gty', 'azp']);
    assert.equal(payload.sub, `${m2m.client_id}@clients`);
    assert.equal(payload.aud, API);
    assert.equal(payload.gty, 'client-credentials');
    assert.equal(payload.azp, m2m.client_id);
    assert.equal(payload.exp! - payload.iat!, 3600);
  });

  it('accepts form bodies and HTTP Basic client authentication', async () => {
    const form = await tokenRequest(t.app, body(m2m), { form: true });
    assert.equal(form.statusCode, 200, form.body);
    const basic = await tokenRequest(
      t.app,
      { grant_type: 'client_credentials', audience: API },
      { form: true, headers: { authorization: `Basic ${Buffer.from(`${m2m.client_id}:${m2m.client_secret}`).toString('base64')}` } },
    );
    assert.equal(basic.statusCode, 200, basic.body);
  });

  it('accepts the secret in either place whatever token_endpoint_auth_method says', async () => {
    const basicClient = await insertClient(t, { token_endpoint_auth_method: 'client_secret_basic' });
    await t.management('POST', '/api/v2/client-grants', { body: { client_id: basicClient.client_id, audience: API, scope: [] } });
    const res = await tokenRequest(t.app, body(basicClient));
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json() as Record<string, unknown>;
    assert.equal(json.scope, undefined, 'no scope member when nothing was granted');
    assert.equal(decodeJwt(json.access_token as string).scope, undefined);
  });

  it('narrows requested scopes to the grant and drops unknown ones', async () => {
    const res = await tokenRequest(t.app, body(m2m, { scope: 'read:things admin nonsense' }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { scope: string }).scope, 'read:things');
  });

  it('uses the tenant default audience when none is sent, and refuses without one', async () => {
    const without = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: m2m.client_id, client_secret: m2m.client_secret });
    assert.equal(without.statusCode, 403);
    assert.deepEqual(without.json(), {
      error: 'access_denied',
      error_description: 'No audience parameter was provided, and no default audience has been configured',
    });
    await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, default_audience: API });
    const res = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: m2m.client_id, client_secret: m2m.client_secret });
    await t.ctx.tenants.updateSettings(t.tenant, t.tenant.settings);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(decodeJwt((res.json() as { access_token: string }).access_token).aud, API);
  });

  it('signs with the API signing secret for HS256 APIs', async () => {
    const hs = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier: 'https://hs.example.com/', signing_alg: 'HS256', signing_secret: 'a-very-long-signing-secret-0123456789' },
    });
    assert.equal(hs.statusCode, 201, hs.body);
    await t.management('POST', '/api/v2/client-grants', { body: { client_id: m2m.client_id, audience: 'https://hs.example.com/', scope: [] } });
    const res = await tokenRequest(t.app, body(m2m, { audience: 'https://hs.example.com/' }));
    assert.equal(res.statusCode, 200, res.body);
    const token = (res.json() as { access_token: string }).access_token;
    const { protectedHeader } = await jwtVerify(token, new TextEncoder().encode('a-very-long-signing-secret-0123456789'));
    assert.equal(protectedHeader.alg, 'HS256');
  });

  describe('refusals', () => {
    const cases: { name: string; send: () => Promise<import('fastify').LightMyRequestResponse>; status: number; body: unknown }[] = [
      {
        name: 'wrong secret',
        send: () => tokenRequest(t.app, { ...body(m2m), client_secret: 'wrong-secret-of-some-length' }),
        status: 401,
        body: { error: 'access_denied', error_description: 'Unauthorized' },
      },
      {
        name: 'missing secret for a confidential client',
        send: () => tokenRequest(t.app, { grant_type: 'client_credentials', client_id: m2m.client_id, audience: API }),
        status: 401,
        body: { error: 'access_denied', error_description: 'Unauthorized' },
      },
      {
        name: 'unknown client',
        send: () => tokenRequest(t.app, { ...body(m2m), client_id: 'nobody' }),
        status: 401,
        body: { error: 'access_denied', error_description: 'Unauthorized' },
      },
      {
        name: 'unknown grant type',
        send: () => tokenRequest(t.app, { ...body(m2m), grant_type: 'urn:example:nope' }),
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Unsupported grant type: urn:example:nope' },
      },
      {
        name: 'missing grant type',
        send: () => tokenRequest(t.app, { client_id: m2m.client_id, client_secret: m2m.client_secret }),
        status: 400,
        body: { error: 'invalid_request', error_description: 'Missing required parameter: grant_type' },
      },
      {
        name: 'malformed JSON',
        send: () => tokenRequest(t.app, '{"grant_type": "client_credentials",'),
        status: 400,
        body: { error: 'invalid_request', error_description: 'Invalid request payload JSON format' },
      },
      {
        name: 'a JSON array body',
        send: () => tokenRequest(t.app, '["client_credentials"]'),
        status: 400,
        body: { error: 'invalid_request', error_description: 'The request body must be a JSON object or a form' },
      },
      {
        name: 'wrong content type',
        send: () => tokenRequest(t.app, 'grant_type=client_credentials', { headers: { 'content-type': 'text/plain' } }),
        status: 400,
        body: { error: 'invalid_request', error_description: 'Content-Type must be application/json or application/x-www-form-urlencoded' },
      },
      {
        name: 'a repeated parameter',
        send: () => tokenRequest(t.app, `grant_type=client_credentials&audience=a&audience=b&client_id=${m2m.client_id}`, { form: true }),
        status: 400,
        body: { error: 'invalid_request', error_description: 'Parameter audience must not be repeated' },
      },
      {
        name: 'unknown audience',
        send: () => tokenRequest(t.app, { ...body(m2m), audience: 'https://unknown.example.com/' }),
        status: 403,
        body: { error: 'access_denied', error_description: 'Service not enabled within domain: https://unknown.example.com/' },
      },
      {
        name: 'an audience the client has no grant for',
        send: () => tokenRequest(t.app, { ...body(m2m), audience: `https://${DOMAIN}/api/v2/` }),
        status: 403,
        body: {
          error: 'access_denied',
          error_description: `Client is not authorized to access "https://${DOMAIN}/api/v2/". You might probably want to create a "client-grant" associated to this API. See: POST /api/v2/client-grants`,
        },
      },
      {
        name: 'two client authentication methods at once',
        send: () =>
          tokenRequest(t.app, body(m2m), {
            headers: { authorization: `Basic ${Buffer.from(`${m2m.client_id}:${m2m.client_secret}`).toString('base64')}` },
          }),
        status: 400,
        body: { error: 'invalid_request', error_description: 'Only one client authentication method may be used per request' },
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}: ${c.status}`, async () => {
        const res = await c.send();
        assert.equal(res.statusCode, c.status, res.body);
        assert.deepEqual(res.json(), c.body);
        assert.equal(res.headers['cache-control'], 'no-store');
      });
    }

    it('refuses a public client: 403 unauthorized_client', async () => {
      const spa = await insertClient(t, { token_endpoint_auth_method: 'none', client_secret_enc: null, app_type: 'spa' });
      const res = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: spa.client_id, audience: API });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), {
        error: 'unauthorized_client',
        error_description: "Grant type 'client_credentials' not allowed for public clients.",
      });
      const withSecret = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: spa.client_id, client_secret: 'x', audience: API });
      assert.equal(withSecret.statusCode, 401);
      assert.deepEqual(withSecret.json(), { error: 'access_denied', error_description: 'Unauthorized' });
    });

    it('refuses a client whose grant_types lack client_credentials: 403 unauthorized_client', async () => {
      const web = await insertClient(t, { grant_types: ['authorization_code'] });
      const res = await tokenRequest(t.app, body(web));
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), {
        error: 'unauthorized_client',
        error_description: "Grant type 'client_credentials' not allowed for the client.",
      });
    });

    it('refuses a secret from a client registered for private_key_jwt: 401 invalid_client', async () => {
      const pkj = await insertClient(t, { client_authentication_methods: { private_key_jwt: { credentials: [] } } });
      const res = await tokenRequest(t.app, body(pkj));
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), {
        error: 'invalid_client',
        error_description: 'This client must authenticate with private_key_jwt; client_secret_post is not allowed for it',
      });
    });

    it('answers an unknown host with a clear 404 and changes nothing', async () => {
      const res = await tokenRequest(t.app, body(m2m), { host: 'elsewhere.test' });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), {
        error: 'not_found',
        error_description: 'No tenant is configured for the host "elsewhere.test". Create one with: gatehouse tenants create elsewhere.test',
      });
    });
  });
});

describe('token endpoint caches follow configuration changes at once', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('a deleted grant, a narrowed grant and a deleted API stop issuing immediately', async () => {
    await t.management('POST', '/api/v2/resource-servers', { body: { identifier: 'cached-api', scopes: [{ value: 'x' }, { value: 'y' }] } });
    const client = await insertClient(t);
    const grant = (await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: 'cached-api', scope: ['x', 'y'] } })).json() as { id: string };
    const ask = () => tokenRequest(t.app, { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: 'cached-api' });

    assert.equal((((await ask()).json()) as { scope: string }).scope, 'x y');
    await t.management('PATCH', `/api/v2/client-grants/${grant.id}`, { body: { scope: ['y'] } });
    assert.equal((((await ask()).json()) as { scope: string }).scope, 'y');
    await t.management('DELETE', `/api/v2/client-grants/${grant.id}`);
    assert.equal((await ask()).statusCode, 403);
    await t.management('DELETE', '/api/v2/resource-servers/cached-api');
    const gone = await ask();
    assert.equal(gone.statusCode, 403);
    assert.equal((gone.json() as { error_description: string }).error_description, 'Service not enabled within domain: cached-api');
  });
});
