/**
 * Login is a list of interaction steps (src/authentication/interaction):
 * a step added to the registry's list runs between the others with nothing
 * else to edit, and the policy keeps the order: a page of a later step cannot
 * be reached before the earlier ones are done, a step already done is not
 * asked again (the back button leads to the current one), `prompt=none`
 * gets the step's error, and a request is answered only for the login it
 * went through.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeStep, csrfToken, stepPage } from '../../src/authentication/interaction/policy.js';
import { pageParams } from '../../src/authentication/params.js';
import type { InteractionStep } from '../../src/authentication/interaction/step.js';
import { html, page, sendPage } from '../../src/authentication/pages/html.js';
import { defaultRegistries } from '../../src/authentication/registries.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';

/** Users who accepted the terms (the step's own state, kept by the test). */
const accepted = new Set<string>();

/** A step asking the logged-in user to accept terms of use once. */
const termsStep: InteractionStep = {
  name: 'terms',
  page: () => '/terms',
  promptNone: { error: 'interaction_required', description: 'The terms of use must be accepted' },
  needed: async (_deps, interaction) => interaction.authenticated !== undefined && !accepted.has(interaction.authenticated.user.user_id),
  routes: (deps) => [
    {
      method: 'GET',
      url: '/terms',
      handler: async (request, reply) => {
        const found = await stepPage(deps, request, reply, 'terms');
        if ('reply' in found) return found.reply;
        const { interaction } = found;
        return sendPage(
          reply,
          200,
          page('Terms', html`<h1>Terms of use</h1><form method="post" action="/terms"><input type="hidden" name="state" value="${interaction.transactionId!}">
<input type="hidden" name="csrf_token" value="${csrfToken(deps, interaction)}"><button>Accept</button></form>`),
        );
      },
    },
    {
      method: 'POST',
      url: '/terms',
      handler: async (request, reply) => {
        const found = await stepPage(deps, request, reply, 'terms');
        if ('reply' in found) return found.reply;
        if (pageParams(request, ['accept']).accept !== 'yes') return sendPage(reply, 400, page('Terms', html`<p>Not accepted</p>`));
        accepted.add(found.interaction.authenticated!.user.user_id);
        return completeStep(deps, reply, found.interaction, 'terms');
      },
    },
  ],
};

describe('interaction steps: an added step runs in order, and the order holds', () => {
  let t: TestApp;
  let app: TestClient;

  const url = (params: Record<string, string> = {}) => authorizeUrl(app.client_id, CALLBACK, params);

  async function newUser(email: string): Promise<string> {
    const res = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { user_id: string }).user_id;
  }

  /** Logs in through /authorize and returns the browser and the transaction now waiting at /terms. */
  async function loggedInAtTerms(email: string, params: Record<string, string> = {}): Promise<{ browser: Browser; state: string }> {
    const browser = new Browser(t);
    const done = await browser.login(url(params), email, PASSWORD);
    assert.equal(done.statusCode, 302, done.body);
    const location = new URL(done.headers.location as string, 'https://x');
    assert.equal(location.pathname, '/terms', 'the added step follows the login');
    return { browser, state: location.searchParams.get('state')! };
  }

  before(async () => {
    const defaults = defaultRegistries();
    const [login, ...rest] = defaults.interactionSteps;
    t = await createTestApp({ registries: { ...defaults, interactionSteps: [login!, termsStep, ...rest] } });
    app = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
  });
  after(() => t.close());

  it('login, then the added step, then the code; the next request skips both', async () => {
    const userId = await newUser('terms1@example.com');
    const { browser, state } = await loggedInAtTerms('terms1@example.com');
    const termsPage = await browser.get(`/terms?state=${state}`);
    assert.equal(termsPage.statusCode, 200, termsPage.body);
    const refused = await browser.post('/terms', { state, csrf_token: hidden(termsPage.body, 'csrf_token') });
    assert.equal(refused.statusCode, 400, 'the step decides its own refusals');
    assert.ok(!accepted.has(userId));
    const done = await browser.post('/terms', { state, csrf_token: hidden(termsPage.body, 'csrf_token'), accept: 'yes' });
    const params = redirectParams(done, CALLBACK);
    assert.ok(params.get('code'), done.headers.location as string);
    assert.equal(params.get('state'), 's');

    const again = await browser.get(url());
    assert.ok(redirectParams(again, CALLBACK).get('code'), 'the session answers; the terms are not asked again');
  });

  it('a form post of the step without its CSRF token is refused and completes nothing', async () => {
    await newUser('terms2@example.com');
    const { browser, state } = await loggedInAtTerms('terms2@example.com');
    const res = await browser.post('/terms', { state, csrf_token: 'forged', accept: 'yes' });
    assert.equal(res.statusCode, 403);
    const page = await browser.get(`/terms?state=${state}`);
    assert.equal(page.statusCode, 200, 'still waiting at the step');
  });

  it('a page parameter sent twice gets the error page and completes nothing', async () => {
    await newUser('terms8@example.com');
    const browser = new Browser(t);
    const start = await browser.get(url());
    const page = await browser.get(start.headers.location as string);
    const state = hidden(page.body, 'state');
    const form = `state=${state}&state=${state}&csrf_token=${hidden(page.body, 'csrf_token')}&username=terms8%40example.com&password=${encodeURIComponent(PASSWORD)}`;
    const res = await t.app.inject({ method: 'POST', url: '/login', headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: browser.jar.header() }, payload: form });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /Parameter state must not be repeated/);
    assert.equal(browser.jar.has('__Host-gh_session'), false);
    assert.equal((await browser.get(`/terms?state=${state}`)).headers.location, `/login?state=${state}`, 'still at the login');
  });

  it('the back button to a completed step leads to the current one, without a new login', async () => {
    await newUser('terms3@example.com');
    const { browser, state } = await loggedInAtTerms('terms3@example.com');
    const back = await browser.get(`/login?state=${state}`);
    assert.equal(back.statusCode, 302);
    assert.equal(back.headers.location, `/terms?state=${state}`);
  });

  it('a later step cannot be reached before an earlier one: consent and terms lead to the login first', async () => {
    const browser = new Browser(t);
    const start = await browser.get(url());
    const state = new URL(start.headers.location as string, 'https://x').searchParams.get('state')!;
    for (const path of ['/terms', '/consent']) {
      const res = await browser.get(`${path}?state=${state}`);
      assert.equal(res.statusCode, 302, `${path}: ${res.body}`);
      assert.equal(res.headers.location, `/login?state=${state}`);
    }
  });

  it('prompt=none with the step still to do: its error goes back to the client', async () => {
    await newUser('terms4@example.com');
    const { browser } = await loggedInAtTerms('terms4@example.com');
    const res = await browser.get(url({ prompt: 'none' }));
    const params = redirectParams(res, CALLBACK);
    assert.equal(params.get('error'), 'interaction_required');
    assert.equal(params.get('error_description'), 'The terms of use must be accepted');
    assert.equal(params.get('code'), null);
  });

  it('prompt=login: an existing session does not stand in for the login the request asks for', async () => {
    const userId = await newUser('terms5@example.com');
    accepted.add(userId);
    const browser = new Browser(t);
    assert.ok(redirectParams(await browser.login(url(), 'terms5@example.com', PASSWORD), CALLBACK).get('code'));
    const start = await browser.get(url({ prompt: 'login' }));
    const state = new URL(start.headers.location as string, 'https://x').searchParams.get('state')!;
    assert.equal(new URL(start.headers.location as string, 'https://x').pathname, '/login');
    const skipped = await browser.get(`/terms?state=${state}`);
    assert.equal(skipped.headers.location, `/login?state=${state}`, 'not the code, not the page');
  });

  it('once a step completed with a login, another session in the browser cannot finish the request', async () => {
    await newUser('terms6@example.com');
    const other = await newUser('terms7@example.com');
    accepted.add(other);
    const { browser, state } = await loggedInAtTerms('terms6@example.com');
    const termsPage = await browser.get(`/terms?state=${state}`);
    const csrf = hidden(termsPage.body, 'csrf_token');
    // Another tab of the same browser logs in as someone else.
    assert.ok(redirectParams(await browser.login(url({ prompt: 'login' }), 'terms7@example.com', PASSWORD), CALLBACK).get('code'));
    const res = await browser.post('/terms', { state, csrf_token: csrf, accept: 'yes' });
    assert.equal(res.statusCode, 400, 'the expired-login page');
    assert.equal(res.headers.location, undefined);
  });
});
