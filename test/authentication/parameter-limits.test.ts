/**
 * Size limits on Authentication API parameters (src/authentication/parameter-limits.ts),
 * through app.inject on the real app: an oversized identifier or password is
 * refused with 400 invalid_request naming it, before any user lookup, password
 * hash or brute-force count (GET /api/v2/user-blocks shows no block after more
 * refused attempts than the brute-force threshold), and so is a request with
 * more than 64 parameters.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_FAILURES } from '../../src/domain/brute-force.js';
import { BROWSER_COOKIE } from '../../src/authentication/cookies.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const CALLBACK = 'https://app.example.com/callback';
const MiB = 1_048_576;

const tooLong = (name: string, bytes: number) => ({ error: 'invalid_request', error_description: `Parameter ${name} is too long (at most ${bytes} bytes)` });
const TOO_MANY = { error: 'invalid_request', error_description: 'Too many parameters (at most 64)' };
const BODY_TOO_LARGE = { error: 'invalid_request', error_description: 'Request body too large' };
const WRONG = { error: 'invalid_grant', error_description: 'Wrong email or password.' };

/** `n` parameters p0…p(n-1). */
const manyParams = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 'x']));

describe('Authentication API parameter limits', () => {
  let t: TestApp;
  let app: TestClient;
  let web: TestClient;

  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, ...(cookie && { cookie }) } });
  const postForm = (url: string, form: Record<string, string>, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', ...(cookie && { cookie }) },
      payload: new URLSearchParams(form).toString(),
    });
  const passwordGrant = (username: string, password = 'wrong password') =>
    tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username, password, realm: REALM });

  async function blocksOf(identifier: string): Promise<unknown> {
    const res = await t.management('GET', `/api/v2/user-blocks?identifier=${encodeURIComponent(identifier)}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  /** A login page of a waiting authorization request: its form fields and the browser cookie. */
  async function loginPage(): Promise<{ state: string; csrf_token: string; cookie: string }> {
    const start = await get(`/authorize?${new URLSearchParams({ client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 's' })}`);
    assert.equal(start.statusCode, 302, start.body);
    // The request is bound to the browser /authorize named with this cookie.
    const cookie = ([] as string[]).concat(start.headers['set-cookie'] as string | string[]).find((c) => c.startsWith(`${BROWSER_COOKIE}=`))!.split(';')[0]!;
    const page = await get(start.headers.location as string, cookie);
    assert.equal(page.statusCode, 200, page.body);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)![1]!;
    return { state: field('state'), csrf_token: field('csrf_token'), cookie };
  }

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id, web.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
  });
  after(() => t.close());

  describe('password grant', () => {
    it('a 1 MiB username: refused by the body limit (413) before anything is read', async () => {
      const res = await passwordGrant('u'.repeat(MiB));
      assert.equal(res.statusCode, 413, res.body);
      assert.deepEqual(res.json(), BODY_TOO_LARGE);
    });

    it('a 1,000,000-byte username inside the body limit: 400 naming username', async () => {
      const res = await passwordGrant('u'.repeat(1_000_000));
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), tooLong('username', 512));
    });

    it(`a 513-byte username, ${MAX_FAILURES + 1} times: 400 each, and no brute-force failure is counted for it`, async () => {
      const username = `${'u'.repeat(500)}@example.com`.padEnd(513, 'x');
      assert.equal(Buffer.byteLength(username), 513);
      for (let i = 0; i <= MAX_FAILURES; i++) {
        const res = await passwordGrant(username);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), tooLong('username', 512));
      }
      assert.deepEqual(await blocksOf(username), { blocked_for: [] });
    });

    it(`control: a 512-byte username is looked up, and ${MAX_FAILURES} failures block it`, async () => {
      const username = 'v'.repeat(512);
      for (let i = 0; i < MAX_FAILURES; i++) {
        const res = await passwordGrant(username);
        assert.equal(res.statusCode, 403, res.body);
        assert.deepEqual(res.json(), WRONG);
      }
      const blocks = (await blocksOf(username)) as { blocked_for: { identifier: string }[] };
      assert.equal(blocks.blocked_for.length, 1);
      assert.equal(blocks.blocked_for[0]!.identifier, username);
    });

    it('a multi-byte username is measured in bytes: 171 three-byte characters (513 bytes) are refused', async () => {
      const res = await passwordGrant('€'.repeat(171));
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), tooLong('username', 512));
    });

    it('an oversized password (1,025 bytes): 400 naming password, JSON and form alike', async () => {
      const body = { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'alice@example.com', password: 'p'.repeat(1025), realm: REALM };
      for (const form of [false, true]) {
        const res = await tokenRequest(t.app, body, { form });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), tooLong('password', 1024));
      }
      assert.deepEqual(await blocksOf('alice@example.com'), { blocked_for: [] });
    });

    it('another value over 4 KiB: 400 naming it', async () => {
      const res = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: app.client_id, realm: 'r'.repeat(4097) });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), tooLong('realm', 4096));
    });

    it('65 parameters: 400 Too many parameters; 64 pass the limit', async () => {
      const base = { grant_type: PASSWORD_REALM, client_id: app.client_id, client_secret: app.client_secret, username: 'nobody@example.com', password: 'x', realm: REALM };
      const refused = await tokenRequest(t.app, { ...base, ...manyParams(65 - Object.keys(base).length) });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(refused.json(), TOO_MANY);
      const form = await tokenRequest(t.app, { ...base, ...manyParams(65 - Object.keys(base).length) }, { form: true });
      assert.deepEqual(form.json(), TOO_MANY);
      const passes = await tokenRequest(t.app, { ...base, ...manyParams(64 - Object.keys(base).length) });
      assert.notDeepEqual(passes.json(), TOO_MANY);
    });
  });

  describe('hosted login form', () => {
    it('a 1 MiB username: 413 before anything is read', async () => {
      const { state, csrf_token, cookie } = await loginPage();
      const res = await postForm('/login', { state, csrf_token, username: 'u'.repeat(MiB), password: 'x' }, cookie);
      assert.equal(res.statusCode, 413, res.body);
      assert.deepEqual(res.json(), BODY_TOO_LARGE);
    });

    it(`a 513-byte username, ${MAX_FAILURES + 1} times: 400 naming username, no brute-force failure counted`, async () => {
      const username = 'w'.repeat(513);
      const { state, csrf_token, cookie } = await loginPage();
      for (let i = 0; i <= MAX_FAILURES; i++) {
        const res = await postForm('/login', { state, csrf_token, username, password: 'wrong' }, cookie);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), tooLong('username', 512));
      }
      assert.deepEqual(await blocksOf(username), { blocked_for: [] });
      // The form's transaction is untouched and still usable.
      const page = await get(`/login?state=${state}`, cookie);
      assert.equal(page.statusCode, 200);
    });

    it('an oversized password, email or state on the other forms: 400 naming it', async () => {
      const { state, csrf_token, cookie } = await loginPage();
      const cases: [string, Record<string, string>, ReturnType<typeof tooLong>][] = [
        ['/login', { state, csrf_token, username: 'alice@example.com', password: 'p'.repeat(1025) }, tooLong('password', 1024)],
        ['/signup', { state, csrf_token, email: `${'e'.repeat(510)}@x.io`, password: 'Pass-w0rd!' }, tooLong('email', 512)],
        ['/forgot-password', { state, csrf_token, email: `${'e'.repeat(510)}@x.io` }, tooLong('email', 512)],
        ['/consent', { state: 's'.repeat(4097), csrf_token, decision: 'accept' }, tooLong('state', 4096)],
        ['/reset-password', { ticket: 't', csrf_token, password: 'p'.repeat(1025), password_confirmation: 'p' }, tooLong('password', 1024)],
        ['/oidc/logout', { id_token_hint: 'h'.repeat(16_385) }, tooLong('id_token_hint', 16_384)],
      ];
      for (const [url, form, expected] of cases) {
        const res = await postForm(url, form, cookie);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.deepEqual(res.json(), expected, url);
      }
      const signups = await t.management('GET', '/api/v2/users?include_totals=true');
      assert.equal((signups.json() as { total: number }).total, 0, 'no user was signed up');
    });

    it('65 form parameters: 400 Too many parameters', async () => {
      const { state, csrf_token, cookie } = await loginPage();
      const res = await postForm('/login', { state, csrf_token, username: 'alice@example.com', password: 'x', ...manyParams(61) }, cookie);
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), TOO_MANY);
    });
  });

  describe('/authorize query', () => {
    const authorize = (extra: Record<string, string>) =>
      get(`/authorize?${new URLSearchParams({ client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, ...extra })}`);

    it('a state over 4 KiB: 400 naming it; 4 KiB passes', async () => {
      const state = await authorize({ state: 's'.repeat(4097) });
      assert.equal(state.statusCode, 400, state.body);
      assert.deepEqual(state.json(), tooLong('state', 4096));
      const ok = await authorize({ state: 's'.repeat(4096) });
      assert.equal(ok.statusCode, 302, ok.body);
    });

    it('65 parameters: 400 Too many parameters; a repeated parameter counts each time', async () => {
      const res = await authorize(manyParams(62));
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), TOO_MANY);
      const repeated = await get(`/authorize?client_id=${web.client_id}&response_type=code${'&scope=openid'.repeat(63)}`);
      assert.equal(repeated.statusCode, 400, repeated.body);
      assert.deepEqual(repeated.json(), TOO_MANY);
    });
  });

  it('/dbconnections/signup keeps its own limits and error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dbconnections/signup',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_id: web.client_id, connection: REALM, email: 'new@example.com', password: 'p'.repeat(1025) }),
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal((res.json() as { name?: string }).name, 'BadRequestError');
  });
});
