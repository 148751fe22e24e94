/**
 * The screens' render settings (/api/v2/prompts/rendering and
 * /api/v2/prompts/{prompt}/screen/{screen}/rendering) through the real app
 * and database, with the `auth0` SDK's calls (`prompts.rendering.list`,
 * `bulkUpdate`, `get`, `update`), and the login page they put in advanced
 * mode: the tenant's head tags (escaped), their origins and nothing else
 * added to the CSP, `window.universal_login_context` with the configured
 * entries (escaped for a script element, no client secret), the form still
 * logging the user in; a filter that does not match the request, or
 * excludes it, gets the standard page. Refusals: unknown prompt or screen,
 * a screen of another prompt, unknown context entries, inline or
 * non-https head tags, unknown attributes, malformed filters, advanced mode
 * on a screen Gatehouse does not render in it, missing scopes: each changes
 * nothing. On SQLite and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { POSTGRES_ADMIN_URL, postgresAvailable } from '../helpers/postgres.js';
import { PASSWORD_TOGGLE_HASH, pageUi, renderPage } from '../../src/authentication/pages/html.js';
import { consentPage } from '../../src/authentication/pages/authorize.js';
import { passwordlessCodePage, passwordlessEmailPage, passwordlessSmsCodePage } from '../../src/authentication/pages/passwordless.js';
import { applyRendering, DEFAULT_RENDERING, type RenderingFacts, type StoredRendering } from '../../src/domain/branding/rendering.js';

const CALLBACK = 'https://app.example.com/callback';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const SCREEN = (prompt: string, screen: string) => `/api/v2/prompts/${prompt}/screen/${screen}/rendering`;
const BULK = '/api/v2/prompts/rendering';

const ADVANCED = {
  rendering_mode: 'advanced',
  context_configuration: ['client.description', 'client.metadata.tier', 'untrusted_data.authorization_params.login_hint', 'screen.texts', 'tenant.friendly_name', 'client.metadata.__proto__'],
  head_tags: [
    { tag: 'script', attributes: { src: 'https://cdn.example.com/acul/main.js', defer: true, type: 'module', id: 'x"><script>alert(1)</script>' } },
    { tag: 'link', attributes: { rel: 'stylesheet', href: 'https://styles.example.com/acul.css' } },
    { tag: 'link', attributes: { rel: 'preload', as: 'font', href: 'https://fonts.example.net/f.woff2', crossorigin: 'anonymous' } },
    { tag: 'meta', attributes: { name: 'app-version', content: '1.2.3' } },
  ],
};

const pgSkip = (await postgresAvailable()) ? false : `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}`;

for (const backend of ['SQLite', 'PostgreSQL'] as const) describe(`/api/v2/prompts/rendering (${backend})`, { skip: backend === 'PostgreSQL' && pgSkip }, () => {
  let t: TestApp;
  let client: TestClient;
  let other: TestClient;
  let sdk: ManagementClient;

  before(async () => {
    t = await createTestApp({ postgres: backend === 'PostgreSQL' });
    client = await insertClient(t, {
      name: 'Rendering App',
      description: 'Our </script> app',
      grant_types: ['authorization_code'],
      config: { callbacks: [CALLBACK], client_metadata: JSON.parse('{"tier":"gold","__proto__":"x"}') as Record<string, string> },
    });
    other = await insertClient(t, { name: 'Other', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id, other.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    sdk = await inProcessSdk(t);
  });
  after(() => t?.close());

  function refused(res: LightMyRequestResponse, status: number, message: RegExp): void {
    assert.equal(res.statusCode, status, res.body);
    const body = res.json() as { statusCode: number; message: string; error: string };
    assert.equal(body.statusCode, status);
    assert.match(body.message, message);
  }

  async function openLogin(clientId = client.client_id, params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<{ browser: Browser; page: LightMyRequestResponse }> {
    const browser = new Browser(t);
    const start = await browser.get(authorizeUrl(clientId, CALLBACK, params), headers);
    assert.equal(start.statusCode, 302, start.body);
    const page = await browser.get(start.headers.location as string, headers);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, page };
  }

  const contextOf = (body: string): { source: string; value: Record<string, any> } | undefined => {
    const match = /<script id="universal-login-context">(window\.universal_login_context = (.*);)<\/script>/.exec(body);
    return match ? { source: match[1]!, value: JSON.parse(match[2]!) as Record<string, any> } : undefined;
  };

  it('answers the defaults for a screen never set; PATCH changes only what it names, null puts back a default; the SDK reads and writes them', async () => {
    const fresh = await t.management('GET', SCREEN('signup', 'signup'));
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.deepEqual(fresh.json(), {
      tenant: t.tenant.name,
      prompt: 'signup',
      screen: 'signup',
      rendering_mode: 'standard',
      context_configuration: [],
      default_head_tags_disabled: false,
      use_page_template: false,
      head_tags: [],
      filters: null,
    });
    const updated = await sdk.prompts.rendering.update('signup', 'signup', { rendering_mode: 'advanced', head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.example.com/s.js' } }] });
    assert.equal(updated.rendering_mode, 'advanced');
    assert.deepEqual(updated.head_tags, [{ tag: 'script', attributes: { src: 'https://cdn.example.com/s.js' } }]);
    const patched = await t.management('PATCH', SCREEN('signup', 'signup'), { body: { default_head_tags_disabled: true } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().default_head_tags_disabled, true);
    assert.equal(patched.json().rendering_mode, 'advanced', 'members not named are kept');
    const got = await sdk.prompts.rendering.get('signup', 'signup');
    assert.equal(got.default_head_tags_disabled, true);
    assert.equal(got.head_tags?.length, 1);
    const reset = await t.management('PATCH', SCREEN('signup', 'signup'), { body: { head_tags: null, default_head_tags_disabled: null, rendering_mode: 'standard' } });
    assert.deepEqual(reset.json().head_tags, []);
    assert.equal(reset.json().default_head_tags_disabled, false);
  });

  it('bulk-updates several screens; lists them with filters, fields and totals', async () => {
    const bulk = await sdk.prompts.rendering.bulkUpdate({
      configs: [
        { prompt: 'login-id', screen: 'login-id', rendering_mode: 'advanced', context_configuration: ['tenant.name'] },
        { prompt: 'mfa-otp', screen: 'mfa-otp-challenge', rendering_mode: 'standard', use_page_template: true },
      ],
    });
    assert.deepEqual(
      bulk.configs.map((c) => [c.prompt, c.screen, c.rendering_mode]),
      [
        ['login-id', 'login-id', 'advanced'],
        ['mfa-otp', 'mfa-otp-challenge', 'standard'],
      ],
    );
    const all = (await t.management('GET', BULK)).json() as { prompt: string; screen: string; rendering_mode: string; tenant: string }[];
    assert.deepEqual(all.map((c) => `${c.prompt}/${c.screen}`).sort(), ['login-id/login-id', 'mfa-otp/mfa-otp-challenge', 'signup/signup']);
    assert.ok(all.every((c) => c.tenant === t.tenant.name));
    const advancedOnly = (await t.management('GET', `${BULK}?rendering_mode=advanced`)).json() as { screen: string }[];
    assert.deepEqual(advancedOnly.map((c) => c.screen), ['login-id']);
    const byPrompt = (await t.management('GET', `${BULK}?prompt=mfa-otp&fields=screen,use_page_template`)).json();
    assert.deepEqual(byPrompt, [{ screen: 'mfa-otp-challenge', use_page_template: true }]);
    const paged = (await t.management('GET', `${BULK}?include_totals=true&per_page=2&page=1`)).json() as { configs: unknown[]; start: number; limit: number; total: number };
    assert.deepEqual({ ...paged, configs: paged.configs.length }, { configs: 1, start: 2, limit: 2, total: 3 });
    // The SDK's pages, one config a page, walked to the end.
    const walked: string[] = [];
    for await (const config of await sdk.prompts.rendering.list({ per_page: 1 })) walked.push(`${config.prompt}/${config.screen}`);
    assert.deepEqual(walked.sort(), ['login-id/login-id', 'mfa-otp/mfa-otp-challenge', 'signup/signup']);
    const filtered = await sdk.prompts.rendering.list({ prompt: 'login-id' });
    assert.deepEqual(filtered.data.map((c) => c.screen), ['login-id']);
    await t.management('PATCH', SCREEN('login-id', 'login-id'), { body: { rendering_mode: 'standard' } });
  });

  it('refuses bad names, entries, head tags, filters, advanced mode where Gatehouse has none, and missing scopes; nothing changes', async () => {
    const before = (await t.management('GET', SCREEN('login', 'login'))).json();
    refused(await t.management('GET', SCREEN('nope', 'login')), 400, /^Path validation error: .* on property prompt/);
    refused(await t.management('PATCH', SCREEN('login', 'made-up'), { body: {} }), 400, /on property screen/);
    refused(await t.management('GET', SCREEN('login', 'signup')), 400, /'signup' is not a screen of the prompt 'login'/);
    const cases: [unknown, RegExp][] = [
      [{ context_configuration: ['client.client_secret'] }, /'client\.client_secret' is not a context_configuration entry/],
      [{ context_configuration: ['client.metadata.a.b'] }, /is not a context_configuration entry/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.example.com/a.js' }, content: 'alert(1)' }] }, /head_tags\[0\]\.content is not accepted/],
      [{ head_tags: [{ tag: 'script', attributes: {} }] }, /head_tags\[0\]\.attributes\.src is required/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'http://cdn.example.com/a.js' } }] }, /must be an https URL/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'javascript:alert(1)' } }] }, /must be an https URL/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.example.com/a.js', onload: 'alert(1)' } }] }, /onload is not an attribute a <script> head tag may have/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.example.com/a.js', referrerpolicy: 'unsafe-url' } }] }, /referrerpolicy is not an attribute/],
      [{ head_tags: [{ tag: 'style', attributes: {} }] }, /head_tags\[0\]\.tag must be one of script, link, meta/],
      [{ head_tags: [{ tag: 'link', attributes: { rel: 'prefetch', href: 'https://x.example/a' } }] }, /rel must be one of/],
      [{ head_tags: [{ tag: 'meta', attributes: { name: 'referrer', content: 'unsafe-url' } }] }, /must be a meta name other than/],
      [{ head_tags: Array.from({ length: 21 }, () => ({ tag: 'script', attributes: { src: 'https://cdn.example.com/a.js' } })) }, /more than 20 tags/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.example.com/a.js', type: 'text/x', id: 'a', defer: true, async: true, integrity: 'x', crossorigin: 'x', referrerpolicy: 'x', nomodule: true, 'data-x': 'y', 'data-y': 'z' } }] }, /more than 10 attributes/],
      [{ filters: { clients: [{ id: 'a', metadata: { k: 'v' } }] } }, /Payload validation error/],
      [{ filters: { clients: [{ metadata: { a: 'x', b: 'y' } }] } }, /exactly one key/],
      [{ filters: { match_type: 'sometimes' } }, /Payload validation error/],
      [{ rendering_mode: 'fancy' }, /Payload validation error/],
      [{ colour: 'red' }, /Payload validation error/],
      [{ head_tags: [{ tag: 'constructor', attributes: {} }] }, /tag must be one of script, link, meta/],
      [{ head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.example.com/a.js', hasOwnProperty: 'x' } }] }, /hasOwnProperty is not an attribute/],
    ];
    for (const [body, message] of cases) refused(await t.management('PATCH', SCREEN('login', 'login'), { body }), 400, message);
    refused(await t.management('PATCH', SCREEN('mfa-otp', 'mfa-otp-challenge'), { body: { rendering_mode: 'advanced' } }), 403, /This screen is not available in Advanced Customizations/);
    // A bulk update with one bad config writes none.
    refused(
      await t.management('PATCH', BULK, { body: { configs: [{ prompt: 'login', screen: 'login', rendering_mode: 'advanced' }, { prompt: 'login', screen: 'login-id' }] } }),
      400,
      /'login-id' is not a screen of the prompt 'login'/,
    );
    refused(await t.management('PATCH', BULK, { body: { configs: [] } }), 400, /Payload validation error/);
    refused(await t.management('GET', SCREEN('constructor', 'login')), 400, /on property prompt/);
    assert.deepEqual((await t.management('GET', `${BULK}?prompt=__proto__&screen=constructor`)).json(), []);
    const readOnly = await t.managementToken('read:prompts');
    refused(await t.management('PATCH', SCREEN('login', 'login'), { body: { rendering_mode: 'advanced' }, token: readOnly }), 403, /update:prompts/);
    refused(await t.management('PATCH', BULK, { body: { configs: [{ prompt: 'login', screen: 'login' }] }, token: readOnly }), 403, /update:prompts/);
    const noScope = await t.managementToken('read:branding');
    refused(await t.management('GET', SCREEN('login', 'login'), { token: noScope }), 403, /read:prompts/);
    refused(await t.management('GET', BULK, { token: noScope }), 403, /read:prompts/);
    assert.deepEqual((await t.management('GET', SCREEN('login', 'login'))).json(), before);
  });

  it('renders the login screen in advanced mode: head tags escaped, their origins in the CSP, the context JSON without secrets, the form still logs in', async () => {
    const set = await t.management('PATCH', SCREEN('login', 'login'), { body: ADVANCED });
    assert.equal(set.statusCode, 200, set.body);
    const hint = 'alice@example.com</script><script>alert(1)</script>';
    const { browser, page } = await openLogin(client.client_id, { login_hint: hint });
    const body = page.body;
    const head = body.slice(0, body.indexOf('</head>'));
    assert.match(head, /<script src="https:\/\/cdn\.example\.com\/acul\/main\.js" defer type="module" id="x&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"><\/script>/);
    assert.match(head, /<link rel="stylesheet" href="https:\/\/styles\.example\.com\/acul\.css">/);
    assert.match(head, /<meta name="app-version" content="1\.2\.3">/);
    assert.equal((head.match(/<script/g) ?? []).length, 2, 'the tenant\'s script and the context in the head, nothing inline of the tenant\'s');
    assert.match(body, /<body data-rendering-mode="advanced" data-prompt="login" data-screen="login">/);

    // The CSP: the origins of the tags, each in its directive, and the context script's hash; nothing else.
    const csp = String(page.headers['content-security-policy']);
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
    const context = contextOf(body);
    assert.ok(context, 'the page has the context script');
    const hash = `'sha256-${createHash('sha256').update(context.source, 'utf8').digest('base64')}'`;
    assert.deepEqual(directive('script-src').split(' ').slice(1), [PASSWORD_TOGGLE_HASH, hash, 'https://cdn.example.com'], 'the page\'s own script, the context, the tenant\'s origin');
    assert.match(directive('style-src'), /^style-src 'sha256-[^']+' 'sha256-[^']+' https:\/\/styles\.example\.com$/);
    assert.equal(directive('font-src'), 'font-src https://fonts.example.net');
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|connect-src|\*/);
    assert.match(csp, /^default-src 'none'; form-action 'self' https:\/\/app\.example\.com;/);

    // The context: what the configuration names, escaped for the script element; no secret.
    assert.doesNotMatch(context.source, /<\/script|<script/i);
    const value = context.value;
    assert.deepEqual(value.client, { id: client.client_id, name: 'Rendering App', description: 'Our </script> app', metadata: JSON.parse('{"tier":"gold","__proto__":"x"}') });
    assert.deepEqual(value.prompt, { name: 'login' });
    assert.equal(value.screen.name, 'login');
    assert.equal(value.screen.texts.title, 'Log in');
    assert.equal(value.screen.texts.buttonText, 'Log in');
    assert.equal(value.transaction.state, hidden(body, 'state'));
    assert.equal(value.transaction.locale, 'en');
    assert.equal(value.untrusted_data.authorization_params.login_hint, hint);
    assert.ok(context.source.includes('"metadata":{"tier":"gold","__proto__":"x"}'), 'a __proto__ metadata key is written as data');
    assert.equal(body.includes(client.client_secret), false, 'the client secret is nowhere on the page');
    assert.equal(JSON.stringify(value).includes(hidden(body, 'csrf_token')), false, 'the CSRF token is the form\'s, not the context\'s');

    // A refused post answers the screen again, in advanced mode, with a fresh context.
    const wrong = await browser.post('/login', { state: hidden(body, 'state'), csrf_token: hidden(body, 'csrf_token'), username: 'alice@example.com', password: 'wrong password' });
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.equal(contextOf(wrong.body)?.value.transaction.state, hidden(body, 'state'));
    assert.match(String(wrong.headers['content-security-policy']), /script-src [^;]*https:\/\/cdn\.example\.com/);

    // The form posts where it always did and logs the user in.
    const submitted = await browser.post('/login', { state: hidden(body, 'state'), csrf_token: hidden(body, 'csrf_token'), username: 'alice@example.com', password: PASSWORD });
    assert.equal(submitted.statusCode, 302, submitted.body);
    assert.match(String(submitted.headers.location), /^https:\/\/app\.example\.com\/callback\?code=|^\/authorize\/resume/);
  });

  it('filters decide which requests get advanced mode: by client id or metadata, included or excluded; others get the standard page', async () => {
    const advancedFor = async (clientId: string) => contextOf((await openLogin(clientId)).page.body) !== undefined;
    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: { match_type: 'includes_any', clients: [{ id: client.client_id }] } } });
    assert.equal(await advancedFor(client.client_id), true);
    const unmatched = (await openLogin(other.client_id)).page;
    assert.equal(contextOf(unmatched.body), undefined);
    assert.doesNotMatch(String(unmatched.headers['content-security-policy']), /cdn\.example\.com|styles\.example\.com/);
    assert.doesNotMatch(unmatched.body, /cdn\.example\.com|data-rendering-mode/);
    assert.match(
      String(unmatched.headers['content-security-policy']),
      /^default-src 'none'; form-action 'self' https:\/\/app\.example\.com; style-src 'sha256-[^']+' 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; frame-ancestors 'none'$/,
      'the standard page\'s CSP',
    );

    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: { clients: [{ metadata: { tier: 'gold' } }] } } });
    assert.equal(await advancedFor(client.client_id), true, 'includes_any is the default; metadata matches');
    assert.equal(await advancedFor(other.client_id), false);
    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: { match_type: 'excludes_any', clients: [{ id: client.client_id }] } } });
    assert.equal(await advancedFor(client.client_id), false);
    assert.equal(await advancedFor(other.client_id), true);
    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: { organizations: [{ id: 'org_nothere' }] } } });
    assert.equal(await advancedFor(client.client_id), false, 'a request without the organization does not match');
    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: null } });
    assert.equal(await advancedFor(other.client_id), true);
  });

  it('an organization filter by metadata gives the organization\'s requests advanced mode, with its display name and metadata in the context', async () => {
    const created = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Org app', app_type: 'spa', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], callbacks: [CALLBACK], organization_usage: 'allow' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const orgClient = (created.json() as { client_id: string }).client_id;
    const connections = (await t.management('GET', `/api/v2/connections?name=${REALM}`)).json() as { id: string }[];
    assert.equal((await t.management('PATCH', `/api/v2/connections/${connections[0]!.id}/clients`, { body: [{ client_id: orgClient, status: true }] })).statusCode < 300, true);
    const org = (await t.management('POST', '/api/v2/organizations', { body: { name: 'acme-corp', display_name: 'Acme </script> Corp', metadata: { plan: 'enterprise', secret_note: 'unlisted' } } })).json() as { id: string };
    const enabled = await t.management('POST', `/api/v2/organizations/${org.id}/enabled_connections`, { body: { connection_id: connections[0]!.id, assign_membership_on_login: true } });
    assert.ok(enabled.statusCode < 300, enabled.body);
    await t.management('PATCH', SCREEN('login', 'login'), {
      body: { ...ADVANCED, context_configuration: ['organization.display_name', 'organization.metadata.plan'], filters: { organizations: [{ metadata: { plan: 'enterprise' } }] } },
    });
    const page = (await openLogin(orgClient, { organization: org.id })).page;
    const context = contextOf(page.body);
    assert.ok(context, 'the organization\'s request is in advanced mode');
    assert.deepEqual(context.value.organization, { id: org.id, name: 'acme-corp', display_name: 'Acme </script> Corp', metadata: { plan: 'enterprise' } });
    assert.doesNotMatch(context.source, /secret_note|unlisted/, 'only the metadata keys the configuration names');
    assert.equal(contextOf((await openLogin(orgClient)).page.body), undefined, 'without the organization: the standard page');
    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: null } });
  });

  it('a domain filter gives the requests through that custom domain advanced mode, with the domain and its metadata in the context', async () => {
    const custom = 'login.rendering.example';
    await t.ctx.stores.customDomains.insert({
      tenant_id: t.tenant.id,
      id: 'cd_rendering000000001',
      domain: custom,
      type: 'self_managed_certs',
      status: 'ready',
      verification_record: 'x',
      edge_key_hash: null,
      custom_client_ip_header: null,
      tls_policy: 'recommended',
      domain_metadata: { region: 'eu' },
      created_at: new Date().toISOString(),
    });
    await t.management('PATCH', SCREEN('login', 'login'), {
      body: { ...ADVANCED, context_configuration: ['transaction.custom_domain.domain', 'transaction.custom_domain.domain_metadata.region'], filters: { domains: [{ id: 'cd_rendering000000001' }] } },
    });
    const through = contextOf((await openLogin(client.client_id, {}, { host: custom })).page.body);
    assert.ok(through, 'through the custom domain: advanced mode');
    assert.deepEqual(through.value.transaction.custom_domain, { domain: custom, domain_metadata: { region: 'eu' } });
    assert.equal(contextOf((await openLogin()).page.body), undefined, 'through the canonical domain: the standard page');
    await t.management('PATCH', SCREEN('login', 'login'), { body: { filters: null } });
  });

  it('without the default head tags the design system\'s styles are gone; the page template only with use_page_template; standard mode unchanged', async () => {
    await t.management('PATCH', SCREEN('login', 'login'), { body: { ...ADVANCED, default_head_tags_disabled: true, filters: null } });
    const bare = (await openLogin()).page;
    assert.doesNotMatch(bare.body, /<style>/);
    const csp = String(bare.headers['content-security-policy']);
    assert.match(csp, /style-src https:\/\/styles\.example\.com;/);
    assert.match(bare.body, /<form method="post" action="\/login">/);

    const template = '<!DOCTYPE html><html><head>{%- auth0:head -%}</head><body><header id="tpl">{{ prompt.name }}</header>{%- auth0:widget -%}</body></html>';
    assert.ok((await t.management('PUT', '/api/v2/branding/templates/universal-login', { body: { template } })).statusCode < 300);
    assert.doesNotMatch((await openLogin()).page.body, /id="tpl"/, 'advanced mode leaves the template out unless asked');
    await t.management('PATCH', SCREEN('login', 'login'), { body: { use_page_template: true } });
    const templated = (await openLogin()).page.body;
    assert.match(templated, /<header id="tpl">login<\/header>/);
    assert.ok(contextOf(templated), 'the context is in the template\'s head');

    await t.management('PATCH', SCREEN('login', 'login'), { body: { rendering_mode: 'standard' } });
    const standard = (await openLogin()).page.body;
    assert.equal(contextOf(standard), undefined);
    assert.doesNotMatch(standard, /cdn\.example\.com/);
    assert.match(standard, /<header id="tpl">login<\/header>/, 'the standard page keeps the template');
    await t.management('DELETE', '/api/v2/branding/templates/universal-login');
  });
});

describe('the other screens Gatehouse renders in advanced mode', () => {
  const settings = (prompt: string, screen: string): StoredRendering => ({ prompt, screen, ...applyRendering(DEFAULT_RENDERING, { rendering_mode: 'advanced', head_tags: ADVANCED.head_tags.slice(0, 1) }) });
  const ui = (...screens: [string, string][]) => pageUi({ language: 'en', companyName: 'Acme', rendering: new Map(screens.map(([p, s]) => [`${p}/${s}`, settings(p, s)])) });
  const view = { clientName: 'App', state: 'st', csrf: 'c' };
  const facts: RenderingFacts = { tenant: { name: 'acme' }, client: { id: 'cid', name: 'App', metadata: {} }, authorizationParams: {}, state: 'st' };
  const advanced = (rendered: { html: { value: string }; csp: string }, screen: string) => {
    assert.match(rendered.html.value, new RegExp(`<body data-rendering-mode="advanced" data-prompt="[a-z-]+" data-screen="${screen}">`));
    assert.match(rendered.csp, /script-src [^;]*https:\/\/cdn\.example\.com/);
  };

  it('the passwordless code pages of each channel, and consent; the passwordless recipient pages stay standard', () => {
    const both = ui(['login-passwordless', 'login-passwordless-email-code'], ['login-passwordless', 'login-passwordless-sms-otp'], ['consent', 'consent']);
    advanced(renderPage(passwordlessCodePage({ ...view, email: 'a@example.com' }), both, [], facts), 'login-passwordless-email-code');
    advanced(renderPage(passwordlessSmsCodePage({ ...view, phoneNumber: '+15550001111' }), both, [], facts), 'login-passwordless-sms-otp');
    advanced(renderPage(consentPage({ ...view, userName: 'alice', scopes: [{ value: 'openid', description: '' }] }), both, [], facts), 'consent');
    const recipient = renderPage(passwordlessEmailPage(view), both, [], facts);
    assert.doesNotMatch(recipient.html.value, /data-rendering-mode|universal_login_context/);
    assert.doesNotMatch(recipient.csp, /cdn\.example\.com/);
  });
});
