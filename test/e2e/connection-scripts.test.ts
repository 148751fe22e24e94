/**
 * Connections that run the tenant's scripts, end to end: the built server
 * over HTTPS, the auth0 SDK creating the connections, openid-client as the
 * application, a scripted browser carrying the redirects and the login form.
 *
 * - A custom database with `import_mode` in front of a legacy user store (a
 *   small HTTP stand-in on 127.0.0.2 that its `login` script calls with
 *   `fetch`): the first login through the hosted page moves the user; a
 *   later password-realm login is answered from Gatehouse's store and the
 *   legacy store is not asked again. Its `configuration` never comes back
 *   through the SDK.
 * - An `oauth2` connection against a local OAuth 2.0 stand-in (authorization
 *   and token endpoints over HTTPS, trusted through NODE_EXTRA_CA_CERTS, and
 *   a profile API over HTTP on 127.0.0.2 that `fetchUserProfile` calls): the
 *   user `oauth2|{connection}|{user_id}` logs in; the connection's
 *   `customHeaders` reach the token endpoint; a profile without `user_id`
 *   ends on an error page and no code reaches the application.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManagementClient } from 'auth0';
import * as client from 'openid-client';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { tempDir } from '../helpers/app.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { readForm, ScriptedBrowser } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, managementToken } from './support/https.js';
import { appAuthorization, type PendingAuthorization as Pending } from './support/app-authorization.js';
import { sdkError } from './support/sdk-error.js';

const CALLBACK = 'https://portal.example.com/callback';
const LEGACY_KEY = 'legacy-key-93ab71';
const OAUTH_CLIENT = { id: 'gatehouse-at-provider', secret: 'provider-secret-5d2e' };

let server: ServerProcess;
let ca: Buffer;
let upstreamCa: Buffer;
let management: ManagementClient;
let app: client.Configuration;
let portal: { client_id: string; client_secret: string };

/** The legacy store: POST /authenticate with its API key. */
let legacy: http.Server;
let legacyUrl: string;
let legacyCalls = 0;

/** The OAuth 2.0 provider: /authorize and /token over HTTPS, /userinfo over HTTP on 127.0.0.2. */
let provider: https.Server;
let providerUrl: string;
let profileApi: http.Server;
let profileUrl: string;
const codes = new Map<string, { redirect_uri: string; account: Record<string, unknown> }>();
const tokens = new Map<string, Record<string, unknown>>();
let nextAccount: Record<string, unknown> = {};
const tokenRequests: { headers: http.IncomingHttpHeaders; body: URLSearchParams }[] = [];

const readBody = (req: http.IncomingMessage) => new Promise<string>((resolve) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => resolve(body));
});

async function startStandIns(tls: { cert: string; key: string }): Promise<void> {
  legacy = http.createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/authenticate' || req.headers.authorization !== `Bearer ${LEGACY_KEY}`) return void res.writeHead(403).end();
    legacyCalls += 1;
    const { email, password } = JSON.parse(body) as { email: string; password: string };
    if (email !== 'margaret@legacy.example' || password !== 'Apollo-Guidance-1969') return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'MH-11', email, name: 'Margaret Hamilton' }));
  });
  profileApi = http.createServer((req, res) => {
    const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (req.url !== '/userinfo' || !account) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(account));
  });
  provider = https.createServer(tls, async (req, res) => {
    const url = new URL(req.url!, 'https://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      if (url.searchParams.get('client_id') !== OAUTH_CLIENT.id) return void res.writeHead(400).end('unknown client');
      const code = randomBytes(12).toString('hex');
      codes.set(code, { redirect_uri: url.searchParams.get('redirect_uri')!, account: nextAccount });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const body = new URLSearchParams(await readBody(req));
      tokenRequests.push({ headers: req.headers, body });
      const grant = codes.get(body.get('code') ?? '');
      codes.delete(body.get('code') ?? '');
      if (!grant || body.get('client_id') !== OAUTH_CLIENT.id || body.get('client_secret') !== OAUTH_CLIENT.secret || body.get('redirect_uri') !== grant.redirect_uri) {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
      }
      const accessToken = randomBytes(16).toString('hex');
      tokens.set(accessToken, grant.account);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600 }));
    }
    res.writeHead(404).end();
  });
  const listen = (s: http.Server | https.Server, host: string) => new Promise<number>((resolve) => s.listen(0, host, () => resolve((s.address() as AddressInfo).port)));
  legacyUrl = `http://127.0.0.2:${await listen(legacy, '127.0.0.2')}`;
  profileUrl = `http://127.0.0.2:${await listen(profileApi, '127.0.0.2')}`;
  providerUrl = `https://127.0.0.1:${await listen(provider, '127.0.0.1')}`;
}

const LOGIN = () => `function login(email, password, callback) {
  fetch(configuration.LEGACY_URL + '/authenticate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + configuration.API_KEY },
    body: JSON.stringify({ email: email, password: password }),
  }).then(function (res) {
    if (res.status === 401) return callback(new WrongUsernameOrPasswordError(email));
    if (res.status !== 200) return callback(new Error('legacy store: ' + res.status));
    return res.json().then(function (user) { callback(null, { user_id: user.id, email: user.email, name: user.name, email_verified: true }); });
  }).catch(callback);
}`;

const GET_USER = `function getByEmail(email, callback) { callback(null); }`;

const FETCH_PROFILE = () => `function fetchUserProfile(accessToken, ctx, callback) {
  fetch(${JSON.stringify(profileUrl)} + '/userinfo', { headers: { authorization: 'Bearer ' + accessToken } })
    .then(function (res) { return res.json(); })
    .then(function (p) { callback(null, { user_id: p.sub, email: p.mail, email_verified: true, name: p.display_name, nickname: 'expires-' + ctx.expires_in }); })
    .catch(callback);
}`;

const authorization = (connection?: string): Promise<Pending> => appAuthorization(app, CALLBACK, connection);

before(async () => {
  const dataDir = tempDir('gatehouse-e2e-scripts-');
  const material = await createTlsCertificate(['localhost', '127.0.0.1']);
  const certFile = path.join(dataDir, 'upstream-cert.pem');
  fs.writeFileSync(certFile, material.certPem);
  upstreamCa = Buffer.from(material.certPem);
  await startStandIns({ cert: material.certPem, key: material.keyPem });
  server = await startServerProcess({ dataDir, env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES } });
  ca = fs.readFileSync(server.certFile);
  management = new ManagementClient({ domain: server.domain, token: await managementToken(server), fetch: caFetch(ca) as typeof fetch });
  const created = await management.clients.create({
    name: 'Portal',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_basic',
    callbacks: [CALLBACK],
    grant_types: ['authorization_code', 'http://auth0.com/oauth/grant-type/password-realm'],
  });
  portal = { client_id: created.client_id!, client_secret: created.client_secret! };
  app = await client.discovery(new URL(server.baseUrl), portal.client_id, portal.client_secret, client.ClientSecretBasic(portal.client_secret), { [client.customFetch]: caFetch(ca) });
});

after(async () => {
  await Promise.all([legacy, profileApi, provider].filter(Boolean).map((s) => new Promise((resolve) => s.close(resolve))));
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('a custom database connection with import_mode', () => {
  let connectionId: string;

  test('the auth0 SDK creates it; configuration never comes back', async () => {
    const created = await management.connections.create({
      name: 'legacy-users',
      strategy: 'auth0',
      enabled_clients: [portal.client_id],
      options: { enabledDatabaseCustomization: true, import_mode: true, customScripts: { login: LOGIN(), get_user: GET_USER }, configuration: { LEGACY_URL: legacyUrl, API_KEY: LEGACY_KEY } },
    });
    connectionId = created.id!;
    const read = await management.connections.get(connectionId);
    assert.doesNotMatch(JSON.stringify(read), new RegExp(LEGACY_KEY));
    assert.equal((read.options as { customScripts: { login: string } }).customScripts.login, LOGIN());
    assert.equal((read.options as { import_mode: boolean }).import_mode, true);
  });

  test('the first login on the hosted page moves the user from the legacy store; the next one is answered locally', async () => {
    const pending = await authorization('legacy-users');
    const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
    const page = await browser.navigate(pending.url);
    assert.equal(page.last.status, 200, page.last.text.slice(0, 300));
    const form = readForm(page.last.text, page.hops.at(-1)!.url);
    const done = await browser.submit(form.action, { ...form.hidden, username: 'margaret@legacy.example', password: 'Apollo-Guidance-1969' });
    assert.ok(done.leftTo, `expected the application's callback, got ${done.last.status}: ${done.last.text.slice(0, 400)}`);
    const tokenSet = await client.authorizationCodeGrant(app, done.leftTo, pending);
    assert.equal(tokenSet.claims()!.sub, 'auth0|MH-11');
    assert.equal(legacyCalls, 1);

    const user = await management.users.get('auth0|MH-11');
    assert.equal(user.email, 'margaret@legacy.example');
    assert.equal(user.identities![0]!.connection, 'legacy-users');

    const again = await httpsRequest(`${server.baseUrl}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'http://auth0.com/oauth/grant-type/password-realm', realm: 'legacy-users', username: 'margaret@legacy.example', password: 'Apollo-Guidance-1969', client_id: portal.client_id, client_secret: portal.client_secret, scope: 'openid' }),
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(legacyCalls, 1, 'the moved user logs in without the legacy store');
  });
});

/** An oauth2 connection at the stand-in, enabled for the portal, as the auth0 SDK creates it. */
function createOAuth2(name: string, fetchUserProfile: string, extra: Record<string, unknown> = {}) {
  const options = { authorizationURL: `${providerUrl}/authorize`, tokenURL: `${providerUrl}/token`, client_id: OAUTH_CLIENT.id, client_secret: OAUTH_CLIENT.secret, scripts: { fetchUserProfile }, ...extra };
  return management.connections.create({ name, strategy: 'oauth2', enabled_clients: [portal.client_id], options });
}

describe('an oauth2 connection with fetchUserProfile', () => {
  test('the auth0 SDK creates it; a login gets oauth2|{connection}|{user_id} from the script\'s profile', async () => {
    await createOAuth2('acme-oauth', FETCH_PROFILE(), { scope: 'profile email', customHeaders: { 'x-acme-tenant': 'gatehouse' } });
    const loginPage = await new ScriptedBrowser(new URL(server.baseUrl).origin, ca).navigate((await authorization()).url);
    assert.match(loginPage.last.text, /value="acme-oauth"[^>]*>[^<]*acme-oauth/, 'its button is named by the connection');
    nextAccount = { sub: 'acme-7', mail: 'kay@acme.example', display_name: 'Kay Acme' };
    const pending = await authorization('acme-oauth');
    const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
    const toProvider = await browser.navigate(pending.url);
    assert.equal(toProvider.leftTo?.origin, providerUrl, toProvider.last.text.slice(0, 300));
    assert.equal(toProvider.leftTo!.searchParams.get('scope'), 'profile email');
    const answer = await httpsRequest(toProvider.leftTo!.href, { ca: upstreamCa, method: 'GET' });
    assert.equal(answer.status, 302, answer.text);
    const done = await browser.navigate(new URL(answer.headers.location!));
    assert.ok(done.leftTo, `expected the application's callback, got ${done.last.status}: ${done.last.text.slice(0, 400)}`);
    const tokenSet = await client.authorizationCodeGrant(app, done.leftTo, pending);
    const claims = tokenSet.claims()!;
    assert.equal(claims.sub, 'oauth2|acme-oauth|acme-7');
    assert.equal(claims.email, 'kay@acme.example');
    assert.equal(claims.name, 'Kay Acme');
    assert.equal(claims.nickname, 'expires-3600', "the script's ctx is the token response");
    assert.equal(tokenRequests.at(-1)!.headers['x-acme-tenant'], 'gatehouse', 'customHeaders reach the token endpoint');
    const user = await management.users.get('oauth2|acme-oauth|acme-7');
    assert.deepEqual({ ...user.identities![0], access_token: undefined }, { provider: 'oauth2', user_id: 'acme-oauth|acme-7', connection: 'acme-oauth', isSocial: true, access_token: undefined });
  });

  test('a profile without user_id ends on an error page; no code reaches the application', async () => {
    await createOAuth2('acme-no-id', "function fetchUserProfile(accessToken, ctx, callback) { callback(null, { email: 'x@acme.example' }); }");
    const pending = await authorization('acme-no-id');
    const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
    const toProvider = await browser.navigate(pending.url);
    const answer = await httpsRequest(toProvider.leftTo!.href, { ca: upstreamCa, method: 'GET' });
    const done = await browser.navigate(new URL(answer.headers.location!));
    assert.equal(done.leftTo, undefined, 'no redirect to the application');
    assert.ok(done.last.status >= 400, String(done.last.status));
    assert.match(done.last.text, /has no user_id/);
  });

  test('an oversized fetchUserProfile and an http tokenURL are refused by the Management API', async () => {
    const base = { authorizationURL: `${providerUrl}/authorize`, tokenURL: `${providerUrl}/token`, client_id: 'c', client_secret: 's' };
    for (const [options, message] of [
      [{ ...base, scripts: { fetchUserProfile: 'x'.repeat(51_201) } }, /maximum 51200/],
      [{ ...base, tokenURL: 'http://127.0.0.1/token' }, /tokenURL/],
    ] as const) {
      const error = await sdkError(() => management.connections.create({ name: `refused-${randomBytes(3).toString('hex')}`, strategy: 'oauth2', options: options as Record<string, unknown> }));
      assert.equal(error.statusCode, 400);
      assert.match(error.body.message, message);
    }
  });
});
