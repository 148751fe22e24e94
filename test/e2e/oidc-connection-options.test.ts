/**
 * Options of OpenID Connect connections that change what Gatehouse does with
 * the provider, end to end and headless: the built server over HTTPS, a real
 * OpenID provider (node-oidc-provider, which by default puts the profile
 * claims in its userinfo answer only, not in the code flow's id_token) and,
 * where it cannot be made to misbehave, the jose stand-in
 * (./support/federation.ts), driven by a scripted browser.
 *
 * - `attribute_map`: `bind_all` (the default) takes the id_token's claims and
 *   never calls userinfo; `use_map` fills the profile from its templates
 *   (`${context.tokenset.…}`, `${context.userinfo.…}`,
 *   `${context.connection.strategy}`, literals), calling the provider's
 *   userinfo endpoint with the code flow's access token and asking for
 *   `userinfo_scope`; on `okta` too. Refused: a userinfo answer about
 *   another `sub` (no user is made); on create, a map reading userinfo on
 *   `front_channel` or toward a provider without a userinfo endpoint, a
 *   reference outside the four forms, `use_map` without attributes,
 *   `bind_all` on okta.
 * - `private_key_jwt`: the connection's keys provisioned and rotated through
 *   the Management API (`/connections/{id}/keys`); a second
 *   node-oidc-provider whose client is registered with the connection's
 *   public keys and *requires* private_key_jwt redeems the code only for an
 *   assertion signed by the current key; after a rotation the next key
 *   (registered beforehand) signs. Refused: a login through a connection
 *   with no keys; keys twice (409), on another strategy, of an algorithm
 *   Gatehouse does not make, a rotation with no keys (400).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import type { JWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { managementApi, type ManagementApi } from './support/chromium.js';
import { FederationBrowser, grantEverything, sharedTls, startStandIn, type FederatedNavigation, type StandIn } from './support/federation.js';
import { cleanUp, httpsRequest, managementToken } from './support/https.js';
import { portalIdToken } from './support/portal.js';

const APP = 'https://portal.example';
const CALLBACK = `${APP}/callback`;
const [SECRET, SESSION] = ['upstream-secret-0123456789abcdef', '__Host-gh_session'];
/** Authorization headers of the calls to node-oidc-provider's userinfo endpoint. */
const userinfoCalls: string[] = [];

let management: ManagementApi;
let server: ServerProcess;
let token: string;
let ca: Buffer;
let client: { client_id: string; client_secret: string };
let upstream: https.Server;
let standIn: StandIn;
let issuer: string;
let upstreamTls: { cert: Buffer; key: Buffer };

const authorizeUrl = (connection: string, state: string) =>
  `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid email profile', connection, state })}`;

const raw = (method: string, apiPath: string, body?: unknown) =>
  httpsRequest(`${server.baseUrl}/api/v2${apiPath}`, { ca, method, headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });

const browser = () => new FederationBrowser(ca, APP);
const refusedLines = () => server.output().split('\n').filter((l) => /refused/.test(l)).slice(-2).join('\n');

/** The server's log lines of refused answers once one matches (the child's output arrives after the page, within a moment); throws after 5 s. */
async function refusalLogged(match: RegExp): Promise<string> {
  for (let waited = 0; ; waited += 50) {
    const line = server.output().split('\n').find((l) => /refused/.test(l) && match.test(l));
    if (line !== undefined) return line;
    if (waited >= 5000) throw new Error(`no refusal logged matching ${match}: ${refusedLines()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A login through `connection` as `sub` at node-oidc-provider's login page; where it ended. */
async function logIn(b: FederationBrowser, connection: string, sub: string): Promise<{ start: FederatedNavigation; done: FederatedNavigation }> {
  const start = await b.navigate(authorizeUrl(connection, `st-${sub}`));
  const page = start.urls.at(-1)!;
  assert.equal(page.origin, issuer, `at the provider, not ${page.href}`);
  return { start, done: await b.submit(start.last!, page, { login: sub, password: 'anything' }) };
}

async function userOf(arrived: URL | undefined, userId: string): Promise<Record<string, unknown>> {
  assert.ok(arrived, `a code at the application\n${refusedLines()}`);
  const claims = await portalIdToken(server, ca, client, CALLBACK, arrived.searchParams.get('code')!);
  assert.equal(claims.sub, userId);
  return management('GET', `/users/${encodeURIComponent(userId)}`);
}

const upstreamScope = (nav: FederatedNavigation) => new URL(nav.urls.find((u) => u.origin === issuer && u.pathname === '/auth')!).searchParams.get('scope')!.split(' ').sort();

before(async () => {
  const dataDir = tempDir('gatehouse-e2e-oidc-options-');
  const { tls, certFile } = await sharedTls(dataDir, ['localhost', '127.0.0.1', '::1']);
  upstreamTls = tls;
  standIn = await startStandIn(tls, { 'userinfo-other': { userinfo: (ordinary) => ({ ...ordinary, sub: 'someone-else' }) } }, SECRET);
  let provider: Provider | undefined;
  upstream = https.createServer(tls, (req, res) => {
    if (req.url?.startsWith('/me')) userinfoCalls.push(req.headers.authorization ?? '');
    return provider ? provider.callback()(req, res) : res.end();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  issuer = `https://localhost:${(upstream.address() as AddressInfo).port}`;
  server = await startServerProcess({ dataDir, env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.1/32,::1/128' } });
  ca = fs.readFileSync(server.certFile);
  provider = new Provider(issuer, {
    clients: [{ client_id: 'gatehouse', client_secret: SECRET, redirect_uris: [`${server.baseUrl}/login/callback`], response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_post' }],
    features: { userinfo: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'nickname'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@upstream.example`, email_verified: true, name: `${sub} Upstream`, given_name: sub, nickname: `${sub}-nick` }) }),
    loadExistingGrant: grantEverything,
    cookies: { keys: ['upstream-cookie-key-for-tests'] },
  });
  token = await managementToken(server);
  management = await managementApi(server);
  client = (await management('POST', '/clients', { name: 'Portal', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] })) as unknown as typeof client;
  const enabled_clients = [client.client_id];
  const op = { client_id: 'gatehouse', client_secret: SECRET, type: 'back_channel', discovery_url: `${issuer}/.well-known/openid-configuration` };
  await management('POST', '/connections', { name: 'op-bind-all', strategy: 'oidc', enabled_clients, options: op });
  await management('POST', '/connections', {
    name: 'op-use-map',
    strategy: 'oidc',
    enabled_clients,
    options: {
      ...op,
      scope: 'openid',
      attribute_map: {
        mapping_mode: 'use_map',
        userinfo_scope: 'email profile',
        attributes: {
          email: '${context.userinfo.email}',
          email_verified: '${context.userinfo.email_verified}',
          name: '${context.userinfo.name}',
          nickname: '${context.tokenset.sub}-of-${context.connection.strategy}',
          given_name: 'Literal',
          family_name: '${context.userinfo.no_such_claim}',
        },
      },
    },
  });
  await management('POST', '/connections', {
    name: 'op-okta-map',
    strategy: 'okta',
    enabled_clients,
    options: { client_id: 'gatehouse', client_secret: SECRET, domain: new URL(issuer).host, attribute_map: { mapping_mode: 'use_map', userinfo_scope: 'profile', attributes: { name: '${context.userinfo.nickname}' } } },
  });
  await management('POST', '/connections', {
    name: 'si-userinfo-other',
    strategy: 'oidc',
    enabled_clients,
    options: { ...op, discovery_url: `${standIn.issuer('userinfo-other')}/.well-known/openid-configuration`, attribute_map: { mapping_mode: 'use_map', attributes: { name: '${context.userinfo.name}' } } },
  });
});

after(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  await standIn?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('attribute_map and userinfo, against node-oidc-provider', () => {
  test('bind_all (the default): the id_token\'s claims only, userinfo never called', async () => {
    const [connection] = (await management('GET', '/connections?name=op-bind-all')) as unknown as { options: Record<string, unknown> }[];
    assert.deepEqual(connection!.options.attribute_map, { mapping_mode: 'bind_all' });
    const before = userinfoCalls.length;
    const { done } = await logIn(browser(), 'op-bind-all', 'ada');
    const user = await userOf(done.arrived, 'oidc|op-bind-all|ada');
    // node-oidc-provider keeps the profile claims out of the code flow's id_token.
    assert.equal(user.email, undefined);
    assert.equal(user.name, 'ada');
    assert.equal(userinfoCalls.length, before, 'no userinfo call');
  });

  test('use_map: the profile from userinfo, the id_token, the connection and literals; userinfo_scope asked', async () => {
    const before = userinfoCalls.length;
    const { start, done } = await logIn(browser(), 'op-use-map', 'grace');
    assert.deepEqual(upstreamScope(start), ['email', 'openid', 'profile']);
    const user = await userOf(done.arrived, 'oidc|op-use-map|grace');
    assert.equal(userinfoCalls.length, before + 1, 'one userinfo call');
    assert.match(userinfoCalls.at(-1)!, /^Bearer \S+$/);
    assert.equal(user.email, 'grace@upstream.example');
    assert.equal(user.email_verified, true);
    assert.equal(user.name, 'grace Upstream');
    assert.equal(user.nickname, 'grace-of-oidc');
    assert.equal(user.given_name, 'Literal');
    assert.equal(user.family_name, undefined, 'an absent claim maps to nothing');
  });

  test('okta use_map: userinfo read on the okta flow', async () => {
    const { done } = await logIn(browser(), 'op-okta-map', 'linus');
    const user = await userOf(done.arrived, 'okta|op-okta-map|linus');
    assert.equal(user.name, 'linus-nick');
  });

  test('a userinfo answer about another sub is refused: no code, no session, no user', async () => {
    const b = browser();
    const nav = await b.navigate(authorizeUrl('si-userinfo-other', 'st'));
    assert.equal(nav.arrived, undefined, `nothing reaches the application: ${nav.arrived?.href}`);
    assert.equal(nav.last!.status, 400);
    assert.match(nav.last!.text, /could not be verified/);
    assert.match(await refusalLogged(/si-userinfo-other/), /body \\"sub\\" property value/, 'refused for the userinfo answer\'s sub');
    assert.equal(b.cookies(server.baseUrl).get(SESSION), undefined);
    assert.equal((await raw('GET', `/users/${encodeURIComponent('oidc|si-userinfo-other|userinfo-other-user')}`)).status, 404);
  });

  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ['a map reading userinfo on front_channel', { client_id: 'x', type: 'front_channel', discovery_url: `https://localhost:1/.well-known/openid-configuration`, attribute_map: { mapping_mode: 'use_map', attributes: { name: '${context.userinfo.name}' } } }, 'oidc', /needs type back_channel/],
    ['a reference outside the four forms', { client_id: 'x', discovery_url: 'https://localhost:1/x', attribute_map: { mapping_mode: 'use_map', attributes: { name: '${process.env.HOME}' } } }, 'oidc', /is not one of/],
    ['use_map without attributes', { client_id: 'x', discovery_url: 'https://localhost:1/x', attribute_map: { mapping_mode: 'use_map' } }, 'oidc', /attributes is required/],
    ['bind_all on okta', { client_id: 'x', client_secret: 'y', domain: 'example.okta.com', attribute_map: { mapping_mode: 'bind_all' } }, 'okta', /mapping_mode must be one of basic_profile, use_map/],
  ];
  for (const [name, options, strategy, message] of refusals) {
    test(`refused on create: ${name}`, async () => {
      const res = await raw('POST', '/connections', { name: `refused-${strategy}-${refusals.findIndex((r) => r[0] === name)}`, strategy, options });
      assert.equal(res.status, 400, res.text);
      assert.match(res.json<{ message: string }>().message, message);
    });
  }

  test('refused on create: a map reading userinfo toward a provider without a userinfo endpoint', async () => {
    const metadata = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` };
    const res = await raw('POST', '/connections', { name: 'no-userinfo', strategy: 'oidc', options: { client_id: 'x', client_secret: 'y', type: 'back_channel', oidc_metadata: metadata, attribute_map: { mapping_mode: 'use_map', attributes: { name: '${context.userinfo.name}' } } } });
    assert.equal(res.status, 400, res.text);
    assert.match(res.json<{ message: string }>().message, /no https userinfo_endpoint/);
  });
});

describe('private_key_jwt toward an OpenID provider that requires it', () => {
  let keyServer: https.Server;
  let keyIssuer: string;
  let connectionId: string;
  const registered: JWK[] = [];
  let keyProvider: Provider | undefined;

  before(async () => {
    // The certificate Gatehouse trusts (NODE_EXTRA_CA_CERTS), the first upstream's.
    keyServer = https.createServer(upstreamTls, (req, res) => (keyProvider ? keyProvider.callback()(req, res) : res.end()));
    await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
    keyIssuer = `https://localhost:${(keyServer.address() as AddressInfo).port}`;
    // Its metadata given, not discovered: the provider is made once the connection's keys exist.
    const oidc_metadata = {
      issuer: keyIssuer,
      authorization_endpoint: `${keyIssuer}/auth`,
      token_endpoint: `${keyIssuer}/token`,
      jwks_uri: `${keyIssuer}/jwks`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
      authorization_response_iss_parameter_supported: true,
    };
    const created = await management('POST', '/connections', { name: 'op-pkjwt', strategy: 'oidc', enabled_clients: [client.client_id], options: { client_id: 'gatehouse-pkjwt', type: 'back_channel', token_endpoint_auth_method: 'private_key_jwt', oidc_metadata } });
    connectionId = String(created.id);
    await management('POST', '/connections', { name: 'op-pkjwt-nokeys', strategy: 'oidc', enabled_clients: [client.client_id], options: { client_id: 'gatehouse-pkjwt', type: 'back_channel', token_endpoint_auth_method: 'private_key_jwt', oidc_metadata } });
  });

  after(async () => {
    keyServer?.closeAllConnections();
    await new Promise((resolve) => (keyServer ? keyServer.close(resolve) : resolve(undefined)));
  });

  test('keys provisioned: current and next, certificates and digests, no private key; a second provisioning is 409', async () => {
    const res = await raw('POST', `/connections/${connectionId}/keys`, { signing_alg: 'RS256' });
    assert.equal(res.status, 201, res.text);
    const keys = res.json<Record<string, unknown>[]>();
    assert.deepEqual(keys.map((k) => [k.current ?? false, k.next ?? false]), [[true, false], [false, true]]);
    for (const key of keys) {
      assert.match(String(key.cert), /^-----BEGIN CERTIFICATE-----\r\n/);
      assert.match(String(key.pkcs), /^-----BEGIN PKCS7-----/);
      assert.match(String(key.fingerprint), /^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
      assert.equal(key.algorithm, 'RS256');
      assert.equal(key.key_use, 'signing');
      assert.doesNotMatch(JSON.stringify(key), /PRIVATE/);
      registered.push({ ...(createPublicKey(String(key.cert)).export({ format: 'jwk' }) as JWK), kid: String(key.kid), alg: 'RS256', use: 'sig' });
    }
    assert.deepEqual((await management('GET', `/connections/${connectionId}/keys`)) as unknown as unknown[], keys);
    const again = await raw('POST', `/connections/${connectionId}/keys`);
    assert.equal(again.status, 409);
    // The provider knows the client by the connection's public keys only, and takes nothing but private_key_jwt.
    keyProvider = new Provider(keyIssuer, {
      clients: [{ client_id: 'gatehouse-pkjwt', redirect_uris: [`${server.baseUrl}/login/callback`], response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'RS256', jwks: { keys: registered } }],
      clientAuthMethods: ['private_key_jwt'],
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      loadExistingGrant: grantEverything,
      cookies: { keys: ['pkjwt-cookie-key-for-tests'] },
    });
  });

  const logInAtKeyProvider = async (connection: string, sub: string) => {
    const b = browser();
    const start = await b.navigate(authorizeUrl(connection, `st-${sub}`));
    const page = start.urls.at(-1)!;
    assert.equal(page.origin, keyIssuer, `at the provider, not ${page.href}: ${server.output().split('\n').filter((l) => /"level":(50|40)/.test(l)).slice(-3).join('')} ${start.last?.status} ${start.last?.text.replace(/<style>[^]*<\/style>/, '').slice(0, 1500)}`);
    return { b, done: await b.submit(start.last!, page, { login: sub, password: 'anything' }) };
  };

  test('a login redeems its code with an assertion signed by the current key', async () => {
    const { done } = await logInAtKeyProvider('op-pkjwt', 'ada');
    const user = await userOf(done.arrived, 'oidc|op-pkjwt|ada');
    assert.equal(user.user_id, 'oidc|op-pkjwt|ada');
  });

  test('after a rotation the next key, registered beforehand, signs; the old one is previous', async () => {
    const res = await raw('POST', `/connections/${connectionId}/keys/rotate`, {});
    assert.equal(res.status, 201, res.text);
    const next = res.json<{ kid: string; next?: boolean }>();
    assert.equal(next.next, true);
    const keys = (await management('GET', `/connections/${connectionId}/keys`)) as unknown as { kid: string; current?: boolean; next?: boolean; previous?: boolean }[];
    assert.deepEqual(keys.map((k) => [k.kid, Boolean(k.current), Boolean(k.next), Boolean(k.previous)]), [[registered[1]!.kid, true, false, false], [next.kid, false, true, false], [registered[0]!.kid, false, false, true]]);
    const { done } = await logInAtKeyProvider('op-pkjwt', 'grace');
    await userOf(done.arrived, 'oidc|op-pkjwt|grace');
  });

  test('a connection with private_key_jwt and no keys cannot redeem its code: an error page, nothing issued', async () => {
    const { b, done } = await logInAtKeyProvider('op-pkjwt-nokeys', 'linus');
    assert.equal(done.arrived, undefined);
    assert.equal(done.last!.status, 400);
    assert.equal(b.cookies(server.baseUrl).get(SESSION), undefined);
    assert.match(await refusalLogged(/op-pkjwt-nokeys/), /no current key for private_key_jwt/);
    assert.equal((await raw('GET', `/users/${encodeURIComponent('oidc|op-pkjwt-nokeys|linus')}`)).status, 404);
  });

  test('refused: keys of another strategy, of an algorithm Gatehouse does not make, a rotation without keys', async () => {
    const database = await management('POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0' });
    const auth0 = await raw('POST', `/connections/${String(database.id)}/keys`);
    assert.equal(auth0.status, 400);
    assert.match(auth0.json<{ message: string }>().message, /only available for the oidc and okta strategies/);
    const [noKeys] = (await management('GET', '/connections?name=op-pkjwt-nokeys')) as unknown as { id: string }[];
    const es = await raw('POST', `/connections/${noKeys!.id}/keys`, { signing_alg: 'ES256' });
    assert.equal(es.status, 400);
    assert.match(es.json<{ message: string }>().message, /ES256 is not supported/);
    const rotate = await raw('POST', `/connections/${noKeys!.id}/keys/rotate`);
    assert.equal(rotate.status, 400);
    assert.match(rotate.json<{ message: string }>().message, /no keys to rotate/);
    assert.equal((await raw('GET', `/connections/${noKeys!.id}/keys`)).json<unknown[]>().length, 0);
  });
});
