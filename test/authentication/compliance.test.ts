/**
 * A client's compliance level (FAPI) enforced at every endpoint: PAR only,
 * `code` with PKCE only, private_key_jwt (or mTLS) only, sender-constrained
 * tokens only, codes of at most 60 seconds, and `iss` in the response.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { Browser, pkce, redirectParams } from '../helpers/browser.js';

const ISSUER = `https://${DOMAIN}/`;
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://fapi.example.com/cb';
const API = 'https://fapi.api.test/';
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

describe('compliance levels (FAPI)', () => {
  let t: TestApp;
  let clientId: string;
  let secretClient: { client_id: string; client_secret: string };
  let privateKey: KeyObject;
  let dpopKey: { privateKey: CryptoKey; jwk: JWK };
  let nonce = '';

  const assertion = (aud = ISSUER) => {
    const now = Math.floor(t.ctx.now() / 1000);
    return new SignJWT({ iss: clientId, sub: clientId, aud, jti: randomUUID(), iat: now, exp: now + 60 }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
  };
  const proof = (htu: string) =>
    new SignJWT({ htm: 'POST', htu, iat: Math.floor(t.ctx.now() / 1000), jti: randomUUID(), nonce }).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpopKey.jwk }).sign(dpopKey.privateKey);

  async function push(params: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: clientId, client_assertion_type: JWT_BEARER, client_assertion: await assertion(), ...params }).toString(),
    });
  }

  before(async () => {
    t = await createTestApp();
    assert.equal((await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'fapi', scopes: [{ value: 'read:x' }] } })).statusCode, 201);
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    privateKey = keys.privateKey;
    const created = await t.management('POST', '/api/v2/clients', {
      body: {
        name: 'fapi',
        is_first_party: true,
        callbacks: [CALLBACK],
        grant_types: ['authorization_code', 'client_credentials'],
        compliance_level: 'fapi2_sp_pkj_mtls',
        client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', pem: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString() }] } },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    clientId = (created.json() as { client_id: string }).client_id;
    const withSecret = await t.management('POST', '/api/v2/clients', {
      body: { name: 'fapi with a secret', token_endpoint_auth_method: 'client_secret_post', grant_types: ['client_credentials'], compliance_level: 'fapi1_adv_pkj_par' },
    });
    secretClient = withSecret.json() as { client_id: string; client_secret: string };
    for (const id of [clientId, secretClient.client_id]) {
      assert.equal((await t.management('POST', '/api/v2/client-grants', { body: { client_id: id, audience: API, scope: ['read:x'] } })).statusCode, 201);
    }
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [clientId] } })).statusCode, 201);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'fapi@example.com', password: PASSWORD } })).statusCode, 201);
    const { privateKey: dpopPrivate, publicKey } = await generateKeyPair('ES256');
    dpopKey = { privateKey: dpopPrivate, jwk: await exportJWK(publicKey) };
    assert.ok(await calculateJwkThumbprint(dpopKey.jwk));
  });
  after(() => t.close());

  it('authorization requests: PAR only, response_type code with PKCE only', async () => {
    const plain = await new Browser(t).get(`/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`);
    assert.equal(plain.statusCode, 400);
    assert.match(plain.body, /pushed authorization requests/);

    const hybrid = await push({ response_type: 'code id_token', redirect_uri: CALLBACK, nonce: 'n', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    assert.equal(hybrid.statusCode, 400, hybrid.body);
    assert.match(hybrid.body, /allows only response_type=code|not allowed/);
    const noPkce = await push({ response_type: 'code', redirect_uri: CALLBACK });
    assert.equal(noPkce.statusCode, 400, noPkce.body);
    assert.match(noPkce.body, /requires PKCE/);
  });

  it('client authentication: a secret is refused; tokens: only sender-constrained', async () => {
    const secret = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: secretClient.client_id, client_secret: secretClient.client_secret, audience: API }, { form: true });
    assert.equal(secret.statusCode, 401, secret.body);
    assert.match(secret.body, /compliance level \(fapi1_adv_pkj_par\) requires private_key_jwt/);

    const bearer = await tokenRequest(t.app, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: await assertion(), audience: API }, { form: true });
    assert.equal(bearer.statusCode, 400, bearer.body);
    assert.match(bearer.body, /sender-constrained/);

    const first = await tokenRequest(t.app, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: await assertion(), audience: API }, { form: true, headers: { dpop: await proof(`${ISSUER}oauth/token`) } });
    nonce = first.headers['dpop-nonce'] as string;
    const bound = await tokenRequest(t.app, { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: await assertion(), audience: API }, { form: true, headers: { dpop: await proof(`${ISSUER}oauth/token`) } });
    assert.equal(bound.statusCode, 200, bound.body);
    assert.equal((bound.json() as { token_type: string }).token_type, 'DPoP');
  });

  it('codes live at most 60 seconds and the response names the issuer', async () => {
    const verifier = pkce();
    const pushed = await push({ response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', code_challenge: verifier.challenge, code_challenge_method: 'S256', state: 's' });
    assert.equal(pushed.statusCode, 201, pushed.body);
    const done = await new Browser(t).login(`/authorize?client_id=${clientId}&request_uri=${encodeURIComponent((pushed.json() as { request_uri: string }).request_uri)}`, 'fapi@example.com', PASSWORD);
    const params = redirectParams(done, CALLBACK);
    assert.equal(params.get('iss'), ISSUER);
    const late = await withClockAdvanced(t, 61_000, async () =>
      tokenRequest(
        t.app,
        { grant_type: 'authorization_code', code: params.get('code')!, redirect_uri: CALLBACK, code_verifier: verifier.verifier, client_assertion_type: JWT_BEARER, client_assertion: await assertion() },
        { form: true, headers: { dpop: await proof(`${ISSUER}oauth/token`) } },
      ),
    );
    assert.equal(late.statusCode, 403, late.body);
    assert.equal((late.json() as { error: string }).error, 'invalid_grant');
  });

  it('ID tokens of a FAPI client are signed PS256 with the key published for it; others stay RS256', async () => {
    const verifier = pkce();
    const pushed = await push({ response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', code_challenge: verifier.challenge, code_challenge_method: 'S256', state: 's' });
    const done = await new Browser(t).login(`/authorize?client_id=${clientId}&request_uri=${encodeURIComponent((pushed.json() as { request_uri: string }).request_uri)}`, 'fapi@example.com', PASSWORD);
    const code = redirectParams(done, CALLBACK).get('code')!;
    nonce = '';
    const first = await tokenRequest(t.app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier.verifier, client_assertion_type: JWT_BEARER, client_assertion: await assertion() }, { form: true, headers: { dpop: await proof(`${ISSUER}oauth/token`) } });
    nonce = first.headers['dpop-nonce'] as string;
    const res = await tokenRequest(t.app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier.verifier, client_assertion_type: JWT_BEARER, client_assertion: await assertion() }, { form: true, headers: { dpop: await proof(`${ISSUER}oauth/token`) } });
    assert.equal(res.statusCode, 200, res.body);
    const idToken = (res.json() as { id_token: string }).id_token;
    const header = decodeProtectedHeader(idToken);
    assert.equal(header.alg, 'PS256');
    assert.match(String(header.kid), /-ps256$/);
    const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
    const verified = await jwtVerify(idToken, jwks, { issuer: ISSUER, audience: clientId, algorithms: ['PS256'] });
    assert.equal(verified.payload.iss, ISSUER);
    await assert.rejects(jwtVerify(idToken, jwks, { algorithms: ['RS256'] }), 'not an RS256 token');
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['RS256', 'PS256']);
  });

  it('discovery advertises the iss response parameter', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.equal(doc.authorization_response_iss_parameter_supported, true);
  });
});
