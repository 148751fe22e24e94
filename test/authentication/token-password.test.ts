/**
 * POST /oauth/token with grant_type=password and password-realm, through
 * app.inject on the real app and database: token shapes verified against the
 * JWKS, each refusal with its exact status and body, brute-force protection
 * and the rehash of imported bcrypt hashes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { MAX_FAILURES } from '../../src/domain/brute-force.js';
import { halfHash, issueIdToken } from '../../src/domain/tokens/id-token.js';
import { KyselyUserStore } from '../../src/storage/kysely/users.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const API = 'https://api.example.com/';
const REALM = 'Username-Password-Authentication';
const OTHER = 'other-db';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const USERINFO = `https://${DOMAIN}/userinfo`;
const ISSUER = `https://${DOMAIN}/`;

const WRONG = { error: 'invalid_grant', error_description: 'Wrong email or password.' };

describe('POST /oauth/token password and password-realm', () => {
  let t: TestApp;
  let app: TestClient;
  let spa: TestClient;
  let noPassword: TestClient;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let userId: string;

  async function createUser(email: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD, ...extra } });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { user_id: string }).user_id;
  }

  const realmBody = (client: TestClient, extra: Record<string, string> = {}): Record<string, string> => ({
    grant_type: PASSWORD_REALM,
    client_id: client.client_id,
    client_secret: client.client_secret,
    username: 'alice@example.com',
    password: PASSWORD,
    realm: REALM,
    ...extra,
  });

  const verify = async (token: string, audience: string) => (await jwtVerify(token, jwks, { issuer: ISSUER, audience })).payload;

  before(async () => {
    t = await createTestApp();
    const api = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier: API, name: 'Example API', scopes: [{ value: 'read:things' }, { value: 'write:things' }], token_lifetime: 3600 },
    });
    assert.equal(api.statusCode, 201, api.body);
    const grants = ['password', PASSWORD_REALM];
    app = await insertClient(t, { grant_types: grants, config: { jwt_configuration: { lifetime_in_seconds: 600 } } });
    spa = await insertClient(t, { grant_types: grants, token_endpoint_auth_method: 'none', client_secret_enc: null });
    noPassword = await insertClient(t, { grant_types: ['client_credentials'] });
    for (const [name, clients] of [[REALM, [app.client_id, spa.client_id, noPassword.client_id]], [OTHER, [spa.client_id]]] as const) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name, strategy: 'auth0', enabled_clients: clients } });
      assert.equal(res.statusCode, 201, res.body);
    }
    userId = await createUser('Alice@Example.com', { name: 'Alice Liddell', nickname: 'alice', given_name: 'Alice', email_verified: true });
    const keys = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet;
    jwks = createLocalJWKSet(keys);
  });
  after(() => t.close());

  it('password-realm: API token with the userinfo audience and an ID token, for a confidential client', async () => {
    const res = await tokenRequest(t.app, realmBody(app, { audience: API, scope: 'openid profile email read:things offline_access' }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const json = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['access_token', 'id_token', 'scope', 'expires_in', 'token_type']);
    assert.equal(json.scope, 'openid profile email read:things', 'offline_access is dropped: the client may not use the refresh_token grant');
    assert.equal(json.expires_in, 3600);

    const access = await verify(json.access_token as string, API);
    assert.deepEqual(access.aud, [API, USERINFO]);
    assert.equal(access.sub, userId);
    assert.equal(access.gty, 'password');
    assert.equal(access.azp, app.client_id);
    assert.equal(access.scope, 'openid profile email read:things');

    const idToken = json.id_token as string;
    assert.deepEqual(decodeProtectedHeader(idToken), { alg: 'RS256', typ: 'JWT', kid: decodeProtectedHeader(json.access_token as string).kid });
    const id = await verify(idToken, app.client_id);
    assert.equal(id.sub, userId);
    assert.equal(id.aud, app.client_id);
    assert.equal(id.exp! - id.iat!, 600, 'the client jwt_configuration.lifetime_in_seconds');
    assert.equal(id.name, 'Alice Liddell');
    assert.equal(id.nickname, 'alice');
    assert.equal(id.given_name, 'Alice');
    assert.equal(id.family_name, undefined, 'unset profile claims are left out');
    assert.equal(typeof id.updated_at, 'string');
    assert.equal(id.email, 'Alice@Example.com');
    assert.equal(id.email_verified, true);
    for (const absent of ['nonce', 'at_hash', 'c_hash', 'sid', 'auth_time']) assert.equal(id[absent], undefined, absent);
  });

  it('requests without scope get every API scope and no ID token; the API audience stays a string', async () => {
    const res = await tokenRequest(t.app, realmBody(app, { audience: API }));
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json() as Record<string, unknown>;
    assert.equal(json.id_token, undefined);
    assert.equal(json.scope, 'read:things write:things');
    assert.equal((await verify(json.access_token as string, API)).aud, API);
  });

  it('password (default connection) for a public client with client_id only, without audience: a userinfo-only token', async () => {
    // spa has two database connections: the password grant needs the tenant default directory to choose.
    const ambiguous = await tokenRequest(t.app, { grant_type: 'password', client_id: spa.client_id, username: 'alice@example.com', password: PASSWORD });
    assert.equal(ambiguous.statusCode, 400);
    assert.match((ambiguous.json() as { error_description: string }).error_description, /^Several database connections are enabled for the client/);

    await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, default_directory: REALM });
    const res = await tokenRequest(t.app, { grant_type: 'password', client_id: spa.client_id, username: 'alice@example.com', password: PASSWORD, scope: 'openid' });
    await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, default_directory: undefined });
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['access_token', 'id_token', 'scope', 'expires_in', 'token_type']);
    assert.equal(json.expires_in, 86400);
    assert.equal(json.scope, 'openid');
    const access = await verify(json.access_token as string, USERINFO);
    assert.equal(access.aud, USERINFO);
    assert.equal(access.exp! - access.iat!, 86400);
    const id = await verify(json.id_token as string, spa.client_id);
    assert.equal(id.exp! - id.iat!, 36000, 'default ID token lifetime');
    assert.equal(id.email, undefined, 'no email claims without the email scope');
    assert.equal(id.name, undefined, 'no profile claims without the profile scope');
  });

  it('password uses the only database connection enabled for the client', async () => {
    const res = await tokenRequest(t.app, { ...realmBody(app), grant_type: 'password', realm: '' });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('records last_login and logins_count', async () => {
    const before = await t.management('GET', `/api/v2/users/${encodeURIComponent(userId)}`);
    const count = (before.json() as { logins_count: number }).logins_count;
    assert.equal((await tokenRequest(t.app, realmBody(app))).statusCode, 200);
    const afterLogin = (await t.management('GET', `/api/v2/users/${encodeURIComponent(userId)}`)).json() as { logins_count: number; last_login?: string };
    assert.equal(afterLogin.logins_count, count + 1);
    assert.equal(typeof afterLogin.last_login, 'string');
  });

  it('answers a wrong password and an unknown user identically (403 invalid_grant)', async () => {
    const wrong = await tokenRequest(t.app, realmBody(app, { password: 'not the password' }));
    const unknown = await tokenRequest(t.app, realmBody(app, { username: 'nobody@example.com' }));
    for (const res of [wrong, unknown]) {
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), WRONG);
    }
    assert.equal(wrong.body, unknown.body);
  });

  it('refuses a blocked user (401 unauthorized)', async () => {
    await createUser('blocked@example.com', { blocked: true });
    const res = await tokenRequest(t.app, realmBody(app, { username: 'blocked@example.com' }));
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { error: 'unauthorized', error_description: 'user is blocked' });
  });

  it('refuses clients without the grant, connections not enabled, unknown realms and unknown APIs', async () => {
    const notAllowed = await tokenRequest(t.app, realmBody(noPassword));
    assert.equal(notAllowed.statusCode, 403);
    assert.deepEqual(notAllowed.json(), { error: 'unauthorized_client', error_description: `Grant type '${PASSWORD_REALM}' not allowed for the client.` });

    const notEnabled = await tokenRequest(t.app, realmBody(app, { realm: OTHER }));
    assert.equal(notEnabled.statusCode, 403);
    assert.deepEqual(notEnabled.json(), { error: 'unauthorized_client', error_description: `The connection ${OTHER} is not enabled for the client.` });

    const unknownRealm = await tokenRequest(t.app, realmBody(app, { realm: 'nope' }));
    assert.equal(unknownRealm.statusCode, 400);
    assert.deepEqual(unknownRealm.json(), { error: 'invalid_request', error_description: 'Connection does not exist: nope' });

    const noRealm = await tokenRequest(t.app, realmBody(app, { realm: '' }));
    assert.deepEqual(noRealm.json(), { error: 'invalid_request', error_description: 'Missing required parameter: realm' });

    const unknownApi = await tokenRequest(t.app, realmBody(app, { audience: 'https://nope.example.com/' }));
    assert.equal(unknownApi.statusCode, 403);
    assert.deepEqual(unknownApi.json(), { error: 'access_denied', error_description: 'Service not enabled within domain: https://nope.example.com/' });

    const wrongSecret = await tokenRequest(t.app, realmBody(app, { client_secret: 'wrong-secret-of-some-length' }));
    assert.equal(wrongSecret.statusCode, 401, 'confidential clients still authenticate');
  });

  it('blocks an identifier+IP after 10 failures, even with the right password; other IPs are unaffected; success resets', async () => {
    await createUser('mallory@example.com');
    const body = realmBody(app, { username: 'Mallory@Example.com' });
    const fromIp = (ip: string, b: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/oauth/token', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: b, remoteAddress: ip });

    // A success in the middle resets the count.
    for (let i = 0; i < MAX_FAILURES - 1; i++) assert.equal((await fromIp('10.0.0.9', { ...body, password: 'bad' })).statusCode, 403);
    assert.equal((await fromIp('10.0.0.9', body)).statusCode, 200);

    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await fromIp('10.0.0.1', { ...body, password: `bad-${i}` });
      assert.deepEqual([res.statusCode, res.json()], [403, WRONG]);
    }
    const blocked = await fromIp('10.0.0.1', body);
    assert.equal(blocked.statusCode, 429);
    assert.deepEqual(blocked.json(), {
      error: 'too_many_attempts',
      error_description: "Your account has been blocked after multiple consecutive login attempts. We've sent you an email with instructions on how to unblock it.",
    });
    assert.equal((await fromIp('10.0.0.2', body)).statusCode, 200, 'another IP is not blocked');
    assert.equal((await fromIp('10.0.0.9', body)).statusCode, 200, 'the earlier IP was reset by its success');
    // The user-blocks API round trip is in test/management/user-blocks.test.ts.
  });

  it('logs in with the username or the email on a requires_username connection, case-insensitively; failures answer alike', async () => {
    const client = await insertClient(t, { grant_types: ['password', PASSWORD_REALM] });
    const created = await t.management('POST', '/api/v2/connections', {
      body: { name: 'with-username', strategy: 'auth0', options: { requires_username: true }, enabled_clients: [client.client_id] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const user = await t.management('POST', '/api/v2/users', {
      body: { connection: 'with-username', email: 'Carol@Example.com', username: 'Carol_1', password: PASSWORD },
    });
    assert.equal(user.statusCode, 201, user.body);
    const carolId = (user.json() as { user_id: string }).user_id;
    const login = (username: string, extra: Record<string, string> = {}) =>
      tokenRequest(t.app, { ...realmBody(client, { realm: 'with-username', username }), ...extra });

    for (const username of ['Carol_1', 'carol_1', 'CAROL@example.com']) {
      const res = await login(username, { scope: 'openid' });
      assert.equal(res.statusCode, 200, `${username}: ${res.body}`);
      assert.equal((await verify((res.json() as { id_token: string }).id_token, client.client_id)).sub, carolId);
    }
    // The password grant (the client's only database connection) takes the username too.
    const plain = await tokenRequest(t.app, { grant_type: 'password', client_id: client.client_id, client_secret: client.client_secret, username: 'carol_1', password: PASSWORD });
    assert.equal(plain.statusCode, 200, plain.body);

    const wrongPassword = await login('Carol_1', { password: 'not the password' });
    const unknownUsername = await login('carol_2');
    for (const res of [wrongPassword, unknownUsername]) {
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), WRONG);
    }
    // A username is no identifier in another connection.
    assert.deepEqual((await tokenRequest(t.app, realmBody(app, { username: 'Carol_1' }))).json(), WRONG);
  });

  it('logs in a user with an imported bcrypt hash and rehashes it with argon2id', async () => {
    const importedId = await createUser('imported@example.com');
    const users = new KyselyUserStore(t.ctx.database.db);
    await users.update(t.tenant.id, importedId, { password_hash: bcrypt.hashSync('imported-secret', 4).replace(/^\$2b\$/, '$2y$') });
    const res = await tokenRequest(t.app, realmBody(app, { username: 'imported@example.com', password: 'imported-secret' }));
    assert.equal(res.statusCode, 200, res.body);
    const row = await users.get(t.tenant.id, importedId);
    assert.match(row!.password_hash!, /^\$argon2id\$/);
    const again = await tokenRequest(t.app, realmBody(app, { username: 'imported@example.com', password: 'imported-secret' }));
    assert.equal(again.statusCode, 200, 'the new hash verifies');
  });

  it('issueIdToken adds nonce, at_hash, c_hash, sid and auth_time only when given', async () => {
    const client = (await t.ctx.lookups.client(t.tenant.id, app.client_id))!;
    const user = (await new KyselyUserStore(t.ctx.database.db).get(t.tenant.id, userId))!;
    const token = await issueIdToken(t.ctx, {
      tenant: t.tenant, client, user, scopes: ['openid'], nonce: 'n-0S6_WzA2Mj', accessToken: 'access-token-value', code: 'the-code', sid: 'sid-1', authTime: 1700000000,
    });
    const payload: JWTPayload = await verify(token, app.client_id);
    assert.equal(payload.nonce, 'n-0S6_WzA2Mj');
    assert.equal(payload.sid, 'sid-1');
    assert.equal(payload.auth_time, 1700000000);
    assert.equal(payload.at_hash, halfHash('access-token-value'));
    assert.equal(payload.c_hash, halfHash('the-code'));
    // OIDC Core §3.2.2.9 / RFC 7515 worked value: left 128 bits of SHA-256, base64url.
    assert.equal(halfHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y'), '77QmUPtjPfzWtF2AnpK9RQ');
  });
});
