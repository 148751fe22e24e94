/**
 * /api/v2/branding, /api/v2/prompts and the prompts' custom texts through the
 * real app and database, and what they change on the hosted login page: the
 * logo (and its origin in img-src, on that page only), the primary colour,
 * the language (ui_locales, then Accept-Language, within enabled_locales),
 * a custom text over the default, identifier first. Refusals: a bad colour,
 * a URL that is not https, an unknown prompt, language, screen or key, a text
 * too long, a missing scope; each changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const CALLBACK = 'https://app.example.com/callback';
const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const LOGO = 'https://cdn.example.com/brand/logo.png';

describe('/api/v2/branding and /api/v2/prompts', () => {
  let t: TestApp;
  let client: TestClient;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { name: 'Branded App', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
  });
  after(() => t.close());

  /** The login page a fresh browser reaches through /authorize. */
  async function loginPage(params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<{ browser: Browser; page: LightMyRequestResponse }> {
    const browser = new Browser(t);
    const start = await browser.get(authorizeUrl(client.client_id, CALLBACK, params), headers);
    assert.equal(start.statusCode, 302, start.body);
    const page = await browser.get(start.headers.location as string, headers);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, page };
  }

  function refusedWith(res: LightMyRequestResponse, status: number, message: RegExp): void {
    assert.equal(res.statusCode, status, res.body);
    const body = res.json() as { statusCode: number; message: string };
    assert.equal(body.statusCode, status);
    assert.match(body.message, message);
  }

  describe('branding', () => {
    it('starts empty, merges PATCHes member by member, removes a member set to null', async () => {
      const empty = await t.management('GET', '/api/v2/branding');
      assert.equal(empty.statusCode, 200, empty.body);
      assert.deepEqual(empty.json(), {});

      const set = await t.management('PATCH', '/api/v2/branding', { body: { logo_url: LOGO, colors: { primary: '#0a7d33' }, font: { url: 'https://cdn.example.com/f.woff2' } } });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), { logo_url: LOGO, colors: { primary: '#0a7d33' }, font: { url: 'https://cdn.example.com/f.woff2' } });

      const gradient = { type: 'linear-gradient', start: '#ffffff', end: '#dde7ff', angle_deg: 35 };
      const more = await t.management('PATCH', '/api/v2/branding', { body: { colors: { page_background: gradient }, font: null } });
      assert.equal(more.statusCode, 200, more.body);
      assert.deepEqual(more.json(), { logo_url: LOGO, colors: { primary: '#0a7d33', page_background: gradient } });
      assert.deepEqual((await t.management('GET', '/api/v2/branding')).json(), more.json());
    });

    it('refuses a bad colour, a URL that is not https, an unknown member, and changes nothing', async () => {
      const before = (await t.management('GET', '/api/v2/branding')).json();
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { colors: { primary: 'red; background:url(x)' } } }), 400, /colors\.primary/);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { colors: { primary: '#12345' } } }), 400, /colors\.primary/);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { colors: { page_background: '#xyzxyz' } } }), 400, /page_background/);
      refusedWith(
        await t.management('PATCH', '/api/v2/branding', { body: { colors: { page_background: { type: 'radial-gradient', start: '#fff', end: '#000', angle_deg: 1 } } } }),
        400,
        /linear-gradient/,
      );
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { logo_url: 'http://cdn.example.com/logo.png' } }), 400, /logo_url.*https|https.*logo_url/);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { favicon_url: 'javascript:alert(1)' } }), 400, /favicon_url/);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { font: { url: 'https://user:pw@cdn.example.com/f.woff2' } } }), 400, /font\.url/);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { logo: LOGO } }), 400, /logo/);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { body: { logo_url: `https://cdn.example.com/${'a'.repeat(2100)}` } }), 400, /logo_url/);
      assert.deepEqual((await t.management('GET', '/api/v2/branding')).json(), before);
    });

    it('needs read:branding to read and update:branding to change', async () => {
      const reader = await t.managementToken('read:branding');
      assert.equal((await t.management('GET', '/api/v2/branding', { token: reader })).statusCode, 200);
      refusedWith(await t.management('PATCH', '/api/v2/branding', { token: reader, body: { logo_url: LOGO } }), 403, /update:branding/);
      const other = await t.managementToken('read:prompts');
      refusedWith(await t.management('GET', '/api/v2/branding', { token: other }), 403, /read:branding/);
    });

    it('the login page shows the logo and primary colour, and lets that origin serve images only there', async () => {
      const { page } = await loginPage();
      assert.match(page.body, new RegExp(`<img src="${LOGO}" alt="[^"]+">`));
      assert.match(page.body, /--primary:#0a7d33/);
      assert.match(page.body, /linear-gradient\(35deg, #ffffff, #dde7ff\)/);
      const csp = page.headers['content-security-policy'] as string;
      assert.match(csp, /img-src https:\/\/cdn\.example\.com(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      // Every inline style and script of the page is allowed by its hash.
      const hashes = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
      const { createHash } = await import('node:crypto');
      for (const [, content] of page.body.matchAll(/<(?:style|script)>([\s\S]*?)<\/(?:style|script)>/g)) {
        assert.ok(hashes.includes(createHash('sha256').update(content!).digest('base64')), 'inline content allowed by hash');
      }
      // A JSON endpoint's answer carries no such policy.
      const jwks = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } });
      assert.equal(jwks.headers['content-security-policy'], undefined);
    });
  });

  describe('languages and custom texts', () => {
    it('ui_locales chooses the language, then Accept-Language; English by default', async () => {
      const fr = await loginPage({ ui_locales: 'fr-CA en' });
      assert.match(fr.page.body, /<html lang="fr">/);
      assert.match(fr.page.body, /<label for="username">Adresse e-mail<\/label>/);
      assert.match(fr.page.body, /<button type="submit">Se connecter<\/button>/);
      const de = await loginPage({}, { 'accept-language': 'it;q=1, de-CH;q=0.9, en;q=0.5' });
      assert.match(de.page.body, /<html lang="de">/);
      assert.match(de.page.body, /Passwort vergessen\?/);
      const es = await loginPage({ ui_locales: 'es' }, { 'accept-language': 'de' });
      assert.match(es.page.body, /Iniciar sesión/);
      const en = await loginPage({ ui_locales: 'ja' });
      assert.match(en.page.body, /<html lang="en">/);
      assert.match(en.page.body, /Forgot your password\?/);
    });

    it('a refused login answers in the language of the request', async () => {
      const { browser, page } = await loginPage({ ui_locales: 'fr' });
      const res = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'alice@example.com', password: 'wrong' });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /role="alert">E-mail ou mot de passe incorrect\.<\/p>/);
    });

    it('a custom text replaces the default in its language only; GET returns it; PUT replaces the whole set', async () => {
      const texts = { login: { title: 'Welcome back to <Branded>', buttonText: 'Continue to ${clientName}' } };
      const put = await t.management('PUT', '/api/v2/prompts/login/custom-text/en', { body: texts });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), texts);
      assert.deepEqual((await t.management('GET', '/api/v2/prompts/login/custom-text/en')).json(), texts);
      assert.deepEqual((await t.management('GET', '/api/v2/prompts/login/custom-text/fr')).json(), {});

      const en = await loginPage();
      assert.match(en.page.body, /<h1>Welcome back to &lt;Branded&gt;<\/h1>/);
      assert.match(en.page.body, /<button type="submit">Continue to Branded App<\/button>/);
      const fr = await loginPage({ ui_locales: 'fr' });
      assert.match(fr.page.body, /<h1>Connexion<\/h1>/);

      const replaced = await t.management('PUT', '/api/v2/prompts/login/custom-text/en', { body: { login: { title: 'Hello' } } });
      assert.equal(replaced.statusCode, 200, replaced.body);
      const again = await loginPage();
      assert.match(again.page.body, /<h1>Hello<\/h1>/);
      assert.match(again.page.body, /<button type="submit">Log in<\/button>/);
      assert.equal((await t.management('PUT', '/api/v2/prompts/login/custom-text/en', { body: {} })).statusCode, 200);
    });

    it('refuses an unknown prompt, language, screen or key, a text that is not a string or too long, and changes nothing', async () => {
      await t.management('PUT', '/api/v2/prompts/signup/custom-text/de', { body: { signup: { title: 'Konto anlegen' } } });
      refusedWith(await t.management('PUT', '/api/v2/prompts/nope/custom-text/en', { body: {} }), 400, /Invalid prompt 'nope'/);
      refusedWith(await t.management('GET', '/api/v2/prompts/nope/custom-text/en'), 400, /Invalid prompt 'nope'/);
      refusedWith(await t.management('GET', '/api/v2/prompts/login/custom-text/xx'), 400, /Invalid language 'xx'/);
      // A prompt or language of the service that Gatehouse does not render: read as empty (export tools read them all), never set.
      const unrendered = await t.management('GET', '/api/v2/prompts/mfa-voice/custom-text/en');
      assert.equal(unrendered.statusCode, 200);
      assert.deepEqual(unrendered.json(), {});
      assert.deepEqual((await t.management('GET', '/api/v2/prompts/login/custom-text/ja')).json(), {});
      refusedWith(await t.management('PUT', '/api/v2/prompts/mfa-voice/custom-text/en', { body: {} }), 400, /Invalid prompt 'mfa-voice'/);
      refusedWith(await t.management('PUT', '/api/v2/prompts/signup/custom-text/ja', { body: {} }), 400, /Invalid language 'ja'/);
      refusedWith(await t.management('PUT', '/api/v2/prompts/signup/custom-text/de', { body: { login: { title: 'x' } } }), 400, /unknown screen 'login'/);
      refusedWith(await t.management('PUT', '/api/v2/prompts/signup/custom-text/de', { body: { signup: { nope: 'x' } } }), 400, /unknown key 'nope'/);
      refusedWith(await t.management('PUT', '/api/v2/prompts/signup/custom-text/de', { body: { signup: { title: 42 } } }), 400, /must be a string/);
      refusedWith(await t.management('PUT', '/api/v2/prompts/signup/custom-text/de', { body: { signup: { title: 'x'.repeat(2001) } } }), 400, /longer than 2000/);
      refusedWith(await t.management('PUT', '/api/v2/prompts/signup/custom-text/de', { body: [] }), 400, /./);
      assert.deepEqual((await t.management('GET', '/api/v2/prompts/signup/custom-text/de')).json(), { signup: { title: 'Konto anlegen' } });
    });

    it('needs read:prompts to read and update:prompts to change', async () => {
      const reader = await t.managementToken('read:prompts');
      assert.equal((await t.management('GET', '/api/v2/prompts/login/custom-text/en', { token: reader })).statusCode, 200);
      assert.equal((await t.management('GET', '/api/v2/prompts', { token: reader })).statusCode, 200);
      refusedWith(await t.management('PUT', '/api/v2/prompts/login/custom-text/en', { token: reader, body: {} }), 403, /update:prompts/);
      refusedWith(await t.management('PATCH', '/api/v2/prompts', { token: reader, body: { identifier_first: true } }), 403, /update:prompts/);
      const other = await t.managementToken('read:branding');
      refusedWith(await t.management('GET', '/api/v2/prompts', { token: other }), 403, /read:prompts/);
    });
  });

  describe('prompts settings', () => {
    it('defaults, PATCH, null back to the default, refusals', async () => {
      const initial = await t.management('GET', '/api/v2/prompts');
      assert.deepEqual(initial.json(), { universal_login_experience: 'new', identifier_first: false, webauthn_platform_first_factor: false });
      refusedWith(await t.management('PATCH', '/api/v2/prompts', { body: { universal_login_experience: 'fancy' } }), 400, /universal_login_experience/);
      refusedWith(await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: 'yes' } }), 400, /identifier_first/);
      refusedWith(await t.management('PATCH', '/api/v2/prompts', { body: { other: true } }), 400, /other/);
      const classic = await t.management('PATCH', '/api/v2/prompts', { body: { universal_login_experience: 'classic', webauthn_platform_first_factor: true } });
      assert.deepEqual(classic.json(), { universal_login_experience: 'classic', identifier_first: false, webauthn_platform_first_factor: true });
      const reset = await t.management('PATCH', '/api/v2/prompts', { body: { universal_login_experience: 'new', webauthn_platform_first_factor: null } });
      assert.deepEqual(reset.json(), initial.json());
    });

    it('identifier_first: the login asks for the identifier, then the password, and logs in', async () => {
      assert.equal((await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: true } })).statusCode, 200);
      try {
        const { browser, page } = await loginPage();
        assert.match(page.body, /id="username"/);
        assert.doesNotMatch(page.body, /type="password"/, 'no password on the first step');
        const state = hidden(page.body, 'state');
        const second = await browser.post('/login', { state, csrf_token: hidden(page.body, 'csrf_token'), username: 'alice@example.com' });
        assert.equal(second.statusCode, 200, second.body);
        assert.match(second.body, /<h1>Enter your password<\/h1>/);
        assert.match(second.body, /<strong aria-describedby="identifier-label">alice@example.com<\/strong>/);
        assert.match(second.body, /<input type="password" id="password"/);
        const wrong = await browser.post('/login', { state, csrf_token: hidden(second.body, 'csrf_token'), username: 'alice@example.com', password: 'nope' });
        assert.equal(wrong.statusCode, 400);
        assert.match(wrong.body, /<h1>Enter your password<\/h1>/, 'the refusal stays on the password step');
        const done = await browser.post('/login', { state, csrf_token: hidden(second.body, 'csrf_token'), username: 'alice@example.com', password: PASSWORD });
        assert.equal(done.statusCode, 302, done.body);
        assert.ok((done.headers.location as string).startsWith(`${CALLBACK}?code=`), done.headers.location as string);
      } finally {
        await t.management('PATCH', '/api/v2/prompts', { body: { identifier_first: false } });
      }
    });
  });
});
