/**
 * openid-client v6 against the built server over real HTTPS, with strong
 * client authentication and FAPI's building blocks:
 *
 * - `PrivateKeyJwt` client authentication for client_credentials and for the
 *   authorization code flow, with the key registered inline when the client is
 *   created through the Management API;
 * - the code flow through pushed authorization requests
 *   (`buildAuthorizationUrlWithPAR`) and through a signed request object
 *   (`buildAuthorizationUrlWithJAR`);
 * - DPoP (`getDPoPHandle`): a server nonce round trip (openid-client retries on
 *   `use_dpop_nonce`), DPoP-bound tokens, /userinfo with the bound token.
 *
 * The hosted login page is driven by the scripted browser (./support/browser.ts).
 */
import assert from 'node:assert/strict';
import { randomBytes, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { readForm, ScriptedBrowser } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, managementToken } from './support/https.js';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'fapi@example.com';
const API_SCOPE = 'read:x';

let server: ServerProcess;
let ca: Buffer;
let fetchWithCa: ReturnType<typeof caFetch>;
let issuer: URL;
let api: string;
let callback: string;
let clientId: string;
let privateKey: webcrypto.CryptoKey;
let config: client.Configuration;

async function management(token: string, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await httpsRequest(`${server.baseUrl}/api/v2${path}`, {
    ca,
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.text === '' ? {} : res.json<Record<string, unknown>>();
}

async function rsaKeyPair(): Promise<{ privateKey: webcrypto.CryptoKey; pem: string }> {
  const keys = (await webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  )) as webcrypto.CryptoKeyPair;
  const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey)).toString('base64');
  const pem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return { privateKey: keys.privateKey, pem };
}

before(async () => {
  server = await startServerProcess();
  ca = fs.readFileSync(server.certFile);
  fetchWithCa = caFetch(ca);
  issuer = new URL(`${server.baseUrl}/`);
  callback = `http://127.0.0.1:${await freePort()}/callback`;
  api = `https://api-${randomBytes(4).toString('hex')}.example.com/`;

  const token = await managementToken(server);
  await management(token, 'POST', '/resource-servers', { identifier: api, name: 'FAPI API', scopes: [{ value: API_SCOPE, description: 'Read x' }] });
  const connection = await management(token, 'POST', '/connections', { name: 'fapi-users', strategy: 'auth0' });
  await management(token, 'POST', '/users', { connection: 'fapi-users', email: EMAIL, password: PASSWORD });

  const key = await rsaKeyPair();
  privateKey = key.privateKey;
  const created = await management(token, 'POST', '/clients', {
    name: 'openid-client private_key_jwt app',
    app_type: 'regular_web',
    is_first_party: true,
    callbacks: [callback],
    grant_types: ['authorization_code', 'client_credentials'],
    client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', name: 'app key', pem: key.pem, alg: 'RS256' }] } },
  });
  clientId = created.client_id as string;
  const credentialId = (created.client_authentication_methods as { private_key_jwt: { credentials: { id: string }[] } }).private_key_jwt.credentials[0]!.id;
  // The same key signs request objects.
  await management(token, 'PATCH', `/clients/${clientId}`, { signed_request_object: { credentials: [{ id: credentialId }] } });
  await management(token, 'PATCH', `/connections/${connection.id as string}/clients`, [{ client_id: clientId, status: true }]);
  await management(token, 'POST', '/client-grants', { client_id: clientId, audience: api, scope: [API_SCOPE] });

  config = await client.discovery(issuer, clientId, {}, client.PrivateKeyJwt(privateKey), { [client.customFetch]: fetchWithCa });
});

after(async () => {
  await cleanUp([server], [server.dataDir]);
});

/** /authorize (or its PAR/JAR form) → the login page → the callback URL with the code. */
async function logIn(url: URL): Promise<URL> {
  const browser = new ScriptedBrowser(issuer.origin, ca);
  const toLogin = await browser.navigate(url);
  assert.equal(toLogin.last.status, 200, toLogin.last.text.slice(0, 300));
  const form = readForm(toLogin.last.text, toLogin.hops.at(-1)!.url);
  const done = await browser.submit(form.action, { ...form.hidden, email: EMAIL, password: PASSWORD });
  assert.ok(done.leftTo, `expected the callback, got ${done.last.status}: ${done.last.text.slice(0, 300)}`);
  assert.equal(`${done.leftTo.origin}${done.leftTo.pathname}`, callback);
  return done.leftTo;
}

async function codeFlowParameters() {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const parameters = {
    redirect_uri: callback,
    scope: `openid email ${API_SCOPE}`,
    audience: api,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  };
  return { parameters, checks: { pkceCodeVerifier: verifier, expectedState: state } };
}

describe('openid-client: private_key_jwt, PAR, JAR and DPoP', () => {
  test('discovery advertises what openid-client uses', () => {
    const metadata = config.serverMetadata();
    assert.ok(metadata.token_endpoint_auth_methods_supported?.includes('private_key_jwt'));
    assert.equal(metadata.pushed_authorization_request_endpoint, `${issuer.href}oauth/par`);
    assert.equal(metadata.request_parameter_supported, true);
    assert.ok(metadata.dpop_signing_alg_values_supported?.includes('ES256'));
  });

  test('client_credentials with PrivateKeyJwt', async () => {
    const tokens = await client.clientCredentialsGrant(config, { audience: api });
    assert.equal(tokens.token_type, 'bearer');
    const claims = decodeJwt(tokens.access_token);
    assert.equal(claims.sub, `${clientId}@clients`);
    assert.equal(claims.aud, api);
  });

  test('authorization code via PAR, the code exchanged with PrivateKeyJwt', async () => {
    const { parameters, checks } = await codeFlowParameters();
    const url = await client.buildAuthorizationUrlWithPAR(config, parameters);
    assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
    const tokens = await client.authorizationCodeGrant(config, await logIn(url), checks);
    assert.equal(tokens.claims()?.email, EMAIL);
    assert.equal(decodeJwt(tokens.access_token).aud?.[0], api);
  });

  test('authorization code via a signed request object', async () => {
    const { parameters, checks } = await codeFlowParameters();
    const url = await client.buildAuthorizationUrlWithJAR(config, parameters, privateKey);
    assert.ok(url.searchParams.get('request'));
    const tokens = await client.authorizationCodeGrant(config, await logIn(url), checks);
    assert.equal(tokens.claims()?.email, EMAIL);
  });

  test('DPoP: a nonce round trip, bound tokens, /userinfo with the bound token', async () => {
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const machine = await client.clientCredentialsGrant(config, { audience: api }, { DPoP: dpop });
    assert.equal(machine.token_type, 'dpop');
    assert.ok((decodeJwt(machine.access_token).cnf as { jkt?: string }).jkt);

    const { parameters, checks } = await codeFlowParameters();
    const url = await client.buildAuthorizationUrlWithPAR(config, parameters, { DPoP: dpop });
    const tokens = await client.authorizationCodeGrant(config, await logIn(url), checks, undefined, { DPoP: dpop });
    assert.equal(tokens.token_type, 'dpop');
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub, { DPoP: dpop });
    assert.equal(userinfo.email, EMAIL);

    // The bound token without its key is refused.
    await assert.rejects(client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub), (error: unknown) => {
      assert.ok(error instanceof Error);
      return true;
    });
  });

  test('a FAPI 2 client (fapi2_sp_pkj_mtls): a plain /authorize is refused; PAR + PKCE + private_key_jwt + DPoP succeeds', async () => {
    const token = await managementToken(server);
    const key = await rsaKeyPair();
    const created = await management(token, 'POST', '/clients', {
      name: 'FAPI 2 client',
      app_type: 'regular_web',
      is_first_party: true,
      callbacks: [callback],
      grant_types: ['authorization_code'],
      compliance_level: 'fapi2_sp_pkj_mtls',
      client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', pem: key.pem, alg: 'RS256' }] } },
    });
    const fapiId = created.client_id as string;
    const connections = (await (await fetchWithCa(`${server.baseUrl}/api/v2/connections?name=fapi-users`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
    await management(token, 'PATCH', `/connections/${connections[0]!.id}/clients`, [{ client_id: fapiId, status: true }]);
    const fapi = await client.discovery(issuer, fapiId, {}, client.PrivateKeyJwt(key.privateKey), { [client.customFetch]: fetchWithCa });

    const { parameters, checks } = await codeFlowParameters();
    const plain = await new ScriptedBrowser(issuer.origin, ca).navigate(client.buildAuthorizationUrl(fapi, parameters));
    assert.equal(plain.last.status, 400);
    assert.match(plain.last.text, /pushed authorization requests/);

    const dpop = client.getDPoPHandle(fapi, await client.randomDPoPKeyPair('ES256'));
    const url = await client.buildAuthorizationUrlWithPAR(fapi, parameters, { DPoP: dpop });
    const redirected = await logIn(url);
    assert.equal(redirected.searchParams.get('iss'), issuer.href, 'RFC 9207 iss in the response');
    const tokens = await client.authorizationCodeGrant(fapi, redirected, checks, undefined, { DPoP: dpop });
    assert.equal(tokens.token_type, 'dpop');
    assert.ok((decodeJwt(tokens.access_token).cnf as { jkt?: string }).jkt);
  });
});
