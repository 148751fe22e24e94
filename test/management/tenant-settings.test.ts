/**
 * GET/PATCH /api/v2/tenants/settings on the real app and database: the
 * service's shapes and validation, the scopes, and each setting Gatehouse
 * acts on changing what the Authentication API does (default audience and
 * directory at the token endpoint, the tenant's Allowed Logout URLs at
 * /v2/logout, session lifetimes ending the SSO session as the clock moves).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { SESSION_COOKIE } from '../../src/authentication/cookies.js';
import { Browser } from '../helpers/browser.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const OTHER_DB = 'other-db';
const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'https://app.example.com/callback';
const API = 'https://api.example.com/';
const MINUTE = 60_000;

describe('/api/v2/tenants/settings', () => {
  let t: TestApp;
  let machine: TestClient;
  let web: TestClient;
  let aliceId: string;

  const patch = (body: unknown, token?: string) => t.management('PATCH', '/api/v2/tenants/settings', { body, ...(token && { token }) });
  const get = async (query = '') => {
    const res = await t.management('GET', `/api/v2/tenants/settings${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, unknown>;
  };
  const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, ...(cookie && { cookie }) } });
  const authorizeUrl = (extra: Record<string, string> = {}) =>
    `/authorize?${new URLSearchParams({ client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 's', scope: 'openid', ...extra })}`;

  /** Logs alice in; the session cookie and its Set-Cookie header. */
  async function login(): Promise<{ cookie: string; setCookie: string }> {
    const browser = new Browser(t);
    const done = await browser.login(authorizeUrl(), 'alice@example.com', PASSWORD);
    assert.equal(done.statusCode, 302, done.body);
    assert.ok(new URL(done.headers.location as string).searchParams.has('code'));
    const setCookie = [done.headers['set-cookie']].flat().map(String).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    return { cookie: `${SESSION_COOKIE}=${browser.jar.get(SESSION_COOKIE)}`, setCookie: setCookie ?? '' };
  }

  /** Whether the session answers /authorize with prompt=none (a code) or is gone (login_required). */
  async function sessionActive(cookie: string): Promise<boolean> {
    const res = await page(authorizeUrl({ prompt: 'none' }), cookie);
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(res.headers.location as string);
    if (location.searchParams.has('code')) return true;
    assert.equal(location.searchParams.get('error'), 'login_required');
    return false;
  }

  before(async () => {
    t = await createTestApp();
    machine = await insertClient(t, { grant_types: ['client_credentials', 'password'] });
    web = await insertClient(t, { app_type: 'regular_web', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    // The web client logs in to one database connection; the machine client has two (the default directory picks).
    for (const [name, clients] of [[REALM, [machine.client_id, web.client_id]], [OTHER_DB, [machine.client_id]]] as const) {
      const conn = await t.management('POST', '/api/v2/connections', { body: { name, strategy: 'auth0', enabled_clients: clients } });
      assert.equal(conn.statusCode, 201, conn.body);
    }
    for (const [connection, email] of [[REALM, 'alice@example.com'], [OTHER_DB, 'olga@example.com']] as const) {
      const user = await t.management('POST', '/api/v2/users', { body: { connection, email, password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
      if (connection === REALM) aliceId = (user.json() as { user_id: string }).user_id;
    }
    const rs = await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'API', scopes: [{ value: 'read:things' }] } });
    assert.equal(rs.statusCode, 201, rs.body);
    const grant = await t.management('POST', '/api/v2/client-grants', { body: { client_id: machine.client_id, audience: API, scope: ['read:things'] } });
    assert.equal(grant.statusCode, 201, grant.body);
  });
  after(() => t.close());

  beforeEach(async () => {
    // Each case starts from a tenant without the settings the cases set.
    const res = await patch({
      default_audience: '',
      default_directory: '',
      allowed_logout_urls: [],
      session_cookie: null,
      session_lifetime: 72,
      idle_session_lifetime: 72,
    });
    assert.equal(res.statusCode, 200, res.body);
  });

  describe('shapes', () => {
    it('GET shows the lifetimes in force and the default locale before anything is set', async () => {
      const settings = await get();
      assert.equal(settings.session_lifetime, 72);
      assert.equal(settings.idle_session_lifetime, 72);
      assert.equal(settings.ephemeral_session_lifetime, 72);
      assert.equal(settings.idle_ephemeral_session_lifetime, 24);
      assert.deepEqual(settings.enabled_locales, ['en']);
      assert.equal(settings.default_audience, undefined);
      for (const internal of ['admin_client_id', 'lifetimes', 'rate_limits', 'stored_only']) assert.equal(settings[internal], undefined, internal);
    });

    it('PATCH stores every kind of member, answers the new settings, and GET shows the same; flags merge, null clears', async () => {
      const body = {
        friendly_name: 'Acme',
        picture_url: 'https://acme.example.com/logo.png',
        support_email: 'help@acme.example.com',
        support_url: 'https://acme.example.com/help',
        enabled_locales: ['fr', 'en'],
        flags: { enable_client_connections: false, revoke_refresh_token_grant: true },
        sessions: { oidc_logout_prompt_enabled: false },
        default_redirection_uri: 'https://acme.example.com/start',
        error_page: { html: '<p>{{ error }}</p>', show_log_link: false, url: 'https://acme.example.com/error' },
        device_flow: { charset: 'digits', mask: '****-****' },
        sandbox_version: '18',
        idle_session_lifetime_in_minutes: 90,
      };
      const res = await patch(body);
      assert.equal(res.statusCode, 200, res.body);
      const answered = res.json() as Record<string, unknown>;
      const { idle_session_lifetime_in_minutes: _minutes, ...stored } = body;
      for (const [key, value] of Object.entries(stored)) assert.deepEqual(answered[key], value, key);
      assert.equal(answered.idle_session_lifetime, 1.5, 'minutes are answered as hours');
      assert.deepEqual(await get(), answered);

      const merged = await patch({ flags: { enable_client_connections: true }, sessions: null });
      assert.equal(merged.statusCode, 200, merged.body);
      const after = merged.json() as Record<string, unknown>;
      assert.deepEqual(after.flags, { enable_client_connections: true, revoke_refresh_token_grant: true });
      assert.equal(after.sessions, undefined);
      assert.equal(after.friendly_name, 'Acme');
      assert.deepEqual((await t.ctx.stores.tenants.getById(t.tenant.id))?.settings.enabled_locales, ['fr', 'en'], 'the hosted pages read the locales from the tenant settings');
    });

    it('fields / include_fields select the members', async () => {
      await patch({ friendly_name: 'Acme', support_url: 'https://acme.example.com/help' });
      assert.deepEqual(await get('?fields=friendly_name,support_url'), { friendly_name: 'Acme', support_url: 'https://acme.example.com/help' });
      const without = await get('?fields=friendly_name&include_fields=false');
      assert.equal(without.friendly_name, undefined);
      assert.equal(without.support_url, 'https://acme.example.com/help');
    });
  });

  describe('validation: a 400 in the service words, nothing changed', () => {
    const refusals: [string, Record<string, unknown>, string][] = [
      ['an unknown member', { friendly_name: 'x', not_a_setting: 1 }, "Payload validation error: 'Additional properties not allowed: not_a_setting'."],
      ['an unknown flag', { flags: { no_such_flag: true } }, "Payload validation error: 'Additional properties not allowed: no_such_flag' on property flags (Flags used to change the behavior of this tenant.)."],
      ['a lifetime under the minimum', { session_lifetime: 0 }, "Payload validation error: 'Value 0 is less than minimum 1' on property session_lifetime (Number of hours a session will stay valid.)."],
      ['a lifetime that is not an integer', { session_lifetime: 1.5 }, "Payload validation error: 'Expected type integer but found type number' on property session_lifetime (Number of hours a session will stay valid.)."],
      ['a lifetime over a year', { idle_session_lifetime: 9000 }, "Payload validation error: 'Value 9000 is greater than maximum 8760' on property idle_session_lifetime (Number of hours for which a session can be inactive before the user must log in again.)."],
      ['an unknown locale', { enabled_locales: ['en', 'xx-YY'] }, "Payload validation error: 'No enum match for: xx-YY' on property enabled_locales[1]."],
      ['no locale', { enabled_locales: [] }, "Payload validation error: 'Array is too short (0), minimum 1' on property enabled_locales (Supported locales for the user interface)."],
      ['a logout URL running script', { allowed_logout_urls: ['javascript:alert(1)'] }, "Payload validation error: 'Object didn't pass validation for format url-with-placeholders: javascript:alert(1)' on property allowed_logout_urls[0]."],
      ['a support email that is not one', { support_email: 'not-an-email' }, "Payload validation error: 'Object didn't pass validation for format email-or-empty: not-an-email' on property support_email (End-user support email.)."],
      ['a default redirection URI over http', { default_redirection_uri: 'http://acme.example.com/' }, "Payload validation error: 'Object didn't pass validation for format absolute-https-uri-or-empty: http://acme.example.com/' on property default_redirection_uri (The default absolute redirection uri, must be https)."],
      ['a session cookie mode the service lacks', { session_cookie: { mode: 'forever' } }, "Payload validation error: 'No enum match for: forever' on property session_cookie.mode (Behavior of the session cookie)."],
      ['a too long friendly name', { friendly_name: 'x'.repeat(2049) }, "Payload validation error: 'String is too long (2049 chars), maximum 2048' on property friendly_name (Friendly name for this tenant.)."],
      ['both units of a lifetime', { session_lifetime: 2, session_lifetime_in_minutes: 30 }, "Payload validation error: 'session_lifetime_in_minutes cannot be specified together with session_lifetime' on property session_lifetime_in_minutes (Number of minutes a session will stay valid. Cannot be specified together with `session_lifetime`.)."],
      ['not an object', [1, 2] as unknown as Record<string, unknown>, "Payload validation error: 'Expected type object but found type array'."],
    ];
    for (const [what, body, message] of refusals) {
      it(`refuses ${what}`, async () => {
        const before = await get();
        const res = await patch(body);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_body' });
        assert.deepEqual(await get(), before);
      });
    }

    it('refuses a page HTML over 100 KiB', async () => {
      const res = await patch({ error_page: { html: 'x'.repeat(102_401) } });
      assert.equal(res.statusCode, 400);
      assert.match((res.json() as { message: string }).message, /String is too long \(102401 chars\), maximum 102400' on property error_page\.html/);
    });
  });

  describe('scopes', () => {
    it('GET needs read:tenant_settings, PATCH update:tenant_settings', async () => {
      const readOnly = await t.managementToken('read:tenant_settings');
      const updateOnly = await t.managementToken('update:tenant_settings');
      const read = await t.management('GET', '/api/v2/tenants/settings', { token: readOnly });
      assert.equal(read.statusCode, 200);
      const refusedPatch = await patch({ friendly_name: 'Nope' }, readOnly);
      assert.equal(refusedPatch.statusCode, 403);
      assert.deepEqual(refusedPatch.json(), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: update:tenant_settings', errorCode: 'insufficient_scope' });
      assert.equal((await patch({ friendly_name: 'Yes' }, updateOnly)).statusCode, 200);
      const refusedGet = await t.management('GET', '/api/v2/tenants/settings', { token: updateOnly });
      assert.equal(refusedGet.statusCode, 403);
      assert.equal((refusedGet.json() as { message: string }).message, 'Insufficient scope, expected any of: read:tenant_settings');
      assert.equal((await get()).friendly_name, 'Yes');
    });
  });

  describe('honoured settings', () => {
    const clientCredentials = (extra: Record<string, string> = {}) =>
      tokenRequest(t.app, { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, ...extra });

    it('default_audience: a token request without audience gets a token for the default API', async () => {
      const without = await clientCredentials();
      assert.notEqual(without.statusCode, 200, 'no audience and no default: no API token');
      assert.equal((await patch({ default_audience: API })).statusCode, 200);
      const res = await clientCredentials();
      assert.equal(res.statusCode, 200, res.body);
      const claims = decodeJwt((res.json() as { access_token: string }).access_token);
      assert.equal(claims.aud, API);
      assert.equal(claims.scope, 'read:things');
      assert.equal((await patch({ default_audience: '' })).statusCode, 200);
      assert.notEqual((await clientCredentials()).statusCode, 200, 'cleared again');
    });

    it('default_directory: the password grant without realm logs in against that connection', async () => {
      const password = (username: string) =>
        tokenRequest(t.app, { grant_type: 'password', client_id: machine.client_id, client_secret: machine.client_secret, username, password: PASSWORD, audience: API });
      const ambiguous = await password('olga@example.com');
      assert.equal(ambiguous.statusCode, 400, 'two database connections and no default directory');
      assert.equal((await patch({ default_directory: OTHER_DB })).statusCode, 200);
      const olga = await password('olga@example.com');
      assert.equal(olga.statusCode, 200, olga.body);
      const alice = await password('alice@example.com');
      assert.equal(alice.statusCode, 403, 'alice is not in the default directory');
      assert.equal((alice.json() as { error: string }).error, 'invalid_grant');
    });

    it('allowed_logout_urls: /v2/logout without client_id follows a listed returnTo and refuses another', async () => {
      const listed = 'https://portal.example.net/bye';
      const refusedBefore = await page(`/v2/logout?returnTo=${encodeURIComponent(listed)}`);
      assert.equal(refusedBefore.statusCode, 400);
      assert.equal((await patch({ allowed_logout_urls: [listed] })).statusCode, 200);
      const { cookie } = await login();
      const followed = await page(`/v2/logout?returnTo=${encodeURIComponent(listed)}`, cookie);
      assert.equal(followed.statusCode, 302, followed.body);
      assert.equal(followed.headers.location, listed);
      assert.equal(await sessionActive(cookie), false);
      const other = await page(`/v2/logout?returnTo=${encodeURIComponent('https://evil.example.com/')}`);
      assert.equal(other.statusCode, 400);
      assert.equal(other.headers.location, undefined);
      assert.match(other.body, /not defined as a valid URL in &quot;Allowed Logout URLs&quot;/);
    });

    it('session_lifetime: a shorter lifetime ends the SSO session once the clock passes it', async () => {
      assert.equal((await patch({ session_lifetime_in_minutes: 60 })).statusCode, 200);
      const { cookie, setCookie } = await login();
      assert.match(setCookie, /; Max-Age=3600;/);
      assert.equal(await withClockAdvanced(t, 59 * MINUTE, () => sessionActive(cookie)), true);
      assert.equal(await withClockAdvanced(t, 61 * MINUTE, () => sessionActive(cookie)), false);
    });

    it('session_lifetime shortened after the login ends sessions already running', async () => {
      const { cookie } = await login();
      assert.equal(await withClockAdvanced(t, 2 * 60 * MINUTE, () => sessionActive(cookie)), true, 'the default 72 hours');
      assert.equal((await patch({ session_lifetime: 1 })).statusCode, 200);
      assert.equal(await withClockAdvanced(t, 2 * 60 * MINUTE, () => sessionActive(cookie)), false);
    });

    it('idle_session_lifetime: each use moves the idle end, inactivity past it ends the session', async () => {
      assert.equal((await patch({ idle_session_lifetime_in_minutes: 30 })).statusCode, 200);
      const { cookie } = await login();
      // Used at +20 and +45 minutes (25 idle): still active; then idle from +45 to +80 (35): ended.
      assert.equal(await withClockAdvanced(t, 20 * MINUTE, () => sessionActive(cookie)), true);
      assert.equal(await withClockAdvanced(t, 45 * MINUTE, () => sessionActive(cookie)), true);
      // The Management API shows the idle end the last use set, and the absolute end.
      const listed = await t.management('GET', `/api/v2/users/${encodeURIComponent(aliceId)}/sessions`);
      assert.equal(listed.statusCode, 200, listed.body);
      const sessions = (listed.json() as { sessions: { created_at: string; last_interacted_at: string; idle_expires_at: string; expires_at: string }[] }).sessions;
      // This case's login is the newest of alice's sessions.
      const session = sessions.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0]!;
      const idleFor = Date.parse(session.last_interacted_at) - Date.parse(session.created_at);
      assert.ok(idleFor >= 45 * MINUTE && idleFor < 46 * MINUTE, `last used at +45 minutes (the test's own run time aside), not ${idleFor} ms`);
      assert.equal(Date.parse(session.idle_expires_at) - Date.parse(session.last_interacted_at), 30 * MINUTE);
      assert.equal(Date.parse(session.expires_at) - Date.parse(session.created_at), 72 * 60 * MINUTE);
      assert.equal(await withClockAdvanced(t, 80 * MINUTE, () => sessionActive(cookie)), false);
    });

    it('session_cookie non-persistent: a browser-session cookie under the ephemeral lifetimes', async () => {
      assert.equal((await patch({ session_cookie: { mode: 'non-persistent' }, idle_ephemeral_session_lifetime_in_minutes: 10 })).statusCode, 200);
      const { cookie, setCookie } = await login();
      assert.ok(setCookie.startsWith(`${SESSION_COOKIE}=`));
      assert.doesNotMatch(setCookie, /Max-Age/);
      assert.equal(await withClockAdvanced(t, 9 * MINUTE, () => sessionActive(cookie)), true);
      assert.equal(await withClockAdvanced(t, 20 * MINUTE, () => sessionActive(cookie)), false);
      assert.equal((await get()).idle_ephemeral_session_lifetime, 10 / 60);
    });
  });
});
