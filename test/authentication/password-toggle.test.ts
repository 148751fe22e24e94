/**
 * The password fields' "Show password" control (src/authentication/pages/
 * password-toggle.ts) as the server sends it, through the real app: the
 * control is rendered hidden next to every password field, with its labels
 * from the text catalogue; the page's one inline script is allowed by its
 * hash in `script-src` and nothing else (no 'unsafe-inline', no event
 * handler attributes); a page without a password field gets neither the
 * script nor a `script-src`, even when a value on it looks like the control's
 * markup. The behaviour in a browser is test/e2e/browser-show-password.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { loginPage as loginDocument, signupPage as signupDocument } from '../../src/authentication/pages/authorize.js';
import { PASSWORD_TOGGLE_HASH, pageUi, renderPage } from '../../src/authentication/pages/html.js';
import { PASSWORD_TOGGLE_SCRIPT, PASSWORD_TOGGLE_START } from '../../src/authentication/pages/password-toggle.js';
import { PUSH_WAIT_START } from '../../src/authentication/pages/push-wait.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, inlineScripts } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const CALLBACK = 'https://app.example.com/callback';
const REALM = 'Username-Password-Authentication';

/** The page's Content-Security-Policy, directive by directive. */
function cspOf(res: LightMyRequestResponse): Map<string, string> {
  const header = res.headers['content-security-policy'];
  assert.equal(typeof header, 'string', 'a CSP header');
  return new Map((header as string).split(';').map((d) => d.trim().split(/\s+(.*)/s) as [string, string]));
}

/** The control of a password field: its start tag and label. */
function controlOf(body: string, field: string): { tag: string; label: string } {
  const match = new RegExp(`(<button type="button" data-password-toggle[^>]*aria-controls="${field}"[^>]*>)([^<]*)</button>`).exec(body);
  assert.ok(match, `a control for #${field}`);
  return { tag: match[1]!, label: match[2]! };
}

/** The page's one script is the control's, allowed by exactly its hash, and nothing inline runs otherwise. */
function assertOnlyTheToggleScript(res: LightMyRequestResponse): void {
  const csp = cspOf(res);
  assert.equal(csp.get('script-src'), PASSWORD_TOGGLE_HASH, 'exactly the script\'s hash');
  assert.equal(csp.get('connect-src'), undefined, 'it fetches nothing: only the push waiting page may');
  assert.doesNotMatch(res.headers['content-security-policy'] as string, /unsafe-inline|unsafe-eval|unsafe-hashes/);
  assert.equal(csp.get('default-src'), "'none'");
  const scripts = inlineScripts(res.body);
  assert.deepEqual(scripts, [PASSWORD_TOGGLE_SCRIPT]);
  assert.equal(`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`, csp.get('script-src'), 'the hash is the sent script\'s');
  assert.doesNotMatch(res.body, /<[^>]+\son[a-z]+\s*=/i, 'no event handler attribute');
  assert.doesNotMatch(res.body, /<script[^>]+src=/i, 'no script from elsewhere');
}

describe('the password fields\' "Show password" control on the hosted pages', () => {
  let t: TestApp;
  let client: TestClient;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { name: 'Toggle App', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
  });
  after(() => t.close());

  async function hostedPage(params: Record<string, string> = {}): Promise<{ browser: Browser; page: LightMyRequestResponse }> {
    const browser = new Browser(t);
    return { browser, page: await browser.hostedPage(authorizeUrl(client.client_id, CALLBACK, params)) };
  }

  it('login: a hidden button beside the field that keeps its name and autocomplete; the one script allowed by its hash', async () => {
    const { page } = await hostedPage();
    assert.match(page.body, /<input type="password" id="password" name="password" autocomplete="current-password" required>\n<button type="button" data-password-toggle /);
    const control = controlOf(page.body, 'password');
    assert.match(control.tag, / aria-pressed="false"/);
    assert.match(control.tag, / hidden>$/, 'hidden until the script shows it');
    assert.match(control.tag, / data-show="Show password" data-hide="Hide password"/);
    assert.equal(control.label, 'Show password');
    assertOnlyTheToggleScript(page);
  });

  it('signup: the same control on the new password, which keeps autocomplete="new-password"', async () => {
    const { page } = await hostedPage({ screen_hint: 'signup' });
    assert.match(page.body, /<form method="post" action="\/signup">/);
    assert.match(page.body, /<input type="password" id="password" name="password" autocomplete="new-password" required[^>]*>/);
    assert.equal(controlOf(page.body, 'password').label, 'Show password');
    assertOnlyTheToggleScript(page);
  });

  it('ui_locales=fr: the labels come from the French catalogue; the script is the same bytes in every language', async () => {
    const { page } = await hostedPage({ ui_locales: 'fr' });
    const control = controlOf(page.body, 'password');
    assert.equal(control.label, 'Afficher le mot de passe');
    assert.match(control.tag, / data-hide="Masquer le mot de passe"/);
    assertOnlyTheToggleScript(page);
    for (const language of ['de', 'es'] as const) {
      const rendered = renderPage(loginDocument({ clientName: 'A', state: 's', csrf: 'c', usernames: false, signup: false }), pageUi({ language }));
      assert.equal(inlineScripts(rendered.html.value)[0], PASSWORD_TOGGLE_SCRIPT);
      assert.notEqual(controlOf(rendered.html.value, 'password').label, 'Show password', language);
    }
  });

  it('a page without a password field has no script and no script-src, even with a value that looks like the control', async () => {
    assert.equal((await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: true } })).statusCode, 200);
    try {
      const forged = `${PASSWORD_TOGGLE_START} aria-controls="username">x</button>${PUSH_WAIT_START}"/x">@example.com`;
      const { browser, page } = await hostedPage({ login_hint: forged });
      assert.doesNotMatch(page.body, /type="password"/, 'the identifier step');
      assert.ok(page.body.includes('&lt;button type=&quot;button&quot; data-password-toggle'), 'the hint is escaped');
      assert.equal(cspOf(page).get('script-src'), undefined);
      assert.equal(cspOf(page).get('connect-src'), undefined);
      assert.deepEqual(inlineScripts(page.body), []);
      // The password step that follows has the control again.
      const second = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'alice@example.com' });
      assert.equal(second.statusCode, 200, second.body);
      assert.match(second.body, /<h1>Enter your password<\/h1>/);
      controlOf(second.body, 'password');
      assertOnlyTheToggleScript(second);
    } finally {
      await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: false } });
    }
    const { browser, page } = await hostedPage();
    const forgot = await browser.get(`/forgot-password?state=${encodeURIComponent(hidden(page.body, 'state'))}`);
    assert.equal(forgot.statusCode, 200, forgot.body);
    assert.match(forgot.body, /<form method="post" action="\/forgot-password">/);
    assert.equal(cspOf(forgot).get('script-src'), undefined);
    assert.equal(cspOf(forgot).get('connect-src'), undefined);
    assert.deepEqual(inlineScripts(forgot.body), []);
  });

  it('every password field of a page gets its own control; a refused signup keeps it, tied to the field', () => {
    const view = { clientName: 'A', state: 's', csrf: 'c' };
    const signup = renderPage(signupDocument({ ...view, usernames: true, error: { field: 'password', message: 'Too weak.' } }), pageUi({ language: 'en' })).html.value;
    assert.equal(signup.split(PASSWORD_TOGGLE_START).length - 1, 1);
    assert.match(signup, /id="password" name="password" autocomplete="new-password" required aria-invalid="true" aria-describedby="error">/);
    controlOf(signup, 'password');
    const identifierOnly = renderPage(loginDocument({ ...view, usernames: false, signup: false, identifierFirst: 'identifier' }), pageUi({ language: 'en' }));
    assert.ok(!identifierOnly.html.value.includes(PASSWORD_TOGGLE_START));
    assert.doesNotMatch(identifierOnly.csp, /script-src/);
  });
});
