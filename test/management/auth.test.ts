/**
 * Management API authentication and authorisation: each way a bearer token can
 * be wrong gets the service's exact status and body (management-api-wire-notes §2),
 * never a 5xx, and changes nothing.
 */
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, type JWTPayload } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('Management API authentication', () => {
  let t: TestApp;
  let token: string;

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
  });
  after(() => t.close());

  const listResourceServers = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/v2/resource-servers', headers: { host: DOMAIN, ...(authorization !== undefined && { authorization }) } });

  /** A token signed with the tenant's own key, with the given claims. */
  async function signed(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
    const { signing } = await t.ctx.keyring.keys(t.tenant.id);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: `https://${DOMAIN}/`, sub: 'x@clients', aud: `https://${DOMAIN}/api/v2/`, iat: now, exp: now + 600, scope: 'read:resource_servers', ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: signing.kid, ...header })
      .sign(signing.privateKey);
  }

  const invalidToken = {
    statusCode: 401,
    error: 'Unauthorized',
    message: 'Invalid token',
    attributes: { error: 'Invalid token' },
  };

  it('accepts the tenant’s own token', async () => {
    const res = await listResourceServers(`Bearer ${token}`);
    assert.equal(res.statusCode, 200, res.body);
  });

  it('no Authorization header: 401 Missing authentication', async () => {
    const res = await listResourceServers();
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'Missing authentication' });
    assert.equal(res.headers['www-authenticate'], 'Bearer');
  });

  it('a non-Bearer scheme or an empty Bearer: 401 Missing authentication', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer   ']) {
      const res = await listResourceServers(header);
      assert.equal(res.statusCode, 401, header);
      assert.equal((res.json() as { message: string }).message, 'Missing authentication');
    }
  });

  it('a bearer value that is not a JWT: 400 Bad HTTP authentication header format', async () => {
    for (const value of ['not-a-jwt', token.split('.').slice(0, 2).join('.')]) {
      const res = await listResourceServers(`Bearer ${value}`);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: 'Bad HTTP authentication header format',
        errorCode: 'Bearer',
      });
    }
  });

  it('an expired token: 401 Expired token received for JSON Web Token validation', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await listResourceServers(`Bearer ${await signed({ iat: now - 7200, exp: now - 3600 })}`);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), {
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Expired token received for JSON Web Token validation',
      attributes: { error: 'Expired token received for JSON Web Token validation' },
    });
    assert.equal(res.headers['www-authenticate'], 'Bearer error="Expired token received for JSON Web Token validation"');
  });

  const rejected: [string, () => Promise<string>][] = [
    ['not yet valid (nbf in the future)', () => signed({ nbf: Math.floor(Date.now() / 1000) + 3600 })],
    ['with a wrong audience', () => signed({ aud: 'https://api.example.com/' })],
    ['with a wrong issuer', () => signed({ iss: 'https://elsewhere.test/' })],
    ['without exp', () => signed({ exp: undefined })],
    ['truncated', async () => token.slice(0, -12)],
    ['with a tampered payload', async () => {
      const [h, , s] = token.split('.');
      return `${h}.${b64({ iss: `https://${DOMAIN}/`, sub: 'x@clients', aud: `https://${DOMAIN}/api/v2/`, exp: 9999999999, scope: 'read:resource_servers' })}.${s}`;
    }],
    ['with alg none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${token.split('.')[1]}.`],
    ['HS256-signed with the tenant public key', async () => {
      const { signing } = await t.ctx.keyring.keys(t.tenant.id);
      const publicPem = createPublicKey(signing.privateKey).export({ type: 'spki', format: 'pem' }) as string;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: `https://${DOMAIN}/`, sub: 'x@clients', aud: `https://${DOMAIN}/api/v2/`, iat: now, exp: now + 600, scope: 'read:resource_servers' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing.kid })
        .sign(new TextEncoder().encode(publicPem));
    }],
    ['with an unknown kid', () => signed({}, { kid: 'unknown-kid' })],
    ['with garbage segments', async () => 'aaa.bbb.ccc'],
  ];
  for (const [name, make] of rejected) {
    it(`a token ${name}: 401 Invalid token`, async () => {
      const res = await listResourceServers(`Bearer ${await make()}`);
      assert.equal(res.statusCode, 401, res.body);
      assert.deepEqual(res.json(), invalidToken);
      assert.equal(res.headers['www-authenticate'], 'Bearer error="Invalid token"');
    });
  }

  it('a token signed by another tenant: 401 Invalid token', async () => {
    const other = await t.ctx.tenants.create({ domain: 'other.test' });
    const issued = await tokenRequest(
      t.app,
      {
        grant_type: 'client_credentials',
        client_id: other.adminClientId,
        client_secret: other.adminClientSecret,
        audience: 'https://other.test/api/v2/',
      },
      { host: 'other.test' },
    );
    assert.equal(issued.statusCode, 200, issued.body);
    const otherToken = (issued.json() as { access_token: string }).access_token;
    const atOther = await t.app.inject({
      method: 'GET',
      url: '/api/v2/resource-servers',
      headers: { host: 'other.test', authorization: `Bearer ${otherToken}` },
    });
    assert.equal(atOther.statusCode, 200, 'the token works at its own tenant');
    const res = await listResourceServers(`Bearer ${otherToken}`);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), invalidToken);
  });

  it('too few scopes: 403 Insufficient scope', async () => {
    const narrow = await t.managementToken('read:client_grants');
    const res = await listResourceServers(`Bearer ${narrow}`);
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), {
      statusCode: 403,
      error: 'Forbidden',
      message: 'Insufficient scope, expected any of: read:resource_servers',
      errorCode: 'insufficient_scope',
    });
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/api/v2/client-grants',
      headers: { host: DOMAIN, authorization: `Bearer ${narrow}` },
    });
    assert.equal(allowed.statusCode, 200);
  });

  it('a refused write changes nothing', async () => {
    const narrow = await t.managementToken('read:resource_servers');
    const res = await t.management('POST', '/api/v2/resource-servers', { token: narrow, body: { identifier: 'https://nope.example.com/' } });
    assert.equal(res.statusCode, 403);
    const lookup = await t.management('GET', `/api/v2/resource-servers/${encodeURIComponent('https://nope.example.com/')}`);
    assert.equal(lookup.statusCode, 404);
  });

  it('an unknown route under /api/v2: 404 in the Management API shape', async () => {
    const res = await t.management('GET', '/api/v2/no-such-thing');
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'Not Found' });
  });

  it('an unknown host: 404 naming the host', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/resource-servers', headers: { host: 'nowhere.test', authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), {
      statusCode: 404,
      error: 'Not Found',
      message: 'No tenant is configured for the host "nowhere.test". Create one with: gatehouse tenants create nowhere.test',
    });
  });
});
