/**
 * What a password reset ends, and the rest of the user update body:
 *
 * - a new password, through the reset link's page or PATCH /api/v2/users/{id},
 *   ends the user's SSO sessions and revokes their refresh tokens;
 * - PATCH accepts the service's whole UpdateUserRequestContent, including the
 *   body it documents for a password change (`{password, connection}`);
 * - `verify_email` is honoured on create and update;
 * - the master key is read once at start: removing its file later neither
 *   breaks the forms that need it nor makes a new key.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SESSION_COOKIE } from '../../src/authentication/cookies.js';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const NEW_PASSWORD = 'Another horse battery staple 2';
const CALLBACK = 'https://app.example.com/callback';
const UNKNOWN_REFRESH = { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' };

describe('a password reset ends sessions and refresh tokens; the whole update body', () => {
  let t: TestApp;
  let app: TestClient;

  const url = (userId: string) => `/api/v2/users/${encodeURIComponent(userId)}`;
  const mailsTo = (to: string) => readOutbox(t.ctx).filter((m) => m.to === to);

  async function createUser(email: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD, ...extra } });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { user_id: string }).user_id;
  }

  /** A browser logged in as `email`, and a refresh token of the same user. */
  async function loggedIn(email: string): Promise<{ browser: Browser; refreshToken: string }> {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const authorize = authorizeUrl(app.client_id, CALLBACK, { scope: 'openid offline_access', code_challenge: challenge });
    const code = redirectParams(await browser.login(authorize, email, PASSWORD), CALLBACK).get('code')!;
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: app.client_id, code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.equal(tokens.statusCode, 200, tokens.body);
    const refreshToken = (tokens.json() as { refresh_token: string }).refresh_token;
    assert.ok(refreshToken, 'a refresh token was issued');
    return { browser, refreshToken };
  }

  /** Whether the browser's session still answers prompt=none with a code. */
  async function sessionActive(browser: Browser): Promise<boolean> {
    const res = await browser.get(authorizeUrl(app.client_id, CALLBACK, { prompt: 'none' }));
    const params = redirectParams(res, CALLBACK);
    if (params.has('code')) return true;
    assert.equal(params.get('error'), 'login_required');
    return false;
  }

  const refresh = (refreshToken: string) => tokenRequest(t.app, { grant_type: 'refresh_token', client_id: app.client_id, refresh_token: refreshToken });

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, {
      app_type: 'spa',
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      grant_types: ['authorization_code', 'refresh_token'],
      config: { callbacks: [CALLBACK] },
    });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
  });
  after(() => t.close());

  it('PATCH with {password, connection}: accepted; the session ends and the refresh token stops working', async () => {
    const userId = await createUser('pat@example.com', { verify_email: false });
    const other = await createUser('other@example.com', { verify_email: false });
    const mine = await loggedIn('pat@example.com');
    const theirs = await loggedIn('other@example.com');
    assert.equal(await sessionActive(mine.browser), true);
    assert.equal((await refresh(mine.refreshToken)).statusCode, 200, 'the token works before');

    const res = await t.management('PATCH', url(userId), { body: { password: NEW_PASSWORD, connection: REALM } });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok((res.json() as { last_password_reset?: string }).last_password_reset);

    assert.equal(await sessionActive(mine.browser), false, 'the SSO session ended');
    const after = await refresh(mine.refreshToken);
    assert.equal(after.statusCode, 403);
    assert.deepEqual(after.json(), UNKNOWN_REFRESH);
    // Another user's session and tokens are untouched.
    assert.equal(await sessionActive(theirs.browser), true);
    assert.equal((await refresh(theirs.refreshToken)).statusCode, 200);
    // The new password logs in.
    const again = await loggedIn('pat@example.com').catch(() => undefined);
    assert.equal(again, undefined, 'the old password no longer logs in');
    assert.ok(other);
  });

  it('the reset link\'s page ends the sessions and refresh tokens too', async () => {
    await createUser('rita@example.com', { verify_email: false });
    const { browser, refreshToken } = await loggedIn('rita@example.com');
    const asked = await t.app.inject({
      method: 'POST',
      url: '/dbconnections/change_password',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { client_id: app.client_id, connection: REALM, email: 'rita@example.com' },
    });
    assert.equal(asked.statusCode, 200);
    const link = /https:\/\/[^/]+(\/reset-password\?ticket=[A-Za-z0-9_%-]+)/.exec(mailsTo('rita@example.com').at(-1)!.text)![1]!;
    const form = await t.app.inject({ method: 'GET', url: link, headers: { host: DOMAIN } });
    const done = await t.app.inject({
      method: 'POST',
      url: '/reset-password',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ticket: hidden(form.body, 'ticket'), csrf_token: hidden(form.body, 'csrf_token'), password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }).toString(),
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(await sessionActive(browser), false);
    assert.deepEqual((await refresh(refreshToken)).json(), UNKNOWN_REFRESH);
  });

  it('PATCH without a password leaves sessions and tokens alone', async () => {
    const userId = await createUser('quinn@example.com', { verify_email: false });
    const { browser, refreshToken } = await loggedIn('quinn@example.com');
    const res = await t.management('PATCH', url(userId), { body: { name: 'Quinn', connection: REALM, phone_number: '+15551234567', phone_verified: true } });
    assert.equal(res.statusCode, 200, res.body);
    const user = res.json() as { name: string; phone_number: string; phone_verified: boolean };
    assert.deepEqual([user.name, user.phone_number, user.phone_verified], ['Quinn', '+15551234567', true]);
    assert.equal((await t.management('GET', url(userId))).json().phone_verified, true, 'stored');
    assert.equal(await sessionActive(browser), true);
    assert.equal((await refresh(refreshToken)).statusCode, 200);
  });

  it('refuses what does not fit a database user, changing nothing', async () => {
    const userId = await createUser('ruth@example.com', { verify_email: false });
    const other = await t.management('POST', '/api/v2/connections', { body: { name: 'other-db', strategy: 'auth0' } });
    assert.equal(other.statusCode, 201);
    const cases: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [{ password: NEW_PASSWORD, connection: 'other-db' }, 400, { statusCode: 400, error: 'Bad Request', message: 'The user does not belong to the connection other-db.', errorCode: 'invalid_body' }],
      [{ password: NEW_PASSWORD, connection: 'nope' }, 400, { statusCode: 400, error: 'Bad Request', message: 'The connection does not exist.', errorCode: 'inexistent_connection' }],
      [{ email: 'ruth2@example.com', client_id: 'no-such-client' }, 400, { statusCode: 400, error: 'Bad Request', message: 'The client does not exist', errorCode: 'inexistent_client' }],
      [{ phone_number: '+15550000000', verify_phone_number: true }, 400, { statusCode: 400, error: 'Bad Request', message: 'verify_phone_number is only valid for users of SMS connections.', errorCode: 'invalid_body' }],
      [{ connection: '' }, 400, { statusCode: 400, error: 'Bad Request', message: "Payload validation error: 'String is too short (0 chars), minimum 1' on property connection (Name of the connection to target for this user update).", errorCode: 'invalid_body' }],
    ];
    for (const [body, status, expected] of cases) {
      const res = await t.management('PATCH', url(userId), { body });
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.deepEqual(res.json(), expected);
    }
    const user = (await t.management('GET', url(userId))).json() as { email: string; phone_number?: string; last_password_reset?: string };
    assert.deepEqual([user.email, user.phone_number, user.last_password_reset], ['ruth@example.com', undefined, undefined]);
  });

  it('metadata merged over several PATCHes is bounded as a whole, not only per request', async () => {
    const userId = await createUser('meta@example.com', { verify_email: false });
    const chunk = 'x'.repeat(400_000);
    for (const key of ['a', 'b']) assert.equal((await t.management('PATCH', url(userId), { body: { user_metadata: { [key]: chunk } } })).statusCode, 200);
    const third = await t.management('PATCH', url(userId), { body: { user_metadata: { c: chunk } } });
    assert.equal(third.statusCode, 400);
    assert.match((third.json() as { message: string }).message, /^Payload validation error: 'Object is too large \(\d+ bytes once merged\), maximum 1048576' on property user_metadata\.$/);
    const stored = (await t.management('GET', url(userId))).json() as { user_metadata: Record<string, string> };
    assert.deepEqual(Object.keys(stored.user_metadata).sort(), ['a', 'b'], 'unchanged by the refused request');
  });

  it('verify_email: a new user is mailed unless verified or told not to; an email change only when asked', async () => {
    await createUser('v1@example.com');
    assert.equal(mailsTo('v1@example.com').length, 1, 'email_verified unset: a verification mail');
    assert.match(mailsTo('v1@example.com')[0]!.text, /\/verify-email\?ticket=/);
    await createUser('v2@example.com', { email_verified: true });
    assert.equal(mailsTo('v2@example.com').length, 0, 'already verified: none');
    await createUser('v3@example.com', { email_verified: true, verify_email: true });
    assert.equal(mailsTo('v3@example.com').length, 1, 'verify_email overrides email_verified');
    const v4 = await createUser('v4@example.com', { verify_email: false });
    assert.equal(mailsTo('v4@example.com').length, 0, 'verify_email: false');

    assert.equal((await t.management('PATCH', url(v4), { body: { email: 'v4b@example.com' } })).statusCode, 200);
    assert.equal(mailsTo('v4b@example.com').length, 0, 'an email change mails only with verify_email');
    const changed = await t.management('PATCH', url(v4), { body: { email: 'v4c@example.com', verify_email: true, client_id: app.client_id } });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((changed.json() as { email_verified: boolean }).email_verified, false);
    assert.equal(mailsTo('v4c@example.com').length, 1);
  });

  it('the master key is read once at start: its file removed later, forms still work and no new key appears', async () => {
    const keyFile = path.join(t.dataDir, 'master.key');
    assert.ok(fs.existsSync(keyFile));
    fs.rmSync(keyFile);
    await createUser('mk@example.com', { verify_email: false });
    const { browser } = await loggedIn('mk@example.com');
    assert.ok(browser.jar.get(SESSION_COOKIE));
    // The logout confirmation form's CSRF key is first needed now, after the file is gone.
    const ask = await browser.get('/oidc/logout');
    assert.equal(ask.statusCode, 200, ask.body);
    const confirmed = await browser.post('/oidc/logout', { confirm: hidden(ask.body, 'confirm'), csrf_token: hidden(ask.body, 'csrf_token') });
    assert.ok([200, 302].includes(confirmed.statusCode), confirmed.body);
    assert.equal(fs.existsSync(keyFile), false, 'no new key was made behind the process\'s back');
    assert.equal(await sessionActive(browser), false, 'the confirmed logout ended the session');
  });
});
