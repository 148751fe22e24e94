/**
 * The Management API for end users: a user token for the tenant's Management
 * API carries only `*:current_user*` scopes, whatever the flow (password,
 * password-realm, code, implicit, refresh), and the Management API accepts it
 * only on the operations those scopes cover, for the token's own user.
 *
 * The reproduction: a self-signed-up user asked for
 * `read:clients read:client_keys delete:users` and read every client's secret.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { KyselyRefreshTokenStore } from '../../src/storage/kysely/refresh-tokens.js';
import { issueAccessToken } from '../../src/domain/tokens/access-token.js';
import { accessTokenFormat, tokenPolicy } from '../../src/domain/issuance/token-policy.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { newRefreshToken, secretHash } from '../../src/domain/secrets.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const ATTACK_SCOPE = 'read:clients read:client_keys delete:users';
const CLIENTS_LIST_403 = {
  statusCode: 403,
  error: 'Forbidden',
  message: 'Insufficient scope, expected any of: read:clients, read:client_keys, read:client_credentials, read:client_summary',
  errorCode: 'insufficient_scope',
};
const OTHER_USER_403 = {
  statusCode: 403,
  error: 'Forbidden',
  message: 'User to be acted on does not match subject in bearer token.',
  errorCode: 'insufficient_scope',
};

describe('Management API tokens of end users', () => {
  let t: TestApp;
  let app: TestClient;
  let audience: string;
  let userId: string;
  let otherUserId: string;

  const scopeOf = (token: string) => decodeJwt(token).scope as string | undefined;
  const call = (method: string, url: string, token: string, body?: unknown) => t.management(method, url, { token, ...(body !== undefined && { body }) });

  before(async () => {
    t = await createTestApp();
    audience = `https://${DOMAIN}/api/v2/`;
    app = await insertClient(t, {
      name: 'Signup app',
      app_type: 'spa',
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      grant_types: ['password', 'http://auth0.com/oauth/grant-type/password-realm', 'authorization_code', 'implicit', 'refresh_token'],
      config: { callbacks: [CALLBACK] },
    });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    // A new user signs themselves up, as anyone may on an open connection.
    const signup = await t.app.inject({
      method: 'POST',
      url: '/dbconnections/signup',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { client_id: app.client_id, connection: REALM, email: 'mallory@example.com', password: PASSWORD },
    });
    assert.equal(signup.statusCode, 200, signup.body);
    userId = `auth0|${(signup.json() as { _id: string })._id}`;
    const other = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'victim@example.com', password: PASSWORD } });
    assert.equal(other.statusCode, 201, other.body);
    otherUserId = (other.json() as { user_id: string }).user_id;
  });
  after(() => t.close());

  const passwordGrant = (scope?: string) =>
    tokenRequest(t.app, {
      grant_type: 'password',
      client_id: app.client_id,
      username: 'mallory@example.com',
      password: PASSWORD,
      audience,
      ...(scope !== undefined && { scope }),
    });

  const passwordRealm = (scope: string) =>
    tokenRequest(t.app, {
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      client_id: app.client_id,
      username: 'mallory@example.com',
      password: PASSWORD,
      realm: REALM,
      audience,
      scope,
    });

  async function passwordRealmToken(scope: string): Promise<string> {
    const res = await passwordRealm(scope);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { access_token: string }).access_token;
  }

  describe('the reproduction is refused at every path', () => {
    it('password-realm: the management scopes are dropped, and the token cannot list clients', async () => {
      const res = await passwordRealm(ATTACK_SCOPE);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { access_token: string; scope?: string };
      assert.equal(body.scope, undefined, 'no scope granted');
      assert.equal(scopeOf(body.access_token), undefined);
      const clients = await call('GET', '/api/v2/clients?fields=client_id,client_secret', body.access_token);
      assert.equal(clients.statusCode, 403);
      assert.deepEqual(clients.json(), CLIENTS_LIST_403);
      assert.ok(!clients.body.includes('client_secret'));
    });

    it('password: only the current_user scopes asked for are granted', async () => {
      const res = await passwordGrant(`${ATTACK_SCOPE} read:current_user update:current_user_metadata delete:current_user`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { access_token: string; scope: string };
      assert.equal(body.scope, 'read:current_user update:current_user_metadata');
      assert.equal(scopeOf(body.access_token), 'read:current_user update:current_user_metadata');
    });

    it('no scope parameter: every current_user scope, nothing else', async () => {
      const res = await passwordGrant();
      assert.equal(res.statusCode, 200, res.body);
      const scopes = ((res.json() as { scope: string }).scope ?? '').split(' ');
      assert.deepEqual(scopes.sort(), [
        'create:current_user_device_credentials',
        'create:current_user_metadata',
        'delete:current_user_device_credentials',
        'delete:current_user_metadata',
        'read:current_user',
        'update:current_user_identities',
        'update:current_user_metadata',
      ]);
    });

    it('authorization code with PKCE and the implicit token response', async () => {
      const browser = new Browser(t);
      const { verifier, challenge } = pkce();
      const authorize = authorizeUrl(app.client_id, CALLBACK, { audience, scope: `openid ${ATTACK_SCOPE} read:current_user`, code_challenge: challenge });
      const code = redirectParams(await browser.login(authorize, 'mallory@example.com', PASSWORD), CALLBACK).get('code')!;
      const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: app.client_id, code, code_verifier: verifier, redirect_uri: CALLBACK });
      assert.equal(exchanged.statusCode, 200, exchanged.body);
      const body = exchanged.json() as { access_token: string; scope: string };
      assert.equal(body.scope, 'openid read:current_user');
      assert.equal(scopeOf(body.access_token), 'openid read:current_user');
      assert.deepEqual((await call('GET', '/api/v2/clients?fields=client_id,client_secret', body.access_token)).json(), CLIENTS_LIST_403);

      // The same browser, already logged in: the implicit token response.
      const implicit = await browser.get(
        `/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'token', audience, scope: ATTACK_SCOPE, state: 'st' })}`,
      );
      const fragment = redirectParams(implicit, CALLBACK);
      assert.equal(fragment.get('scope'), null, 'no scope granted');
      assert.equal(scopeOf(fragment.get('access_token')!), undefined);
      const clients = await call('GET', '/api/v2/clients?fields=client_id,client_secret', fragment.get('access_token')!);
      assert.equal(clients.statusCode, 403);
    });

    it('refresh: a refresh token carrying management scopes (issued before this rule) is cut down to current_user ones', async () => {
      const token = newRefreshToken();
      const now = new Date().toISOString();
      await new KyselyRefreshTokenStore(t.ctx.database.db).insert({
        tenant_id: t.tenant.id,
        id_hash: secretHash(token),
        family_id: 'rtf_legacy',
        client_id: app.client_id,
        user_id: userId,
        audience,
        scope: `${ATTACK_SCOPE} read:current_user`,
        created_at: now,
        expires_at: null,
        idle_expires_at: null,
        last_used_at: now,
      });
      const res = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: app.client_id, refresh_token: token });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { access_token: string; scope: string };
      assert.equal(body.scope, 'read:current_user');
      assert.equal(scopeOf(body.access_token), 'read:current_user');
    });
  });

  describe('what a user token may do', () => {
    it('read:current_user reads its own user; another user and other operations are 403', async () => {
      const token = await passwordRealmToken('read:current_user');
      const own = await call('GET', `/api/v2/users/${encodeURIComponent(userId)}`, token);
      assert.equal(own.statusCode, 200, own.body);
      assert.equal((own.json() as { email: string }).email, 'mallory@example.com');

      const other = await call('GET', `/api/v2/users/${encodeURIComponent(otherUserId)}`, token);
      assert.equal(other.statusCode, 403);
      assert.deepEqual(other.json(), OTHER_USER_403);

      const list = await call('GET', '/api/v2/users', token);
      assert.equal(list.statusCode, 403);
      assert.deepEqual(list.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: read:users', errorCode: 'insufficient_scope' });
      assert.deepEqual((await call('GET', '/api/v2/clients', token)).json(), CLIENTS_LIST_403);

      const remove = await call('DELETE', `/api/v2/users/${encodeURIComponent(userId)}`, token);
      assert.equal(remove.statusCode, 403);
      assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(userId)}`)).statusCode, 200, 'still there');
    });

    it('update:current_user_metadata changes its own user_metadata only', async () => {
      const token = await passwordRealmToken('update:current_user_metadata');
      const ok = await call('PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, token, { user_metadata: { theme: 'dark' } });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual((ok.json() as { user_metadata: unknown }).user_metadata, { theme: 'dark' });

      for (const body of [{ app_metadata: { plan: 'gold' } }, { blocked: false }, { email: 'x@example.com' }, { password: 'New password 1234' }]) {
        const refused = await call('PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, token, body);
        assert.equal(refused.statusCode, 403, JSON.stringify(body));
        assert.deepEqual(refused.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: update:users', errorCode: 'insufficient_scope' });
      }
      const other = await call('PATCH', `/api/v2/users/${encodeURIComponent(otherUserId)}`, token, { user_metadata: { theme: 'dark' } });
      assert.deepEqual(other.json(), OTHER_USER_403);
      const victim = (await t.management('GET', `/api/v2/users/${encodeURIComponent(otherUserId)}`)).json() as { user_metadata: unknown };
      assert.deepEqual(victim.user_metadata, {}, 'the other user is untouched');
    });

    it('create:current_user_metadata adds members but changes and removes none; delete: removes only', async () => {
      const create = await passwordRealmToken('create:current_user_metadata');
      const url = `/api/v2/users/${encodeURIComponent(userId)}`;
      assert.equal((await call('PATCH', url, create, { user_metadata: { lang: 'fr' } })).statusCode, 200);
      const change = await call('PATCH', url, create, { user_metadata: { lang: 'de' } });
      assert.equal(change.statusCode, 403);
      assert.equal((change.json() as { message: string }).message, 'Insufficient scope, expected any of: update:current_user_metadata');
      const removeWithCreate = await call('PATCH', url, create, { user_metadata: { lang: null } });
      assert.equal(removeWithCreate.statusCode, 403);

      const del = await passwordRealmToken('delete:current_user_metadata');
      const add = await call('PATCH', url, del, { user_metadata: { extra: 1 } });
      assert.equal(add.statusCode, 403);
      assert.equal((add.json() as { message: string }).message, 'Insufficient scope, expected any of: update:current_user_metadata, create:current_user_metadata');
      const removed = await call('PATCH', url, del, { user_metadata: { lang: null } });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal((removed.json() as { user_metadata: Record<string, unknown> }).user_metadata.lang, undefined);
    });

    it('a user token minted with management scopes before this rule is still refused them', async () => {
      const api = await t.ctx.lookups.resourceServer(t.tenant.id, audience);
      const format = accessTokenFormat(tokenPolicy(t.tenant.id, app.client_id, api!), api!);
      const { token } = await issueAccessToken(t.ctx, { tenant: t.tenant, resourceServer: api!.row, format, subject: userId, clientId: app.client_id, scope: `${ATTACK_SCOPE} read:users` });
      assert.deepEqual((await call('GET', '/api/v2/clients', token)).json(), CLIENTS_LIST_403);
      const other = await call('GET', `/api/v2/users/${encodeURIComponent(otherUserId)}`, token);
      assert.equal(other.statusCode, 403);
      assert.equal((other.json() as { message: string }).message, 'Insufficient scope, expected any of: read:users, read:current_user');
    });
  });

  it('client tokens: current_user scopes count for nothing, other scopes work as before', async () => {
    const machine = await insertClient(t);
    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience, scope: ['read:current_user', 'read:client_summary'] } });
    assert.equal(grant.statusCode, 201, grant.body);
    const res = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience });
    assert.equal(res.statusCode, 200, res.body);
    const token = (res.json() as { access_token: string }).access_token;
    const user = await call('GET', `/api/v2/users/${encodeURIComponent(userId)}`, token);
    assert.equal(user.statusCode, 403);
    assert.equal((user.json() as { message: string }).message, 'Insufficient scope, expected any of: read:users, read:current_user');
    const clients = await call('GET', '/api/v2/clients', token);
    assert.equal(clients.statusCode, 200, clients.body);
  });
});
