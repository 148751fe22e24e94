/**
 * What a federated login through an OpenID provider must refuse, end to end
 * and headless: the built server over HTTPS, a real OpenID provider
 * (node-oidc-provider) and, where it cannot be made to misbehave, a small
 * HTTPS stand-in that signs with jose (./support/federation.ts), driven by a
 * scripted browser across the origins. Each refusal asserts that nothing was
 * issued: no code reached the application, no session cookie was set.
 *
 * Gatehouse trusts the upstreams' certificate through NODE_EXTRA_CA_CERTS
 * and reaches them on 127.0.0.1 and ::1, which GATEHOUSE_OUTBOUND_ALLOW
 * lists; 127.0.0.2 (where the stand-in also listens) is not listed, so an
 * endpoint there is refused by the outbound guard.
 *
 * Then the enterprise strategies on the same flow: `okta` and `google-apps`
 * against node-oidc-provider, `waad` (single- and multi-tenant, whose issuer
 * template node-oidc-provider cannot serve) against the stand-in, the
 * Microsoft and Google hosts replaced through GATEHOUSE_FEDERATION_ENDPOINTS.
 */
import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import { Secret, TOTP } from 'otpauth';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { managementApi, type ManagementApi } from './support/chromium.js';
import { FederationBrowser, grantEverything, sharedTls, startStandIn, type FederatedNavigation, type StandIn, type StandInBehaviour } from './support/federation.js';
import { cleanUp, httpsRequest, managementToken } from './support/https.js';
import { portalIdToken } from './support/portal.js';

const APP = 'https://portal.example';
const CALLBACK = `${APP}/callback`;
const SECRET = 'upstream-secret-0123456789abcdef';
const SESSION = '__Host-gh_session';
const TENANT_A = '9188040d-6c67-4c5b-b112-36a304b66dad';
const TENANT_B = '72f988bf-86f1-41af-91ab-2d7cd011db47';

let server: ServerProcess;
let ca: Buffer;
let token: string;
let management: ManagementApi;
let upstream: https.Server;
let issuer: string;
let standIn: StandIn;
let client: { client_id: string; client_secret: string };
let upstreamAccessTtl = 3600;
let upstreamRefreshes = 0;

// Entra ID sends no `iss` in its authorization responses (nor advertises it).
const entra: StandInBehaviour = { authorizationIss: null };
const PROVIDERS: Record<string, StandInBehaviour> = {
  good: {},
  'wrong-nonce': { claims: (c) => ({ ...c, nonce: 'another-nonce' }) },
  'wrong-aud': { claims: (c) => ({ ...c, aud: 'another-client' }) },
  'wrong-iss': { claims: (c) => ({ ...c, iss: 'https://issuer.example' }) },
  expired: { claims: (c) => ({ ...c, iat: c.iat! - 7200, exp: c.iat! - 3600 }) },
  'other-key': { signing: 'other-key' },
  'alg-none': { signing: 'none' },
  hs256: { signing: 'hs256' },
  mixup: {},
  'reusable-code': { codeReusable: true },
  'private-token': { backChannelHost: '127.0.0.2' },
  'private-jwks': { backChannelHost: '127.0.0.2' },
  'huge-jwks': { hugeJwks: true },
  'silent-token': { silentTokenEndpoint: true },
  entra,
};
const ID_TOKEN_REFUSALS = ['wrong-nonce', 'wrong-aud', 'wrong-iss', 'expired', 'other-key', 'alg-none', 'hs256'];

const authorizeUrl = (connection: string, state: string) =>
  `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid email profile', connection, state })}`;

/** The Management API answer as is (status and body), for the refusals. */
const raw = (method: string, apiPath: string, body?: unknown) =>
  httpsRequest(`${server.baseUrl}/api/v2${apiPath}`, { ca, method, headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });

const browser = () => new FederationBrowser(ca, APP);

/** Logs in at node-oidc-provider's login page as `sub`. */
async function atProvider(b: FederationBrowser, nav: FederatedNavigation, sub: string): Promise<FederatedNavigation> {
  const page = nav.urls.at(-1)!;
  assert.equal(page.origin, issuer, `at the provider, not ${page.href}`);
  return b.submit(nav.last!, page, { login: sub, password: 'anything' });
}

/** The ID token's claims for the code the application received. */
function idTokenOf(arrived: URL): Promise<Record<string, unknown>> {
  const code = arrived.searchParams.get('code');
  assert.ok(code, `a code at the application: ${arrived.href}`);
  return portalIdToken(server, ca, client, CALLBACK, code);
}

/** An error page at Gatehouse, no code at the application, no session. */
function assertRefused(b: FederationBrowser, nav: FederatedNavigation, message: RegExp): void {
  assert.equal(nav.arrived, undefined, `nothing reaches the application: ${nav.arrived?.href}`);
  assert.equal(nav.urls.at(-1)!.origin, server.baseUrl);
  assert.equal(nav.last!.status, 400, nav.last!.text.replace(/<style>[^]*<\/style>/, ''));
  assert.match(nav.last!.text, message);
  assert.equal(b.cookies(server.baseUrl).get(SESSION), undefined, 'no session');
}

/** Starts a login and stops before the upstream's answer reaches Gatehouse's callback; its URL. */
async function answerOf(b: FederationBrowser, connection: string, sub?: string): Promise<URL> {
  let nav = await b.navigateUntil(authorizeUrl(connection, 'st'), (url) => url.pathname === '/login/callback' && url.searchParams.has('code'));
  if (sub !== undefined && nav.paused === undefined) nav = await b.submitUntil(nav.last!, nav.urls.at(-1)!, { login: sub, password: 'x' }, (url) => url.pathname === '/login/callback' && url.searchParams.has('code'));
  assert.ok(nav.paused, `stopped at the callback: ${nav.urls.map((u) => u.href).join(' ')}`);
  return nav.paused;
}

before(async () => {
  const dataDir = tempDir('gatehouse-e2e-oidc-refusals-');
  const { tls, certFile } = await sharedTls(dataDir, ['localhost', '127.0.0.1', '127.0.0.2', '::1']);

  standIn = await startStandIn(tls, PROVIDERS, SECRET);
  const entraBase = `${standIn.origin}/t/entra`;
  entra.discoveryIssuer = (segment) => (segment === 'common' ? `${entraBase}/{tenantid}/v2.0` : `${entraBase}/${segment}/v2.0`);
  let provider: Provider | undefined;
  upstream = https.createServer(tls, (req, res) => (provider ? provider.callback()(req, res) : res.end()));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  issuer = `https://localhost:${(upstream.address() as AddressInfo).port}`;
  PROVIDERS.mixup!.authorizationIss = issuer;
  const endpointsFile = path.join(dataDir, 'federation-endpoints.json');
  fs.writeFileSync(endpointsFile, JSON.stringify({ waad: { issuer: `${entraBase}/{tenant}/v2.0` }, 'google-apps': { issuer } }));

  server = await startServerProcess({
    dataDir,
    env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.1/32,::1/128', GATEHOUSE_FEDERATION_ENDPOINTS: endpointsFile },
  });
  ca = fs.readFileSync(server.certFile);
  provider = new Provider(issuer, {
    clients: [{ client_id: 'gatehouse', client_secret: SECRET, redirect_uris: [`${server.baseUrl}/login/callback`], response_types: ['code'], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'client_secret_post' }],
    // Token Vault: a refresh token with every code, and access tokens that live as long as a test says.
    issueRefreshToken: async () => true,
    ttl: { AccessToken: () => upstreamAccessTtl },
    features: { userinfo: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'hd'], profile: ['name', 'given_name', 'family_name'] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@upstream.example`, email_verified: true, name: `${sub} Upstream`, given_name: sub, hd: sub === 'mallory' ? 'other.example' : 'upstream.example' }),
    }),
    loadExistingGrant: grantEverything,
    cookies: { keys: ['upstream-cookie-key-for-tests'] },
    conformIdTokenClaims: false,
  });
  (provider as unknown as EventEmitter).on('grant.success', (ctx: { oidc: { params?: { grant_type?: string } } }) => {
    if (ctx.oidc.params?.grant_type === 'refresh_token') upstreamRefreshes++;
  });
  token = await managementToken(server);
  management = await managementApi(server);
  client = (await management('POST', '/clients', { name: 'Portal', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] })) as unknown as typeof client;
  await management('POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0', enabled_clients: [client.client_id] });
  const enabled_clients = [client.client_id];
  for (const name of Object.keys(PROVIDERS).filter((n) => n !== 'entra')) {
    await management('POST', '/connections', {
      name: `si-${name}`,
      strategy: 'oidc',
      enabled_clients,
      options: { client_id: 'gatehouse', client_secret: SECRET, type: 'back_channel', send_back_channel_nonce: true, discovery_url: `${standIn.issuer(name)}/.well-known/openid-configuration` },
    });
  }
  const op = { client_id: 'gatehouse', client_secret: SECRET };
  await management('POST', '/connections', { name: 'op-code', strategy: 'oidc', enabled_clients, options: { ...op, type: 'back_channel', discovery_url: `${issuer}/.well-known/openid-configuration` } });
  await management('POST', '/connections', { name: 'op-okta', strategy: 'okta', enabled_clients, options: { ...op, domain: new URL(issuer).host } });
  await management('POST', '/connections', { name: 'op-workspace', strategy: 'google-apps', enabled_clients, options: { ...op, domain: 'upstream.example' } });
  await management('POST', '/connections', { name: 'entra-single', strategy: 'waad', enabled_clients, options: { ...op, tenant_domain: TENANT_A } });
  await management('POST', '/connections', { name: 'entra-multi', strategy: 'waad', enabled_clients, options: { ...op, useCommonEndpoint: true, userid_attribute: 'sub' } });
});

after(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  await standIn?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('federated login through an OpenID provider: what is refused', () => {
  test('the control: a well-behaved provider logs in; a database user with the same email stays another user', async () => {
    const database = (await management('POST', '/users', { connection: 'Username-Password-Authentication', email: 'good-user@stand-in.example', password: 'Correct-Horse-Battery-9', email_verified: true })) as { user_id: string };
    const b = browser();
    const nav = await b.navigate(authorizeUrl('si-good', 'app-state'));
    assert.ok(nav.arrived, `${nav.last?.text.replace(/^[^]*<body/, '')}\n${server.output().split('\n').filter((l) => /refused/.test(l)).slice(-2).join('\n')}`);
    assert.equal(nav.arrived.searchParams.get('state'), 'app-state');
    const claims = await idTokenOf(nav.arrived);
    assert.equal(claims.sub, 'oidc|si-good|good-user');
    assert.notEqual(claims.sub, database.user_id);
    const sameEmail = (await management('GET', `/users-by-email?email=${encodeURIComponent('good-user@stand-in.example')}`)) as unknown as { user_id: string; logins_count?: number }[];
    assert.deepEqual(sameEmail.map((u) => u.user_id).sort(), [database.user_id, 'oidc|si-good|good-user'].sort());
    assert.ok(!sameEmail.find((u) => u.user_id === database.user_id)!.logins_count, 'the database user did not log in');
  });

  test('state: missing, unknown, used before: error pages, nothing issued', async () => {
    const b = browser();
    const answer = await answerOf(b, 'si-good');
    const missing = new URL(answer);
    missing.searchParams.delete('state');
    assertRefused(b, await b.navigate(missing), /no state/);
    const unknown = new URL(answer);
    unknown.searchParams.set('state', `${answer.searchParams.get('state')!.slice(0, -4)}AAAA`);
    assertRefused(b, await b.navigate(unknown), /unknown or expired/);
    const first = await b.navigate(answer);
    assert.ok(first.arrived?.searchParams.get('code'), 'the genuine answer logs in');
    const other = browser();
    const replay = await other.navigate(answer);
    assertRefused(other, replay, /already used/);
  });

  test('state of another browser: the answer verifies, but the hop refuses the browser that did not start it', async () => {
    const started = browser();
    const answer = await answerOf(started, 'si-good');
    const attacker = browser();
    const nav = await attacker.navigate(answer);
    assert.equal(nav.arrived, undefined);
    assert.equal(nav.last!.status, 400);
    assert.equal(attacker.cookies(server.baseUrl).get(SESSION), undefined, 'no session in the other browser');
  });

  test('the code of one transaction with the state of another: refused (PKCE), nothing issued', async () => {
    const b = browser();
    const first = await answerOf(b, 'si-good');
    const second = await answerOf(b, 'si-good');
    const swapped = new URL(second);
    swapped.searchParams.set('code', first.searchParams.get('code')!);
    assertRefused(b, await b.navigate(swapped), /could not be verified/);
  });

  test('mix-up (RFC 9207): an authorization response naming another issuer is refused before any code exchange', async () => {
    const b = browser();
    const redeemed = standIn.redemptions.length;
    const nav = await b.navigate(authorizeUrl('si-mixup', 'st'));
    assertRefused(b, nav, /could not be verified/);
    assert.equal(standIn.redemptions.length, redeemed, 'the code was not sent to the token endpoint');
  });

  for (const name of ID_TOKEN_REFUSALS) {
    test(`id_token refused: ${name}`, async () => {
      const b = browser();
      assertRefused(b, await b.navigate(authorizeUrl(`si-${name}`, 'st')), /could not be verified/);
      assert.equal((await raw('GET', `/users/${encodeURIComponent(`oidc|si-${name}|${name}-user`)}`)).status, 404, 'no user was made');
    });
  }

  test('a back-channel code is exchanged once: the same answer code again is refused, the provider never sees it twice', async () => {
    const b = browser();
    const first = await answerOf(b, 'si-reusable-code');
    assert.ok((await b.navigate(first)).arrived?.searchParams.get('code'));
    const other = browser();
    const second = await answerOf(other, 'si-reusable-code');
    const reused = new URL(second);
    reused.searchParams.set('code', first.searchParams.get('code')!);
    assertRefused(other, await other.navigate(reused), /already used/);
    assert.equal(standIn.redemptions.filter((c) => c === first.searchParams.get('code')).length, 1);
  });

  test('the upstream answers access_denied: the application gets access_denied with its state, and no code', async () => {
    const b = browser();
    const nav = await b.navigate(authorizeUrl('op-code', 'st-denied'));
    const interaction = nav.urls.at(-1)!;
    assert.equal(interaction.origin, issuer);
    const denied = await b.navigate(`${issuer}${interaction.pathname}/abort`);
    assert.ok(denied.arrived);
    assert.equal(denied.arrived.searchParams.get('error'), 'access_denied');
    assert.equal(denied.arrived.searchParams.get('error_description'), 'User did not authorize the request');
    assert.equal(denied.arrived.searchParams.get('state'), 'st-denied');
    assert.equal(denied.arrived.searchParams.get('code'), null);
    assert.equal(b.cookies(server.baseUrl).get(SESSION), undefined);
  });

  test('a discovery document at an address the outbound guard refuses: 400 on create', async () => {
    const res = await raw('POST', '/connections', { name: 'private-discovery', strategy: 'oidc', options: { client_id: 'x', discovery_url: `https://127.0.0.2:${standIn.port}/t/good/.well-known/openid-configuration` } });
    assert.equal(res.status, 400, res.text);
    assert.match(res.json<{ message: string }>().message, /options\.discovery_url/);
    assert.match(res.text, /127\.0\.0\.2 is not a public address/);
  });

  for (const [name, message] of [
    ['private-token', /could not be reached/],
    ['private-jwks', /could not be reached/],
    ['huge-jwks', /could not be reached \(the answer is larger than 1048576 bytes\)/],
    ['silent-token', /could not be reached \(no answer within 10000 ms\)/],
  ] as const) {
    test(`the provider's ${name}: a clear error page, nothing issued`, async () => {
      const b = browser();
      assertRefused(b, await b.navigate(authorizeUrl(`si-${name}`, 'st')), message);
    });
  }
});

describe('okta, google-apps and waad on the OpenID Connect flow', () => {
  test('okta: discovery from its domain; a login through the provider; okta|{connection}|{sub}', async () => {
    const [connection] = (await management('GET', '/connections?name=op-okta')) as unknown as { options: Record<string, unknown> }[];
    assert.equal((connection!.options.oidc_metadata as { issuer: string }).issuer, issuer);
    assert.equal(connection!.options.type, 'back_channel');
    assert.equal(connection!.options.client_secret, SECRET);
    const b = browser();
    const nav = await atProvider(b, await b.navigate(authorizeUrl('op-okta', 'st-okta')), 'ada');
    assert.ok(nav.arrived, `${nav.last?.text.replace(/^[^]*<body/, '')}\n${server.output().split('\n').filter((l) => /refused/.test(l)).slice(-2).join('\n')}`);
    assert.equal((await idTokenOf(nav.arrived)).sub, 'okta|op-okta|ada');
    // Without read:user_idp_tokens the identity has no upstream tokens; with it (the admin's token), the provider's access token.
    const admin = server.admin();
    const narrow = await httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: `https://${server.domain}/api/v2/`, scope: 'read:users' }) });
    assert.equal(narrow.json<{ scope: string }>().scope, 'read:users');
    const path = `/users/${encodeURIComponent('okta|op-okta|ada')}`;
    const plain = await httpsRequest(`${server.baseUrl}/api/v2${path}`, { ca, headers: { authorization: `Bearer ${narrow.json<{ access_token: string }>().access_token}` } });
    assert.deepEqual(plain.json<{ identities: unknown }>().identities, [{ connection: 'op-okta', user_id: 'op-okta|ada', provider: 'okta', isSocial: false }]);
    const [withTokens] = (await management('GET', path)).identities as [{ access_token?: string; refresh_token?: string }];
    assert.equal(typeof withTokens.access_token, 'string');
    assert.equal((await httpsRequest(`${issuer}/me`, { ca, headers: { authorization: `Bearer ${withTokens.access_token}` } })).json<{ sub: string }>().sub, 'ada');
  });

  test('google-apps: the Workspace user by email, `hd` sent and checked; a user of another domain is refused', async () => {
    const b = browser();
    const start = await b.navigate(authorizeUrl('op-workspace', 'st-gw'));
    assert.equal(new URL(start.urls.find((u) => u.origin === issuer && u.pathname === '/auth')!).searchParams.get('hd'), 'upstream.example');
    const nav = await atProvider(b, start, 'grace');
    assert.ok(nav.arrived, `${nav.last?.text.replace(/^[^]*<body/, '')}\n${server.output().split('\n').filter((l) => /refused/.test(l)).slice(-2).join('\n')}`);
    assert.equal((await idTokenOf(nav.arrived)).sub, 'google-apps|op-workspace|grace@upstream.example');
    const other = browser();
    assertRefused(other, await atProvider(other, await other.navigate(authorizeUrl('op-workspace', 'st-gw2')), 'mallory'), /could not be verified/);
  });

  test('waad single-tenant: the tenant\'s discovery; the user by oid; email never set verified', async () => {
    entra.claims = (c) => ({ ...c, iss: `${standIn.origin}/t/entra/${TENANT_A}/v2.0`, tid: TENANT_A, oid: 'oid-of-ada', email: 'ada@contoso.example' });
    const b = browser();
    const nav = await b.navigate(authorizeUrl('entra-single', 'st-entra'));
    assert.ok(nav.arrived, `${nav.last?.text.replace(/^[^]*<body/, '')}\n${server.output().split('\n').filter((l) => /refused/.test(l)).slice(-2).join('\n')}`);
    assert.equal((await idTokenOf(nav.arrived)).sub, 'waad|entra-single|oid-of-ada');
    const user = await management('GET', `/users/${encodeURIComponent('waad|entra-single|oid-of-ada')}`);
    assert.equal(user.email_verified, false);
  });

  test('waad multi-tenant: any tenant\'s token whose iss is the template with its own tid; a tid that is not its issuer\'s is refused', async () => {
    entra.claims = (c) => ({ ...c, iss: `${standIn.origin}/t/entra/${TENANT_B}/v2.0`, tid: TENANT_B, sub: 'sub-of-grace' });
    const b = browser();
    const nav = await b.navigate(authorizeUrl('entra-multi', 'st-multi'));
    assert.ok(nav.arrived, `${nav.last?.text.replace(/^[^]*<body/, '')}\n${server.output().split('\n').filter((l) => /refused/.test(l)).slice(-2).join('\n')}`);
    assert.equal((await idTokenOf(nav.arrived)).sub, 'waad|entra-multi|sub-of-grace');
    entra.claims = (c) => ({ ...c, iss: `${standIn.origin}/t/entra/${TENANT_A}/v2.0`, tid: TENANT_B, sub: 'sub-of-mallory' });
    const other = browser();
    assertRefused(other, await other.navigate(authorizeUrl('entra-multi', 'st-multi2')), /could not be verified/);
    const single = (await raw('POST', '/connections', { name: 'entra-bad', strategy: 'waad', options: { client_id: 'x', client_secret: 'y', useCommonEndpoint: true } })).json<{ message: string }>();
    assert.match(single.message, /userid_attribute/);
  });

  test('GET /connections/{id}/status: 200 when the provider answers, 404 with the reason when it cannot be reached', async () => {
    const [okta] = (await management('GET', '/connections?name=op-okta')) as unknown as { id: string }[];
    const online = await raw('GET', `/connections/${okta!.id}/status`);
    assert.equal(online.status, 200, online.text);
    const [unreachable] = (await management('GET', '/connections?name=si-private-jwks')) as unknown as { id: string }[];
    const offline = await raw('GET', `/connections/${unreachable!.id}/status`);
    assert.equal(offline.status, 404);
    assert.match(offline.json<{ message: string }>().message, /could not be reached .*127\.0\.0\.2 is not a public address/);
    assert.equal((await raw('GET', '/connections/con_0000000000000000/status')).status, 404);
  });
});

describe('Token Vault: the upstream access token for a Gatehouse refresh token', () => {
  const GRANT = 'urn:auth0:params:oauth:grant-type:token-exchange:federated-connection-access-token';
  let vault: { client_id: string; client_secret: string };
  const exchange = (body: Record<string, string>) =>
    httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: GRANT, client_id: vault.client_id, client_secret: vault.client_secret, subject_token_type: 'urn:ietf:params:oauth:token-type:refresh_token', requested_token_type: 'http://auth0.com/oauth/token-type/federated-connection-access-token', ...body }).toString() });
  /** Logs `sub` in through op-okta for the vault application; its Gatehouse refresh token. */
  async function refreshTokenOf(sub: string): Promise<string> {
    const b = browser();
    const url = `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: vault.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid offline_access', connection: 'op-okta', state: 'v' })}`;
    const nav = await atProvider(b, await b.navigate(url), sub);
    assert.ok(nav.arrived?.searchParams.get('code'), nav.last?.text.replace(/^[^]*<body/, ''));
    const res = await httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', client_id: vault.client_id, client_secret: vault.client_secret, code: nav.arrived!.searchParams.get('code'), redirect_uri: CALLBACK }) });
    assert.equal(res.status, 200, res.text);
    const tokens = res.json<{ refresh_token?: string }>();
    assert.ok(tokens.refresh_token, res.text);
    return tokens.refresh_token;
  }
  const userinfo = (accessToken: string) => httpsRequest(`${issuer}/me`, { ca, headers: { authorization: `Bearer ${accessToken}` } });

  before(async () => {
    vault = (await management('POST', '/clients', { name: 'Vault app', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code', 'refresh_token', GRANT] })) as unknown as typeof vault;
    const [okta] = (await management('GET', '/connections?name=op-okta')) as unknown as { id: string }[];
    await management('PATCH', `/connections/${okta!.id}/clients`, [{ client_id: vault.client_id, status: true }] as unknown as Record<string, unknown>);
  });

  test('the kept upstream access token is returned; it works at the provider; the tokenset lists without tokens', async () => {
    upstreamAccessTtl = 3600;
    const refreshToken = await refreshTokenOf('vera');
    const res = await exchange({ subject_token: refreshToken, connection: 'op-okta' });
    assert.equal(res.status, 200, res.text);
    const body = res.json<{ access_token: string; issued_token_type: string; token_type: string; expires_in: number }>();
    assert.equal(body.issued_token_type, 'http://auth0.com/oauth/token-type/federated-connection-access-token');
    assert.equal(body.token_type, 'Bearer');
    assert.ok(body.expires_in > 3000 && body.expires_in <= 3600);
    const me = await userinfo(body.access_token);
    assert.equal(me.status, 200, me.text);
    assert.equal(me.json<{ sub: string }>().sub, 'vera');
    const sets = (await management('GET', `/users/${encodeURIComponent('okta|op-okta|vera')}/federated-connections-tokensets`)) as unknown as Record<string, unknown>[];
    assert.equal(sets.length, 1);
    assert.equal(sets[0]!.connection, 'op-okta');
    assert.ok(typeof sets[0]!.last_used_at === 'string');
    assert.ok(!JSON.stringify(sets).includes(body.access_token), 'no token in the list');
  });

  test('an expired upstream access token is refreshed at the provider with the kept refresh token', async () => {
    upstreamAccessTtl = 5;
    const refreshToken = await refreshTokenOf('rita');
    const before = upstreamRefreshes;
    const res = await exchange({ subject_token: refreshToken, connection: 'op-okta' });
    assert.equal(res.status, 200, res.text);
    assert.equal(upstreamRefreshes, before + 1, 'one refresh at the provider');
    upstreamAccessTtl = 3600;
    const me = await userinfo(res.json<{ access_token: string }>().access_token);
    assert.equal(me.json<{ sub: string }>().sub, 'rita');
  });

  test('refusals: another connection, a bad subject token, a client without the grant; tokensets deleted (an unknown id too)', async () => {
    upstreamAccessTtl = 3600;
    const refreshToken = await refreshTokenOf('tess');
    const none = await exchange({ subject_token: refreshToken, connection: 'si-good' });
    assert.equal(none.status, 401, none.text);
    assert.equal(none.json<{ error: string }>().error, 'access_denied');
    const bad = await exchange({ subject_token: 'not-a-refresh-token', connection: 'op-okta' });
    assert.equal(bad.status, 403);
    assert.equal(bad.json<{ error: string }>().error, 'invalid_grant');
    const other = await httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: GRANT, client_id: client.client_id, client_secret: client.client_secret, subject_token: refreshToken, subject_token_type: 'urn:ietf:params:oauth:token-type:refresh_token', connection: 'op-okta' }).toString() });
    assert.equal(other.status, 403);
    assert.equal(other.json<{ error: string }>().error, 'unauthorized_client');
    const user = encodeURIComponent('okta|op-okta|tess');
    const [set] = (await management('GET', `/users/${user}/federated-connections-tokensets`)) as unknown as { id: string }[];
    assert.equal((await raw('DELETE', `/users/${user}/federated-connections-tokensets/fcts_unknown`)).status, 204);
    assert.equal((await raw('DELETE', `/users/${user}/federated-connections-tokensets/${set!.id}`)).status, 204);
    assert.deepEqual(await management('GET', `/users/${user}/federated-connections-tokensets`), []);
    const gone = await exchange({ subject_token: refreshToken, connection: 'op-okta' });
    assert.equal(gone.status, 401);
    assert.equal((await raw('GET', `/users/${encodeURIComponent('okta|op-okta|nobody')}/federated-connections-tokensets`)).status, 404);
  });
});

describe('the interaction steps run after a federated login as after a password', () => {
  test('consent: a third-party application asks the federated user, and the code comes after the accept', async () => {
    const third = (await management('POST', '/clients', { name: 'Third party', app_type: 'regular_web', is_first_party: false, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] })) as unknown as { client_id: string };
    const [okta] = (await management('GET', '/connections?name=op-okta')) as unknown as { id: string }[];
    await management('PATCH', `/connections/${okta!.id}/clients`, [{ client_id: third.client_id, status: true }] as unknown as Record<string, unknown>);
    const b = browser();
    const url = `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: third.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid profile', connection: 'op-okta', state: 'st-consent' })}`;
    const consent = await atProvider(b, await b.navigate(url), 'carol');
    assert.equal(consent.arrived, undefined, 'no code before the consent');
    assert.equal(consent.urls.at(-1)!.origin, server.baseUrl);
    assert.match(consent.last!.text, /name="decision" value="accept"/);
    const done = await b.submit(consent.last!, consent.urls.at(-1)!, { decision: 'accept' });
    assert.ok(done.arrived?.searchParams.get('code'), done.last?.text.replace(/^[^]*<body/, ''));
    assert.equal(done.arrived!.searchParams.get('state'), 'st-consent');
  });

  test('organization: a login for an organization through its enabled connection makes the federated user a member; org_id in the token', async () => {
    const org = (await management('POST', '/organizations', { name: 'acme', display_name: 'Acme' })) as { id: string };
    const [okta] = (await management('GET', '/connections?name=op-okta')) as unknown as { id: string }[];
    await management('POST', `/organizations/${org.id}/enabled_connections`, { connection_id: okta!.id, assign_membership_on_login: true });
    const member = (await management('POST', '/clients', { name: 'Acme portal', app_type: 'regular_web', is_first_party: true, organization_usage: 'allow', token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] })) as unknown as { client_id: string; client_secret: string };
    await management('PATCH', `/connections/${okta!.id}/clients`, [{ client_id: member.client_id, status: true }] as unknown as Record<string, unknown>);
    const b = browser();
    const url = `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: member.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', connection: 'op-okta', organization: org.id, state: 'st-org' })}`;
    const nav = await atProvider(b, await b.navigate(url), 'olga');
    assert.ok(nav.arrived?.searchParams.get('code'), nav.last?.text.replace(/^[^]*<body/, ''));
    const claims = await portalIdToken(server, ca, member, CALLBACK, nav.arrived!.searchParams.get('code')!);
    assert.equal(claims.org_id, org.id);
    const members = (await management('GET', `/organizations/${org.id}/members`)) as unknown as { user_id: string }[];
    assert.deepEqual(members.map((m) => m.user_id), ['okta|op-okta|olga']);
  });

  test('MFA: a tenant that requires it enrols the federated user in OTP before any code; amr mfa', async () => {
    for (const factor of ['otp', 'recovery-code']) await management('PUT', `/guardian/factors/${factor}`, { enabled: true });
    await management('PUT', '/guardian/policies', ['all-applications'] as unknown as Record<string, unknown>);
    try {
      const b = browser();
      const enrol = await atProvider(b, await b.navigate(authorizeUrl('op-okta', 'st-mfa')), 'mfa-user');
      assert.equal(enrol.arrived, undefined, 'no code before the second factor');
      assert.equal(enrol.urls.at(-1)!.pathname, '/mfa');
      const secret = /<code id="secret">([A-Z2-7]+)<\/code>/.exec(enrol.last!.text)?.[1];
      assert.ok(secret, 'the enrolment page shows the secret');
      const recovery = await b.submit(enrol.last!, enrol.urls.at(-1)!, { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() });
      const done = recovery.arrived ? recovery : await b.submit(recovery.last!, recovery.urls.at(-1)!, {});
      assert.ok(done.arrived?.searchParams.get('code'), done.last?.text.replace(/^[^]*<body/, ''));
      const claims = await idTokenOf(done.arrived!);
      assert.equal(claims.sub, 'okta|op-okta|mfa-user');
      assert.deepEqual(claims.amr, ['mfa']);
    } finally {
      await management('PUT', '/guardian/policies', [] as unknown as Record<string, unknown>);
    }
  });
});
