/**
 * Signed request objects (JAR, RFC 9101) at /authorize and /oauth/par: the
 * object's members win over the query; refused: another key's signature,
 * `alg: none`, HMAC, wrong `aud` or `iss`, expiry, a too-long lifetime, a
 * replayed `jti`, and an unsigned request from a client that requires
 * signed ones.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser, pkce, redirectParams } from '../helpers/browser.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://jar.example.com/callback';
const ISSUER = `https://${DOMAIN}/`;

function rsa() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey };
}

describe('signed request objects (JAR)', () => {
  let t: TestApp;
  const key = rsa();
  let clientId: string;
  let clientSecret: string;
  let strictId: string;

  const requestObject = (claims: Record<string, unknown> = {}, privateKey: KeyObject = key.privateKey, alg = 'RS256', typ = 'oauth-authz-req+jwt') => {
    const now = Math.floor(t.ctx.now() / 1000);
    return new SignJWT({
      iss: clientId,
      aud: ISSUER,
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
      client_id: clientId,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid',
      state: 'signed-state',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      ...claims,
    })
      .setProtectedHeader({ alg, typ })
      .sign(privateKey);
  };

  async function newClient(name: string, jar: Record<string, unknown>): Promise<{ client_id: string; client_secret: string }> {
    const res = await t.management('POST', '/api/v2/clients', { body: { name, is_first_party: true, token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code'], callbacks: [CALLBACK], signed_request_object: jar } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { client_id: string; client_secret: string };
  }

  async function refusedAtAuthorize(request: string, message: RegExp, id = clientId): Promise<void> {
    const res = await new Browser(t).get(`/authorize?client_id=${id}&request=${encodeURIComponent(request)}`);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.headers.location, undefined);
    assert.match(res.body, message);
  }

  before(async () => {
    t = await createTestApp();
    ({ client_id: clientId, client_secret: clientSecret } = await newClient('jar', { credentials: [{ credential_type: 'public_key', pem: key.pem, alg: 'RS256' }] }));
    strictId = (await newClient('jar-required', { required: true, credentials: [{ credential_type: 'public_key', pem: key.pem, alg: 'RS256' }] })).client_id;
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [clientId, strictId] } });
    assert.equal(conn.statusCode, 201, conn.body);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'jar@example.com', password: PASSWORD } })).statusCode, 201);
  });
  after(() => t.close());

  it("logs in with a request object whose members win over the query's", async () => {
    const request = await requestObject();
    const url = `/authorize?${new URLSearchParams({ client_id: clientId, request, state: 'query-state', response_type: 'token' })}`;
    const done = await new Browser(t).login(url, 'jar@example.com', PASSWORD);
    const params = redirectParams(done, CALLBACK);
    assert.ok(params.get('code'), done.headers.location as string);
    assert.equal(params.get('state'), 'signed-state');
  });

  it('refuses bad request objects with the error page', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refusedAtAuthorize(await requestObject({}, rsa().privateKey), /signature does not verify/);
    await refusedAtAuthorize(new UnsecuredJWT({ iss: clientId, aud: ISSUER, exp: now + 60, jti: 'x', response_type: 'code' }).encode(), /alg must be one of/);
    const hmac = await new SignJWT({ iss: clientId, aud: ISSUER, exp: now + 60, jti: randomUUID() }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('0123456789abcdef0123456789abcdef'));
    await refusedAtAuthorize(hmac, /alg must be one of/);
    await refusedAtAuthorize(await requestObject({ aud: 'https://elsewhere.example/' }), /aud/);
    await refusedAtAuthorize(await requestObject({ iss: 'someone-else' }), /iss/);
    await refusedAtAuthorize(await requestObject({ exp: Math.floor(t.ctx.now() / 1000) - 60 }), /expired/);
    await refusedAtAuthorize(await requestObject({ exp: Math.floor(t.ctx.now() / 1000) + 7200 }), /must expire within/);
    await refusedAtAuthorize(await requestObject({ jti: undefined }), /jti/);
    await refusedAtAuthorize(await requestObject({ client_id: 'other' }), /client_id does not match/);
    await refusedAtAuthorize(await requestObject({}, key.privateKey, 'PS256'), /not the one its key was registered with/);
    await refusedAtAuthorize(await requestObject({}, key.privateKey, 'RS256', 'at+jwt'), /typ/);
    await refusedAtAuthorize(await requestObject({ claims: { id_token: {} } }), /must be a string or a number/);

    const once = await requestObject();
    assert.equal((await new Browser(t).get(`/authorize?client_id=${clientId}&request=${encodeURIComponent(once)}`)).statusCode, 302);
    await refusedAtAuthorize(once, /already used/);
  });

  it('a client that requires signed requests gets the error page for a plain one', async () => {
    const plain = await new Browser(t).get(`/authorize?${new URLSearchParams({ client_id: strictId, response_type: 'code', redirect_uri: CALLBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`);
    assert.equal(plain.statusCode, 400);
    assert.match(plain.body, /must send signed request objects/);
    const saved = clientId;
    clientId = strictId;
    try {
      const signed = await new Browser(t).get(`/authorize?client_id=${strictId}&request=${encodeURIComponent(await requestObject())}`);
      assert.equal(signed.statusCode, 302, signed.body);
    } finally {
      clientId = saved;
    }
  });

  it('a request object is pushed through /oauth/par, and refused there as invalid_request_object', async () => {
    const push = (request: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/par',
        headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, request }).toString(),
      });
    const ok = await push(await requestObject());
    assert.equal(ok.statusCode, 201, ok.body);
    const done = await new Browser(t).login(`/authorize?client_id=${clientId}&request_uri=${encodeURIComponent((ok.json() as { request_uri: string }).request_uri)}`, 'jar@example.com', PASSWORD);
    assert.equal(redirectParams(done, CALLBACK).get('state'), 'signed-state');

    const bad = await push(await requestObject({}, rsa().privateKey));
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal((bad.json() as { error: string }).error, 'invalid_request_object');
  });

  it('discovery says request objects are supported and with which algorithms', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.equal(doc.request_parameter_supported, true);
    assert.deepEqual(doc.request_object_signing_alg_values_supported, ['RS256', 'RS384', 'PS256']);
  });
});
