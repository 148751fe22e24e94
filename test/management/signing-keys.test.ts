/**
 * /api/v2/keys/signing on the real app and database: the service's shapes,
 * the key lifecycle (a next key published before it signs; rotation; the
 * previous key verifying until revoked, then neither published nor
 * verifying at the Management API and /userinfo), refusals and scopes, and
 * a rotation and a revocation reaching another process through Redis.
 */
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, withSecondProcess, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

interface Key {
  kid: string;
  cert: string;
  pkcs7: string;
  current: boolean;
  next: boolean;
  previous: boolean;
  revoked: boolean;
  current_since?: string;
  current_until?: string;
  revoked_at?: string;
  fingerprint: string;
  thumbprint: string;
}
interface Jwk {
  kid: string;
  alg: string;
  x5c: string[];
}

describe('/api/v2/keys/signing', () => {
  let t: TestApp;
  let spa: TestClient;

  const list = async (app: TestApp = t) => {
    const res = await app.management('GET', '/api/v2/keys/signing');
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Key[];
  };
  const jwksKids = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } });
    return (res.json() as { keys: Jwk[] }).keys.map((k) => k.kid);
  };
  const rotate = async () => {
    const res = await t.management('POST', '/api/v2/keys/signing/rotate');
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { kid: string; cert: string };
  };
  const withToken = (token: string) => t.management('GET', '/api/v2/keys/signing', { token });
  const userinfo = (token: string) => t.app.inject({ method: 'GET', url: '/userinfo', headers: { host: DOMAIN, authorization: `Bearer ${token}` } });
  /** A user's token for /userinfo (password-realm grant with openid, no API). */
  const userToken = async () => {
    const res = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: spa.client_id, client_secret: spa.client_secret, username: 'ursula@example.com', password: PASSWORD, realm: REALM, scope: 'openid' });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { access_token: string }).access_token;
  };
  const kidOf = (token: string) => decodeProtectedHeader(token).kid;

  before(async () => {
    t = await createTestApp();
    spa = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [spa.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'ursula@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
  });
  after(() => t.close());

  it('a new tenant has a current key that signs and a next key, both published; the shapes of the service', async () => {
    const keys = await list();
    assert.equal(keys.length, 2);
    const [current, next] = keys as [Key, Key];
    assert.deepEqual([current.current, current.next, current.previous, current.revoked], [true, false, false, false]);
    assert.deepEqual([next.current, next.next, next.previous, next.revoked], [false, true, false, false]);
    assert.equal(typeof current.current_since, 'string');
    assert.equal(next.current_since, undefined);
    for (const key of keys) {
      const members = ['cert', 'current', 'fingerprint', 'kid', 'next', 'pkcs7', 'previous', 'revoked', 'thumbprint', ...(key.current ? ['current_since'] : [])];
      assert.deepEqual(Object.keys(key).sort(), members.sort(), 'public parts only');
      assert.match(key.cert, /^-----BEGIN CERTIFICATE-----\r\n[\s\S]+\r\n-----END CERTIFICATE-----$/);
      assert.match(key.pkcs7, /^-----BEGIN PKCS7-----\r\n/);
      const der = new X509Certificate(key.cert).raw;
      const sha1 = createHash('sha1').update(der).digest('hex').toUpperCase();
      assert.equal(key.thumbprint, sha1);
      assert.equal(key.fingerprint, sha1.match(/../g)!.join(':'));
    }
    assert.deepEqual(await jwksKids(), [current.kid, `${current.kid}-ps256`, next.kid, `${next.kid}-ps256`], 'the next key is published before it signs');
    assert.equal(kidOf(await t.managementToken()), current.kid);

    const one = await t.management('GET', `/api/v2/keys/signing/${next.kid}`);
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), next);
  });

  it('rotation: next signs, the old current stays published and verifying as previous, a new next is published', async () => {
    const [before, nextBefore] = (await list()) as [Key, Key];
    const managementBefore = await t.managementToken();
    const userBefore = await userToken();
    assert.equal(kidOf(managementBefore), before.kid);

    const rotated = await rotate();
    const keys = await list();
    const byKid = new Map(keys.map((k) => [k.kid, k]));
    assert.equal(byKid.get(nextBefore.kid)?.current, true, 'the next key is current');
    assert.equal(typeof byKid.get(nextBefore.kid)?.current_since, 'string');
    assert.equal(byKid.get(before.kid)?.previous, true, 'the current key is previous');
    assert.equal(typeof byKid.get(before.kid)?.current_until, 'string');
    assert.equal(byKid.get(rotated.kid)?.next, true, 'rotate answers the new next key');
    assert.equal(byKid.get(rotated.kid)?.cert, rotated.cert);
    assert.deepEqual(keys.map((k) => k.kid), [nextBefore.kid, rotated.kid, before.kid], 'current, next, previous');
    assert.deepEqual(await jwksKids(), [nextBefore.kid, `${nextBefore.kid}-ps256`, rotated.kid, `${rotated.kid}-ps256`, before.kid, `${before.kid}-ps256`]);

    assert.equal(kidOf(await t.managementToken()), nextBefore.kid, 'new tokens are signed by the former next key');
    assert.equal(kidOf(await userToken()), nextBefore.kid);
    assert.equal((await withToken(managementBefore)).statusCode, 200, 'a token signed before the rotation still verifies');
    assert.equal((await userinfo(userBefore)).statusCode, 200);

    // Revoking the previous key: out of the JWKS, and its tokens stop verifying.
    const revoked = await t.management('PUT', `/api/v2/keys/signing/${before.kid}/revoke`);
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.deepEqual(revoked.json(), { cert: before.cert, kid: before.kid });
    const revokedKey = (await list()).find((k) => k.kid === before.kid)!;
    assert.equal(revokedKey.revoked, true);
    assert.equal(revokedKey.previous, false);
    assert.equal(typeof revokedKey.revoked_at, 'string');
    assert.deepEqual(await jwksKids(), [nextBefore.kid, `${nextBefore.kid}-ps256`, rotated.kid, `${rotated.kid}-ps256`]);
    const refused = await withToken(managementBefore);
    assert.equal(refused.statusCode, 401, refused.body);
    assert.equal((refused.json() as { message: string }).message, 'Invalid token');
    assert.equal((await userinfo(userBefore)).statusCode, 401);
    assert.equal((await withToken(await t.managementToken())).statusCode, 200, 'tokens of the current key still verify');
    assert.equal((await userinfo(await userToken())).statusCode, 200);

    const again = await t.management('PUT', `/api/v2/keys/signing/${before.kid}/revoke`);
    assert.equal(again.statusCode, 200, 'revoking a revoked key again changes nothing');
    assert.equal((await list()).find((k) => k.kid === before.kid)?.revoked_at, revokedKey.revoked_at);
  });

  it('the current and the next key cannot be revoked; unknown and malformed kids are refused', async () => {
    const keys = await list();
    const current = keys.find((k) => k.current)!;
    const next = keys.find((k) => k.next)!;
    for (const [key, status] of [[current, 'current'], [next, 'next']] as const) {
      const res = await t.management('PUT', `/api/v2/keys/signing/${key.kid}/revoke`);
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: `The ${status} signing key cannot be revoked; only a previous key can (rotate first).`,
        errorCode: 'operation_not_supported',
      });
    }
    assert.deepEqual(await list(), keys, 'nothing changed');
    for (const url of ['/api/v2/keys/signing/nokey', '/api/v2/keys/signing/nokey/revoke']) {
      const res = await t.management(url.endsWith('revoke') ? 'PUT' : 'GET', url);
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'Signing key not found', errorCode: 'inexistent_signing_key' });
    }
    const malformed = await t.management('GET', '/api/v2/keys/signing/bad%20kid');
    assert.equal(malformed.statusCode, 400);
    assert.equal((malformed.json() as { errorCode: string }).errorCode, 'invalid_uri');
  });

  it('scopes: read for the reads, create and update both for rotate, update for revoke', async () => {
    const readOnly = await t.managementToken('read:signing_keys');
    const createOnly = await t.managementToken('create:signing_keys');
    const updateOnly = await t.managementToken('update:signing_keys');
    const keysBefore = await list();
    assert.equal((await withToken(readOnly)).statusCode, 200);
    const listRefused = await withToken(updateOnly);
    assert.equal(listRefused.statusCode, 403);
    assert.equal((listRefused.json() as { message: string }).message, 'Insufficient scope, expected any of: read:signing_keys');
    for (const token of [createOnly, updateOnly, readOnly]) {
      const res = await t.management('POST', '/api/v2/keys/signing/rotate', { token });
      assert.equal(res.statusCode, 403, res.body);
      assert.deepEqual(res.json(), {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Insufficient scope; expected create:signing_keys and update:signing_keys.',
        errorCode: 'insufficient_scope',
      });
    }
    const previous = keysBefore.find((k) => k.revoked)!;
    const revokeRefused = await t.management('PUT', `/api/v2/keys/signing/${previous.kid}/revoke`, { token: readOnly });
    assert.equal(revokeRefused.statusCode, 403);
    assert.deepEqual(await list(), keysBefore, 'nothing changed');
    const both = await t.managementToken('create:signing_keys update:signing_keys');
    assert.equal((await t.management('POST', '/api/v2/keys/signing/rotate', { token: both })).statusCode, 201);
  });
});

describe('signing keys across processes (Redis)', async () => {
  const available = await redisAvailable();
  const skip = available ? false : `Redis is not reachable at ${REDIS_URL}`;

  it('a rotation and a revocation in one process apply in another at once, not after its cache period', { skip }, async () => {
    const a = await createTestApp({ env: { REDIS_URL } });
    await withSecondProcess(a, async (b) => {
      const tokenFromB = async () => {
        const res = await tokenRequest(b, { grant_type: 'client_credentials', client_id: a.admin.client_id, client_secret: a.admin.client_secret, audience: a.admin.audience });
        assert.equal(res.statusCode, 200, res.body);
        return (res.json() as { access_token: string }).access_token;
      };
      const atB = (token: string) => b.inject({ method: 'GET', url: '/api/v2/keys/signing', headers: { host: DOMAIN, authorization: `Bearer ${token}` } });
      /** Pub/sub delivery is asynchronous; it normally lands within milliseconds. */
      const eventually = async (check: () => Promise<boolean>) => {
        for (let i = 0; i < 50; i++) {
          if (await check()) return true;
          await new Promise((r) => setTimeout(r, 20));
        }
        return false;
      };

      const old = await tokenFromB();
      assert.equal((await atB(old)).statusCode, 200, 'process B has the keys cached');
      const rotated = await a.management('POST', '/api/v2/keys/signing/rotate');
      assert.equal(rotated.statusCode, 201);
      const keys = (await a.management('GET', '/api/v2/keys/signing')).json() as Key[];
      const current = keys.find((k) => k.current)!.kid;
      assert.ok(await eventually(async () => decodeProtectedHeader(await tokenFromB()).kid === current), 'B signs with the new current key');

      const previous = keys.find((k) => k.previous)!.kid;
      assert.equal(decodeProtectedHeader(old).kid, previous);
      assert.equal((await a.management('PUT', `/api/v2/keys/signing/${previous}/revoke`)).statusCode, 200);
      assert.ok(await eventually(async () => (await atB(old)).statusCode === 401), 'B stops accepting the revoked key');
    });
  });
});
