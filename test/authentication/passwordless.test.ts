/**
 * Passwordless email login through app.inject on the real app and database:
 * email connections in the Management API (their options checked),
 * POST /passwordless/start (codes and magic links, the service's shapes and
 * dotted errors, client authentication, limits), the passwordless OTP grant
 * and /passwordless/verify_redirect, and each refusal: a code used twice,
 * after expiry, past its wrong tries, for another client, and signup when
 * `disable_signup` is set.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_CODE_TRIES } from '../../src/domain/passwordless/options.js';
import { SENDS_PER_RECIPIENT } from '../../src/authentication/abuse-limits.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';
const CALLBACK = 'https://app.example.com/callback';

describe('passwordless email', () => {
  let t: TestApp;
  let spa: TestClient;
  let web: TestClient;
  let connectionId: string;

  const mgmt = (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const start = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/passwordless/start', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const outbox = () => t.ctx.mailer.outbox!.messages();
  const lastCodeFor = (email: string) => /code for .* is (\d+)/.exec(outbox().filter((m) => m.to === email).at(-1)!.text)![1]!;
  const login = (client: TestClient, email: string, otp: string, extra: Record<string, string> = {}) =>
    tokenRequest(t.app, { grant_type: GRANT, client_id: client.client_id, ...(client === web && { client_secret: web.client_secret }), realm: 'email', username: email, otp, ...extra });
  const refusal = (res: LightMyRequestResponse) => ({ status: res.statusCode, ...(res.json() as Record<string, unknown>) });
  const WRONG = { status: 403, error: 'invalid_grant', error_description: 'Wrong email or verification code.' };

  before(async () => {
    t = await createTestApp();
    spa = await insertClient(t, { name: 'Passwordless SPA', grant_types: [GRANT, 'authorization_code'], token_endpoint_auth_method: 'none', client_secret_enc: null, config: { callbacks: [CALLBACK] } });
    web = await insertClient(t, { name: 'Passwordless Web', grant_types: [GRANT, 'authorization_code'], config: { callbacks: [CALLBACK] } });
    const created = await mgmt('POST', '/api/v2/connections', {
      name: 'email',
      strategy: 'email',
      enabled_clients: [spa.client_id, web.client_id],
      options: { totp: { length: 6, time_step: 300 }, email: { syntax: 'liquid', subject: 'Your code for {{ application.name }}', body: '<p>Code {{ code }} for {{ email }}</p>' } },
    });
    assert.equal(created.statusCode, 201, created.body);
    connectionId = (created.json() as { id: string }).id;
  });
  after(() => t.close());

  it('the Management API refuses bad passwordless options', async () => {
    for (const options of [{ totp: { length: 2 } }, { totp: { time_step: 5 } }, { email: { body: '{% if %}' } }, { email: { subject: 'a\nBcc: x@example.com' } }, { disable_signup: 'yes' }]) {
      const res = await mgmt('POST', '/api/v2/connections', { name: `email-bad-${Math.random().toString(36).slice(2, 8)}`, strategy: 'email', options });
      assert.equal(res.statusCode, 400, `${JSON.stringify(options)}: ${res.body}`);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body');
    }
  });

  it('start sends a code from the tenant template; the OTP grant logs in and creates the email| user', async () => {
    const res = await start({ client_id: spa.client_id, connection: 'email', email: 'Pat@Example.com', send: 'code' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['_id', 'email', 'email_verified']);
    assert.match(body._id as string, /^[0-9a-f]{24}$/);
    assert.equal(body.email, 'Pat@Example.com');
    const mail = outbox().at(-1)!;
    assert.equal(mail.subject, 'Your code for Passwordless SPA');
    const code = lastCodeFor('Pat@Example.com');
    assert.match(code, /^\d{6}$/);
    assert.equal(mail.html, `<p>Code ${code} for Pat@Example.com</p>`);

    const tokens = await login(spa, 'pat@example.com', code, { scope: 'openid email' });
    assert.equal(tokens.statusCode, 200, tokens.body);
    const claims = decodeJwt((tokens.json() as { id_token: string }).id_token);
    assert.match(claims.sub!, /^email\|[0-9a-f]{24}$/);
    assert.equal(claims.email_verified, true);
    const user = (await mgmt('GET', `/api/v2/users/${encodeURIComponent(claims.sub!)}`)).json() as { identities: { provider: string; connection: string }[]; logins_count: number };
    assert.deepEqual(user.identities.map((i) => [i.provider, i.connection]), [['email', 'email']]);
    assert.equal(user.logins_count, 1);

    assert.deepEqual(refusal(await login(spa, 'pat@example.com', code)), WRONG, 'a code works once');
  });

  it('refuses an expired code, a code past its wrong tries, a replaced code and another client\'s code', async () => {
    await start({ client_id: spa.client_id, connection: 'email', email: 'lee@example.com', send: 'code' });
    const expired = lastCodeFor('lee@example.com');
    await withClockAdvanced(t, 301_000, async () => assert.deepEqual(refusal(await login(spa, 'lee@example.com', expired)), WRONG));

    await start({ client_id: spa.client_id, connection: 'email', email: 'lee@example.com', send: 'code' });
    const code = lastCodeFor('lee@example.com');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < MAX_CODE_TRIES; i++) assert.deepEqual(refusal(await login(spa, 'lee@example.com', wrong)), WRONG);
    assert.deepEqual(refusal(await login(spa, 'lee@example.com', code)), WRONG, 'the code is locked');

    await start({ client_id: spa.client_id, connection: 'email', email: 'lee@example.com', send: 'code' });
    const first = lastCodeFor('lee@example.com');
    await start({ client_id: spa.client_id, connection: 'email', email: 'lee@example.com', send: 'code' });
    const second = lastCodeFor('lee@example.com');
    if (first !== second) assert.deepEqual(refusal(await login(spa, 'lee@example.com', first)), WRONG, 'a new code replaces the old one');
    assert.deepEqual(refusal(await login(web, 'lee@example.com', second)), WRONG, "another client cannot use the SPA's code");
  });

  it('start refuses with the service\'s dotted errors, and a confidential client needs its secret', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ client_id: spa.client_id, connection: 'nope', email: 'a@example.com' }, 'bad.connection'],
      [{ client_id: spa.client_id, connection: 'email', email: 'not-an-email' }, 'bad.email'],
      [{ client_id: spa.client_id, connection: 'email', email: 'a@example.com', send: 'carrier-pigeon' }, 'bad.send'],
      [{ client_id: spa.client_id, connection: 'email', email: 'a@example.com', authParams: 'x' }, 'bad.authParams'],
      [{ connection: 'email', email: 'a@example.com' }, 'bad.client_id'],
    ];
    const before = outbox().length;
    for (const [body, error] of cases) {
      const res = await start(body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal((res.json() as { error: string }).error, error);
    }
    const noSecret = await start({ client_id: web.client_id, connection: 'email', email: 'a@example.com' });
    assert.equal(noSecret.statusCode, 401, noSecret.body);
    assert.equal(outbox().length, before, 'nothing was sent');
    const withSecret = await start({ client_id: web.client_id, client_secret: web.client_secret, connection: 'email', email: 'a@example.com', send: 'code' });
    assert.equal(withSecret.statusCode, 200, withSecret.body);
  });

  it(`limits starts per address: ${SENDS_PER_RECIPIENT.burst} an hour, then 429`, async () => {
    for (let i = 0; i < SENDS_PER_RECIPIENT.burst; i++) {
      assert.equal((await start({ client_id: spa.client_id, connection: 'email', email: 'busy@example.com', send: 'code' })).statusCode, 200);
    }
    const limited = await start({ client_id: spa.client_id, connection: 'email', email: 'BUSY@example.com', send: 'code' });
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal((limited.json() as { error: string }).error, 'too_many_requests');
    assert.ok(Number(limited.headers['retry-after']) > 0);
  });

  it('a magic link logs in once through verify_redirect and answers the application', async () => {
    const res = await start({
      client_id: web.client_id,
      client_secret: web.client_secret,
      connection: 'email',
      email: 'link@example.com',
      send: 'link',
      authParams: { redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email', state: 'st8' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const link = /https:\/\/\S+\/passwordless\/verify_redirect\?\S+/.exec(outbox().at(-1)!.text)![0];
    const url = new URL(link);
    assert.equal(url.host, DOMAIN);
    const browser = new Browser(t);
    const done = await browser.get(`${url.pathname}${url.search}`);
    const params = redirectParams(done, CALLBACK);
    assert.equal(params.get('state'), 'st8');
    assert.equal(params.get('error'), null, params.get('error_description') ?? '');
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code: params.get('code')!, redirect_uri: CALLBACK });
    assert.equal(tokens.statusCode, 200, tokens.body);
    const claims = decodeJwt((tokens.json() as { id_token: string }).id_token);
    assert.equal(claims.email, 'link@example.com');
    assert.match(claims.sub!, /^email\|/);
    assert.ok(browser.jar.has('__Host-gh_session'), 'the link started a session');
    const sso = await browser.get(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', state: 's2' })}`);
    assert.ok(redirectParams(sso, CALLBACK).get('code'), "the passwordless session answers the next request");

    const again = await new Browser(t).get(`${url.pathname}${url.search}`);
    const refused = redirectParams(again, CALLBACK);
    assert.equal(refused.get('error'), 'access_denied');
    assert.equal(refused.get('error_description'), 'Wrong email or verification code.');

    const badTarget = await new Browser(t).get(`${url.pathname}${url.search.replace(encodeURIComponent(CALLBACK), encodeURIComponent('https://evil.example.com/cb'))}`);
    assert.equal(badTarget.statusCode, 400, 'an unregistered redirect_uri is a page, never a redirect');
  });

  it('the hosted login of a client whose only connection is email: the address, the mailed code (a wrong one first), the callback', async () => {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const start = await browser.get(authorizeUrl(spa.client_id, CALLBACK, { scope: 'openid email', code_challenge: challenge, prompt: 'login' }));
    assert.equal(start.statusCode, 302, start.body);
    const location = new URL(start.headers.location as string, 'https://x');
    assert.equal(location.pathname, '/passwordless/login');
    const page = await browser.get(start.headers.location as string);
    assert.match(page.body, /Email me a code/);
    const state = hidden(page.body, 'state');
    const forged = await browser.post('/passwordless/login/start', { state, csrf_token: 'forged', email: 'hosted@example.com' });
    assert.equal(forged.statusCode, 403, 'a forged form sends nothing');
    const codePage = await browser.post('/passwordless/login/start', { state, csrf_token: hidden(page.body, 'csrf_token'), email: 'hosted@example.com' });
    assert.equal(codePage.statusCode, 200, codePage.body);
    const code = lastCodeFor('hosted@example.com');
    const wrong = await browser.post('/passwordless/login/verify', { state, csrf_token: hidden(codePage.body, 'csrf_token'), email: 'hosted@example.com', code: String((Number(code) + 1) % 1_000_000).padStart(6, '0') });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /Wrong email or verification code/);
    const done = await browser.post('/passwordless/login/verify', { state, csrf_token: hidden(wrong.body, 'csrf_token'), email: 'hosted@example.com', code });
    const params = redirectParams(done, CALLBACK);
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: spa.client_id, code: params.get('code')!, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.equal(decodeJwt((tokens.json() as { id_token: string }).id_token).email, 'hosted@example.com');

    const none = await new Browser(t).get(authorizeUrl(spa.client_id, CALLBACK, { prompt: 'none' }));
    assert.equal(redirectParams(none, CALLBACK).get('error'), 'login_required');
  });

  it('disable_signup: an unknown address gets the same answer, no mail, and cannot log in; known users still can', async () => {
    await start({ client_id: spa.client_id, connection: 'email', email: 'known@example.com', send: 'code' });
    assert.equal((await login(spa, 'known@example.com', lastCodeFor('known@example.com'))).statusCode, 200);
    const patched = await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: { disable_signup: true } });
    assert.equal(patched.statusCode, 200, patched.body);
    try {
      const sent = outbox().length;
      const unknown = await start({ client_id: spa.client_id, connection: 'email', email: 'stranger@example.com', send: 'code' });
      assert.equal(unknown.statusCode, 200, unknown.body);
      assert.deepEqual(Object.keys(unknown.json() as object), ['_id', 'email', 'email_verified']);
      assert.equal(outbox().length, sent, 'nothing is sent to an unknown address');
      assert.deepEqual(refusal(await login(spa, 'stranger@example.com', '000000')), WRONG);
      const users = (await mgmt('GET', `/api/v2/users-by-email?email=${encodeURIComponent('stranger@example.com')}`)).json() as unknown[];
      assert.deepEqual(users, [], 'no user was created');

      await start({ client_id: spa.client_id, connection: 'email', email: 'known@example.com', send: 'code' });
      assert.equal((await login(spa, 'known@example.com', lastCodeFor('known@example.com'))).statusCode, 200, 'an existing user logs in');
    } finally {
      await mgmt('PATCH', `/api/v2/connections/${connectionId}`, { options: {} });
    }
  });
});
