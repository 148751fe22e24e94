/**
 * `api.redirect.sendUserTo` and `/continue` (actions-wire-notes §2.3), through
 * app.inject on the real app, real sandbox processes and the real database:
 * the login is suspended, the browser sent to the action's URL with a sealed
 * `state`, and `/continue` runs the same action's `onContinuePostLogin`, then
 * the actions after it (never those before), then issues the code.
 * `encodeToken` is checked with jose; `validateToken` reads a token jose
 * signed. Each refusal: a forged, replayed, expired or other browser's
 * `/continue`, a bad session token, a URL the service would not send the
 * browser to, a redirect under prompt=none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { bindActions } from '../helpers/actions.js';
import { Browser, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const SITE = 'https://consent.example.org/form';
const SECRET = 'a shared secret of the action and its site';

const REDIRECTING = {
  name: 'redirecting',
  secrets: { KEY: SECRET },
  code: `exports.onExecutePostLogin = async (event, api) => {
    if (event.user.app_metadata.consented) return;
    const token = api.redirect.encodeToken({ secret: event.secrets.KEY, expiresInSeconds: 60, payload: { plan: 'gold' } });
    api.redirect.sendUserTo('${SITE}', { query: { session_token: token, lang: 'en' } });
  };
  exports.onContinuePostLogin = async (event, api) => {
    const payload = api.redirect.validateToken({ secret: event.secrets.KEY, tokenParameterName: 'session_token' });
    api.idToken.setCustomClaim('https://example.com/answer', payload.answer);
    api.idToken.setCustomClaim('https://example.com/continued-at', event.request.hostname + ' ' + event.request.method);
  };`,
};

describe('api.redirect.sendUserTo and /continue', () => {
  let t: TestApp;
  let web: TestClient;

  function login(browser: Browser, email: string): Promise<LightMyRequestResponse> {
    return browser.login(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid profile', state: 'st' })}`, email, PASSWORD);
  }

  /** The login sent to the site: the URL it was sent to. */
  async function sentAway(browser: Browser, email: string): Promise<URL> {
    const res = await login(browser, email);
    // The login form's answer: a page that moves on (the form's CSP allows no redirect elsewhere).
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.location, undefined);
    const location = new URL(/<a id="continue" href="([^"]+)"/.exec(res.body)![1]!.replaceAll('&amp;', '&'));
    assert.ok(res.body.includes(`<meta http-equiv="refresh" content="0;url=${location.href.replaceAll('&', '&amp;')}">`), res.body);
    assert.equal(`${location.origin}${location.pathname}`, SITE);
    return location;
  }

  /** What the site answers: a token with the state, signed with the shared secret. */
  function siteToken(state: string, claims: Record<string, unknown> = {}, secret = SECRET): Promise<string> {
    return new SignJWT({ state, answer: 'yes', ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(DOMAIN)
      .setSubject(claims.sub as string ?? '')
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(secret));
  }

  const callbackParams = (res: LightMyRequestResponse) => redirectParams(res, CALLBACK);

  async function idToken(params: URLSearchParams): Promise<Record<string, unknown>> {
    const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code: params.get('code')!, redirect_uri: CALLBACK });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    return decodeJwt((exchanged.json() as { id_token: string }).id_token);
  }

  const users: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [web.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']) {
      const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: `${name}@example.com`, password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
      users[name] = (user.json() as { user_id: string }).user_id;
    }
  });
  after(() => t.close());

  it('suspends the login, sends the user to the URL with state, and /continue runs onContinuePostLogin of the same action, then the later ones, once', async () => {
    await bindActions(t, 'post-login', [
      { name: 'before', code: "exports.onExecutePostLogin = async (event, api) => { api.user.setAppMetadata('before_runs', (event.user.app_metadata.before_runs || 0) + 1); api.idToken.setCustomClaim('https://example.com/before', 'kept'); };" },
      REDIRECTING,
      { name: 'after', code: "exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim('https://example.com/after', 'ran'); };" },
    ]);
    const browser = new Browser(t);
    const away = await sentAway(browser, 'alice@example.com');
    const state = away.searchParams.get('state')!;
    assert.ok(state.length > 40);
    assert.equal(away.searchParams.get('lang'), 'en');
    // encodeToken: HS256 under the action's secret, issuer the tenant's host, subject the user.
    const { payload } = await jwtVerify(away.searchParams.get('session_token')!, new TextEncoder().encode(SECRET), { issuer: DOMAIN, subject: users.alice });
    assert.equal(payload.plan, 'gold');
    assert.equal((payload.exp as number) - (payload.iat as number), 60);

    const back = await browser.get(`/continue?${new URLSearchParams({ state, session_token: await siteToken(state, { sub: users.alice }) })}`);
    const params = callbackParams(back);
    assert.equal(params.get('state'), 'st');
    const id = await idToken(params);
    assert.equal(id['https://example.com/answer'], 'yes');
    assert.equal(id['https://example.com/continued-at'], `${DOMAIN} GET`);
    assert.equal(id['https://example.com/before'], 'kept', 'the claims set before the redirect are kept');
    assert.equal(id['https://example.com/after'], 'ran');
    const user = await t.management('GET', `/api/v2/users/${encodeURIComponent(users.alice!)}`);
    assert.equal((user.json() as { app_metadata: { before_runs: number } }).app_metadata.before_runs, 1, 'the action before the redirect did not run again');

    // The same /continue again: the state is spent.
    const replay = await browser.get(`/continue?${new URLSearchParams({ state, session_token: await siteToken(state, { sub: users.alice }) })}`);
    assert.equal(replay.statusCode, 400, replay.body);
    assert.match(replay.body, /invalid_request/);
    assert.equal(replay.headers.location, undefined);
  });

  it('a POST to /continue (the site answers with a form) goes on through a GET that carries the browser cookie', async () => {
    await bindActions(t, 'post-login', [REDIRECTING]);
    const browser = new Browser(t);
    const state = (await sentAway(browser, 'bob@example.com')).searchParams.get('state')!;
    // Cross-site: the form post carries no cookie.
    const posted = await new Browser(t).post('/continue', { state, session_token: await siteToken(state, { sub: users.bob }) });
    assert.equal(posted.statusCode, 303, posted.body);
    const next = posted.headers.location as string;
    assert.ok(next.startsWith('/continue?'), next);
    assert.ok(!next.includes('session_token='), 'the body is sealed, not copied into the URL');
    const id = await idToken(callbackParams(await browser.get(next)));
    assert.equal(id['https://example.com/answer'], 'yes');
  });

  it('refuses a forged state, another browser, an expired state; none of them spends the state', async () => {
    await bindActions(t, 'post-login', [REDIRECTING]);
    const browser = new Browser(t);
    const state = (await sentAway(browser, 'carol@example.com')).searchParams.get('state')!;
    const token = await siteToken(state, { sub: users.carol });
    const forged = await browser.get(`/continue?${new URLSearchParams({ state: state.slice(0, -4) + 'AAAA', session_token: token })}`);
    assert.equal(forged.statusCode, 400, forged.body);
    assert.match(forged.body, /invalid_request/);
    const random = await browser.get('/continue?state=abc');
    assert.equal(random.statusCode, 400);
    const missing = await browser.get('/continue');
    assert.equal(missing.statusCode, 400);
    // Another browser (no cookie of the login's): refused.
    const other = await new Browser(t).get(`/continue?${new URLSearchParams({ state, session_token: token })}`);
    assert.equal(other.statusCode, 400, other.body);
    assert.equal(other.headers.location, undefined);
    // Past the transaction's lifetime: expired.
    const late = await withClockAdvanced(t, 24 * 3600 * 1000, () => browser.get(`/continue?${new URLSearchParams({ state, session_token: token })}`));
    assert.equal(late.statusCode, 400, late.body);
    // The right browser, in time: still good.
    const id = await idToken(callbackParams(await browser.get(`/continue?${new URLSearchParams({ state, session_token: token })}`)));
    assert.equal(id['https://example.com/answer'], 'yes');
  });

  it('validateToken refuses a token signed with another secret, for another user or state, or none: access_denied, no code', async () => {
    await bindActions(t, 'post-login', [REDIRECTING]);
    const cases: [string, (state: string) => Promise<Record<string, string>>, RegExp][] = [
      ['dave', async (state) => ({ session_token: await siteToken(state, { sub: users.dave }, 'another secret') }), /The session token is invalid: invalid signature/],
      ['erin', async (state) => ({ session_token: await siteToken(state, { sub: users.alice }) }), /The session token is invalid: subject mismatch/],
      ['frank', async () => ({ session_token: await siteToken('another state', { sub: users.frank }) }), /The session token is invalid: state mismatch/],
      ['grace', async () => ({}), /There is no parameter called 'session_token'/],
    ];
    for (const [name, extra, message] of cases) {
      const browser = new Browser(t);
      const state = (await sentAway(browser, `${name}@example.com`)).searchParams.get('state')!;
      const params = callbackParams(await browser.get(`/continue?${new URLSearchParams({ state, ...(await extra(state)) })}`));
      assert.equal(params.get('error'), 'access_denied', name);
      assert.match(params.get('error_description')!, message);
      assert.equal(params.get('code'), null);
    }
  });

  it('with an SSO session the redirect is a 302 from /authorize; an action unbound while the user is away fails the login', async () => {
    await bindActions(t, 'post-login', []);
    const browser = new Browser(t);
    redirectParams(await login(browser, 'alice@example.com'), CALLBACK);
    await bindActions(t, 'post-login', [REDIRECTING]);
    const again = await browser.get(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 's3' })}`);
    assert.equal(again.statusCode, 302, again.body);
    const away = new URL(again.headers.location as string);
    assert.equal(`${away.origin}${away.pathname}`, SITE);
    const state = away.searchParams.get('state')!;
    // The binding changes while the user is on the site: its onContinuePostLogin cannot run.
    await bindActions(t, 'post-login', [{ name: 'other', code: 'exports.onExecutePostLogin = async () => {};' }]);
    const params = callbackParams(await browser.get(`/continue?${new URLSearchParams({ state, session_token: await siteToken(state, { sub: users.alice }) })}`));
    assert.equal(params.get('error'), 'access_denied');
    assert.match(params.get('error_description')!, /no longer bound/);
    assert.equal(params.get('state'), 's3');
  });

  it('refuses URLs the browser must not be sent to: javascript:, data:, http to a remote host', async () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'http://consent.example.org/form', 'https://user:pw@consent.example.org/']) {
      await bindActions(t, 'post-login', [{ name: 'bad-url', code: `exports.onExecutePostLogin = async (event, api) => { api.redirect.sendUserTo(${JSON.stringify(url)}); };` }]);
      const params = callbackParams(await login(new Browser(t), 'alice@example.com'));
      assert.equal(params.get('error'), 'access_denied', url);
      assert.match(params.get('error_description')!, /sendUserTo/);
    }
  });

  it('a redirect under prompt=none ends the login with interaction_required', async () => {
    await bindActions(t, 'post-login', []);
    const browser = new Browser(t);
    callbackParams(await login(browser, 'bob@example.com'));
    await bindActions(t, 'post-login', [{ name: 'always', code: `exports.onExecutePostLogin = async (event, api) => { if (!api.redirect.canRedirect()) api.idToken.setCustomClaim('https://example.com/x', 1); api.redirect.sendUserTo('${SITE}'); };` }]);
    const silent = await browser.get(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 's2', prompt: 'none' })}`);
    const params = callbackParams(silent);
    assert.equal(params.get('error'), 'interaction_required');
    assert.equal(params.get('code'), null);
  });
});
