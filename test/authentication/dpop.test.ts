/**
 * DPoP (RFC 9449) at the token endpoint and /userinfo: server nonces, bound
 * tokens (`token_type: DPoP`, `cnf.jkt`), and every refusal: replay, wrong
 * htu/htm, stale iat, a private or symmetric key, a bound token used as a
 * bearer token or with another key, a proof without `ath`, and a client that
 * requires proof of possession sending none.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { Browser, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const ISSUER = `https://${DOMAIN}/`;
const TOKEN_URL = `${ISSUER}oauth/token`;
const USERINFO_URL = `${ISSUER}userinfo`;
const API = 'https://dpop.api.test/';
const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://spa.example.com/callback';

interface Key {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

async function newKey(alg = 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

describe('DPoP', () => {
  let t: TestApp;
  let machine: TestClient;
  let strict: TestClient;
  let spa: TestClient;
  let key: Key;
  let nonce: string;

  function proof(k: Key, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, alg = 'ES256'): Promise<string> {
    return new SignJWT({ htm: 'POST', htu: TOKEN_URL, iat: Math.floor(t.ctx.now() / 1000), jti: randomUUID(), nonce, ...claims })
      .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk: k.jwk, ...header })
      .sign(k.privateKey);
  }

  const tokenWith = (client: TestClient, dpop: string | undefined, extra: Record<string, string> = {}) =>
    tokenRequest(t.app, { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: API, ...extra }, { form: true, ...(dpop !== undefined && { headers: { dpop } }) });

  async function refused(dpop: string, error: string, description: RegExp): Promise<void> {
    const res = await tokenWith(machine, dpop);
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json() as { error: string; error_description: string };
    assert.equal(body.error, error, res.body);
    assert.match(body.error_description, description);
  }

  before(async () => {
    t = await createTestApp();
    const api = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'dpop api', scopes: [{ value: 'read:x' }] } });
    assert.equal(api.statusCode, 201, api.body);
    machine = await insertClient(t);
    strict = await insertClient(t, { config: { require_proof_of_possession: true } });
    for (const c of [machine, strict]) {
      assert.equal((await t.management('POST', '/api/v2/client-grants', { body: { client_id: c.client_id, audience: API, scope: ['read:x'] } })).statusCode, 201);
    }
    spa = await insertClient(t, {
      grant_types: [PASSWORD_REALM, 'refresh_token', 'authorization_code'],
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      config: { callbacks: [CALLBACK] },
    });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [spa.client_id] } })).statusCode, 201);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'dpop@example.com', password: PASSWORD } })).statusCode, 201);
    key = await newKey();
  });
  after(() => t.close());

  it('asks for a nonce, then issues a DPoP-bound token (token_type DPoP, cnf.jkt)', async () => {
    nonce = '';
    const first = await tokenWith(machine, await proof(key, { nonce: undefined }));
    assert.equal(first.statusCode, 400, first.body);
    assert.equal((first.json() as { error: string }).error, 'use_dpop_nonce');
    nonce = first.headers['dpop-nonce'] as string;
    assert.ok(nonce, 'DPoP-Nonce is sent');

    const res = await tokenWith(machine, await proof(key));
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { access_token: string; token_type: string };
    assert.equal(body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(body.access_token).cnf, { jkt: key.jkt });
    assert.ok(res.headers['dpop-nonce']);

    const plain = await tokenWith(machine, undefined);
    assert.equal((plain.json() as { token_type: string }).token_type, 'Bearer', 'without a proof: a bearer token');
    assert.equal(decodeJwt((plain.json() as { access_token: string }).access_token).cnf, undefined);
  });

  it('refuses replays, wrong htu/htm, stale iat, private or symmetric keys, wrong typ, a forged nonce', async () => {
    const once = await proof(key);
    assert.equal((await tokenWith(machine, once)).statusCode, 200);
    await refused(once, 'invalid_dpop_proof', /already used/);
    await refused(await proof(key, { htu: `${ISSUER}oauth/revoke` }), 'invalid_dpop_proof', /htu/);
    await refused(await proof(key, { htu: 'https://elsewhere.example/oauth/token' }), 'invalid_dpop_proof', /htu/);
    await refused(await proof(key, { htm: 'GET' }), 'invalid_dpop_proof', /htm/);
    await refused(await proof(key, { iat: Math.floor(t.ctx.now() / 1000) - 600 }), 'invalid_dpop_proof', /iat/);
    await refused(await proof(key, { iat: Math.floor(t.ctx.now() / 1000) + 600 }), 'invalid_dpop_proof', /iat/);
    await refused(await proof(key, { jti: undefined }), 'invalid_dpop_proof', /jti/);
    await refused(await proof(key, { nonce: 'forged.nonce' }), 'use_dpop_nonce', /nonce/);
    await refused(await proof(key, {}, { typ: 'JWT' }), 'invalid_dpop_proof', /typ/);

    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    await refused(await proof(key, {}, { jwk: privateJwk }), 'invalid_dpop_proof', /public key/);
    const hmac = await new SignJWT({ htm: 'POST', htu: TOKEN_URL, iat: Math.floor(t.ctx.now() / 1000), jti: randomUUID(), nonce })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'c2VjcmV0' } as never })
      .sign(new TextEncoder().encode('secret-secret-secret-secret-secret'));
    await refused(hmac, 'invalid_dpop_proof', /alg/);
    const other = await newKey();
    await refused(await proof(key, {}, { jwk: other.jwk }), 'invalid_dpop_proof', /does not verify/);
    await refused('not-a-jwt', 'invalid_dpop_proof', /not a JWS/);
  });

  it('a client with require_proof_of_possession gets no token without a proof', async () => {
    const res = await tokenWith(strict, undefined);
    assert.equal(res.statusCode, 400, res.body);
    assert.match((res.json() as { error_description: string }).error_description, /DPoP/);
    const ok = await tokenWith(strict, await proof(key));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((ok.json() as { token_type: string }).token_type, 'DPoP');
  });

  describe('/userinfo', () => {
    let bound: string;

    const userinfo = (authorization: string, dpop?: string) =>
      t.app.inject({ method: 'GET', url: '/userinfo', headers: { host: DOMAIN, authorization, ...(dpop !== undefined && { dpop }) } });
    const resourceProof = (k: Key, token: string, claims: Record<string, unknown> = {}) =>
      proof(k, { htm: 'GET', htu: USERINFO_URL, ath: createHash('sha256').update(token).digest('base64url'), ...claims });

    before(async () => {
      const res = await tokenRequest(
        t.app,
        { grant_type: PASSWORD_REALM, client_id: spa.client_id, username: 'dpop@example.com', password: PASSWORD, realm: REALM, scope: 'openid email' },
        { form: true, headers: { dpop: await proof(key) } },
      );
      assert.equal(res.statusCode, 200, res.body);
      bound = (res.json() as { access_token: string }).access_token;
      assert.deepEqual(decodeJwt(bound).cnf, { jkt: key.jkt });
    });

    it('answers a bound token with the DPoP scheme and a proof of its key', async () => {
      const res = await userinfo(`DPoP ${bound}`, await resourceProof(key, bound));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((res.json() as { email: string }).email, 'dpop@example.com');
    });

    it('refuses the bound token as a bearer token, with another key, without ath or proof, and replays', async () => {
      const asBearer = await userinfo(`Bearer ${bound}`);
      assert.equal(asBearer.statusCode, 401);
      assert.match(asBearer.headers['www-authenticate'] as string, /^DPoP realm="Users", error="invalid_token"/);

      const other = await newKey();
      const wrongKey = await userinfo(`DPoP ${bound}`, await resourceProof(other, bound));
      assert.equal(wrongKey.statusCode, 401);
      assert.match(wrongKey.headers['www-authenticate'] as string, /error="invalid_dpop_proof"/);

      const noAth = await userinfo(`DPoP ${bound}`, await proof(key, { htm: 'GET', htu: USERINFO_URL }));
      assert.equal(noAth.statusCode, 401);
      assert.match(noAth.headers['www-authenticate'] as string, /ath/);

      assert.equal((await userinfo(`DPoP ${bound}`)).statusCode, 401, 'no proof');

      const once = await resourceProof(key, bound);
      assert.equal((await userinfo(`DPoP ${bound}`, once)).statusCode, 200);
      const replay = await userinfo(`DPoP ${bound}`, once);
      assert.equal(replay.statusCode, 401);
      assert.match(replay.headers['www-authenticate'] as string, /already used/);

      const stale = await userinfo(`DPoP ${bound}`, await resourceProof(key, bound, { nonce: 'x.y' }));
      assert.equal(stale.statusCode, 401);
      assert.match(stale.headers['www-authenticate'] as string, /error="use_dpop_nonce"/);
      assert.ok(stale.headers['dpop-nonce']);
    });

    it('a bearer token is not accepted under the DPoP scheme', async () => {
      const res = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: spa.client_id, username: 'dpop@example.com', password: PASSWORD, realm: REALM, scope: 'openid' }, { form: true });
      const bearer = (res.json() as { access_token: string }).access_token;
      assert.equal((await userinfo(`Bearer ${bearer}`)).statusCode, 200);
      assert.equal((await userinfo(`DPoP ${bearer}`, await resourceProof(key, bearer))).statusCode, 401);
    });
  });

  it("a public client's refresh token is bound to its key, and its successors too", async () => {
    const login = await tokenRequest(
      t.app,
      { grant_type: PASSWORD_REALM, client_id: spa.client_id, username: 'dpop@example.com', password: PASSWORD, realm: REALM, scope: 'openid offline_access' },
      { form: true, headers: { dpop: await proof(key) } },
    );
    assert.equal(login.statusCode, 200, login.body);
    const refresh = (login.json() as { refresh_token: string }).refresh_token;
    assert.ok(refresh);
    const refreshWith = (token: string, dpop?: string) =>
      tokenRequest(t.app, { grant_type: 'refresh_token', client_id: spa.client_id, refresh_token: token }, { form: true, ...(dpop !== undefined && { headers: { dpop } }) });

    // invalid_grant is the service's 403.
    const without = await refreshWith(refresh);
    assert.equal(without.statusCode, 403, without.body);
    assert.equal((without.json() as { error: string }).error, 'invalid_grant');
    const otherKey = await refreshWith(refresh, await proof(await newKey()));
    assert.equal(otherKey.statusCode, 403, otherKey.body);

    const ok = await refreshWith(refresh, await proof(key));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((ok.json() as { token_type: string }).token_type, 'DPoP');
    const next = (ok.json() as { refresh_token?: string }).refresh_token ?? refresh;
    assert.equal((await refreshWith(next)).statusCode, 403, 'the successor (or the same token) stays bound');
  });

  it('a code pushed with a DPoP proof is redeemed only with a proof by that key', async () => {
    const verifier = pkce();
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', dpop: await proof(key, { htu: `${ISSUER}oauth/par` }) },
      payload: new URLSearchParams({ client_id: spa.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', state: 'st', code_challenge: verifier.challenge, code_challenge_method: 'S256' }).toString(),
    });
    assert.equal(pushed.statusCode, 201, pushed.body);
    const requestUri = (pushed.json() as { request_uri: string }).request_uri;
    const done = await new Browser(t).login(`/authorize?client_id=${spa.client_id}&request_uri=${encodeURIComponent(requestUri)}`, 'dpop@example.com', PASSWORD);
    const code = redirectParams(done, CALLBACK).get('code')!;
    assert.ok(code, done.headers.location as string);
    const exchange = (dpop?: string) =>
      tokenRequest(t.app, { grant_type: 'authorization_code', client_id: spa.client_id, code, redirect_uri: CALLBACK, code_verifier: verifier.verifier }, { form: true, ...(dpop !== undefined && { headers: { dpop } }) });
    const unbound = await exchange();
    assert.equal(unbound.statusCode, 403, unbound.body);
    assert.match((unbound.json() as { error_description: string }).error_description, /bound to a DPoP key/);
    const ok = await exchange(await proof(key));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(decodeJwt((ok.json() as { access_token: string }).access_token).cnf, { jkt: key.jkt });

    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/oauth/par',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', dpop: await proof(key, { htu: `${ISSUER}oauth/par` }) },
      payload: new URLSearchParams({ client_id: spa.client_id, response_type: 'code', redirect_uri: CALLBACK, code_challenge: verifier.challenge, code_challenge_method: 'S256', dpop_jkt: (await newKey()).jkt }).toString(),
    });
    assert.equal(mismatch.statusCode, 400, mismatch.body);
    assert.equal((mismatch.json() as { error: string }).error, 'invalid_dpop_proof');
  });

  it('discovery lists the DPoP algorithms', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.deepEqual(doc.dpop_signing_alg_values_supported, ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA']);
  });
});
