/**
 * A branding theme on the hosted pages in a real browser (Debian's Chromium
 * through playwright-core), against the built server over HTTPS:
 *
 * - the theme created through POST /api/v2/branding/themes styles the login
 *   page as the theme says (button colour and shape, card corners, layout,
 *   header alignment), in light and dark mode and at phone width, and a
 *   user still logs in through it;
 * - a theme whose text colours fall below WCAG AA (the service accepts it)
 *   gives pages that axe finds no WCAG 2.2 AA violation on: the pages raise
 *   each text colour to 4.5:1, checked on the login, signup, reset and
 *   MFA pages rendered with the theme;
 * - the tenant's page template renders around the themed login and signup
 *   pages (its header and footer), axe clean, the page's CSP unchanged (the
 *   template's own inline style is refused);
 * - deleting the theme gives the page back its branding.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { forgotPasswordPage, loginPage, signupPage } from '../../src/authentication/pages/authorize.js';
import { pageUi, renderPage, type PageDocument } from '../../src/authentication/pages/html.js';
import { mfaChallengePage } from '../../src/authentication/pages/mfa.js';
import { checkPassword } from '../../src/authentication/dbconnections/password-policy.js';
import type { Theme } from '../../src/domain/branding/theme.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { defaultTheme, lowContrastTheme } from '../fixtures/themes.js';
import { chromiumSkipReason, inScenario, launchChromium, loginApplication, managementApi, type LocalServer, type ManagementApi, type Scenario } from './support/chromium.js';
import { axeViolations } from './support/axe.js';
import { cleanUp } from './support/https.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = 'Sunny-Meadow-42';
const LOOKS = [
  { name: 'light', colorScheme: 'light', viewport: DESKTOP },
  { name: 'dark', colorScheme: 'dark', viewport: DESKTOP },
  { name: 'phone', colorScheme: 'light', viewport: PHONE },
] as const;

async function axeInEveryLook(scenario: Scenario, name: string, load: () => Promise<unknown>): Promise<void> {
  for (const look of LOOKS) {
    await scenario.page.setViewportSize(look.viewport);
    await scenario.page.emulateMedia({ colorScheme: look.colorScheme });
    await load();
    await scenario.shot(`${name}-${look.name}`);
    const violations = await axeViolations(scenario.page);
    assert.deepEqual(violations, [], `${name} (${look.name}): ${JSON.stringify(violations, null, 1)}`);
  }
}

const style = (selector: string, property: string) => `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`;

describe('branding theme in Chromium', { skip: chromiumSkipReason() }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a theme with text below WCAG AA: every page checked passes axe, its text raised to 4.5:1', async () => {
    const theme = { ...lowContrastTheme(), themeId: 'x'.repeat(32), displayName: 'Night' } as Theme;
    const ui = pageUi({ language: 'en', companyName: 'acme', theme });
    const view = { clientName: 'Reports & Co', state: 'st4te', csrf: 'csrf' };
    const pages: [string, PageDocument][] = [
      ['login', loginPage({ ...view, usernames: false, signup: true, error: { message: 'Wrong email or password.' } })],
      ['signup', signupPage({ ...view, usernames: true, policy: checkPassword({}, 'abc'), policyChecked: true })],
      ['forgot-password', forgotPasswordPage(view)],
      ['mfa-otp', mfaChallengePage({ ...view, method: 'otp', hasOtp: true, hasPush: true, hasEmail: true, hasSms: true })],
    ];
    await inScenario(browser, 'theme low contrast', async (scenario) => {
      for (const [name, content] of pages) {
        const rendered = renderPage(content, ui).html.value;
        await axeInEveryLook(scenario, `theme-${name}`, () => scenario.page.setContent(rendered));
      }
      // The theme's shapes, not only its colours: a pill button, square inputs, the card's corners, the page's layout.
      await scenario.page.setViewportSize(DESKTOP);
      await scenario.page.setContent(renderPage(pages[0]![1], ui).html.value);
      assert.equal(await scenario.page.evaluate(style('button[type=submit]', 'backgroundColor')), 'rgb(255, 176, 0)');
      assert.equal(await scenario.page.evaluate(style('button[type=submit]', 'borderTopLeftRadius')), '9999px');
      assert.equal(await scenario.page.evaluate(style('input[type=email]', 'borderTopLeftRadius')), '0px');
      assert.equal(await scenario.page.evaluate(style('main.card', 'borderTopLeftRadius')), '24px');
      assert.equal(await scenario.page.evaluate(style('main.card', 'boxShadow')), 'none');
      assert.equal(await scenario.page.evaluate(style('h1', 'textAlign')), 'left');
      assert.equal(await scenario.page.evaluate(style('body', 'alignItems')), 'flex-start');
      assert.ok((await scenario.page.evaluate<number>("document.querySelector('main.card').getBoundingClientRect().left")) < 100, 'the card sits on the left');
    });
  });

  describe('on the running server', () => {
    let server: ServerProcess;
    let callbackServer: LocalServer;
    let management: ManagementApi;
    let clientId: string;
    const email = `theme-${randomBytes(4).toString('hex')}@example.com`;

    before(async () => {
      server = await startServerProcess();
      management = await managementApi(server);
      ({ callbackServer, clientId } = await loginApplication(management, 'Themed Reports', { email, password: PASSWORD }));
      await management('PATCH', '/branding', { colors: { primary: '#0a7d33' } });
    });
    after(async () => {
      await callbackServer?.close();
      await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
    });

    // prompt=login: the login page again after the user logged in.
    const authorizeUrl = () =>
      `${server.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: `${callbackServer.origin}/callback`, scope: 'openid', prompt: 'login', state: randomBytes(8).toString('hex') })}`;

    test('the theme created through the Management API styles the login page, a user logs in through it, and deleting it gives the branding back', async () => {
      const theme = defaultTheme();
      theme.colors.primary_button = '#8a1538';
      theme.colors.widget_background = '#fdf7f0';
      // The template's own text stands on the page background: a light one, so that its text reads (the pages adjust only the card's).
      theme.page_background.background_color = '#f6f3ef';
      theme.borders.buttons_style = 'sharp';
      theme.widget.header_text_alignment = 'right';
      const created = await management('POST', '/branding/themes', theme);
      await inScenario(browser, 'theme on the server', async (scenario) => {
        const { page } = scenario;
        await axeInEveryLook(scenario, 'themed-login', () => page.goto(authorizeUrl()));
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.setViewportSize(DESKTOP);
        await page.goto(authorizeUrl());
        // One palette in both schemes: the dark scheme keeps the theme's card and button.
        assert.equal(await page.evaluate(style('button[type=submit]', 'backgroundColor')), 'rgb(138, 21, 56)');
        assert.equal(await page.evaluate(style('main.card', 'backgroundColor')), 'rgb(253, 247, 240)');
        assert.equal(await page.evaluate(style('button[type=submit]', 'borderTopLeftRadius')), '0px');
        assert.equal(await page.evaluate(style('h1', 'textAlign')), 'right');
        await page.getByLabel('Email address', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await scenario.shot('themed filled');
        await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Log in' }).click()]);
        assert.ok(page.url().startsWith(`${callbackServer.origin}/callback?code=`), page.url());

        // Inside the tenant's page template too: its header and footer around the themed card, the login and signup pages, the CSP unchanged (no violation reported).
        const template = '<!DOCTYPE html><html lang="{{locale}}"><head>{%- auth0:head -%}</head><body><header id="brand-bar" style="position:fixed">{{ tenant.friendly_name }} for {{ application.name }}</header>{%- auth0:widget -%}<footer id="legal">Acme {{ locale }}</footer></body></html>';
        await management('PUT', '/branding/templates/universal-login', { template });
        const violations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        await axeInEveryLook(scenario, 'templated-login', () => page.goto(authorizeUrl()));
        await page.locator('#brand-bar').getByText('for Themed Reports').waitFor();
        await page.locator('#legal').getByText('Acme en').waitFor();
        assert.equal(await page.evaluate(style('button[type=submit]', 'backgroundColor')), 'rgb(138, 21, 56)');
        await page.getByRole('link', { name: 'Sign up' }).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        await axeInEveryLook(scenario, 'templated-signup', () => page.reload());
        assert.equal(await page.locator('#brand-bar').count(), 1);
        // The template's inline style attribute is refused by the page's CSP, as every inline style but the page's own.
        assert.notEqual(await page.evaluate(style('#brand-bar', 'position')), 'fixed');
        assert.ok(violations.length > 0, 'the browser reported the refused inline style');
        await management('DELETE', '/branding/templates/universal-login');
        await management('DELETE', `/branding/themes/${String(created.themeId)}`);
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(authorizeUrl());
        assert.equal(await page.evaluate(style('button[type=submit]', 'backgroundColor')), 'rgb(10, 125, 51)');
        await scenario.shot('branding again');
      });
    });
  });
});
