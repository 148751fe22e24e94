/**
 * The prompts' partials (/api/v2/prompts/{prompt}/partials) through the real
 * app and database, with the `auth0` SDK's calls as auth0-deploy-cli makes
 * them, and the hosted pages that show them: each insertion point in its
 * place (inside the form, around its footer and its secondary actions), on
 * the one-step login, both identifier-first steps and signup, with or
 * without a page template; Liquid variables escaped; the CSP unchanged; a
 * `ulp-` field a partial adds posted with the login, which still works.
 * Refusals: an unknown prompt, screen or insertion point, a partial too
 * long, a script, style or form element, a file tag, a syntax error, a
 * missing scope, each changing nothing; a partial that fails at render
 * leaves the page without it. The passwordless pages show the
 * `login-passwordless` partials of their channel's screen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { passwordlessEmailPage, passwordlessSmsCodePage } from '../../src/authentication/pages/passwordless.js';
import { pageUi, renderPage } from '../../src/authentication/pages/html.js';

const CALLBACK = 'https://app.example.com/callback';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const PATH = (prompt: string) => `/api/v2/prompts/${prompt}/partials`;

const LOGIN_PARTIALS = {
  login: {
    'form-content-start': '<p id="pcs">Welcome to {{ application.name }}</p>',
    'form-content-end': '<label for="ulp-terms">Terms</label><input type="checkbox" id="ulp-terms" name="ulp-terms" value="yes">',
    'form-footer-start': '<p id="pfs">footer start</p>',
    'form-footer-end': '<p id="pfe">footer end {{ locale }}</p>',
    'secondary-actions-start': '<p id="psas">secondary start</p>',
    'secondary-actions-end': '<p id="psae">secondary end {{ prompt.screen.name }}</p>',
  },
};

describe('/api/v2/prompts/{prompt}/partials', () => {
  let t: TestApp;
  let client: TestClient;
  let sdk: ManagementClient;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { name: 'Partial <App>', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    sdk = await inProcessSdk(t);
  });
  after(() => t.close());

  async function openPage(path = ''): Promise<{ browser: Browser; page: LightMyRequestResponse }> {
    const browser = new Browser(t);
    const start = await browser.get(authorizeUrl(client.client_id, CALLBACK) + path);
    assert.equal(start.statusCode, 302, start.body);
    const page = await browser.get(start.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, page };
  }

  function refused(res: LightMyRequestResponse, status: number, message: RegExp): void {
    assert.equal(res.statusCode, status, res.body);
    assert.match((res.json() as { message: string }).message, message);
  }

  it('answers {} before there are partials; PUT replaces them and answers them; the SDK reads and sets them; {} removes them', async () => {
    assert.deepEqual((await t.management('GET', PATH('login'))).json(), {});
    const put = await t.management('PUT', PATH('login'), { body: LOGIN_PARTIALS });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json(), LOGIN_PARTIALS);
    assert.deepEqual((await t.management('GET', PATH('login'))).json(), LOGIN_PARTIALS);
    // auth0-deploy-cli's calls.
    assert.deepEqual(await sdk.prompts.partials.get('login'), LOGIN_PARTIALS);
    await sdk.prompts.partials.set('signup', { signup: { 'form-content-end': '<p id="signup-end">By signing up you accept</p>' } });
    assert.deepEqual(await sdk.prompts.partials.get('signup'), { signup: { 'form-content-end': '<p id="signup-end">By signing up you accept</p>' } });
    // A replacement drops what it does not name; empty strings and null screens are dropped.
    await t.management('PUT', PATH('login-id'), { body: { 'login-id': { 'form-content-start': '<p>x</p>', 'form-footer-end': '' } } });
    assert.deepEqual((await t.management('GET', PATH('login-id'))).json(), { 'login-id': { 'form-content-start': '<p>x</p>' } });
    await t.management('PUT', PATH('login-id'), { body: { 'login-id': null } });
    assert.deepEqual((await t.management('GET', PATH('login-id'))).json(), {});
    // Another prompt's partials are its own.
    assert.deepEqual((await t.management('GET', PATH('login'))).json(), LOGIN_PARTIALS);
  });

  it('refuses an unknown prompt, screen or point, a partial too long, script/style/form elements, file tags, bad Liquid and a missing scope; nothing changes', async () => {
    assert.equal((await t.management('PUT', PATH('login'), { body: LOGIN_PARTIALS })).statusCode, 200);
    refused(await t.management('GET', PATH('mfa-otp')), 400, /^Path validation error: .* on property prompt/);
    refused(await t.management('PUT', PATH('consent'), { body: {} }), 400, /on property prompt/);
    const cases: [unknown, RegExp][] = [
      [{ signup: { 'form-content-end': '<p>x</p>' } }, /'signup' is not a screen of the prompt 'login'/],
      [{ login: { 'form-middle': '<p>x</p>' } }, /'form-middle' is not an insertion point/],
      [{ login: { 'form-content-end': 'x'.repeat(10_001) } }, /longer than 10000 characters/],
      [{ login: { 'form-content-end': '<script>alert(1)</script>' } }, /may not contain a <script> element/],
      [{ login: { 'form-content-end': '<STYLE>body{display:none}</STYLE>' } }, /<style> element/],
      [{ login: { 'form-content-end': '</form><form action="https://evil.example">' } }, /<form> element/],
      [{ login: { 'form-content-end': '<iframe src="https://evil.example"></iframe>' } }, /<iframe> element/],
      [{ login: { 'form-content-end': '{% include "/etc/passwd" %}' } }, /include tag is not available/],
      [{ login: { 'form-content-end': "{% render 'x' %}" } }, /render tag is not available/],
      [{ login: { 'form-content-end': '{% if %}' } }, /is not valid Liquid/],
      [{ login: { 'form-content-end': 42 } }, /is not a string/],
      [{ login: ['x'] }, /Expected type object but found type array/],
    ];
    for (const [body, message] of cases) refused(await t.management('PUT', PATH('login'), { body }), 400, message);
    const readOnly = await t.managementToken('read:prompts');
    refused(await t.management('PUT', PATH('login'), { body: {}, token: readOnly }), 403, /update:prompts/);
    const noScope = await t.managementToken('read:branding');
    refused(await t.management('GET', PATH('login'), { token: noScope }), 403, /read:prompts/);
    assert.deepEqual((await t.management('GET', PATH('login'))).json(), LOGIN_PARTIALS);
  });

  it('shows each of the login screen\'s partials at its point, escaped, the CSP unchanged; the login with a ulp- field still works', async () => {
    assert.equal((await t.management('PUT', PATH('login'), { body: LOGIN_PARTIALS })).statusCode, 200);
    const { browser, page } = await openPage();
    const body = page.body;
    const form = body.slice(body.indexOf('<form method="post" action="/login">'), body.indexOf('</form>'));
    assert.match(form, /name="csrf_token"[^>]*>\n<div class="ulp-partial" data-point="form-content-start"><p id="pcs">Welcome to Partial &lt;App&gt;<\/p><\/div><label for="username">/);
    assert.match(form, /<div class="ulp-partial" data-point="form-content-end"><label for="ulp-terms">Terms<\/label><input type="checkbox" id="ulp-terms"[^>]*><\/div><button type="submit">/);
    const after = body.slice(body.indexOf('</form>'));
    assert.ok(after.indexOf('id="pfs"') < after.indexOf('forgot-password') && after.indexOf('forgot-password') < after.indexOf('id="pfe"'), 'the footer partials around the links');
    assert.match(after, /<p id="pfe">footer end en<\/p>/);
    assert.match(after, /<p id="psas">secondary start<\/p><\/div>\s*<div class="ulp-partial" data-point="secondary-actions-end"><p id="psae">secondary end login<\/p>/);
    const csp = String(page.headers['content-security-policy']);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(csp, /^default-src 'none'; form-action 'self'/);
    // The form, with the field the partial added, logs the user in.
    const submitted = await browser.post('/login', {
      state: hidden(body, 'state'),
      csrf_token: hidden(body, 'csrf_token'),
      username: 'alice@example.com',
      password: PASSWORD,
      'ulp-terms': 'yes',
    });
    assert.equal(submitted.statusCode, 302, submitted.body);
    assert.match(String(submitted.headers.location), /^https:\/\/app\.example\.com\/callback\?code=|^\/authorize\/resume/);
  });

  it('shows the partials of signup, of both identifier-first steps, and inside a page template', async () => {
    await t.management('PUT', PATH('signup'), { body: { signup: { 'form-content-end': '<p id="signup-end">By signing up you accept</p>' } } });
    const signup = await openPage('&screen_hint=signup');
    assert.match(signup.page.body, /<p id="signup-end">By signing up you accept<\/p><\/div><button type="submit">/);
    assert.doesNotMatch(signup.page.body, /id="pcs"/, 'the login screen\'s partials stay on login');

    await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: true } });
    await t.management('PUT', PATH('login-id'), { body: { 'login-id': { 'form-content-start': '<p id="lid">identifier step</p>' } } });
    await t.management('PUT', PATH('login-password'), { body: { 'login-password': { 'form-footer-end': '<p id="lpw">password step</p>' } } });
    const first = await openPage();
    assert.match(first.page.body, /<p id="lid">identifier step<\/p>/);
    assert.doesNotMatch(first.page.body, /id="pcs"|id="lpw"/);
    const second = await first.browser.post('/login', { state: hidden(first.page.body, 'state'), csrf_token: hidden(first.page.body, 'csrf_token'), username: 'alice@example.com' });
    assert.equal(second.statusCode, 200, second.body);
    assert.match(second.body, /<p id="lpw">password step<\/p>/);
    assert.doesNotMatch(second.body, /id="lid"/);
    await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: false } });

    const template = '<!DOCTYPE html><html><head>{%- auth0:head -%}</head><body><header id="bar">{{ prompt.name }}</header>{%- auth0:widget -%}</body></html>';
    assert.ok((await t.management('PUT', '/api/v2/branding/templates/universal-login', { body: { template } })).statusCode < 300);
    const templated = await openPage();
    assert.match(templated.page.body, /<header id="bar">login<\/header><main class="card">/);
    assert.match(templated.page.body, /<p id="pcs">Welcome to Partial &lt;App&gt;<\/p>/);
    await t.management('DELETE', '/api/v2/branding/templates/universal-login');
  });

  it('a partial that fails at render is left out; the page is whole', async () => {
    const bomb = '{% for i in (1..100000000) %}xxxxxxxxxx{% endfor %}';
    assert.equal((await t.management('PUT', PATH('login'), { body: { login: { 'form-content-start': bomb, 'form-content-end': '<p id="kept">kept</p>' } } })).statusCode, 200);
    const { page } = await openPage();
    assert.doesNotMatch(page.body, /data-point="form-content-start"/);
    assert.match(page.body, /<p id="kept">kept<\/p>/);
    assert.match(page.body, /<label for="username">/);
  });

  it('the passwordless pages show the login-passwordless partials of their channel\'s screen, and only those', () => {
    const partials = {
      'login-passwordless': {
        'login-passwordless-sms-otp': { 'form-content-end': '<p id="sms-end">Codes expire in 5 minutes, {{ locale }}.</p>' },
        'login-passwordless-email-code': { 'form-content-start': '<p id="email-start">Check your spam folder.</p>' },
      },
    };
    const ui = pageUi({ language: 'fr', companyName: 'Acme', partials });
    const view = { clientName: 'App', state: 's', csrf: 'c' };
    const sms = renderPage(passwordlessSmsCodePage({ ...view, phoneNumber: '+15550001111' }), ui).html.value;
    assert.match(sms, /<div class="ulp-partial" data-point="form-content-end"><p id="sms-end">Codes expire in 5 minutes, fr\.<\/p><\/div><button type="submit">/);
    assert.doesNotMatch(sms, /email-start/);
    const email = renderPage(passwordlessEmailPage(view), ui).html.value;
    assert.match(email, /name="csrf_token" value="c">\n<div class="ulp-partial" data-point="form-content-start"><p id="email-start">/);
    assert.doesNotMatch(email, /sms-end/);
  });
});
