/**
 * Custom signing keys driven by the official `auth0` SDK (ManagementClient,
 * v7) over real HTTPS: a tenant's public keys (RSA and EC) set, read, and
 * published after its own keys in /.well-known/jwks.json, a token signed
 * with the private half verifying against that JWKS with jose as a relying
 * party would; deleted, gone from the JWKS. Refusals: 404 before any are
 * set, 400 for a short RSA key, an `alg` that does not fit, a private member,
 * a repeated `kid` or one of the tenant's own, 403 without both scopes.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { createLocalJWKSet, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, httpsRequest, tokenBody } from './support/https.js';
import { sdkError } from './support/sdk-error.js';


const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsaJwk = rsa.publicKey.export({ format: 'jwk' }) as { kty: 'RSA'; n: string; e: string };
const ecJwk = ec.publicKey.export({ format: 'jwk' }) as { kty: 'EC'; crv: 'P-256'; x: string; y: string };

describe('auth0 SDK: custom signing keys', () => {
  let server: ServerProcess;
  let ca: Buffer;
  let management: ManagementClient;

  const jwks = async (): Promise<JSONWebKeySet> => {
    const res = await httpsRequest(`${server.baseUrl}/.well-known/jwks.json`, { ca, method: 'GET', headers: {} });
    assert.equal(res.status, 200, res.text);
    return res.json<JSONWebKeySet>();
  };

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    ca = fs.readFileSync(server.certFile);
    const admin = server.admin();
    management = new ManagementClient({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
  });
  after(() => cleanUp([server].filter(Boolean), [server?.dataDir].filter(Boolean) as string[]));

  it('sets, reads and publishes the keys after the tenant\'s own; a token signed with the private half verifies; delete unpublishes', async () => {
    const none = await sdkError(() => management.keys.customSigning.get());
    assert.equal(none.statusCode, 404);
    assert.equal(none.body.message, 'No custom signing keys found for this tenant. Upload custom signing keys first.');
    const own = (await jwks()).keys;

    const set = await management.keys.customSigning.set({ keys: [{ ...rsaJwk, alg: 'RS256', use: 'sig' }, { ...ecJwk, kid: 'my-ec-key', alg: 'ES256', key_ops: ['verify'] }] });
    const rsaKid = set.keys![0]!.kid!;
    assert.match(rsaKid, /^[A-Za-z0-9_-]{43}$/, 'the RFC 7638 thumbprint');
    assert.equal(set.keys![1]!.kid, 'my-ec-key');
    assert.deepEqual((await management.keys.customSigning.get()).keys, set.keys);

    const published = (await jwks()).keys;
    assert.deepEqual(published.slice(0, own.length), own, 'the tenant\'s own keys first, unchanged');
    assert.deepEqual(published.slice(own.length).map((k) => k.kid), [rsaKid, 'my-ec-key']);
    const token = await new SignJWT({ sub: 'someone' }).setProtectedHeader({ alg: 'ES256', kid: 'my-ec-key' }).setIssuedAt().sign(ec.privateKey);
    assert.equal((await jwtVerify(token, createLocalJWKSet({ keys: published }))).payload.sub, 'someone');

    // Replaced as a whole.
    await management.keys.customSigning.set({ keys: [{ ...ecJwk, kid: 'only-this' }] });
    assert.deepEqual((await jwks()).keys.slice(own.length).map((k) => k.kid), ['only-this']);

    await management.keys.customSigning.delete();
    assert.deepEqual((await jwks()).keys, own);
    assert.equal((await sdkError(() => management.keys.customSigning.get())).statusCode, 404);
    // Deleting nothing is still 204.
    await management.keys.customSigning.delete();
  });

  it('refuses keys it cannot publish safely (400) and a token without both scopes (403)', async () => {
    const shortRsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }) as { kty: 'RSA'; n: string; e: string };
    const ownKid = (await jwks()).keys[0]!.kid!;
    const cases: [string, unknown][] = [
      ['keys[0].n', { keys: [shortRsa] }],
      ['keys[0].alg', { keys: [{ ...ecJwk, alg: 'ES384' }] }],
      ['keys[0].alg', { keys: [{ ...rsaJwk, alg: 'ES256' }] }],
      ['keys[0].x', { keys: [{ kty: 'EC', crv: 'P-256', y: ecJwk.y }] }],
      ['keys[0].crv', { keys: [{ ...rsaJwk, crv: 'P-256' }] }],
      ['keys[1].kid', { keys: [{ ...rsaJwk, kid: 'same' }, { ...ecJwk, kid: 'same' }] }],
      ['keys[0].kid', { keys: [{ ...rsaJwk, kid: ownKid }] }],
      ['keys[0]', { keys: [{ kty: 'EC', crv: 'P-256', x: ecJwk.x, y: ecJwk.x }] }],
    ];
    for (const [property, body] of cases) {
      const error = await sdkError(() => management.keys.customSigning.set(body as Parameters<ManagementClient['keys']['customSigning']['set']>[0]));
      assert.equal(error.statusCode, 400, property);
      assert.equal(error.body.errorCode, 'invalid_body', property);
      assert.ok(error.body.message.endsWith(`on property ${property}.`), `${property}: ${error.body.message}`);
    }
    const withPrivate = await sdkError(() => management.keys.customSigning.set({ keys: [{ ...(rsa.privateKey.export({ format: 'jwk' }) as typeof rsaJwk) }] }));
    assert.equal(withPrivate.statusCode, 400);
    assert.equal((await sdkError(() => management.keys.customSigning.get())).statusCode, 404, 'nothing was stored');

    const admin = server.admin();
    const res = await httpsRequest(`${server.baseUrl}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tokenBody(admin.client_id, admin.client_secret, `https://${server.domain}/api/v2/`, { scope: 'create:custom_signing_keys read:custom_signing_keys' }),
    });
    const limited = new ManagementClient({ domain: server.domain, token: res.json<{ access_token: string }>().access_token, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
    const forbidden = await sdkError(() => limited.keys.customSigning.set({ keys: [rsaJwk] }));
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.body.errorCode, 'insufficient_scope');
    assert.equal((await sdkError(() => limited.keys.customSigning.delete())).statusCode, 403);
    assert.equal((await sdkError(() => limited.keys.customSigning.get())).statusCode, 404);
  });
});
