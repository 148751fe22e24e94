/**
 * The social strategies end to end: the built server over HTTPS, each
 * provider played by a local HTTPS stand-in that answers as it does
 * (test/helpers/social-stand-ins.ts), Gatehouse pointed at them by
 * GATEHOUSE_FEDERATION_ENDPOINTS, trusting their certificate through
 * NODE_EXTRA_CA_CERTS and reaching them on loopback through
 * GATEHOUSE_OUTBOUND_ALLOW. openid-client is the application (PKCE, state,
 * nonce; the code redeemed, the ID token verified); a scripted browser
 * carries the redirects and Apple's form post; the auth0 SDK creates the
 * connections and reads the users back.
 *
 * - each strategy: /authorize?connection= → the provider → /login/callback
 *   → the application's code → an ID token of `{strategy}|{id}`; the user's
 *   identities (`isSocial: true`) and normalised profile; the computed
 *   `scope` of the connection;
 * - GitHub: the primary verified email only; an account whose only email
 *   is unverified gets `email_verified: false`;
 * - Apple: the client secret an ES256 JWT of the `.p8` key (the stand-in
 *   refuses anything else), the name from the first answer's `user` kept on
 *   the next login, which carries none;
 * - a database user with the same verified email stays another user;
 * - refusals: id_tokens signed by another key, for another audience, with
 *   another nonce, of another issuer, expired; no client_id; the provider's access_denied reaches the application as
 *   access_denied with its state; a replayed or forged callback is an error
 *   page and no code reaches the application.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManagementClient } from 'auth0';
import * as client from 'openid-client';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { tempDir } from '../helpers/app.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startSocialStandIns, type SocialStandIns, type StandInAccount, type StandInProvider } from '../helpers/social-stand-ins.js';
import { readForm, ScriptedBrowser, type Navigation } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, managementToken } from './support/https.js';
import { appAuthorization, type PendingAuthorization as Pending } from './support/app-authorization.js';

const CALLBACK = 'https://portal.example.com/callback';
let server: ServerProcess;
let ca: Buffer;
let upstreamCa: Buffer;
let standIns: SocialStandIns;
let management: ManagementClient;
let app: client.Configuration;
let databaseUserId: string;

const authorization = (connection?: string): Promise<Pending> => appAuthorization(app, CALLBACK, connection);

/** The browser's round trip: Gatehouse → the provider (a redirect back, or Apple's form post) → Gatehouse → where it is sent at last. */
async function roundTrip(pending: Pending): Promise<{ browser: ScriptedBrowser; done: Navigation; upstreamAnswer: URL | { action: URL; hidden: Record<string, string> } }> {
  const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
  const toProvider = await browser.navigate(pending.url);
  assert.equal(toProvider.leftTo?.origin, standIns.origin, `sent to the provider, not ${toProvider.leftTo?.href ?? toProvider.last.text.slice(0, 300)}`);
  const answer = await httpsRequest(toProvider.leftTo!.href, { ca: upstreamCa, method: 'GET' });
  if (answer.status === 302) {
    const back = new URL(answer.headers.location!);
    return { browser, done: await browser.navigate(back), upstreamAnswer: back };
  }
  assert.equal(answer.status, 200, answer.text);
  const form = readForm(answer.text, toProvider.leftTo!);
  return { browser, done: await browser.submit(form.action, form.hidden), upstreamAnswer: form };
}

/** A whole login through `connection` as `account`: the ID token's claims. */
async function logIn(connection: string, provider: StandInProvider, account: StandInAccount): Promise<Record<string, unknown>> {
  standIns.next[provider] = account;
  const pending = await authorization(connection);
  const { done } = await roundTrip(pending);
  assert.ok(done.leftTo, `expected the application's callback, got ${done.last.status}: ${done.last.text.slice(0, 400)}`);
  assert.equal(`${done.leftTo.origin}${done.leftTo.pathname}`, CALLBACK);
  const tokens = await client.authorizationCodeGrant(app, done.leftTo, pending);
  return tokens.claims() as Record<string, unknown>;
}

const lastAuthorize = (provider: StandInProvider) => standIns.seen.authorize.filter((a) => a.provider === provider).at(-1)!.params;

before(async () => {
  const dataDir = tempDir('gatehouse-e2e-social-');
  const material = await createTlsCertificate(['localhost', '127.0.0.1', '::1']);
  const certFile = path.join(dataDir, 'upstream-cert.pem');
  fs.writeFileSync(certFile, material.certPem);
  upstreamCa = Buffer.from(material.certPem);
  standIns = await startSocialStandIns({ cert: upstreamCa, key: Buffer.from(material.keyPem) });
  const endpointsFile = path.join(dataDir, 'federation-endpoints.json');
  fs.writeFileSync(endpointsFile, JSON.stringify(standIns.endpoints));
  server = await startServerProcess({
    dataDir,
    env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES, GATEHOUSE_FEDERATION_ENDPOINTS: endpointsFile },
  });
  ca = fs.readFileSync(server.certFile);
  const token = await managementToken(server);
  management = new ManagementClient({ domain: server.domain, token, fetch: caFetch(ca) as typeof fetch });
  const portal = await management.clients.create({
    name: 'Portal',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_basic',
    callbacks: [CALLBACK],
    grant_types: ['authorization_code'],
  });
  app = await client.discovery(new URL(server.baseUrl), portal.client_id!, portal.client_secret!, client.ClientSecretBasic(portal.client_secret!), { [client.customFetch]: caFetch(ca) });
  const enabled = [portal.client_id!];
  await management.connections.create({ name: 'Username-Password-Authentication', strategy: 'auth0', enabled_clients: enabled });
  databaseUserId = (await management.users.create({ connection: 'Username-Password-Authentication', email: 'ada@social.example', password: 'Correct-Horse-Battery-9', email_verified: true })).user_id!;

  const apple = standIns.appleKey();
  standIns.clients.google = { client_id: 'google-client', client_secret: 'google-secret' };
  standIns.clients.github = { client_id: 'github-client', client_secret: 'github-secret' };
  standIns.clients.facebook = { client_id: 'facebook-client', client_secret: 'facebook-secret' };
  standIns.clients.windowslive = { client_id: '00000000-0000-0000-0000-00000000beef', client_secret: 'windowslive-secret' };
  standIns.clients.linkedin = { client_id: '78abcdefghij12', client_secret: 'linkedin-secret' };
  standIns.clients.apple = { client_id: 'com.example.portal', apple: { team_id: 'TEAM123456', kid: 'KEY1234567', publicKey: apple.publicKey } };
  const create = (name: string, strategy: string, options: Record<string, unknown>) => management.connections.create({ name, strategy: strategy as 'github', enabled_clients: enabled, options });
  // allowed_audiences are for native applications' id_tokens only: 'another-client' listed here is still refused in the browser login (the spoiled `aud` below).
  await create('google-oauth2', 'google-oauth2', { client_id: 'google-client', client_secret: 'google-secret', email: true, profile: true, gmail: true, allowed_audiences: ['native-app-client', 'another-client'] });
  await create('github', 'github', { client_id: 'github-client', client_secret: 'github-secret', email: true, read_user: true });
  await create('apple', 'apple', { client_id: 'com.example.portal', app_secret: apple.pem, kid: 'KEY1234567', team_id: 'TEAM123456', name: true, email: true });
  await create('windowslive', 'windowslive', { client_id: '00000000-0000-0000-0000-00000000beef', client_secret: 'windowslive-secret', signin: true, graph_user: true });
  await create('facebook', 'facebook', { client_id: 'facebook-client', client_secret: 'facebook-secret', email: true, public_profile: true, user_birthday: true });
  await create('linkedin', 'linkedin', { client_id: '78abcdefghij12', client_secret: 'linkedin-secret', email: true, profile: true, basic_profile: true, strategy_version: 2 });
});

after(async () => {
  await standIns?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/**
 * The user's one identity, social; with the provider's access token the
 * login kept (the Management token has read:user_idp_tokens), which is the
 * one the stand-in issued for the last code.
 */
function assertSocialIdentity(identities: Record<string, unknown>[], expected: Record<string, unknown>): void {
  assert.equal(identities.length, 1);
  const { access_token, ...identity } = identities[0]!;
  assert.deepEqual(identity, expected);
  assert.equal(access_token, standIns.issued.at(-1), 'the provider\'s access token, kept sealed, shown under read:user_idp_tokens');
}

/** The user as the auth0 SDK reads it back. */
const userOf = (id: string) => management.users.get(id) as unknown as Promise<Record<string, unknown> & { identities: Record<string, unknown>[] }>;

describe('social connections against stand-ins of their providers', () => {
  test('the Management API computes each connection\'s scope from its flags, in the provider\'s shape', async () => {
    const byName = new Map((await management.connections.list()).data.map((c) => [c.name, c]));
    assert.deepEqual(byName.get('google-oauth2')!.options!.scope, ['email', 'profile', 'https://mail.google.com/mail/feed/atom']);
    assert.deepEqual(byName.get('github')!.options!.scope, ['user:email', 'read:user']);
    assert.equal(byName.get('apple')!.options!.scope, 'name email');
    assert.deepEqual(byName.get('windowslive')!.options!.scope, ['https://graph.microsoft.com/User.Read']);
    assert.equal(byName.get('facebook')!.options!.scope, 'email,user_birthday,public_profile');
    assert.deepEqual(byName.get('linkedin')!.options!.scope, ['r_emailaddress', 'r_liteprofile', 'r_basicprofile']);
  });

  test('the auth0 SDK updates and gets each social strategy: options replaced, the scope computed again, the secret kept', async () => {
    const connections = (await management.connections.list()).data;
    for (const name of ['google-oauth2', 'github', 'apple', 'windowslive', 'facebook', 'linkedin']) {
      const connection = connections.find((c) => c.name === name)!;
      const { client_secret: _secret, app_secret: _key, scope: _scope, ...options } = connection.options as Record<string, unknown>;
      const updated = await management.connections.update(connection.id!, { options: { ...options, email: true } });
      const read = await management.connections.get(connection.id!);
      assert.deepEqual(read.options, updated.options, name);
      assert.equal(read.strategy, name);
      assert.equal((read.options as Record<string, unknown>).email, true, name);
      const secret = name === 'apple' ? 'app_secret' : 'client_secret';
      assert.equal((read.options as Record<string, unknown>)[secret], (connection.options as Record<string, unknown>)[secret], `${name}: the secret left out is kept`);
      assert.deepEqual((read.options as Record<string, unknown>).scope, (connection.options as Record<string, unknown>).scope, `${name}: email was already asked for`);
    }
  });

  test('google-oauth2: an id_token verified (PKCE, nonce), google-oauth2|{sub} with its profile and a social identity; the database user with the same email untouched', async () => {
    const claims = await logIn('google-oauth2', 'google', { id: '103547991597142817347', email: 'ada@social.example', email_verified: true, name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace', picture: 'https://pictures.example/ada.png' });
    assert.equal(claims.sub, 'google-oauth2|103547991597142817347');
    assert.equal(claims.email, 'ada@social.example');
    const sent = lastAuthorize('google');
    assert.equal(sent.get('code_challenge_method'), 'S256');
    assert.ok(sent.get('nonce'));
    assert.equal(sent.get('redirect_uri'), `${server.baseUrl}/login/callback`);
    assert.deepEqual(sent.get('scope')!.split(' '), ['openid', 'email', 'profile', 'https://mail.google.com/mail/feed/atom']);
    const user = await userOf('google-oauth2|103547991597142817347');
    assertSocialIdentity(user.identities, { connection: 'google-oauth2', user_id: '103547991597142817347', provider: 'google-oauth2', isSocial: true });
    assert.equal(user.email_verified, true);
    assert.equal(user.name, 'Ada Lovelace');
    assert.equal(user.given_name, 'Ada');
    assert.equal(user.family_name, 'Lovelace');
    assert.equal(user.picture, 'https://pictures.example/ada.png');
    const database = await userOf(databaseUserId);
    assert.equal(database.logins_count ?? 0, 0, 'never logged in by email');
  });

  test('github: /user and /user/emails, the primary verified email; github|{id}', async () => {
    const claims = await logIn('github', 'github', {
      id: '583231',
      login: 'octocat',
      name: 'The Octocat',
      picture: 'https://avatars.example/u/583231',
      emails: [
        { email: 'old@social.example', primary: false, verified: true, visibility: null },
        { email: 'octocat@social.example', primary: true, verified: true, visibility: 'public' },
      ],
    });
    assert.equal(claims.sub, 'github|583231');
    assert.equal(lastAuthorize('github').get('code_challenge_method'), 'S256');
    assert.equal(lastAuthorize('github').get('scope'), 'user:email read:user');
    const user = await userOf('github|583231');
    // The identity's user_id is GitHub's numeric id as a JSON number, as the service sends it; the root user_id a string.
    assertSocialIdentity(user.identities, { connection: 'github', user_id: 583231, provider: 'github', isSocial: true });
    assert.equal(user.user_id, 'github|583231');
    assert.equal(user.email, 'octocat@social.example');
    assert.equal(user.email_verified, true);
    assert.equal(user.nickname, 'octocat');
    assert.equal(user.name, 'The Octocat');
    assert.equal(user.picture, 'https://avatars.example/u/583231');
  });

  test('github: an account whose only email is unverified gets email_verified false', async () => {
    await logIn('github', 'github', { id: '9001', login: 'unverified', emails: [{ email: 'unverified@social.example', primary: true, verified: false, visibility: null }] });
    const user = await userOf('github|9001');
    assert.equal(user.email, 'unverified@social.example');
    assert.equal(user.email_verified, false);
    assert.equal(user.name, 'unverified');
  });

  test('apple: form post, the client secret an ES256 JWT of the .p8 key, the name from the first answer kept on the next', async () => {
    const account = { id: '001234.0a1b2c3d4e5f.0123', email: 'grace@privaterelay.example', email_verified: true, given_name: 'Grace', family_name: 'Hopper' };
    const first = await logIn('apple', 'apple', account);
    assert.equal(first.sub, 'apple|001234.0a1b2c3d4e5f.0123');
    assert.equal(lastAuthorize('apple').get('response_mode'), 'form_post');
    assert.equal(lastAuthorize('apple').get('scope'), 'name email');
    const secret = standIns.seen.token.filter((t) => t.provider === 'apple').at(-1)!.form.get('client_secret')!;
    assert.equal(secret.split('.').length, 3, 'a JWT, which the stand-in verified against the .p8 public key');
    let user = await userOf('apple|001234.0a1b2c3d4e5f.0123');
    assert.equal(user.name, 'Grace Hopper');
    assert.equal(user.given_name, 'Grace');
    assert.equal(user.email_verified, true, 'Apple\'s "true" string');
    assert.equal(user.identities[0]!.isSocial, true);
    // The second answer carries no `user`: the name stays.
    const second = await logIn('apple', 'apple', account);
    assert.equal(second.sub, first.sub);
    user = await userOf('apple|001234.0a1b2c3d4e5f.0123');
    assert.equal(user.name, 'Grace Hopper');
    assert.equal(user.family_name, 'Hopper');
    assert.equal(user.logins_count, 2);
  });

  test('windowslive: Microsoft Graph /me, windowslive|{id}', async () => {
    const claims = await logIn('windowslive', 'windowslive', { id: '4cf0a30169d55031', email: 'alan@outlook.example', name: 'Alan Turing', given_name: 'Alan', family_name: 'Turing' });
    assert.equal(claims.sub, 'windowslive|4cf0a30169d55031');
    assert.equal(lastAuthorize('windowslive').get('scope'), 'https://graph.microsoft.com/User.Read');
    const user = await userOf('windowslive|4cf0a30169d55031');
    assertSocialIdentity(user.identities, { connection: 'windowslive', user_id: '4cf0a30169d55031', provider: 'windowslive', isSocial: true });
    assert.equal(user.email, 'alan@outlook.example');
    assert.equal(user.given_name, 'Alan');
  });

  test('facebook: the Graph API /me, facebook|{id}', async () => {
    const claims = await logIn('facebook', 'facebook', { id: '10158000000000001', email: 'katherine@social.example', name: 'Katherine Johnson', given_name: 'Katherine', family_name: 'Johnson', picture: 'https://pictures.example/kj.jpg' });
    assert.equal(claims.sub, 'facebook|10158000000000001');
    assert.equal(lastAuthorize('facebook').get('scope'), 'email user_birthday public_profile');
    const user = await userOf('facebook|10158000000000001');
    assert.equal(user.identities[0]!.provider, 'facebook');
    assert.equal(user.identities[0]!.isSocial, true);
    assert.equal(user.picture, 'https://pictures.example/kj.jpg');
    assert.equal(user.family_name, 'Johnson');
  });

  test('linkedin: its OpenID Connect profile, linkedin|{sub}', async () => {
    const claims = await logIn('linkedin', 'linkedin', { id: 'yrZCpj2Z12', email: 'margaret@social.example', email_verified: true, name: 'Margaret Hamilton', given_name: 'Margaret', family_name: 'Hamilton' });
    assert.equal(claims.sub, 'linkedin|yrZCpj2Z12');
    assert.equal(lastAuthorize('linkedin').get('scope'), 'openid profile email');
    const user = await userOf('linkedin|yrZCpj2Z12');
    assert.equal(user.identities[0]!.isSocial, true);
    assert.equal(user.name, 'Margaret Hamilton');
  });

  test('the provider refuses (access_denied): the application gets access_denied with its state, and no code', async () => {
    standIns.next.github = 'deny';
    const pending = await authorization('github');
    const { done } = await roundTrip(pending);
    assert.ok(done.leftTo);
    assert.equal(done.leftTo.searchParams.get('error'), 'access_denied');
    assert.equal(done.leftTo.searchParams.get('error_description'), 'User did not authorize the request');
    assert.equal(done.leftTo.searchParams.get('state'), pending.expectedState);
    assert.equal(done.leftTo.searchParams.get('code'), null);
  });

  test('a replayed or forged callback is an error page, and no code reaches the application', async () => {
    standIns.next.google = { id: 'replay-1', email: 'replay@social.example', email_verified: true };
    const { done, upstreamAnswer, browser } = await roundTrip(await authorization('google-oauth2'));
    assert.ok(done.leftTo?.searchParams.get('code'));
    const callback = upstreamAnswer as URL;
    const replay = await browser.navigate(callback);
    assert.equal(replay.last.status, 400);
    assert.match(replay.last.text, /already used/);
    assert.equal(replay.leftTo, undefined);
    const forged = new URL(callback);
    forged.searchParams.set('state', `${forged.searchParams.get('state')!.slice(0, -4)}AAAA`);
    const unknown = await browser.navigate(forged);
    assert.equal(unknown.last.status, 400);
    assert.match(unknown.last.text, /unknown or expired/);
    assert.equal(unknown.leftTo, undefined);
  });

  for (const spoil of ['key', 'aud', 'nonce', 'iss', 'exp'] as const) {
    test(`an id_token ${{ key: 'signed by another key', aud: 'for another audience', nonce: 'with another nonce', iss: 'of another issuer', exp: 'expired' }[spoil]} is refused: an error page, no user, no code`, async () => {
      const sub = `spoiled-${spoil}`;
      standIns.next.google = { id: sub, email: `${sub}@social.example`, email_verified: true };
      standIns.tamper.idToken = spoil;
      const { done } = await roundTrip(await authorization('google-oauth2'));
      assert.equal(done.leftTo, undefined, 'nothing reaches the application');
      assert.equal(done.last.status, 400);
      assert.match(done.last.text, /could not be verified/);
      await assert.rejects(userOf(`google-oauth2|${sub}`), (error: { statusCode?: number }) => error.statusCode === 404);
    });
  }

  test('a social connection without a client_id (the service’s developer keys, which Gatehouse has not) is an error page at the start', async () => {
    const created = await management.connections.create({ name: 'github-unreachable', strategy: 'github', enabled_clients: [], options: { client_id: '', client_secret: 'x' } });
    assert.equal(created.strategy, 'github');
    const portal = (await management.clients.list()).data.find((c) => c.name === 'Portal')!;
    await management.connections.clients.update(created.id!, [{ client_id: portal.client_id!, status: true }]);
    const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
    const opened = await browser.navigate((await authorization('github-unreachable')).url);
    assert.equal(opened.leftTo, undefined);
    assert.equal(opened.last.status, 400);
    assert.match(opened.last.text, /cannot be used: the connection has no client_id/);
    await management.connections.delete(created.id!);
  });

  describe('Google Native Social Login: a native application\'s Google id_token exchanged at /oauth/token', () => {
    const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
    const TYPE = 'http://auth0.com/oauth/token-type/google-id-token';
    let native: { client_id: string };
    let closed: { client_id: string };
    const exchange = (clientId: string, subjectToken: string) =>
      httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: GRANT, client_id: clientId, subject_token: subjectToken, subject_token_type: TYPE, scope: 'openid profile email' }) });

    before(async () => {
      const base = { app_type: 'native' as const, token_endpoint_auth_method: 'none' as const };
      native = (await management.clients.create({ name: 'Native', ...base, native_social_login: { google: { enabled: true } } } as Parameters<typeof management.clients.create>[0])) as { client_id: string };
      closed = (await management.clients.create({ name: 'Native without Google', ...base } as Parameters<typeof management.clients.create>[0])) as { client_id: string };
      const google = (await management.connections.list()).data.find((c) => c.name === 'google-oauth2')!;
      await management.connections.clients.update(google.id!, [native, closed].map((c) => ({ client_id: c.client_id, status: true })));
    });

    test('an id_token issued to one of allowed_audiences: tokens for google-oauth2|{sub}; the same id_token again is refused', async () => {
      const idToken = await standIns.nativeIdToken('google', { sub: 'native-1', aud: 'native-app-client', email: 'native@social.example', email_verified: true, name: 'Native User' });
      const res = await exchange(native.client_id, idToken);
      assert.equal(res.status, 200, res.text);
      const body = res.json<{ access_token: string; id_token: string }>();
      assert.ok(body.access_token);
      const user = await userOf('google-oauth2|native-1');
      assert.equal(user.name, 'Native User');
      assert.equal(user.email_verified, true);
      const again = await exchange(native.client_id, idToken);
      assert.equal(again.status, 403);
      assert.equal(again.json<{ error: string }>().error, 'invalid_grant');
    });

    const refusals: [string, () => Promise<string>, () => string, string][] = [
      ['issued to a client id the connection does not list', () => standIns.nativeIdToken('google', { sub: 'native-unlisted', aud: 'unlisted-client' }), () => native.client_id, 'invalid_grant'],
      ['whose signature does not verify against the provider\'s JWKS', async () => (await standIns.nativeIdToken('google', { sub: 'native-forged', aud: 'native-app-client' })).replace(/\.[^.]+$/, '.AAAA'), () => native.client_id, 'invalid_grant'],
      ['for a client without native_social_login.google', () => standIns.nativeIdToken('google', { sub: 'native-closed', aud: 'native-app-client' }), () => closed.client_id, 'unauthorized_client'],
    ];
    for (const [name, token, clientId, error] of refusals) {
      test(`refused: an id_token ${name}; no user, no tokens`, async () => {
        const res = await exchange(clientId(), await token());
        assert.equal(res.status, 403, res.text);
        assert.equal(res.json<{ error: string }>().error, error);
        assert.equal(res.json<{ access_token?: string }>().access_token, undefined);
        const sub = /"sub":"([^"]+)"/.exec(Buffer.from((await token()).split('.')[1]!, 'base64url').toString())![1];
        await assert.rejects(userOf(`google-oauth2|${sub}`), (e: { statusCode?: number }) => e.statusCode === 404);
      });
    }

    test('allowed_audiences out of bounds is a 400 naming it', async () => {
      const google = (await management.connections.list()).data.find((c) => c.name === 'google-oauth2')!;
      for (const allowed of [[], Array.from({ length: 65 }, (_, i) => `app-${i}`), ['']]) {
        await assert.rejects(management.connections.update(google.id!, { options: { ...(google.options as Record<string, unknown>), allowed_audiences: allowed } }), (e: { statusCode?: number; message?: string }) => e.statusCode === 400 && /allowed_audiences/.test(e.message ?? ''));
      }
    });
  });

  describe('the login and signup pages', () => {
    const buttonsOf = (page: string) => [...page.matchAll(/<button type="submit" class="secondary" name="connection" value="([^"]+)" data-strategy="[^"]+">([^<]+)<\/button>/g)].map((m) => [m[1], m[2]]);
    const federatedForm = (page: string, at: URL) => readForm(page.slice(page.indexOf('<div class="federated"')), at);
    const refreshTarget = (page: string) => new URL(/content="0;url=([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&'));

    before(async () => {
      // Two enterprise connections on the google stand-in's OpenID provider: one shown as a button, one reached by its email domain only.
      const discovery_url = `${standIns.endpoints['google-oauth2']!.issuer}/.well-known/openid-configuration`;
      const enabled = [(await management.clients.list()).data.find((c) => c.name === 'Portal')!.client_id!];
      const options = { client_id: 'google-client', client_secret: 'google-secret', type: 'back_channel', discovery_url, scope: 'openid email profile' };
      await management.connections.create({ name: 'acme-sso', display_name: 'Acme Corp', strategy: 'oidc', enabled_clients: enabled, show_as_button: true, options } as Parameters<typeof management.connections.create>[0]);
      await management.connections.create({ name: 'initech-sso', strategy: 'oidc', enabled_clients: enabled, options: { ...options, domain_aliases: ['initech.example'] } });
    });

    test('the login page offers each enabled social connection and the enterprise one with show_as_button, by name; the signup page too', async () => {
      const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
      const opened = await browser.navigate((await authorization()).url);
      assert.equal(opened.hops.at(-1)!.url.pathname, '/login', opened.last.text.slice(0, 300));
      const expected = [
        ['google-oauth2', 'Continue with Google'],
        ['github', 'Continue with GitHub'],
        ['apple', 'Continue with Apple'],
        ['windowslive', 'Continue with Microsoft'],
        ['facebook', 'Continue with Facebook'],
        ['linkedin', 'Continue with LinkedIn'],
        ['acme-sso', 'Continue with Acme Corp'],
      ];
      assert.deepEqual(buttonsOf(opened.last.text).sort(), [...expected].sort(), 'initech-sso (no show_as_button) is reached by its domain only');
      assert.match(opened.last.text, /<div class="federated" role="group" aria-labelledby="federated-title">\s*<p id="federated-title" class="separator">Or<\/p>/);
      const state = readForm(opened.last.text, opened.hops.at(-1)!.url).hidden.state!;
      const signup = await browser.navigate(`/signup?state=${encodeURIComponent(state)}`);
      assert.equal(signup.last.status, 200);
      assert.deepEqual(buttonsOf(signup.last.text).sort(), [...expected].sort());
    });

    test('a button logs in through its connection: the form post → the provider → the application', async () => {
      standIns.next.github = { id: '4242', login: 'buttoned', emails: [{ email: 'buttoned@social.example', primary: true, verified: true, visibility: null }] };
      const pending = await authorization();
      const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
      const opened = await browser.navigate(pending.url);
      const form = federatedForm(opened.last.text, opened.hops.at(-1)!.url);
      assert.equal(form.action.pathname, '/login/federated');
      const posted = await browser.submit(form.action, { ...form.hidden, connection: 'github' });
      assert.equal(posted.last.status, 200, 'a page that moves on to the provider (the form CSP allows no redirect elsewhere)');
      const toProvider = refreshTarget(posted.last.text);
      assert.equal(`${toProvider.origin}${toProvider.pathname}`, standIns.endpoints.github!.authorization_endpoint);
      const answer = await httpsRequest(toProvider.href, { ca: upstreamCa, method: 'GET' });
      const done = await browser.navigate(new URL(answer.headers.location!));
      assert.ok(done.leftTo, done.last.text.slice(0, 300));
      const tokens = await client.authorizationCodeGrant(app, done.leftTo, pending);
      assert.equal(tokens.claims()!.sub, 'github|4242');
    });

    test('a button of a connection the pages do not offer is refused on the page', async () => {
      const pending = await authorization();
      const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
      const opened = await browser.navigate(pending.url);
      const form = federatedForm(opened.last.text, opened.hops.at(-1)!.url);
      for (const connection of ['initech-sso', 'Username-Password-Authentication', 'nope']) {
        const posted = await browser.submit(form.action, { ...form.hidden, connection });
        assert.equal(posted.last.status, 400, connection);
        assert.match(posted.last.text, /This sign-in option is not available for this application\./);
      }
    });

    test('home realm discovery: an email of an enterprise connection\'s domain_aliases goes to its provider, no password asked', async () => {
      const pending = await authorization();
      const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
      const opened = await browser.navigate(pending.url);
      const login = readForm(opened.last.text, opened.hops.at(-1)!.url);
      const posted = await browser.submit(login.action, { ...login.hidden, username: 'peter@initech.example', password: '' });
      assert.equal(posted.last.status, 200);
      const toProvider = refreshTarget(posted.last.text);
      assert.equal(`${toProvider.origin}${toProvider.pathname}`, `${standIns.endpoints['google-oauth2']!.issuer}/authorize`);
      assert.equal(toProvider.searchParams.get('client_id'), 'google-client');
      assert.match(toProvider.searchParams.get('state')!, /^oidc\./);
    });

    test('with a connection of domains the password is not required on the page; an empty one for a database user is refused as a wrong password', async () => {
      const pending = await authorization();
      const browser = new ScriptedBrowser(new URL(server.baseUrl).origin, ca);
      const opened = await browser.navigate(pending.url);
      assert.match(opened.last.text, /<input type="password" id="password" name="password" autocomplete="current-password">/);
      const login = readForm(opened.last.text, opened.hops.at(-1)!.url);
      const posted = await browser.submit(login.action, { ...login.hidden, username: 'ada@social.example', password: '' });
      assert.equal(posted.last.status, 400);
      assert.match(posted.last.text, /Wrong email or password\./);
      assert.equal(posted.leftTo, undefined);
    });
  });
});
