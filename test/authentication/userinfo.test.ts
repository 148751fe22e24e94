/**
 * GET|POST /userinfo through app.inject on the real app: claims per scope for
 * tokens from the password grants, and the service's plain-text 401s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const API = 'https://api.example.com/';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

describe('GET|POST /userinfo', () => {
  let t: TestApp;
  let client: TestClient;
  let userId: string;

  const userinfo = (method: 'GET' | 'POST', token?: string, body?: Record<string, string>) =>
    t.app.inject({
      method,
      url: '/userinfo',
      headers: { host: DOMAIN, ...(token !== undefined && { authorization: `Bearer ${token}` }), ...(body && { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(body && { payload: new URLSearchParams(body).toString() }),
    });

  async function login(extra: Record<string, string>): Promise<string> {
    const res = await tokenRequest(t.app, {
      grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username: 'alice@example.com', password: PASSWORD, realm: REALM, ...extra,
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { access_token: string }).access_token;
  }

  function assertUnauthorized(res: Awaited<ReturnType<typeof userinfo>>, description?: string) {
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    const expected = description === undefined ? 'Bearer realm="Users"' : `Bearer realm="Users", error="invalid_token", error_description="${description}"`;
    assert.equal(res.headers['www-authenticate'], expected);
  }

  before(async () => {
    t = await createTestApp();
    assert.equal((await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, scopes: [{ value: 'read:things' }] } })).statusCode, 201);
    client = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } })).statusCode, 201);
    const user = await t.management('POST', '/api/v2/users', {
      body: { connection: REALM, email: 'alice@example.com', password: PASSWORD, name: 'Alice', nickname: 'ali', picture: 'https://example.com/a.png', email_verified: true },
    });
    assert.equal(user.statusCode, 201, user.body);
    userId = (user.json() as { user_id: string }).user_id;
  });
  after(() => t.close());

  it('answers the claims of the token scopes (GET, API token with openid)', async () => {
    const token = await login({ audience: API, scope: 'openid profile email' });
    const res = await userinfo('GET', token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json');
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['sub', 'nickname', 'name', 'picture', 'updated_at', 'email', 'email_verified']);
    assert.equal(body.sub, userId);
    assert.equal(body.email_verified, true);
  });

  it('answers only sub for openid alone; POST accepts the token in the body', async () => {
    const token = await login({ scope: 'openid' });
    const res = await userinfo('POST', undefined, { access_token: token });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { sub: userId });
    const email = await userinfo('POST', await login({ scope: 'openid email' }));
    assert.deepEqual(email.json(), { sub: userId, email: 'alice@example.com', email_verified: true });
  });

  it('accepts the token in the access_token query parameter (RFC 6750 §2.3), as passport-auth0 sends it', async () => {
    const token = await login({ scope: 'openid email' });
    const query = (q: string, init: { method?: 'GET' | 'POST'; authorization?: string } = {}) =>
      t.app.inject({ method: init.method ?? 'GET', url: `/userinfo?${q}`, headers: { host: DOMAIN, ...(init.authorization && { authorization: init.authorization }) } });
    const res = await query(`access_token=${token}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { sub: userId, email: 'alice@example.com', email_verified: true });
    assert.equal((await query(`access_token=${token}`, { method: 'POST' })).statusCode, 200);
    // The same checks as for the header: a tampered token is refused.
    assertUnauthorized(await query(`access_token=${token.slice(0, -4)}AAAA`), 'Invalid token');
    // One place only (RFC 6750 §2): header and query together, or the parameter twice, are refused.
    assertUnauthorized(await query(`access_token=${token}`, { authorization: `Bearer ${token}` }), 'The access token must be presented in one place only: the Authorization header, the body or the query');
    assertUnauthorized(await query(`access_token=${token}&access_token=${token}`), 'The access_token query parameter must be given once');
    const both = await t.app.inject({
      method: 'POST', url: `/userinfo?access_token=${token}`,
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ access_token: token }).toString(),
    });
    assertUnauthorized(both, 'The access token must be presented in one place only: the Authorization header, the body or the query');
    // An empty parameter is no token: the challenge without an error code.
    assertUnauthorized(await query('access_token='));
  });

  it('refuses a missing, malformed, tampered or foreign-audience token with a plain 401', async () => {
    assertUnauthorized(await userinfo('GET'));
    assertUnauthorized(await userinfo('GET', 'not-a-jwt'), 'Invalid token');
    const token = await login({ scope: 'openid profile' });
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const tampered = [h, Buffer.from(JSON.stringify({ ...payload, sub: 'auth0|someone-else' })).toString('base64url'), s].join('.');
    assertUnauthorized(await userinfo('GET', tampered), 'Invalid token');
    // An API token without openid has no userinfo audience.
    assertUnauthorized(await userinfo('GET', await login({ audience: API, scope: 'read:things' })), 'Invalid audience');
    // Neither has a client-credentials token.
    const m2m = await t.managementToken();
    assertUnauthorized(await userinfo('GET', m2m), 'Invalid audience');
  });

  it('refuses a tenant-signed token without exp (or without sub) with a plain 401', async () => {
    const keys = await t.ctx.keyring.keys(t.tenant.id);
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ iss: `https://${DOMAIN}/`, aud: `https://${DOMAIN}/userinfo`, iat: now, scope: 'openid profile', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: keys.signing.kid, typ: 'JWT' })
        .sign(keys.signing.privateKey);
    // The same token with exp is accepted: only the missing claim is refused.
    assert.equal((await userinfo('GET', await sign({ sub: userId, exp: now + 600 }))).statusCode, 200);
    assertUnauthorized(await userinfo('GET', await sign({ sub: userId })), 'Invalid token');
    assertUnauthorized(await userinfo('POST', undefined, { access_token: await sign({ sub: userId }) }), 'Invalid token');
    assertUnauthorized(await userinfo('GET', await sign({ exp: now + 600 })), 'Invalid token');
  });

  it('is listed in the discovery document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } });
    const doc = res.json() as Record<string, unknown>;
    assert.equal(doc.userinfo_endpoint, `https://${DOMAIN}/userinfo`);
    assert.deepEqual((doc.grant_types_supported as string[]).slice().sort(), [
      'authorization_code',
      'client_credentials',
      'implicit',
      'password',
      PASSWORD_REALM,
      'refresh_token',
      'http://auth0.com/oauth/grant-type/mfa-otp',
      'http://auth0.com/oauth/grant-type/mfa-oob',
      'http://auth0.com/oauth/grant-type/mfa-recovery-code',
      'http://auth0.com/oauth/grant-type/passwordless/otp',
      'urn:ietf:params:oauth:grant-type:device_code',
      'urn:openid:params:grant-type:ciba',
      'urn:auth0:params:oauth:grant-type:token-exchange:federated-connection-access-token',
      'urn:ietf:params:oauth:grant-type:token-exchange',
    ].sort());
    assert.equal(doc.revocation_endpoint, `https://${DOMAIN}/oauth/revoke`);
    assert.ok((doc.scopes_supported as string[]).includes('openid'));
    assert.ok((doc.claims_supported as string[]).includes('email_verified'));
  });
});
