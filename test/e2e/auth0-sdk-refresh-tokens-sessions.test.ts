/**
 * Refresh tokens and sessions driven by the official `auth0` SDK
 * (ManagementClient, v7) over real HTTPS against two server processes that
 * share PostgreSQL and Redis, as a scaled-out install runs: tokens from a
 * real login (the hosted page, the code exchange) are listed, read, given
 * metadata and revoked through one process, and the other process refuses
 * them at /oauth/token at the very next request. Every operation of
 * /refresh-tokens, /users/{user_id}/refresh-tokens, /sessions/{id} (PATCH,
 * revoke) and /users/{id}/revoke-access is called, with the SDK's errors for
 * bad input (400), a missing scope (403) and an unknown id (404). Device
 * credentials: a public key registered with the user's own token, listed and
 * deleted, and a refresh token deleted as a credential. Statistics (active
 * users, daily logins) and anomaly blocks (an address blocked by failed
 * logins, checked and unblocked).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { decodeJwt } from 'jose';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/postgres.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';
import { pkce } from '../helpers/browser.js';
import { readForm, ScriptedBrowser } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, type HttpResult } from './support/https.js';

const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://rp.example.com/callback';
const EMAIL = 'sdk-rt@example.com';

const available = (await postgresAvailable()) && (await redisAvailable());

describe('auth0 SDK: refresh tokens and sessions across two processes (PostgreSQL + Redis)', { skip: !available && 'PostgreSQL or Redis is not reachable' }, () => {
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let ca: Buffer;
  let management: ManagementClient;
  let rp: { clientId: string; clientSecret: string };
  let userId: string;

  /** POST /oauth/token at `server`, for the tenant of process A (both serve it). */
  const tokenAt = (server: ServerProcess, body: Record<string, string>): Promise<HttpResult> =>
    httpsRequest(`https://localhost:${server.port}/oauth/token`, {
      ca,
      method: 'POST',
      headers: { host: a.domain, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const refreshAt = (server: ServerProcess, refreshToken: string) =>
    tokenAt(server, { grant_type: 'refresh_token', client_id: rp.clientId, client_secret: rp.clientSecret, refresh_token: refreshToken });

  /** A login on the hosted page of process A and the code exchange: the session id and the refresh token. */
  async function logIn(): Promise<{ sid: string; refreshToken: string }> {
    const browser = new ScriptedBrowser(a.baseUrl, ca);
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({ client_id: rp.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid offline_access', code_challenge: challenge, code_challenge_method: 'S256', state: 'st' });
    const page = await browser.navigate(`/authorize?${query}`);
    assert.equal(page.last.status, 200, page.last.text.slice(0, 300));
    const form = readForm(page.last.text, page.hops.at(-1)!.url);
    const done = await browser.submit(form.action, { ...form.hidden, email: EMAIL, password: PASSWORD });
    assert.ok(done.leftTo, `no redirect to the callback: ${done.last.status} ${done.last.text.slice(0, 300)}`);
    const code = done.leftTo.searchParams.get('code')!;
    const exchanged = await tokenAt(a, { grant_type: 'authorization_code', client_id: rp.clientId, client_secret: rp.clientSecret, code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.equal(exchanged.status, 200, exchanged.text);
    const tokens = exchanged.json<{ id_token: string; refresh_token: string }>();
    return { sid: decodeJwt(tokens.id_token).sid as string, refreshToken: tokens.refresh_token };
  }

  /** The refresh token's id in the Management API (its session's). */
  async function idOf(sid: string): Promise<string> {
    const page = await management.refreshTokens.list({ user_id: userId });
    const token = page.data.find((t) => t.session_id === sid);
    assert.ok(token?.id, `no refresh token of session ${sid}`);
    return token.id;
  }

  const refused = async (login: { refreshToken: string }) => {
    for (const server of [b, a]) {
      const res = await refreshAt(server, login.refreshToken);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json<{ error: string }>().error, 'invalid_grant');
    }
  };

  /** The SDK's error for a refused call: its status and the Management API body. */
  async function sdkError(call: () => Promise<unknown>): Promise<{ statusCode: number; body: { statusCode: number; errorCode?: string; message: string } }> {
    try {
      await call();
    } catch (error) {
      return error as { statusCode: number; body: { statusCode: number; errorCode?: string; message: string } };
    }
    throw new Error('the call was accepted');
  }

  before(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL, GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' };
    a = await startServerProcess({ env });
    b = await startServerProcess({ dataDir: a.dataDir, env: { ...env, GATEHOUSE_DOMAIN: a.domain } });
    ca = fs.readFileSync(a.certFile);
    const admin = a.admin();
    management = new ManagementClient({ domain: a.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
    // A web application that logs users in and keeps refresh tokens (offline_access).
    const client = await management.clients.create({ name: 'RP', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code', 'refresh_token', 'http://auth0.com/oauth/grant-type/password-realm'] });
    rp = { clientId: client.client_id!, clientSecret: client.client_secret! };
    await management.connections.create({ name: 'sdk-rt-users', strategy: 'auth0', enabled_clients: [rp.clientId] });
    userId = (await management.users.create({ connection: 'sdk-rt-users', email: EMAIL, password: PASSWORD })).user_id!;
  });
  after(async () => {
    await cleanUp([b, a].filter(Boolean), [a?.dataDir].filter(Boolean) as string[]);
    await db?.drop();
  });

  it('lists, gets and updates tokens and sessions; a token deleted through one process is refused by the other at once', async () => {
    const login = await logIn();
    const id = await idOf(login.sid);
    const byUser = await management.users.refreshToken.list(userId);
    assert.ok(byUser.data.some((t) => t.id === id));
    const token = await management.refreshTokens.get(id);
    assert.equal(token.client_id, rp.clientId);
    assert.equal(token.session_id, login.sid);
    const updated = await management.refreshTokens.update(id, { refresh_token_metadata: { device: 'kiosk-7' } });
    assert.deepEqual(updated.refresh_token_metadata, { device: 'kiosk-7' });
    const session = await management.sessions.update(login.sid, { session_metadata: { ticket: 'INC-42' } });
    assert.deepEqual(session.session_metadata, { ticket: 'INC-42' });
    assert.deepEqual((await management.sessions.get(login.sid)).session_metadata, { ticket: 'INC-42' });

    // Both processes accept the token, then the deletion through A is seen by B at its next request.
    assert.equal((await refreshAt(b, login.refreshToken)).status, 200);
    assert.equal((await refreshAt(a, login.refreshToken)).status, 200);
    await management.refreshTokens.delete(id);
    await refused(login);
    assert.equal((await sdkError(() => management.refreshTokens.get(id))).statusCode, 404);
  });

  it('sessions.revoke ends the session and its tokens in every process', async () => {
    const login = await logIn();
    assert.equal((await refreshAt(b, login.refreshToken)).status, 200);
    await management.sessions.revoke(login.sid);
    await refused(login);
    assert.equal((await sdkError(() => management.sessions.get(login.sid))).statusCode, 404);
  });

  it('refreshTokens.revoke by ids and by user, users.refreshToken.delete and users.revokeAccess', async () => {
    const byIds = await logIn();
    await management.refreshTokens.revoke({ ids: [await idOf(byIds.sid)] });
    await refused(byIds);

    const byUser = await logIn();
    await management.refreshTokens.revoke({ user_id: userId, client_id: rp.clientId });
    await refused(byUser);

    const all = await logIn();
    await management.users.refreshToken.delete(userId);
    await refused(all);

    const access = await logIn();
    await management.users.revokeAccess(userId, { session_id: access.sid });
    await refused(access);
    assert.equal((await sdkError(() => management.sessions.get(access.sid))).statusCode, 404);
    const rest = await logIn();
    await management.users.revokeAccess(userId);
    await refused(rest);
    assert.deepEqual((await management.users.refreshToken.list(userId)).data, []);
  });

  it('reports refusals through the SDK: 400 bad input, 404 unknown, 403 missing scope', async () => {
    const bad = await sdkError(() => management.refreshTokens.revoke({ ids: ['rtf_x'], user_id: userId }));
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.body.errorCode, 'invalid_body');
    const badMetadata = await sdkError(() => management.sessions.update('whatever', { session_metadata: { a: 'x'.repeat(256) } }));
    assert.equal(badMetadata.statusCode, 400);
    assert.equal((await sdkError(() => management.refreshTokens.list({ user_id: 'auth0|nobody' }))).statusCode, 404);
    assert.equal((await sdkError(() => management.refreshTokens.update('rtf_nothing', { refresh_token_metadata: null }))).statusCode, 404);
    assert.equal((await sdkError(() => management.sessions.revoke('nothing'))).statusCode, 404);

    const admin = a.admin();
    const limited = await tokenAt(a, { grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, audience: `https://${a.domain}/api/v2/`, scope: 'read:users' });
    assert.equal(limited.status, 200, limited.text);
    const readOnly = new ManagementClient({ domain: a.domain, token: limited.json<{ access_token: string }>().access_token, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
    const forbidden = await sdkError(() => readOnly.refreshTokens.list({ user_id: userId }));
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.body.errorCode, 'insufficient_scope');
    assert.equal((await sdkError(() => readOnly.sessions.revoke('x'))).statusCode, 403);
  });

  it('deviceCredentials: a user registers its device key; the admin lists and deletes it and a refresh token', async () => {
    const own = await tokenAt(a, {
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      client_id: rp.clientId,
      client_secret: rp.clientSecret,
      username: EMAIL,
      password: PASSWORD,
      realm: 'sdk-rt-users',
      audience: `https://${a.domain}/api/v2/`,
      scope: 'create:current_user_device_credentials',
    });
    assert.equal(own.status, 200, own.text);
    const asUser = new ManagementClient({ domain: a.domain, token: own.json<{ access_token: string }>().access_token, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });
    const value = Buffer.from('device public key').toString('base64');
    const { id } = await asUser.deviceCredentials.createPublicKey({ device_name: 'Field tablet', type: 'public_key', value, device_id: '0a1b2c3d' });
    assert.match(id, /^dcr_/);
    const duplicate = await sdkError(() => asUser.deviceCredentials.createPublicKey({ device_name: 'Field tablet', type: 'public_key', value, device_id: '0a1b2c3d' }));
    assert.equal(duplicate.statusCode, 409);
    const machine = await sdkError(() => management.deviceCredentials.createPublicKey({ device_name: 'x', type: 'public_key', value, device_id: 'ff' }));
    assert.equal(machine.statusCode, 403);

    const keys = await management.deviceCredentials.list({ user_id: userId, type: 'public_key' });
    assert.deepEqual(keys.data.map((c) => [c.id, c.device_name, c.client_id]), [[id, 'Field tablet', rp.clientId]]);
    await management.deviceCredentials.delete(id);
    assert.deepEqual((await management.deviceCredentials.list({ user_id: userId, type: 'public_key' })).data, []);

    const login = await logIn();
    const tokens = await management.deviceCredentials.list({ user_id: userId, type: 'refresh_token' });
    const tokenId = await idOf(login.sid);
    assert.ok(tokens.data.some((c) => c.id === tokenId));
    await management.deviceCredentials.delete(tokenId);
    await refused(login);
    const bad = await sdkError(() => management.deviceCredentials.list({ type: 'refresh_token' }));
    assert.equal(bad.statusCode, 400);
  });

  it('stats: active users and daily logins of the logins above', async () => {
    assert.equal(await management.stats.getActiveUsersCount(), 1);
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    // The tenant log is written in batches: the day's count appears shortly.
    let logins = 0;
    for (let i = 0; i < 50 && logins === 0; i++) {
      const days = await management.stats.getDaily({ from: today, to: today });
      logins = days[0]?.logins ?? 0;
      if (logins === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(logins >= 1, 'the hosted logins are counted');
    assert.equal((await sdkError(() => management.stats.getDaily({ from: '2026-01-01' }))).statusCode, 400);
  });

  it('anomaly: an address blocked by failed logins is reported, then unblocked', async () => {
    const attempt = (password: string) =>
      tokenAt(a, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: rp.clientId, client_secret: rp.clientSecret, username: EMAIL, password, realm: 'sdk-rt-users' });
    assert.equal((await sdkError(() => management.anomaly.blocks.checkIp('127.0.0.1'))).statusCode, 404);
    for (let i = 0; i < 10; i++) assert.equal((await attempt('wrong')).status, 403);
    assert.equal((await attempt(PASSWORD)).status, 429);
    await management.anomaly.blocks.checkIp('127.0.0.1');
    await management.anomaly.blocks.unblockIp('127.0.0.1');
    assert.equal((await sdkError(() => management.anomaly.blocks.checkIp('127.0.0.1'))).statusCode, 404);
    assert.equal((await attempt(PASSWORD)).status, 200);
    assert.equal((await sdkError(() => management.anomaly.blocks.checkIp('not-an-ip'))).statusCode, 400);
  });
});
