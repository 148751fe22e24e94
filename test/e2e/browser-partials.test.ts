/**
 * The hosted pages as a tenant customises them, in a real browser (Debian's
 * Chromium through playwright-core): each page rendered by the pages' own
 * code and served to the browser with its own Content-Security-Policy
 * header, screenshots of each in light, dark and at phone width
 * (test-output/screenshots/):
 *
 * - with the service's default theme and nothing else, the login, signup
 *   and MFA pages have no WCAG 2.2 AA violation (axe);
 * - under a custom theme, a page template and prompt partials, the login,
 *   signup and MFA pages show the template around the card and each partial
 *   inside it where its insertion point says, still axe clean; what a
 *   partial may not do stays undone under the page's unchanged CSP: its
 *   inline style, its inline handler and an image from an origin the page
 *   does not name are refused by the browser.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { loginPage, signupPage } from '../../src/authentication/pages/authorize.js';
import { pageUi, renderPage, type PageDocument, type PageUi } from '../../src/authentication/pages/html.js';
import { mfaChallengePage } from '../../src/authentication/pages/mfa.js';
import { checkPassword } from '../../src/authentication/dbconnections/password-policy.js';
import type { Theme } from '../../src/domain/branding/theme.js';
import { partialsProblem } from '../../src/domain/branding/partials.js';
import { defaultTheme } from '../fixtures/themes.js';
import { chromiumSkipReason, inScenario, launchChromium, type Scenario } from './support/chromium.js';
import { axeViolations } from './support/axe.js';

const ORIGIN = 'https://login.acme.test';
const LOOKS = [
  { name: 'light', colorScheme: 'light', viewport: { width: 1280, height: 900 } },
  { name: 'dark', colorScheme: 'dark', viewport: { width: 1280, height: 900 } },
  { name: 'phone', colorScheme: 'light', viewport: { width: 390, height: 844 } },
] as const;

const TEMPLATE = `<!DOCTYPE html><html lang="{{ locale }}"><head>{%- auth0:head -%}</head>
<body><header id="acme-bar"><p>{{ tenant.friendly_name }} · {{ application.name }}</p></header>{%- auth0:widget -%}<footer id="acme-legal"><p>© Acme · {{ prompt.name }}</p></footer></body></html>`;
const PARTIALS = {
  login: {
    login: {
      'form-content-start': '<p id="p-welcome">Welcome back to {{ application.name }}.</p>',
      'form-content-end': '<div class="field"><input type="checkbox" id="ulp-remember" name="ulp-remember" value="yes"> <label for="ulp-remember">Remember this device</label></div>',
      'form-footer-end': '<p id="p-help" style="position:fixed;top:0">Need help? <a href="https://help.acme.test/">Help desk</a></p>',
      'secondary-actions-start': '<p id="p-secondary"><button type="button" id="p-handler" onclick="document.title=\'ran\'">Other ways to log in</button></p>',
    },
  },
  signup: {
    signup: {
      'form-content-end': '<div class="field"><label for="ulp-company">Company</label><input type="text" id="ulp-company" name="ulp-company" autocomplete="organization"></div>',
      'form-footer-start': '<p id="p-invite"><img src="https://tracker.example/pixel.png" alt="">Ask the help desk if you have no invitation.</p>',
    },
  },
};

const VIEW = { clientName: 'Acme Reports', state: 'st4te', csrf: 'csrf-token' };

function pages(): [string, PageDocument][] {
  return [
    ['login', loginPage({ ...VIEW, usernames: false, signup: true })],
    ['signup', signupPage({ ...VIEW, usernames: false, policy: checkPassword({}, ''), policyChecked: false })],
    ['mfa', mfaChallengePage({ ...VIEW, method: 'otp', hasOtp: true, hasPush: false, hasEmail: true, hasSms: true })],
  ];
}

/** Serves `content` at ORIGIN with its CSP header, as the server sends it, and opens it. */
async function open(scenario: Scenario, content: PageDocument, ui: PageUi): Promise<void> {
  const { html, csp } = renderPage(content, ui);
  await scenario.page.unroute(`${ORIGIN}/**`).catch(() => undefined);
  await scenario.page.route(`${ORIGIN}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': csp }, body: html.value }));
  await scenario.page.route('https://tracker.example/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: Buffer.alloc(0) }));
  await scenario.page.goto(`${ORIGIN}/page`);
}

async function inEveryLook(scenario: Scenario, name: string, load: () => Promise<unknown>, check: () => Promise<void> = async () => {}): Promise<void> {
  for (const look of LOOKS) {
    await scenario.page.setViewportSize(look.viewport);
    await scenario.page.emulateMedia({ colorScheme: look.colorScheme });
    await load();
    await scenario.shot(`${name}-${look.name}`);
    const violations = await axeViolations(scenario.page);
    assert.deepEqual(violations, [], `${name} (${look.name}): ${JSON.stringify(violations, null, 1)}`);
    await check();
  }
}

describe('customised hosted pages in Chromium', { skip: chromiumSkipReason() }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('the default theme: the login, signup and MFA pages are axe clean in light, dark and at phone width', async () => {
    const ui = pageUi({ language: 'en', companyName: 'acme', theme: { ...defaultTheme(), themeId: 'd'.repeat(32), displayName: 'Default' } as Theme });
    await inScenario(browser, 'default theme pages', async (scenario) => {
      for (const [name, content] of pages()) await inEveryLook(scenario, `default-${name}`, () => open(scenario, content, ui));
    });
  });

  test('a custom theme, a page template and partials: each in its place, axe clean; the partials\' style, handler and foreign image refused by the CSP', async () => {
    for (const [prompt, body] of Object.entries(PARTIALS)) assert.equal(partialsProblem(prompt, body), undefined, `${prompt}: the partials are ones the Management API accepts`);
    const theme = defaultTheme();
    theme.colors.primary_button = '#8a1538';
    theme.colors.widget_background = '#fdf7f0';
    theme.page_background.background_color = '#f6f3ef';
    theme.borders.buttons_style = 'pill';
    theme.widget.header_text_alignment = 'left';
    const ui = pageUi({ language: 'en', companyName: 'Acme', theme: { ...theme, themeId: 'c'.repeat(32), displayName: 'Acme' } as Theme, pageTemplate: TEMPLATE, partials: PARTIALS });
    await inScenario(browser, 'custom theme template partials', async (scenario) => {
      const { page } = scenario;
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      const [login, signup, mfa] = pages().map(([, content]) => content);
      const inCard = (selector: string) => page.evaluate(`!!document.querySelector('main.card ${selector}')`);
      const before = (a: string, b: string) => page.evaluate(`!!(document.querySelector(${JSON.stringify(a)}).compareDocumentPosition(document.querySelector(${JSON.stringify(b)})) & Node.DOCUMENT_POSITION_FOLLOWING)`);

      await inEveryLook(scenario, 'custom-login', () => open(scenario, login!, ui), async () => {
        await page.locator('#acme-bar').getByText('Acme · Acme Reports').waitFor();
        await page.locator('#acme-legal').getByText('© Acme · login').waitFor();
        // Found by its place, so a page still being laid out is waited for; the assertion below says what was found.
        await page.locator('main.card form #p-welcome').waitFor({ timeout: 5_000 }).catch(() => undefined);
        assert.equal(await inCard('form #p-welcome'), true, 'form-content-start inside the form');
        assert.ok(await before('#p-welcome', '#username'), 'before the first field');
        assert.ok(await before('#ulp-remember', 'form button[type=submit]'), 'form-content-end before the submit button');
        assert.equal(await inCard('#p-help'), true);
        assert.equal(await page.evaluate(`document.querySelector('form').contains(document.querySelector('#p-help'))`), false, 'form-footer-end after the form');
        assert.equal(await page.evaluate(`getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor`), 'rgb(138, 21, 56)');
        // The partial's inline style is refused: the paragraph stays in the flow.
        assert.notEqual(await page.evaluate(`getComputedStyle(document.querySelector('#p-help')).position`), 'fixed');
      });
      await page.getByLabel('Remember this device').check();
      assert.equal(await page.getByLabel('Remember this device').isChecked(), true, 'the partial\'s field is usable');
      await page.locator('#p-handler').click();
      assert.notEqual(await page.title(), 'ran', 'the partial\'s inline handler did not run');

      await inEveryLook(scenario, 'custom-signup', () => open(scenario, signup!, ui), async () => {
        await page.getByLabel('Company').waitFor();
        assert.equal(await inCard('form #ulp-company'), true);
        assert.equal(await page.evaluate(`document.querySelector('#p-invite img').naturalWidth`), 0, 'the image from an origin the page does not name is not loaded');
        await page.locator('#acme-legal').getByText('© Acme · signup').waitFor();
        assert.equal(await page.locator('#p-welcome').count(), 0, 'the login screen\'s partials stay on login');
      });

      await inEveryLook(scenario, 'custom-mfa', () => open(scenario, mfa!, ui), async () => {
        await page.locator('#acme-bar').waitFor();
        assert.equal(await page.locator('.ulp-partial').count(), 0, 'the MFA pages have no partials');
      });
      assert.ok(refused.some((m) => /style/i.test(m)), `the inline style was refused: ${refused.join(' | ')}`);
      assert.ok(refused.some((m) => /script|handler/i.test(m)), `the inline handler was refused: ${refused.join(' | ')}`);
      assert.ok(refused.some((m) => /img-src|tracker\.example/i.test(m)), `the foreign image was refused: ${refused.join(' | ')}`);
    });
  });
});
