/**
 * Pushed authorization requests (RFC 9126): POST /oauth/par authenticates
 * the client, validates the request as /authorize would and answers a
 * single-use request_uri; /authorize with it uses only the pushed
 * parameters. Refused: reuse, expiry, another client's request_uri, a plain
 * request from a client that must push, and invalid pushed requests.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { Browser, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const ISSUER = `https://${DOMAIN}/`;

describe('pushed authorization requests', () => {
  let t: TestApp;
  let app: TestClient;
  let strict: TestClient;
  let other: TestClient;

  const push = (client: TestClient | { client_id: string }, params: Record<string, string>, auth: Record<string, string> = 'client_secret' in client ? { client_secret: client.client_secret } : {}) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: client.client_id, ...auth, ...params }).toString(),
    });

  const codeRequest = (extra: Record<string, string> = {}) => ({
    response_type: 'code',
    redirect_uri: CALLBACK,
    scope: 'openid',
    state: 'pushed-state',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  async function requestUri(client: TestClient, extra: Record<string, string> = {}): Promise<string> {
    const res = await push(client, codeRequest(extra));
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { request_uri: string }).request_uri;
  }

  before(async () => {
    t = await createTestApp();
    const config = { callbacks: [CALLBACK] };
    app = await insertClient(t, { grant_types: ['authorization_code'], config });
    strict = await insertClient(t, { grant_types: ['authorization_code'], config: { ...config, require_pushed_authorization_requests: true, par_request_expiry: 90 } });
    other = await insertClient(t, { grant_types: ['authorization_code'], config });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id, strict.client_id, other.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'par@example.com', password: PASSWORD } })).statusCode, 201);
  });
  after(() => t.close());

  it('pushes, then logs in through /authorize?request_uri with only the pushed parameters', async () => {
    const res = await push(app, codeRequest());
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json() as { request_uri: string; expires_in: number };
    assert.match(body.request_uri, /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{20,}$/);
    assert.equal(body.expires_in, 30);

    const browser = new Browser(t);
    // Query parameters beside client_id and request_uri do not count (RFC 9126 §4).
    const done = await browser.login(`/authorize?${new URLSearchParams({ client_id: app.client_id, request_uri: body.request_uri, state: 'from-the-query', redirect_uri: 'https://evil.example/cb' })}`, 'par@example.com', PASSWORD);
    const params = redirectParams(done, CALLBACK);
    assert.ok(params.get('code'));
    assert.equal(params.get('state'), 'pushed-state');
  });

  it('a request_uri is used once, expires, and belongs to its client', async () => {
    const once = await requestUri(app);
    const browser = new Browser(t);
    assert.equal((await browser.get(`/authorize?client_id=${app.client_id}&request_uri=${encodeURIComponent(once)}`)).statusCode, 302);
    const again = await browser.get(`/authorize?client_id=${app.client_id}&request_uri=${encodeURIComponent(once)}`);
    assert.equal(again.statusCode, 400);
    assert.match(again.body, /unknown, expired or already used/);

    const expiring = await requestUri(app);
    const late = await withClockAdvanced(t, 31_000, () => browser.get(`/authorize?client_id=${app.client_id}&request_uri=${encodeURIComponent(expiring)}`));
    assert.equal(late.statusCode, 400, 'expired after par_request_expiry');

    const stolen = await requestUri(app);
    const theirs = await browser.get(`/authorize?client_id=${other.client_id}&request_uri=${encodeURIComponent(stolen)}`);
    assert.equal(theirs.statusCode, 400, "another client's request_uri");
    assert.equal((await browser.get(`/authorize?client_id=${app.client_id}&request_uri=${encodeURIComponent(stolen)}`)).statusCode, 302, 'and it was not spent by the refusal');

    assert.equal((await browser.get(`/authorize?client_id=${app.client_id}&request_uri=https%3A%2F%2Fx.example%2Fr`)).statusCode, 400, 'not a pushed request_uri');
  });

  it('a client with require_pushed_authorization_requests must push; its par_request_expiry holds', async () => {
    const browser = new Browser(t);
    const plain = await browser.get(`/authorize?${new URLSearchParams({ client_id: strict.client_id, ...codeRequest() })}`);
    assert.equal(plain.statusCode, 400);
    assert.match(plain.body, /must use pushed authorization requests/);
    assert.equal(plain.headers.location, undefined, 'no redirect');

    const res = await push(strict, codeRequest());
    assert.equal((res.json() as { expires_in: number }).expires_in, 90);
    const uri = (res.json() as { request_uri: string }).request_uri;
    const within = await withClockAdvanced(t, 60_000, () => browser.get(`/authorize?client_id=${strict.client_id}&request_uri=${encodeURIComponent(uri)}`));
    assert.equal(within.statusCode, 302, within.body);
  });

  it('refuses invalid pushed requests as JSON, and stores nothing for them', async () => {
    const cases: [Record<string, string>, number, string, RegExp][] = [
      [codeRequest({ redirect_uri: 'https://evil.example/cb' }), 400, 'invalid_request', /Callback URL mismatch/],
      [codeRequest({ response_type: 'code banana' }), 400, 'unsupported_response_type', /Unsupported response type/],
      [codeRequest({ request_uri: 'urn:ietf:params:oauth:request_uri:x' }), 400, 'invalid_request', /request_uri cannot be pushed/],
    ];
    for (const [params, status, error, description] of cases) {
      const res = await push(app, params);
      assert.equal(res.statusCode, status, res.body);
      assert.equal((res.json() as { error: string }).error, error);
      assert.match((res.json() as { error_description: string }).error_description, description);
    }
    const wrongSecret = await push(app, codeRequest(), { client_secret: 'wrong' });
    assert.equal(wrongSecret.statusCode, 401, wrongSecret.body);
    const noSecret = await push(app, codeRequest(), {});
    assert.equal(noSecret.statusCode, 401, 'a confidential client must authenticate');
    const repeated = await t.app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `client_id=${app.client_id}&client_secret=${app.client_secret}&response_type=code&scope=a&scope=b`,
    });
    assert.equal(repeated.statusCode, 400, repeated.body);
  });

  it('a public client pushes with its client_id; a private_key_jwt client with an assertion for the PAR endpoint', async () => {
    const spa = await insertClient(t, { grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', client_secret_enc: null, config: { callbacks: [CALLBACK] } });
    const pub = await push({ client_id: spa.client_id }, codeRequest());
    assert.equal(pub.statusCode, 201, pub.body);

    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const created = await t.management('POST', '/api/v2/clients', {
      body: {
        name: 'pkjwt-par',
        grant_types: ['authorization_code'],
        callbacks: [CALLBACK],
        client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() }] } },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const clientId = (created.json() as { client_id: string }).client_id;
    const now = Math.floor(t.ctx.now() / 1000);
    const assertion = await new SignJWT({ iss: clientId, sub: clientId, aud: `${ISSUER}oauth/par`, jti: randomUUID(), iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: 'RS256' })
      .sign(privateKey);
    const res = await push({ client_id: clientId }, codeRequest(), { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
    assert.equal(res.statusCode, 201, res.body);
  });

  it('discovery names the PAR endpoint', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.equal(doc.pushed_authorization_request_endpoint, `${ISSUER}oauth/par`);
    assert.equal(doc.require_pushed_authorization_requests, false);
  });
});
