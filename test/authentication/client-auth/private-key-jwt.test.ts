/**
 * private_key_jwt at the token endpoint, through app.inject on the real app
 * and database: a client assertion signed with a registered key
 * authenticates its client; every departure from the rules is a 401
 * invalid_client naming it, and nothing is issued.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, type JWTPayload } from 'jose';
import { JWT_BEARER_ASSERTION } from '../../../src/authentication/client-auth/private-key-jwt.js';
import { newPrefixedId } from '../../../src/platform/crypto/ids.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../../helpers/app.js';
import { insertClient, type TestClient } from '../../helpers/fixtures.js';

const API = 'https://api.example.com/';
const ISSUER = `https://${DOMAIN}/`;

interface KeyClient extends TestClient {
  privateKey: KeyObject;
  kid: string;
}

describe('private_key_jwt client authentication', () => {
  let t: TestApp;
  let client: KeyClient;
  let other: KeyClient;
  let ps256: KeyClient;

  /** A client registered for private_key_jwt with one fresh RSA key (`alg`), allowed client_credentials for API. */
  async function keyClient(alg = 'RS256', expiresAt: string | null = null): Promise<KeyClient> {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const credentialId = newPrefixedId('cred');
    const base = await insertClient(t, {
      client_secret_enc: null,
      token_endpoint_auth_method: 'private_key_jwt' as never,
      client_authentication_methods: { private_key_jwt: { credentials: [{ id: credentialId }] } },
    });
    const kid = `kid-${credentialId}`;
    const now = new Date().toISOString();
    await t.ctx.stores.clientCredentials.insert({
      tenant_id: t.tenant.id,
      id: credentialId,
      client_id: base.client_id,
      credential_type: 'public_key',
      name: 'test key',
      kid,
      alg,
      pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      subject_dn: null,
      thumbprint_sha256: null,
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
    });
    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: base.client_id, audience: API, scope: ['read:things'] } });
    assert.equal(grant.statusCode, 201, grant.body);
    return { ...base, privateKey, kid };
  }

  function assertion(signer: KeyClient, claims: JWTPayload = {}, header: Record<string, unknown> = {}, alg = 'RS256'): Promise<string> {
    const now = Math.floor(t.ctx.now() / 1000);
    return new SignJWT({ iss: signer.client_id, sub: signer.client_id, aud: ISSUER, jti: randomUUID(), iat: now, exp: now + 60, ...claims })
      .setProtectedHeader({ alg, kid: signer.kid, ...header })
      .sign(signer.privateKey);
  }

  const token = (jwt: string, extra: Record<string, string> = {}) =>
    tokenRequest(t.app, { grant_type: 'client_credentials', audience: API, client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: jwt, ...extra }, { form: true });

  async function refused(jwt: string, description: string | RegExp, extra: Record<string, string> = {}): Promise<void> {
    const res = await token(jwt, extra);
    assert.equal(res.statusCode, 401, res.body);
    const body = res.json() as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_client');
    if (typeof description === 'string') assert.equal(body.error_description, description);
    else assert.match(body.error_description, description);
  }

  before(async () => {
    t = await createTestApp();
    const api = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'API', scopes: [{ value: 'read:things' }] } });
    assert.equal(api.statusCode, 201, api.body);
    client = await keyClient();
    other = await keyClient();
    ps256 = await keyClient('PS256');
  });
  after(() => t.close());

  it('a signed assertion authenticates the client (form and JSON, client_id optional); discovery lists the method and algorithms', async () => {
    const res = await token(await assertion(client));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { scope: string }).scope, 'read:things');
    const json = await tokenRequest(t.app, { grant_type: 'client_credentials', audience: API, client_id: client.client_id, client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(client) });
    assert.equal(json.statusCode, 200, json.body);
    const tokenEndpointAud = await token(await assertion(client, { aud: `${ISSUER}oauth/token` }));
    assert.equal(tokenEndpointAud.statusCode, 200, 'the token endpoint URL is accepted as aud');
    assert.equal((await token(await assertion(ps256, {}, {}, 'PS256'))).statusCode, 200);
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.deepEqual(doc.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth']);
    assert.deepEqual(doc.token_endpoint_auth_signing_alg_values_supported, ['RS256', 'RS384', 'PS256']);
  });

  it('refuses a replayed assertion (the jti is single use)', async () => {
    const jwt = await assertion(client);
    assert.equal((await token(jwt)).statusCode, 200);
    await refused(jwt, 'client_assertion has already been used (jti replay)');
  });

  it('refuses a wrong aud, iss or sub', async () => {
    await refused(await assertion(client, { aud: 'https://elsewhere.example/' }), 'client_assertion aud claim must be the issuer of this tenant');
    await refused(await assertion(client, { sub: other.client_id }), 'client_assertion sub claim must be the client_id');
    await refused(await assertion(client, { aud: `https://${DOMAIN}` }), 'client_assertion aud claim must be the issuer of this tenant', {});
  });

  it('refuses an expired assertion, one living longer than 5 minutes, one from the future, and one without exp or jti', async () => {
    const now = Math.floor(t.ctx.now() / 1000);
    await refused(await assertion(client, { iat: now - 120, exp: now - 30 }), 'client_assertion has expired');
    await refused(await assertion(client, { exp: now + 600 }), 'client_assertion must expire within 300 seconds');
    await refused(await assertion(client, { nbf: now + 60 }), 'client_assertion nbf claim is in the future');
    await refused(await assertion(client, { exp: undefined }), 'client_assertion must have an exp claim');
    await refused(await assertion(client, { jti: undefined }), 'client_assertion must have a jti claim');
    await refused(await assertion(client, { jti: 'x'.repeat(65) }), 'client_assertion jti must be 1 to 64 characters');
  });

  it('refuses the key of another client, an unknown kid, and an alg other than the registered one', async () => {
    const stolen = { ...other, client_id: client.client_id, kid: client.kid };
    await refused(await assertion(stolen), 'client_assertion signature does not verify with the client’s registered keys');
    await refused(await assertion(client, {}, { kid: 'unknown-kid-123' }), 'No credential of the client has the kid unknown-kid-123');
    await refused(await assertion(client, {}, {}, 'RS384'), 'The client_assertion alg RS384 is not the one its credential was registered with');
  });

  it('refuses alg none and HS256 assertions', async () => {
    const payload = { iss: client.client_id, sub: client.client_id, aud: ISSUER, jti: randomUUID(), exp: Math.floor(t.ctx.now() / 1000) + 60 };
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    await refused(`${b64({ alg: 'none' })}.${b64(payload)}.`, 'client_assertion alg must be one of RS256, RS384, PS256');
    const hs = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('a shared secret of enough length here'));
    await refused(hs, 'client_assertion alg must be one of RS256, RS384, PS256');
  });

  it('refuses an oversized assertion, a wrong assertion type, and a client registered for secrets', async () => {
    await refused(await assertion(client, { padding: 'x'.repeat(2100) }), 'client_assertion must be at most 2048 bytes');
    await refused(await assertion(client), `client_assertion_type must be ${JWT_BEARER_ASSERTION}`, { client_assertion_type: 'urn:example:other' });
    const secretClient = await insertClient(t);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await refused(await assertion({ ...secretClient, privateKey, kid: 'k' }), /must authenticate with client_secret_basic or client_secret_post/);
  });

  it('refuses a key past its expiry', async () => {
    const expiring = await keyClient('RS256', new Date(t.ctx.now() + 3_600_000).toISOString());
    assert.equal((await token(await assertion(expiring))).statusCode, 200);
    await withClockAdvanced(t, 2 * 3_600_000, async () => {
      await refused(await assertion(expiring), 'The client has no usable credential for private_key_jwt');
    });
  });
});
