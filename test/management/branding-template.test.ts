/**
 * The page template (/api/v2/branding/templates/universal-login) through the
 * real app and database, with the `auth0` SDK's calls as auth0-deploy-cli
 * makes them, and every hosted page rendered inside it: the service's tags
 * place the page's head and card, its variables are filled (HTML-escaped),
 * the page's CSP is unchanged. Refusals: over 102,400 characters, a missing
 * tag, a Liquid syntax error, file tags (include, render, layout), a missing
 * scope, each changing nothing; a template that fails at render (a loop past
 * the memory limit) gives the page without it, never an empty page or a 500;
 * a template that writes its own login form gets no login (no CSRF token).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { inProcessSdk } from '../helpers/sdk.js';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const CALLBACK = 'https://app.example.com/callback';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const PATH = '/api/v2/branding/templates/universal-login';

const TEMPLATE = `<!DOCTYPE html>{% assign resolved_dir = dir | default: "auto" %}<html lang="{{locale}}" dir="{{resolved_dir}}"><head>{%- auth0:head -%}</head>
<body class="_widget-auto-layout"><header id="brand-bar">{{ tenant.friendly_name }} · {{ application.name }}</header>{%- auth0:widget -%}<footer id="legal">© Acme {{ locale }}</footer></body></html>`;

describe('/api/v2/branding/templates/universal-login', () => {
  let t: TestApp;
  let client: TestClient;
  let sdk: ManagementClient;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { name: 'Templated <App>', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    sdk = await inProcessSdk(t);
  });
  after(() => t.close());

  async function loginPage(): Promise<{ browser: Browser; page: LightMyRequestResponse }> {
    const browser = new Browser(t);
    const start = await browser.get(authorizeUrl(client.client_id, CALLBACK));
    assert.equal(start.statusCode, 302, start.body);
    const page = await browser.get(start.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, page };
  }

  function refused(res: LightMyRequestResponse, status: number, message: RegExp): void {
    assert.equal(res.statusCode, status, res.body);
    assert.match((res.json() as { message: string }).message, message);
  }

  it('answers 404 before there is a template; PUT creates (201), replaces (204); GET answers {body}; DELETE removes it', async () => {
    refused(await t.management('GET', PATH), 404, /Template does not exist/);
    await assert.rejects(sdk.branding.templates.getUniversalLogin(), (err: { statusCode?: number }) => err.statusCode === 404);
    const created = await t.management('PUT', PATH, { body: { template: TEMPLATE } });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual((await t.management('GET', PATH)).json(), { body: TEMPLATE });
    // The template as a JSON string, the document's other shape.
    const replaced = await t.management('PUT', PATH, { body: JSON.stringify(TEMPLATE.replace('Acme', 'Acme Corp')) });
    assert.equal(replaced.statusCode, 204, replaced.body);
    // auth0-deploy-cli's calls.
    await sdk.branding.templates.updateUniversalLogin({ template: TEMPLATE });
    assert.deepEqual(await sdk.branding.templates.getUniversalLogin(), { body: TEMPLATE });
    await sdk.branding.templates.deleteUniversalLogin();
    refused(await t.management('GET', PATH), 404, /Template does not exist/);
    assert.equal((await t.management('DELETE', PATH)).statusCode, 204);
  });

  it('refuses a template too long, without its tags, with a syntax error or a file tag, and a missing scope; nothing changes', async () => {
    assert.equal((await t.management('PUT', PATH, { body: { template: TEMPLATE } })).statusCode, 201);
    const cases: [string, RegExp][] = [
      [TEMPLATE + ' '.repeat(102_401), /^Payload content length greater than maximum allowed: 102400\.$/],
      ['<html><head>{%- auth0:head -%}</head><body></body></html>', /missing required Liquid tags/],
      ['<html><head></head><body>{%- auth0:widget -%}</body></html>', /missing required Liquid tags/],
      [TEMPLATE.replace('{{ locale }}', '{% if %}'), /Liquid template syntax error/],
      [TEMPLATE.replace('{{ locale }}', '{% include "/etc/passwd" %}'), /include tag is not available/],
      [TEMPLATE.replace('{{ locale }}', "{% render 'secrets' %}"), /render tag is not available/],
      [TEMPLATE.replace('{{ locale }}', "{% layout 'x' %}"), /layout tag is not available/],
    ];
    for (const [template, message] of cases) refused(await t.management('PUT', PATH, { body: { template } }), 400, message);
    refused(await t.management('PUT', PATH, { body: { template: TEMPLATE, other: 1 } }), 400, /./);
    const readOnly = await t.managementToken('read:branding');
    refused(await t.management('PUT', PATH, { body: { template: 'x' }, token: readOnly }), 403, /update:branding/);
    refused(await t.management('DELETE', PATH, { token: readOnly }), 403, /delete:branding/);
    assert.deepEqual((await t.management('GET', PATH)).json(), { body: TEMPLATE });
  });

  it('renders the login page inside the template, variables escaped, the CSP unchanged, and the login still works', async () => {
    assert.equal((await t.management('PUT', PATH, { body: { template: TEMPLATE } })).statusCode < 300, true);
    const { browser, page } = await loginPage();
    assert.match(page.body, /^<!DOCTYPE html><html lang="en" dir="ltr"><head><meta charset="utf-8">/);
    assert.match(page.body, /<header id="brand-bar">[^<]* · Templated &lt;App&gt;<\/header><main class="card">/);
    assert.match(page.body, /<\/main>\n(<script>[\s\S]*<\/script>\n)?<footer id="legal">© Acme en<\/footer><\/body><\/html>$/);
    assert.equal([...page.body.matchAll(/<style>/g)].length, 2, 'the page\'s two hashed styles, once');
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(csp, /form-action 'self'/);
    // The form inside the template logs the user in as before.
    const submitted = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'alice@example.com', password: PASSWORD });
    assert.equal(submitted.statusCode, 302, submitted.body);
    assert.match(String(submitted.headers.location), /^https:\/\/app\.example\.com\/callback\?code=|^\/authorize\/resume/);
  });

  it('a template that writes its own login form gets no login: the form lacks the transaction\'s CSRF token', async () => {
    const rogue = TEMPLATE.replace(
      '{%- auth0:widget -%}',
      '<form id="rogue" method="post" action="{{ request.path }}"><input name="username"><input name="password" type="password"></form>{%- auth0:widget -%}',
    );
    assert.ok((await t.management('PUT', PATH, { body: { template: rogue } })).statusCode < 300);
    const { browser, page } = await loginPage();
    assert.match(page.body, /<form id="rogue"/);
    // What the rogue form sends: the fields it has, without the transaction's CSRF token.
    const res = await browser.post('/login', { state: hidden(page.body, 'state'), username: 'alice@example.com', password: PASSWORD });
    assert.notEqual(res.statusCode, 302, 'no redirect to the application');
    assert.doesNotMatch(String(res.headers.location ?? ''), /code=/);
  });

  it('a template that fails at render gives the page without it, not an empty page or a 500', async () => {
    const bomb = TEMPLATE.replace('{{ locale }}', '{% for i in (1..100000000) %}xxxxxxxxxx{% endfor %}');
    assert.ok((await t.management('PUT', PATH, { body: { template: bomb } })).statusCode < 300);
    const { page } = await loginPage();
    assert.match(page.body, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(page.body, /<main class="card">/);
    assert.doesNotMatch(page.body, /brand-bar/);
    await t.management('DELETE', PATH);
    const { page: plain } = await loginPage();
    assert.doesNotMatch(plain.body, /brand-bar/);
  });
});
