/**
 * /api/v2/branding/themes through the real app and database, with the
 * `auth0` SDK as its callers use it (auth0-deploy-cli reads the theme with
 * `branding.themes.getDefault()` and takes a 404 for "none"), and what a
 * theme changes on the hosted login page: the palette as CSS custom
 * properties in the page's hashed style element (never raw CSS), text
 * colours raised to 4.5:1 where the theme's fall short, the background image
 * and logo in the page's CSP. Refusals: a second theme, an unknown id, a
 * colour or URL outside the document's patterns, a missing group, a value
 * out of range, a missing scope; each changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { inProcessSdk } from '../helpers/sdk.js';
import type { LightMyRequestResponse } from 'fastify';
import { contrast } from '../../src/authentication/pages/theme.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { defaultTheme, lowContrastTheme } from '../fixtures/themes.js';

const CALLBACK = 'https://app.example.com/callback';
const REALM = 'Username-Password-Authentication';

describe('/api/v2/branding/themes', () => {
  let t: TestApp;
  let client: TestClient;
  let sdk: ManagementClient;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { name: 'Themed App', grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    // The SDK over the app in process: its requests, paths and bodies exactly as it sends them.
    sdk = await inProcessSdk(t);
  });
  after(() => t.close());

  async function loginPage(): Promise<LightMyRequestResponse> {
    const browser = new Browser(t);
    const start = await browser.get(authorizeUrl(client.client_id, CALLBACK));
    assert.equal(start.statusCode, 302, start.body);
    const page = await browser.get(start.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return page;
  }

  /** The custom properties of the page's tenant style element (the second), light scheme. */
  function pageVars(page: LightMyRequestResponse): Record<string, string> {
    const styles = [...page.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    assert.equal(styles.length, 2, 'the base style and the tenant style, nothing else');
    const root = /:root\{([^}]*)\}/.exec(styles[1]!)![1]!;
    return Object.fromEntries(root.split(';').map((decl) => [decl.slice(0, decl.indexOf(':')), decl.slice(decl.indexOf(':') + 1)]));
  }

  function refused(res: LightMyRequestResponse, status: number, message: RegExp, what = ''): void {
    assert.equal(res.statusCode, status, `${what} ${res.body}`);
    const body = res.json() as { statusCode: number; message: string };
    assert.equal(body.statusCode, status);
    assert.match(body.message, message);
  }

  it('has no theme at first: getDefault answers 404, as auth0-deploy-cli expects', async () => {
    refused(await t.management('GET', '/api/v2/branding/themes/default'), 404, /theme/i);
    await assert.rejects(sdk.branding.themes.getDefault(), (err: { statusCode?: number }) => err.statusCode === 404);
  });

  it('creates, reads, replaces and deletes the one theme with the SDK', async () => {
    const created = await sdk.branding.themes.create(defaultTheme() as never);
    assert.match(created.themeId, /^[a-zA-Z0-9]{32}$/);
    assert.equal(created.displayName, 'Unnamed Theme');
    assert.deepEqual({ ...created, themeId: undefined, displayName: undefined }, { ...defaultTheme(), themeId: undefined, displayName: undefined });

    assert.deepEqual(await sdk.branding.themes.getDefault(), created);
    assert.deepEqual(await sdk.branding.themes.get(created.themeId), created);

    const next = lowContrastTheme();
    const updated = await sdk.branding.themes.update(created.themeId, next as never);
    assert.equal(updated.themeId, created.themeId);
    assert.equal(updated.displayName, 'Night');
    assert.equal(updated.colors.primary_button, '#ffb000');
    assert.equal(updated.borders.buttons_style, 'pill');
    assert.deepEqual(await sdk.branding.themes.getDefault(), updated);

    // A replacement without a display name keeps the one it had.
    const { displayName: _name, ...unnamed } = defaultTheme();
    const kept = await t.management('PATCH', `/api/v2/branding/themes/${created.themeId}`, { body: unnamed });
    assert.equal(kept.statusCode, 200, kept.body);
    assert.equal(kept.json().displayName, 'Night');

    await sdk.branding.themes.delete(created.themeId);
    refused(await t.management('GET', '/api/v2/branding/themes/default'), 404, /theme/i);
    refused(await t.management('GET', `/api/v2/branding/themes/${created.themeId}`), 404, /theme/i);
    refused(await t.management('DELETE', `/api/v2/branding/themes/${created.themeId}`), 404, /theme/i);
  });

  it('refuses a second theme, an unknown id, bad values and a missing scope, and changes nothing', async () => {
    const first = await t.management('POST', '/api/v2/branding/themes', { body: defaultTheme() });
    assert.equal(first.statusCode, 200, first.body);
    const theme = first.json() as { themeId: string };
    refused(await t.management('POST', '/api/v2/branding/themes', { body: lowContrastTheme() }), 409, /already/);
    refused(await t.management('PATCH', '/api/v2/branding/themes/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', { body: lowContrastTheme() }), 404, /theme/i);
    refused(await t.management('DELETE', '/api/v2/branding/themes/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), 404, /theme/i);

    const bad = (change: (body: ReturnType<typeof defaultTheme>) => unknown) => {
      const body = defaultTheme();
      change(body);
      return body;
    };
    const cases: [string, unknown, RegExp][] = [
      ['a colour that is not hex', bad((b) => (b.colors.primary_button = 'red;background:url(x)')), /primary_button|pattern/],
      ['a five-digit colour', bad((b) => (b.colors.body_text = '#12345')), /body_text|pattern/],
      ['a font over http', bad((b) => (b.fonts.font_url = 'http://fonts.example.com/f.woff2')), /font_url|format/],
      ['a background image that is not a URL', bad((b) => (b.page_background.background_image_url = 'javascript:alert(1)')), /background_image_url|format/],
      ['a title size out of range', bad((b) => (b.fonts.title.size = 400)), /size|maximum|150/],
      ['an unknown buttons style', bad((b) => ((b.borders as Record<string, unknown>).buttons_style = 'wavy')), /buttons_style|allowed|enum/],
      ['a missing group', (() => { const b = defaultTheme() as Partial<ReturnType<typeof defaultTheme>>; delete b.widget; return b; })(), /widget|required/],
      ['an unknown member', { ...defaultTheme(), css: 'body{display:none}' }, /css|additional/],
      ['a display name with markup', { ...defaultTheme(), displayName: '<b>x</b>' }, /displayName|pattern/],
    ];
    for (const [what, body, message] of cases) {
      refused(await t.management('PATCH', `/api/v2/branding/themes/${theme.themeId}`, { body }), 400, message, what);
    }
    const withoutScope = await t.managementToken('read:branding');
    refused(await t.management('POST', '/api/v2/branding/themes', { body: defaultTheme(), token: withoutScope }), 403, /update:branding/);
    refused(await t.management('DELETE', `/api/v2/branding/themes/${theme.themeId}`, { token: withoutScope }), 403, /delete:branding/);
    const readOnly = await t.managementToken('update:branding');
    refused(await t.management('GET', '/api/v2/branding/themes/default', { token: readOnly }), 403, /read:branding/);

    assert.deepEqual((await t.management('GET', '/api/v2/branding/themes/default')).json(), first.json());
    assert.equal((await t.management('DELETE', `/api/v2/branding/themes/${theme.themeId}`)).statusCode, 204);
  });

  it('turns the theme into the login page’s custom properties, raising text below 4.5:1, and goes back to the branding when deleted', async () => {
    const branded = await t.management('PATCH', '/api/v2/branding', { body: { colors: { primary: '#0a7d33' } } });
    assert.equal(branded.statusCode, 200, branded.body);
    assert.equal(pageVars(await loginPage())['--primary'], '#0a7d33');

    const theme = lowContrastTheme();
    theme.page_background.background_image_url = 'https://images.example.com/bg.jpg';
    theme.widget.logo_url = 'https://cdn.example.com/logo.svg';
    const created = await t.management('POST', '/api/v2/branding/themes', { body: theme });
    assert.equal(created.statusCode, 200, created.body);

    const page = await loginPage();
    const vars = pageVars(page);
    assert.equal(vars['--primary'], '#ffb000');
    assert.equal(vars['--card'], '#2b2b2b');
    assert.equal(vars['--page'], '#101418');
    assert.equal(vars['--layout'], 'flex-start');
    assert.equal(vars['--button-radius'], '9999px');
    assert.equal(vars['--input-radius'], '0');
    assert.equal(vars['--card-radius'], '24px');
    assert.equal(vars['--card-shadow'], 'none');
    assert.equal(vars['--header-align'], 'left');
    assert.equal(vars['--link-decoration'], 'underline');
    assert.equal(vars['--title-weight'], '700');
    assert.equal(vars['--body-size'], '12px', 'a body size of 0 % is raised to the smallest readable size');
    assert.equal(vars['--page-image'], 'url("https://images.example.com/bg.jpg")');
    // Each text colour the theme set below 4.5:1 reaches it on what it stands on.
    for (const [text, background] of [['--text', '--card'], ['--header', '--card'], ['--label', '--card'], ['--link', '--card'], ['--error', '--card'], ['--ok', '--card'], ['--on-primary', '--primary'], ['--input-text', '--input-bg']] as const) {
      assert.ok(contrast(vars[text]!, vars[background]!) >= 4.5, `${text} ${vars[text]} on ${background} ${vars[background]}: ${contrast(vars[text]!, vars[background]!)}`);
    }
    assert.notEqual(vars['--text'], '#555555', 'the body text was raised');
    // The theme's logo replaces the branding's; its origin and the background image's are the page's only image sources.
    assert.match(page.body, /<img src="https:\/\/cdn\.example\.com\/logo\.svg"/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /img-src https:\/\/cdn\.example\.com https:\/\/images\.example\.com(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline/);

    const id = (created.json() as { themeId: string }).themeId;
    assert.equal((await t.management('DELETE', `/api/v2/branding/themes/${id}`)).statusCode, 204);
    const after = pageVars(await loginPage());
    assert.equal(after['--primary'], '#0a7d33');
    assert.equal(after['--card'], undefined);
  });
});
