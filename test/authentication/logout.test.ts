/**
 * Logout through app.inject on the real app and database: GET /v2/logout and
 * GET|POST /oidc/logout end the SSO session and clear its cookie, and send
 * the browser only to an Allowed Logout URL (else a 400 page, no Location).
 * Sessions are obtained as in authorize.test.ts: /authorize → /login → POST /login.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt, SignJWT } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE } from '../../src/authentication/cookies.js';
import { Browser } from '../helpers/browser.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { newSecret, secretHash } from '../../src/domain/secrets.js';
import { isoAt } from '../../src/platform/clock.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'https://app.example.com/callback';
const LOGOUT_URL = 'https://app.example.com/logged-out';
const OTHER_LOGOUT_URL = 'https://other.example.com/bye';
const TENANT_LOGOUT_URL = 'https://portal.example.net/';
const ISSUER = `https://${DOMAIN}/`;
const CLEARED = '__Host-gh_session=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=None';

describe('logout: /v2/logout and /oidc/logout', () => {
  let t: TestApp;
  let app: TestClient;
  let other: TestClient;

  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, ...(cookie && { cookie }) } });
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

  const authorizeUrl = (client: TestClient, extra: Record<string, string> = {}) =>
    `/authorize?${query({ client_id: client.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 'xyz', scope: 'openid', ...extra })}`;

  /** Logs alice in for the (confidential) client: the session cookie and an ID token of that session. */
  async function login(client: TestClient): Promise<{ cookie: string; idToken: string }> {
    const browser = new Browser(t);
    const done = await browser.login(authorizeUrl(client), 'alice@example.com', PASSWORD);
    assert.equal(done.statusCode, 302, done.body);
    const cookie = `${SESSION_COOKIE}=${browser.jar.get(SESSION_COOKIE)}`;
    const code = new URL(done.headers.location as string).searchParams.get('code')!;
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: CALLBACK });
    assert.equal(tokens.statusCode, 200, tokens.body);
    return { cookie, idToken: (tokens.json() as { id_token: string }).id_token };
  }

  /** Whether the cookie's session is still active: /authorize with prompt=none gives a code, or login_required. */
  async function sessionActive(cookie: string): Promise<boolean> {
    const res = await get(authorizeUrl(app, { prompt: 'none' }), cookie);
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(res.headers.location as string);
    if (location.searchParams.has('code')) return true;
    assert.equal(location.searchParams.get('error'), 'login_required');
    return false;
  }

  function assertRefused(res: LightMyRequestResponse, pattern: RegExp): void {
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.headers.location, undefined);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.match(res.headers['content-security-policy'] as string, /^default-src 'none'; form-action 'self'; style-src 'sha256-[A-Za-z0-9+\/=]+' 'sha256-[A-Za-z0-9+\/=]+'; base-uri 'none'; frame-ancestors 'none'$/);
    assert.match(res.body, pattern);
  }

  function assertLoggedOut(res: LightMyRequestResponse): void {
    assert.equal(res.headers['set-cookie'], CLEARED);
  }

  before(async () => {
    t = await createTestApp();
    const grants = ['authorization_code', 'refresh_token'];
    app = await insertClient(t, {
      grant_types: grants,
      config: { callbacks: [CALLBACK], allowed_logout_urls: [LOGOUT_URL, 'https://*.example.org/bye'] },
    });
    other = await insertClient(t, { grant_types: grants, config: { callbacks: [CALLBACK], allowed_logout_urls: [OTHER_LOGOUT_URL] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id, other.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
  });
  after(() => t.close());

  describe('GET /v2/logout', () => {
    beforeEach(async () => {
      await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, allowed_logout_urls: [TENANT_LOGOUT_URL] });
    });

    it('ends the session, clears the cookie and redirects to an allowed returnTo (query string ignored in matching)', async () => {
      const { cookie } = await login(app);
      assert.equal(await sessionActive(cookie), true);
      const returnTo = `${LOGOUT_URL}?from=app&x=1`;
      const res = await get(`/v2/logout?${query({ client_id: app.client_id, returnTo })}&federated`, cookie);
      assert.equal(res.statusCode, 302, res.body);
      assert.equal(res.headers.location, returnTo);
      assertLoggedOut(res);
      assert.equal(await sessionActive(cookie), false);
    });

    it('a wildcard Allowed Logout URL matches one DNS label', async () => {
      const ok = await get(`/v2/logout?${query({ client_id: app.client_id, returnTo: 'https://t1.example.org/bye' })}`);
      assert.equal(ok.statusCode, 302);
      assert.equal(ok.headers.location, 'https://t1.example.org/bye');
      const refused = await get(`/v2/logout?${query({ client_id: app.client_id, returnTo: 'https://a.b.example.org/bye' })}`);
      assertRefused(refused, /not defined as a valid URL/);
    });

    it('the wildcard Allowed Logout URL itself is not a returnTo: only concrete hosts match it', async () => {
      const { cookie } = await login(app);
      const res = await get(`/v2/logout?${query({ client_id: app.client_id, returnTo: 'https://*.example.org/bye' })}`, cookie);
      assertRefused(res, /https:\/\/\*\.example\.org\/bye&quot; is not defined as a valid URL in &quot;Allowed Logout URLs&quot;/);
      assert.equal(await sessionActive(cookie), true, 'the session is kept');
    });

    it('a returnTo not allowed: 400 page without Location, the session kept (no open redirect)', async () => {
      const { cookie } = await login(app);
      const cases: Record<string, string>[] = [
        { client_id: app.client_id, returnTo: 'https://evil.example.com/' },
        { client_id: app.client_id, returnTo: `${LOGOUT_URL}/extra` },
        { client_id: app.client_id, returnTo: 'https://app.example.com@evil.example.com/logged-out' },
        { client_id: app.client_id, returnTo: OTHER_LOGOUT_URL },
        { client_id: app.client_id, returnTo: 'not a url' },
        // Without client_id the tenant's list applies, not the client's.
        { returnTo: LOGOUT_URL },
      ];
      for (const params of cases) {
        const res = await get(`/v2/logout?${query(params)}`, cookie);
        assertRefused(res, /is not defined as a valid URL in &quot;Allowed Logout URLs&quot;/);
      }
      const xss = await get(`/v2/logout?${query({ returnTo: 'https://x/"><script>alert(1)</script>' })}`, cookie);
      assertRefused(xss, /&lt;script&gt;/);
      assert.ok(!xss.body.includes('<script>'));
      const unknown = await get(`/v2/logout?${query({ client_id: 'nope', returnTo: LOGOUT_URL })}`, cookie);
      assertRefused(unknown, /Unknown client/);
      assert.equal(await sessionActive(cookie), true);
    });

    it("without client_id: the tenant's Allowed Logout URLs", async () => {
      const { cookie } = await login(app);
      const res = await get(`/v2/logout?${query({ returnTo: TENANT_LOGOUT_URL })}`, cookie);
      assert.equal(res.statusCode, 302, res.body);
      assert.equal(res.headers.location, TENANT_LOGOUT_URL);
      assertLoggedOut(res);
      assert.equal(await sessionActive(cookie), false);
    });

    it('without returnTo: the logged-out page; with client_id, the first Allowed Logout URL', async () => {
      const { cookie } = await login(app);
      const res = await get('/v2/logout', cookie);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /You have been logged out\./);
      assert.match(res.headers['content-security-policy'] as string, /^default-src 'none'; form-action 'self'; style-src 'sha256-[A-Za-z0-9+\/=]+' 'sha256-[A-Za-z0-9+\/=]+'; base-uri 'none'; frame-ancestors 'none'$/);
      assert.equal(res.headers.location, undefined);
      assertLoggedOut(res);
      assert.equal(await sessionActive(cookie), false);

      const withClient = await get(`/v2/logout?${query({ client_id: app.client_id })}`);
      assert.equal(withClient.statusCode, 302);
      assert.equal(withClient.headers.location, LOGOUT_URL);
    });
  });

  describe('/oidc/logout', () => {
    it('id_token_hint + post_logout_redirect_uri + state: session ended, 302 with state', async () => {
      const { cookie, idToken } = await login(app);
      const res = await get(`/oidc/logout?${query({ id_token_hint: idToken, post_logout_redirect_uri: `${LOGOUT_URL}?a=1`, state: 's t&x' })}`, cookie);
      assert.equal(res.statusCode, 302, res.body);
      const location = new URL(res.headers.location as string);
      assert.equal(`${location.origin}${location.pathname}`, LOGOUT_URL);
      assert.equal(location.searchParams.get('a'), '1');
      assert.equal(location.searchParams.get('state'), 's t&x');
      assertLoggedOut(res);
      assert.equal(await sessionActive(cookie), false);
    });

    it('POST form with client_id and logout_hint (the sid) agreeing with the hint', async () => {
      const { cookie, idToken } = await login(app);
      const sid = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()).sid as string;
      const res = await t.app.inject({
        method: 'POST',
        url: '/oidc/logout',
        headers: { host: DOMAIN, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: query({ id_token_hint: idToken, client_id: app.client_id, logout_hint: sid, post_logout_redirect_uri: LOGOUT_URL }),
      });
      assert.equal(res.statusCode, 302, res.body);
      assert.equal(res.headers.location, LOGOUT_URL);
      assert.equal(await sessionActive(cookie), false);
    });

    it('without post_logout_redirect_uri: the logged-out page', async () => {
      const { cookie, idToken } = await login(app);
      const res = await get(`/oidc/logout?${query({ id_token_hint: idToken })}`, cookie);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /You have been logged out\./);
      assertLoggedOut(res);
      assert.equal(await sessionActive(cookie), false);
    });

    it('refused without Location, the session kept: client_id mismatch, forged or foreign hint, unregistered URI, logout_hint mismatch', async () => {
      const { cookie, idToken } = await login(app);
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const kid = (JSON.parse(Buffer.from(idToken.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
      const claims = { iss: ISSUER, aud: app.client_id, sub: 'auth0|x' };
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).setIssuedAt().setExpirationTime('1h').sign(privateKey);
      const { signing } = await t.ctx.keyring.keys(t.tenant.id);
      const otherIssuer = await new SignJWT({ ...claims, iss: 'https://elsewhere.test/' })
        .setProtectedHeader({ alg: 'RS256', kid: signing.kid })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(signing.privateKey);
      const noExp = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid: signing.kid }).setIssuedAt().sign(signing.privateKey);
      const [header, payload] = idToken.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), aud: other.client_id })).toString('base64url')}.${idToken.split('.')[2]}`;

      const cases: [Record<string, string>, RegExp][] = [
        [{ id_token_hint: idToken, client_id: other.client_id, post_logout_redirect_uri: OTHER_LOGOUT_URL }, /client_id does not match/],
        [{ id_token_hint: forged, post_logout_redirect_uri: LOGOUT_URL }, /Invalid id_token_hint/],
        [{ id_token_hint: otherIssuer, post_logout_redirect_uri: LOGOUT_URL }, /Invalid id_token_hint/],
        [{ id_token_hint: tampered, post_logout_redirect_uri: OTHER_LOGOUT_URL }, /Invalid id_token_hint/],
        [{ id_token_hint: 'not-a-jwt', post_logout_redirect_uri: LOGOUT_URL }, /Invalid id_token_hint/],
        [{ id_token_hint: noExp, post_logout_redirect_uri: LOGOUT_URL }, /Invalid id_token_hint/],
        [{ id_token_hint: idToken, post_logout_redirect_uri: OTHER_LOGOUT_URL }, /not defined as a valid URL/],
        [{ id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example.com/' }, /not defined as a valid URL/],
        [{ id_token_hint: idToken, logout_hint: 'another-session', post_logout_redirect_uri: LOGOUT_URL }, /logout_hint does not match/],
        [{ post_logout_redirect_uri: LOGOUT_URL }, /not defined as a valid URL/],
      ];
      for (const [params, pattern] of cases) assertRefused(await get(`/oidc/logout?${query(params)}`, cookie), pattern);
      assert.equal(await sessionActive(cookie), true);
    });

    it('without id_token_hint: a confirmation page first; only its session-bound form ends the session', async () => {
      const { cookie } = await login(app);
      const ask = await get(`/oidc/logout?${query({ client_id: app.client_id, post_logout_redirect_uri: LOGOUT_URL, state: 'q' })}`, cookie);
      assert.equal(ask.statusCode, 200, ask.body);
      assert.match(ask.body, /<h1>Log out\?<\/h1>/);
      assert.equal(ask.headers['set-cookie'], undefined, 'nothing ended yet');
      assert.match(ask.headers['content-security-policy'] as string, new RegExp(`form-action 'self' ${new URL(LOGOUT_URL).origin};`));
      assert.equal(await sessionActive(cookie), true);
      const fields = Object.fromEntries([...ask.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
      assert.deepEqual(Object.keys(fields).sort(), ['client_id', 'confirm', 'csrf_token', 'post_logout_redirect_uri', 'state']);
      const postForm = (form: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/oidc/logout', headers: { host: DOMAIN, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: query(form) });

      // A cross-site form posting confirm=yes without the token (or with another session's) only gets the question again.
      for (const csrf of [undefined, 'forged']) {
        const forged = await postForm({ ...fields, ...(csrf === undefined ? { csrf_token: '' } : { csrf_token: csrf }) });
        assert.equal(forged.statusCode, 200);
        assert.equal(await sessionActive(cookie), true);
      }
      const done = await postForm(fields);
      assert.equal(done.statusCode, 302, done.body);
      assert.equal(done.headers.location, `${LOGOUT_URL}?state=q`);
      assertLoggedOut(done);
      assert.equal(await sessionActive(cookie), false);

      // No session to end: no question.
      const none = await get(`/oidc/logout?${query({ client_id: app.client_id, post_logout_redirect_uri: LOGOUT_URL })}`);
      assert.equal(none.statusCode, 302);
    });

    it('an expired id_token_hint of this tenant is accepted', async () => {
      const { cookie, idToken } = await login(app);
      const { sub, sid } = decodeJwt(idToken);
      const { signing } = await t.ctx.keyring.keys(t.tenant.id);
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ iss: ISSUER, aud: app.client_id, sub, sid, iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: signing.kid })
        .sign(signing.privateKey);
      const res = await get(`/oidc/logout?${query({ id_token_hint: expired, post_logout_redirect_uri: LOGOUT_URL, state: 'abc' })}`, cookie);
      assert.equal(res.statusCode, 302, res.body);
      assert.equal(res.headers.location, `${LOGOUT_URL}?state=abc`);
      assert.equal(await sessionActive(cookie), false);
    });

    it("a hint of another user, or of this user's earlier session, ends nothing by itself: the user is asked", async () => {
      const { signing } = await t.ctx.keyring.keys(t.tenant.id);
      const hintFor = (claims: Record<string, unknown>) =>
        new SignJWT({ iss: ISSUER, aud: app.client_id, ...claims }).setProtectedHeader({ alg: 'RS256', kid: signing.kid }).setIssuedAt().setExpirationTime('1h').sign(signing.privateKey);
      const earlier = await login(app);
      const { cookie, idToken } = await login(app);
      const { sub, sid } = decodeJwt(idToken);
      assert.notEqual(decodeJwt(earlier.idToken).sid, sid, 'two sessions');
      for (const hint of [await hintFor({ sub: 'auth0|someone-else', sid }), earlier.idToken]) {
        const ask = await get(`/oidc/logout?${query({ id_token_hint: hint, post_logout_redirect_uri: LOGOUT_URL })}`, cookie);
        assert.equal(ask.statusCode, 200, ask.body);
        assert.match(ask.body, /<h1>Log out\?<\/h1>/);
        assert.equal(ask.headers['set-cookie'], undefined);
        assert.equal(await sessionActive(cookie), true, 'the session is kept');
      }
      // Confirming the question (the hint travels with the form) ends it.
      const ask = await get(`/oidc/logout?${query({ id_token_hint: earlier.idToken, post_logout_redirect_uri: LOGOUT_URL })}`, cookie);
      const fields = Object.fromEntries([...ask.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
      assert.equal(fields.id_token_hint, earlier.idToken);
      const done = await t.app.inject({ method: 'POST', url: '/oidc/logout', headers: { host: DOMAIN, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: query(fields) });
      assert.equal(done.statusCode, 302, done.body);
      assert.equal(done.headers.location, LOGOUT_URL);
      assert.equal(await sessionActive(cookie), false);

      // A hint naming the user without a sid covers any of that user's sessions.
      const third = await login(app);
      const noSid = await get(`/oidc/logout?${query({ id_token_hint: await hintFor({ sub }), post_logout_redirect_uri: LOGOUT_URL })}`, third.cookie);
      assert.equal(noSid.statusCode, 302, noSid.body);
      assert.equal(await sessionActive(third.cookie), false);
    });

    it('is the discovery end_session_endpoint', async () => {
      const doc = (await get('/.well-known/openid-configuration')).json() as Record<string, unknown>;
      assert.equal(doc.end_session_endpoint, `https://${DOMAIN}/oidc/logout`);
    });
  });

  it('a user keeps at most 100 active sessions: a new login ends the oldest', async () => {
    const oldest = await login(app);
    const db = t.ctx.database.db;
    const first = await db.selectFrom('sessions').selectAll().where('id_hash', '=', secretHash(oldest.cookie.split('=')[1]!)).executeTakeFirstOrThrow();
    // Alice's other sessions (earlier tests) end, then 99 newer ones: the first is the oldest of 100.
    await db.updateTable('sessions').set({ revoked_at: first.created_at }).where('user_id', '=', first.user_id).where('id_hash', '!=', first.id_hash).execute();
    const rows = Array.from({ length: 99 }, (_, i) => ({ ...first, id_hash: secretHash(newSecret()), created_at: isoAt(Date.parse(first.created_at) + 1000 + i) }));
    await db.insertInto('sessions').values(rows).execute();
    assert.equal(await sessionActive(oldest.cookie), true);

    await withClockAdvanced(t, 60_000, async () => {
      const newest = await login(app);
      assert.equal(await sessionActive(oldest.cookie), false, 'the oldest ended');
      assert.equal(await sessionActive(newest.cookie), true);
      const active = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', first.user_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      assert.equal(Number(active.n), 100);
    });
  });
});
