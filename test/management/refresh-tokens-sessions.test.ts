/**
 * /api/v2/refresh-tokens, /api/v2/users/{user_id}/refresh-tokens, PATCH
 * /api/v2/sessions/{id}, POST /api/v2/sessions/{id}/revoke and POST
 * /api/v2/users/{id}/revoke-access on the real app and database: tokens
 * from a real login (authorization code with offline_access), revoked ones
 * refused at /oauth/token at once, session revocation queueing the
 * back-channel logout as DELETE /sessions/{id} does, and every refusal
 * (400 bad input in the Management shape, 403 scope, 404 unknown).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, pkce, redirectParams } from '../helpers/browser.js';

const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://rp.example.com/callback';

describe('refresh tokens and sessions in the Management API', () => {
  let t: TestApp;
  let world: { clientId: string; clientSecret: string; email: string; userId: string };

  const api = async (method: string, url: string, body?: unknown, token?: string) =>
    t.management(method, url, { ...(body !== undefined && { body }), ...(token !== undefined && { token }) });

  /** A login through /authorize: its session id (the ID token's sid) and its refresh token. */
  async function logIn(): Promise<{ sid: string; refreshToken: string }> {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const done = await browser.login(authorizeUrl(world.clientId, CALLBACK, { scope: 'openid offline_access', code_challenge: challenge }), world.email, PASSWORD);
    const code = redirectParams(done, CALLBACK).get('code')!;
    const res = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: world.clientId, client_secret: world.clientSecret, code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { id_token: string; refresh_token: string };
    const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
    const { payload } = await jwtVerify(body.id_token, jwks, { audience: world.clientId });
    assert.ok(body.refresh_token);
    return { sid: payload.sid as string, refreshToken: body.refresh_token };
  }

  const refresh = (refreshToken: string) => tokenRequest(t.app, { grant_type: 'refresh_token', client_id: world.clientId, client_secret: world.clientSecret, refresh_token: refreshToken });

  before(async () => {
    t = await createTestApp();
    const client = (
      await api('POST', '/api/v2/clients', {
        name: 'RP',
        app_type: 'regular_web',
        is_first_party: true,
        token_endpoint_auth_method: 'client_secret_post',
        callbacks: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        oidc_logout: { backchannel_logout_urls: ['https://rp.example.com/backchannel'], backchannel_logout_initiators: { mode: 'all' } },
      })
    ).json() as { client_id: string; client_secret: string };
    await api('POST', '/api/v2/connections', { name: 'rt-users', strategy: 'auth0', enabled_clients: [client.client_id] });
    const email = 'rt-user@example.com';
    const user = (await api('POST', '/api/v2/users', { connection: 'rt-users', email, password: PASSWORD })).json() as { user_id: string };
    world = { clientId: client.client_id, clientSecret: client.client_secret, email, userId: user.user_id };
  });
  after(() => t.close());

  it('lists a user\'s tokens with checkpoint pages, gets one, sets its metadata, and a deleted one is refused at /oauth/token', async () => {
    const first = await logIn();
    const second = await logIn();
    const user = encodeURIComponent(world.userId);
    const page1 = (await api('GET', `/api/v2/refresh-tokens?user_id=${user}&take=1`)).json() as { refresh_tokens: { id: string; session_id: string }[]; next?: string };
    assert.equal(page1.refresh_tokens.length, 1);
    assert.ok(page1.next);
    const page2 = (await api('GET', `/api/v2/refresh-tokens?user_id=${user}&take=1&from=${encodeURIComponent(page1.next)}`)).json() as { refresh_tokens: { id: string; session_id: string }[]; next?: string };
    assert.equal(page2.refresh_tokens.length, 1);
    assert.equal(page2.next, undefined);
    const all = [...page1.refresh_tokens, ...page2.refresh_tokens];
    assert.deepEqual(all.map((r) => r.session_id).sort(), [first.sid, second.sid].sort());
    const firstId = all.find((r) => r.session_id === first.sid)!.id;
    assert.match(firstId, /^rtf_/);

    const byUser = (await api('GET', `/api/v2/users/${user}/refresh-tokens`)).json() as { tokens: { id: string }[] };
    assert.deepEqual(byUser.tokens.map((r) => r.id).sort(), all.map((r) => r.id).sort());
    const byClient = (await api('GET', `/api/v2/refresh-tokens?user_id=${user}&client_id=nobody`)).json() as { refresh_tokens: unknown[] };
    assert.deepEqual(byClient.refresh_tokens, []);
    const fields = (await api('GET', `/api/v2/refresh-tokens?user_id=${user}&fields=id,client_id`)).json() as { refresh_tokens: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(fields.refresh_tokens[0]!).sort(), ['client_id', 'id']);

    const one = (await api('GET', `/api/v2/refresh-tokens/${firstId}`)).json() as Record<string, unknown>;
    assert.equal(one.user_id, world.userId);
    assert.equal(one.client_id, world.clientId);
    assert.equal(one.rotating, false);
    assert.deepEqual(one.resource_servers, []);
    assert.equal(one.expires_at, null);

    const patched = await api('PATCH', `/api/v2/refresh-tokens/${firstId}`, { refresh_token_metadata: { device: 'laptop' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual((patched.json() as { refresh_token_metadata: unknown }).refresh_token_metadata, { device: 'laptop' });
    const cleared = (await api('PATCH', `/api/v2/refresh-tokens/${firstId}`, { refresh_token_metadata: {} })).json() as Record<string, unknown>;
    assert.equal('refresh_token_metadata' in cleared, false);

    assert.equal((await refresh(first.refreshToken)).statusCode, 200);
    assert.equal((await api('DELETE', `/api/v2/refresh-tokens/${firstId}`)).statusCode, 202);
    const refused = await refresh(first.refreshToken);
    assert.equal(refused.statusCode, 403);
    assert.equal((refused.json() as { error: string }).error, 'invalid_grant');
    assert.equal((await api('GET', `/api/v2/refresh-tokens/${firstId}`)).statusCode, 404);
    // The other login's token still works.
    assert.equal((await refresh(second.refreshToken)).statusCode, 200);
  });

  it('POST /refresh-tokens/revoke by ids and by user and client; DELETE /users/{id}/refresh-tokens', async () => {
    const a = await logIn();
    const b = await logIn();
    const user = encodeURIComponent(world.userId);
    const ids = ((await api('GET', `/api/v2/users/${user}/refresh-tokens`)).json() as { tokens: { id: string; session_id: string }[] }).tokens;
    const aId = ids.find((r) => r.session_id === a.sid)!.id;
    assert.equal((await api('POST', '/api/v2/refresh-tokens/revoke', { ids: [aId] })).statusCode, 202);
    assert.equal((await refresh(a.refreshToken)).statusCode, 403);
    assert.equal((await refresh(b.refreshToken)).statusCode, 200);
    assert.equal((await api('POST', '/api/v2/refresh-tokens/revoke', { user_id: world.userId, client_id: 'someone-else' })).statusCode, 202);
    assert.equal((await refresh(b.refreshToken)).statusCode, 200);
    assert.equal((await api('POST', '/api/v2/refresh-tokens/revoke', { user_id: world.userId, client_id: world.clientId })).statusCode, 202);
    assert.equal((await refresh(b.refreshToken)).statusCode, 403);

    const c = await logIn();
    assert.equal((await api('DELETE', `/api/v2/users/${user}/refresh-tokens`)).statusCode, 202);
    assert.equal((await refresh(c.refreshToken)).statusCode, 403);
    assert.deepEqual(((await api('GET', `/api/v2/users/${user}/refresh-tokens`)).json() as { tokens: unknown[] }).tokens, []);
  });

  it('PATCH /sessions/{id} sets session_metadata; POST /sessions/{id}/revoke ends it with its refresh tokens and queues the back-channel logout', async () => {
    const login = await logIn();
    const other = await logIn();
    const sid = encodeURIComponent(login.sid);
    const patched = await api('PATCH', `/api/v2/sessions/${sid}`, { session_metadata: { reason: 'audit' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual((patched.json() as { session_metadata: unknown }).session_metadata, { reason: 'audit' });
    assert.deepEqual(((await api('GET', `/api/v2/sessions/${sid}`)).json() as { session_metadata: unknown }).session_metadata, { reason: 'audit' });

    assert.equal((await api('POST', `/api/v2/sessions/${sid}/revoke`)).statusCode, 202);
    assert.equal((await api('GET', `/api/v2/sessions/${sid}`)).statusCode, 404);
    assert.equal((await refresh(login.refreshToken)).statusCode, 403);
    assert.equal((await refresh(other.refreshToken)).statusCode, 200);
    const queued = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, world.clientId);
    assert.ok(queued.some((row) => row.sid === login.sid && row.initiator === 'session-revoked'));
    // Revoked already: the document's 404.
    assert.equal((await api('POST', `/api/v2/sessions/${sid}/revoke`)).statusCode, 404);
  });

  it('POST /users/{id}/revoke-access: one session with or without its tokens, then all', async () => {
    const user = encodeURIComponent(world.userId);
    const kept = await logIn();
    assert.equal((await api('POST', `/api/v2/users/${user}/revoke-access`, { session_id: kept.sid, preserve_refresh_tokens: true })).statusCode, 202);
    assert.equal((await api('GET', `/api/v2/sessions/${encodeURIComponent(kept.sid)}`)).statusCode, 404);
    assert.equal((await refresh(kept.refreshToken)).statusCode, 200);

    const x = await logIn();
    const y = await logIn();
    assert.equal((await api('POST', `/api/v2/users/${user}/revoke-access`, {})).statusCode, 202);
    for (const login of [x, y]) {
      assert.equal((await api('GET', `/api/v2/sessions/${encodeURIComponent(login.sid)}`)).statusCode, 404);
      assert.equal((await refresh(login.refreshToken)).statusCode, 403);
    }
    assert.equal((await refresh(kept.refreshToken)).statusCode, 403);
  });

  it('refuses bad input with 400 in the Management shape', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', '/api/v2/refresh-tokens', undefined, 'invalid_query_string'],
      ['GET', '/api/v2/refresh-tokens?user_id=x&take=101', undefined, 'invalid_query_string'],
      ['GET', `/api/v2/refresh-tokens?user_id=${encodeURIComponent(world.userId)}&from=forged`, undefined, 'invalid_query_string'],
      ['POST', '/api/v2/refresh-tokens/revoke', {}, 'invalid_body'],
      ['POST', '/api/v2/refresh-tokens/revoke', { ids: ['rtf_x'], user_id: 'u' }, 'invalid_body'],
      ['POST', '/api/v2/refresh-tokens/revoke', { client_id: 'c' }, 'invalid_body'],
      ['POST', '/api/v2/refresh-tokens/revoke', { user_id: 'u', audience: 'a' }, 'invalid_body'],
      ['POST', '/api/v2/refresh-tokens/revoke', { ids: [] }, 'invalid_body'],
      ['POST', '/api/v2/refresh-tokens/revoke', { ids: ['x'.repeat(31)] }, 'invalid_body'],
      ['POST', '/api/v2/refresh-tokens/revoke', { ids: ['rtf_x'], extra: 1 }, 'invalid_body'],
      ['PATCH', '/api/v2/refresh-tokens/rtf_x', {}, 'invalid_body'],
      ['PATCH', '/api/v2/refresh-tokens/rtf_x', { refresh_token_metadata: { a: 1 } }, 'invalid_body'],
      ['PATCH', '/api/v2/refresh-tokens/rtf_x', { refresh_token_metadata: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v'])) }, 'invalid_body'],
      ['PATCH', '/api/v2/sessions/s', { session_metadata: { a: 'x'.repeat(256) } }, 'invalid_body'],
      ['PATCH', '/api/v2/sessions/s', { session_metadata: { ['k'.repeat(256)]: 'v' } }, 'invalid_body'],
      ['PATCH', '/api/v2/sessions/s', { other: {} }, 'invalid_body'],
      ['POST', `/api/v2/users/${encodeURIComponent(world.userId)}/revoke-access`, { preserve_refresh_tokens: 'yes' }, 'invalid_body'],
      ['POST', `/api/v2/sessions/${'s'.repeat(51)}/revoke`, undefined, 'invalid_uri'],
    ];
    for (const [method, url, body, errorCode] of cases) {
      const res = await api(method, url, body);
      assert.equal(res.statusCode, 400, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`);
      const error = res.json() as Record<string, unknown>;
      assert.equal(error.statusCode, 400);
      assert.equal(error.error, 'Bad Request');
      assert.equal(error.errorCode, errorCode, `${method} ${url}: ${res.body}`);
      assert.equal(typeof error.message, 'string');
    }
  });

  it('answers 404 for unknown users, tokens and sessions; deletions of unknown ids are accepted', async () => {
    const notFound: [string, string, unknown?][] = [
      ['GET', '/api/v2/refresh-tokens?user_id=auth0%7Cnobody'],
      ['GET', '/api/v2/users/auth0%7Cnobody/refresh-tokens'],
      ['DELETE', '/api/v2/users/auth0%7Cnobody/refresh-tokens'],
      ['GET', '/api/v2/refresh-tokens/rtf_nothing'],
      ['PATCH', '/api/v2/refresh-tokens/rtf_nothing', { refresh_token_metadata: null }],
      ['PATCH', '/api/v2/sessions/nothing', { session_metadata: null }],
      ['POST', '/api/v2/sessions/nothing/revoke'],
    ];
    for (const [method, url, body] of notFound) {
      const res = await api(method, url, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.equal((res.json() as { statusCode: number }).statusCode, 404);
    }
    assert.equal((await api('DELETE', '/api/v2/refresh-tokens/rtf_nothing')).statusCode, 202);
    assert.equal((await api('POST', '/api/v2/refresh-tokens/revoke', { ids: ['rtf_nothing'] })).statusCode, 202);
  });

  it('refuses a token without the operation\'s scope with 403', async () => {
    const token = await t.managementToken('read:users');
    const cases: [string, string, unknown?][] = [
      ['GET', `/api/v2/refresh-tokens?user_id=${encodeURIComponent(world.userId)}`],
      ['GET', '/api/v2/refresh-tokens/rtf_x'],
      ['PATCH', '/api/v2/refresh-tokens/rtf_x', { refresh_token_metadata: null }],
      ['DELETE', '/api/v2/refresh-tokens/rtf_x'],
      ['POST', '/api/v2/refresh-tokens/revoke', { ids: ['rtf_x'] }],
      ['GET', `/api/v2/users/${encodeURIComponent(world.userId)}/refresh-tokens`],
      ['DELETE', `/api/v2/users/${encodeURIComponent(world.userId)}/refresh-tokens`],
      ['PATCH', '/api/v2/sessions/s', { session_metadata: null }],
      ['POST', '/api/v2/sessions/s/revoke'],
      ['POST', `/api/v2/users/${encodeURIComponent(world.userId)}/revoke-access`, {}],
    ];
    for (const [method, url, body] of cases) {
      const res = await api(method, url, body, token);
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'insufficient_scope');
    }
    // Either scope of the document opens a session's revocation.
    const either = await t.managementToken('delete:refresh_tokens');
    assert.equal((await api('POST', '/api/v2/sessions/s/revoke', undefined, either)).statusCode, 404);
  });
});
