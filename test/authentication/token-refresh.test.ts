/**
 * Refresh tokens through app.inject on the real app and database: issued
 * with offline_access only when the client and API allow it, the
 * refresh_token grant (non-rotating, rotating with reuse detection and
 * leeway, expiry, scope narrowing, client binding, blocked users) and
 * POST /oauth/revoke. Time moves by replacing t.ctx.now.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { newRefreshToken, secretHash } from '../../src/domain/secrets.js';
import { isoAt } from '../../src/platform/clock.js';

const API = 'https://api.example.com/';
const CLOSED_API = 'https://closed.example.com/';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const ISSUER = `https://${DOMAIN}/`;
const INVALID = { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' };

type Json = Record<string, unknown>;

describe('refresh tokens: POST /oauth/token grant_type=refresh_token and POST /oauth/revoke', () => {
  let t: TestApp;
  let web: TestClient;
  let noRefresh: TestClient;
  let spa: TestClient;
  let lenient: TestClient;
  /** Created through the Management API, so PATCH /api/v2/clients sees a complete client. */
  let managed: TestClient;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  const rotating = (leeway: number) =>
    ({ refresh_token: { rotation_type: 'rotating', expiration_type: 'expiring', leeway, token_lifetime: 86400, infinite_token_lifetime: false, idle_token_lifetime: 3600, infinite_idle_token_lifetime: false } });

  /** Logs bob in with password-realm; the client secret is left out for public clients. */
  async function login(client: TestClient, extra: Record<string, string> = {}, username = 'bob@example.com'): Promise<Json> {
    const res = await tokenRequest(t.app, {
      grant_type: PASSWORD_REALM,
      client_id: client.client_id,
      ...(client !== spa && client !== lenient && { client_secret: client.client_secret }),
      username,
      password: PASSWORD,
      realm: REALM,
      scope: 'openid profile offline_access',
      ...extra,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Json;
  }

  function refresh(client: TestClient, token: string, extra: Record<string, string> = {}) {
    return tokenRequest(t.app, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      ...(client !== spa && client !== lenient && { client_secret: client.client_secret }),
      refresh_token: token,
      ...extra,
    });
  }

  async function refreshOk(client: TestClient, token: string, extra: Record<string, string> = {}): Promise<Json> {
    const res = await refresh(client, token, extra);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Json;
  }

  async function assertRefused(client: TestClient, token: string): Promise<void> {
    const res = await refresh(client, token);
    assert.equal(res.statusCode, 403, res.body);
    assert.deepEqual(res.json(), INVALID);
  }

  function revoke(client: TestClient, token: string, form = false) {
    const body: Record<string, string> = { client_id: client.client_id, token };
    if (client !== spa && client !== lenient) body.client_secret = client.client_secret;
    return t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { host: DOMAIN, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
      payload: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    });
  }

  /** Runs `fn` with the clock moved `seconds` forward. */
  function later<T>(seconds: number, fn: () => Promise<T>): Promise<T> {
    return withClockAdvanced(t, seconds * 1000, fn);
  }

  before(async () => {
    t = await createTestApp();
    for (const [identifier, allow] of [[API, true], [CLOSED_API, false]] as const) {
      const res = await t.management('POST', '/api/v2/resource-servers', {
        body: { identifier, name: identifier, scopes: [{ value: 'read:things' }, { value: 'write:things' }], allow_offline_access: allow },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const withRefresh = [PASSWORD_REALM, 'refresh_token'];
    web = await insertClient(t, { grant_types: withRefresh });
    noRefresh = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    const publicClient = { grant_types: withRefresh, token_endpoint_auth_method: 'none', client_secret_enc: null };
    spa = await insertClient(t, { ...publicClient, config: rotating(0) });
    lenient = await insertClient(t, { ...publicClient, config: rotating(60) });
    const created = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Managed', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', grant_types: [PASSWORD_REALM, 'refresh_token'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    managed = created.json() as TestClient;
    const res = await t.management('POST', '/api/v2/connections', {
      body: { name: REALM, strategy: 'auth0', enabled_clients: [web, noRefresh, spa, lenient, managed].map((c) => c.client_id) },
    });
    assert.equal(res.statusCode, 201, res.body);
    for (const email of ['bob@example.com', 'carol@example.com']) {
      const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
    }
    const keys = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet;
    jwks = createLocalJWKSet(keys);
  });
  after(() => t.close());

  it('issues a refresh token for offline_access only when the client may refresh and the API allows offline access', async () => {
    const granted = await login(web, { audience: API, scope: 'openid read:things offline_access' });
    assert.deepEqual(Object.keys(granted), ['access_token', 'refresh_token', 'id_token', 'scope', 'expires_in', 'token_type']);
    assert.match(granted.refresh_token as string, /^v1\.[A-Za-z0-9_-]{43}$/);
    assert.equal(granted.scope, 'openid read:things offline_access');

    const noGrant = await login(noRefresh, { audience: API, scope: 'openid read:things offline_access' });
    assert.equal(noGrant.refresh_token, undefined);
    assert.equal(noGrant.scope, 'openid read:things');

    const closed = await login(web, { audience: CLOSED_API, scope: 'read:things offline_access' });
    assert.equal(closed.refresh_token, undefined);
    assert.equal(closed.scope, 'read:things');

    const notAsked = await login(web, { scope: 'openid' });
    assert.equal(notAsked.refresh_token, undefined);

    const userinfoOnly = await login(web);
    assert.equal(typeof userinfoOnly.refresh_token, 'string', 'without an audience only the client decides');
    assert.equal(userinfoOnly.scope, 'openid profile offline_access');
  });

  it('non-rotating: the same refresh token works repeatedly, with an ID token for openid and no new refresh token', async () => {
    const { refresh_token: token } = await login(web, { audience: API, scope: 'openid read:things offline_access' });
    for (let i = 0; i < 3; i++) {
      const json = await refreshOk(web, token as string);
      assert.deepEqual(Object.keys(json), ['access_token', 'id_token', 'scope', 'expires_in', 'token_type']);
      assert.equal(json.scope, 'openid read:things offline_access');
      const access = (await jwtVerify(json.access_token as string, jwks, { issuer: ISSUER })).payload;
      assert.deepEqual(access.aud, [API, `https://${DOMAIN}/userinfo`]);
      assert.equal(access.gty, 'refresh_token');
      assert.equal(access.azp, web.client_id);
      assert.equal((await jwtVerify(json.id_token as string, jwks, { issuer: ISSUER, audience: web.client_id })).payload.sub, access.sub);
    }
  });

  it('rotating without leeway: a new token per use; reusing the old one revokes the family, the newest included', async () => {
    const first = (await login(spa)).refresh_token as string;
    const rotated = await refreshOk(spa, first);
    const second = rotated.refresh_token as string;
    assert.match(second, /^v1\./);
    assert.notEqual(second, first);
    const third = (await refreshOk(spa, second)).refresh_token as string;

    await assertRefused(spa, first);
    await assertRefused(spa, third);
    // Another login starts another family, unaffected.
    const other = (await login(spa)).refresh_token as string;
    assert.equal((await refresh(spa, other)).statusCode, 200);
  });

  it('rotating with leeway: the old token works within the leeway, and its reuse after it revokes the family', async () => {
    const first = (await login(lenient)).refresh_token as string;
    const second = (await refreshOk(lenient, first)).refresh_token as string;
    const again = await later(30, () => refreshOk(lenient, first));
    const third = again.refresh_token as string;
    assert.ok(third && third !== second, 'a reuse within the leeway gets another token of the family');
    assert.equal(decodeJwt(again.id_token as string).aud, lenient.client_id);

    await later(61, () => assertRefused(lenient, first));
    await assertRefused(lenient, second);
    await assertRefused(lenient, third);
  });

  it('refuses expired tokens: absolute and idle lifetimes from the client settings (PATCH /api/v2/clients)', async () => {
    const settings = async (refreshToken: Json) => {
      const res = await t.management('PATCH', `/api/v2/clients/${managed.client_id}`, { body: { refresh_token: refreshToken } });
      assert.equal(res.statusCode, 200, res.body);
    };
    const base = { rotation_type: 'non-rotating', expiration_type: 'expiring', leeway: 0 };
    try {
      await settings({ ...base, token_lifetime: 60, infinite_token_lifetime: false, idle_token_lifetime: 3600, infinite_idle_token_lifetime: true });
      const absolute = (await login(managed)).refresh_token as string;
      await later(59, () => refreshOk(managed, absolute));
      await later(60, () => assertRefused(managed, absolute));

      await settings({ ...base, token_lifetime: 60, infinite_token_lifetime: true, idle_token_lifetime: 30, infinite_idle_token_lifetime: false });
      const idle = (await login(managed)).refresh_token as string;
      await later(20, () => refreshOk(managed, idle));
      await later(45, () => refreshOk(managed, idle)); // 25 s after the last use: the idle expiry moved
      await later(80, () => assertRefused(managed, idle));
    } finally {
      await settings({ ...base, expiration_type: 'non-expiring', token_lifetime: 2592000, infinite_token_lifetime: true, idle_token_lifetime: 1296000, infinite_idle_token_lifetime: true });
    }
    const fresh = (await login(managed)).refresh_token as string;
    await later(10 * 365 * 86400, () => refreshOk(managed, fresh));
  });

  it('narrows the scope, never widens it', async () => {
    const { refresh_token: token } = await login(web, { audience: API, scope: 'openid profile read:things offline_access' });
    const narrowed = await refreshOk(web, token as string, { scope: 'read:things' });
    assert.equal(narrowed.scope, 'read:things');
    assert.equal(narrowed.id_token, undefined);
    assert.equal(decodeJwt(narrowed.access_token as string).scope, 'read:things');

    const widened = await refresh(web, token as string, { scope: 'read:things write:things' });
    assert.equal(widened.statusCode, 403);
    assert.equal((widened.json() as Json).error, 'invalid_scope');
    // Narrowing did not change the token's own scope.
    assert.equal((await refreshOk(web, token as string)).scope, 'openid profile read:things offline_access');
  });

  it("refuses another client's token, unknown tokens, clients without the grant and blocked users", async () => {
    const token = (await login(web)).refresh_token as string;
    await assertRefused(spa, token);
    await assertRefused(web, 'v1.not-a-token');
    const noGrant = await refresh(noRefresh, token);
    assert.equal(noGrant.statusCode, 403);
    assert.equal((noGrant.json() as Json).error, 'unauthorized_client');
    const missing = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: web.client_id, client_secret: web.client_secret });
    assert.deepEqual(missing.json(), { error: 'invalid_request', error_description: 'Missing required parameter: refresh_token' });

    const carol = (await login(web, {}, 'carol@example.com')).refresh_token as string;
    const userId = decodeJwt((await refreshOk(web, carol)).id_token as string).sub!;
    const block = await t.management('PATCH', `/api/v2/users/${encodeURIComponent(userId)}`, { body: { blocked: true } });
    assert.equal(block.statusCode, 200, block.body);
    const blocked = await refresh(web, carol);
    assert.equal(blocked.statusCode, 403);
    assert.deepEqual(blocked.json(), { error: 'invalid_grant', error_description: 'user is blocked' });
    assert.equal((await t.management('DELETE', `/api/v2/users/${encodeURIComponent(userId)}`)).statusCode, 204);
    await assertRefused(web, carol);
  });

  it('POST /oauth/revoke revokes the family (JSON or form); unknown and foreign tokens get 200 without effect', async () => {
    const token = (await login(web)).refresh_token as string;
    const foreign = await revoke(spa, token);
    assert.equal(foreign.statusCode, 200);
    await refreshOk(web, token);

    const res = await revoke(web, token, true);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, '');
    await assertRefused(web, token);

    assert.equal((await revoke(web, 'v1.unknown')).statusCode, 200);

    const first = (await login(spa)).refresh_token as string;
    const second = (await refreshOk(spa, first)).refresh_token as string;
    assert.equal((await revoke(spa, second)).statusCode, 200, 'a public client with client_id alone');
    await assertRefused(spa, second);

    const noToken = await t.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: { client_id: spa.client_id } });
    assert.equal(noToken.statusCode, 400);
    assert.deepEqual(noToken.json(), { error: 'invalid_request', error_description: 'Missing required parameter: token' });
    const badSecret = await t.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: { client_id: web.client_id, client_secret: 'wrong', token } });
    assert.equal(badSecret.statusCode, 401);
  });

  it('keeps 200 active refresh tokens per user and application: the 201st revokes the oldest', async () => {
    const created = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'dave@example.com', password: PASSWORD } });
    assert.equal(created.statusCode, 201, created.body);
    const first = await login(managed, {}, 'dave@example.com');
    const userId = decodeJwt(first.id_token as string).sub!;
    const firstRow = (await t.ctx.database.db.selectFrom('refresh_tokens').selectAll().where('id_hash', '=', secretHash(first.refresh_token as string)).executeTakeFirstOrThrow());
    // 199 more, each newer than the first: the first is the oldest of 200.
    const others = Array.from({ length: 199 }, () => newRefreshToken());
    await t.ctx.database.db
      .insertInto('refresh_tokens')
      .values(others.map((token, i) => ({ ...firstRow, id_hash: secretHash(token), family_id: `rtf_limit_${i}`, created_at: isoAt(Date.parse(firstRow.created_at) + 1000 + i) })))
      .execute();
    await refreshOk(managed, first.refresh_token as string);

    const latest = await later(300, () => login(managed, {}, 'dave@example.com'));
    await later(301, () => assertRefused(managed, first.refresh_token as string));
    await later(301, () => refreshOk(managed, others[0]!));
    await later(301, () => refreshOk(managed, latest.refresh_token as string));
    const active = await t.ctx.database.db
      .selectFrom('refresh_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('client_id', '=', managed.client_id)
      .where('revoked_at', 'is', null)
      .where('rotated_at', 'is', null)
      .executeTakeFirstOrThrow();
    assert.equal(Number(active.n), 200);
  });
});
