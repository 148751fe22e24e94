/**
 * The password fields' "Show password" control in a real browser (Debian's
 * Chromium through playwright-core) against the built server over HTTPS,
 * under the CSP the server sends:
 *
 * - login, signup and reset password: the control reveals the password and hides it again,
 *   by mouse and by keyboard (Tab to it, Space, Enter), with `aria-pressed`
 *   and its label following; it submits nothing, the field keeps its value
 *   and autocomplete, the field is a password field again when the form is
 *   sent, and the form still reaches the application's callback;
 * - `ui_locales=fr`: the labels are French;
 * - JavaScript disabled: no control is shown, the login still works;
 * - no CSP violation reported (`securitypolicyviolation` events and the
 *   console), no page error;
 * - axe-core (WCAG 2.2 AA) reports nothing, control shown and pressed, in light
 *   and dark mode (not without script: axe needs timers, which do not fire
 *   in a page whose scripts are disabled; there the control is hidden, out of
 *   the accessibility tree).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { axeViolations } from './support/axe.js';
import { chromiumSkipReason, inScenario, launchChromium, loginApplication, managementApi, type LocalServer, type ManagementApi, type Scenario } from './support/chromium.js';
import { cleanUp } from './support/https.js';

const PASSWORD = 'Quiet-River-73';

/** Reports every CSP violation of the page to the console, where the scenario's log and the test see it. */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => console.error('csp-violation ' + e.violatedDirective + ' ' + e.blockedURI));`;

/** A CSP violation or page error the scenario's browser reported. */
function problems(scenario: Scenario): string[] {
  return scenario.log.filter((line) => /csp-violation|Content Security Policy|Refused to|page error/i.test(line));
}

const passwordType = (page: Page, id = 'password') => page.evaluate(`document.getElementById(${JSON.stringify(id)}).type`) as Promise<string>;

const skip = chromiumSkipReason();

describe('"Show password" on the hosted pages in Chromium', { skip }, () => {
  let browser: Browser;
  let server: ServerProcess;
  let callbackServer: LocalServer;
  let management: ManagementApi;
  let clientId: string;
  let connection: string;
  const email = `toggle-${randomBytes(4).toString('hex')}@example.com`;

  before(async () => {
    browser = await launchChromium();
    server = await startServerProcess();
    management = await managementApi(server);
    ({ callbackServer, clientId, connection } = await loginApplication(management, 'Toggle Reports', { email, password: PASSWORD }));
  });

  after(async () => {
    await browser?.close();
    await callbackServer?.close();
    await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
  });

  const authorizeUrl = (extra: Record<string, string> = {}) =>
    `${server.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: `${callbackServer.origin}/callback`, scope: 'openid', state: randomBytes(8).toString('hex'), ...extra })}`;

  /** Lands on the application's callback with a code. */
  function assertCallback(page: Page): void {
    const url = new URL(page.url());
    assert.equal(`${url.origin}${url.pathname}`, `${callbackServer.origin}/callback`, page.url());
    assert.ok(url.searchParams.get('code'), 'a code');
  }

  /** The control of the password field reveals and hides it, by mouse and keyboard, submitting nothing. */
  async function checkToggle(scenario: Scenario, labels: { field: string; show: string; hide: string }): Promise<void> {
    const { page } = scenario;
    const field = page.getByLabel(labels.field, { exact: true });
    const show = page.getByRole('button', { name: labels.show, exact: true });
    await show.waitFor();
    assert.equal(await show.getAttribute('aria-pressed'), 'false');
    assert.equal(await show.getAttribute('aria-controls'), 'password');
    assert.equal(await show.getAttribute('type'), 'button');
    await field.fill(PASSWORD);
    const url = page.url();

    await show.click();
    const hide = page.getByRole('button', { name: labels.hide, exact: true });
    assert.equal(await hide.getAttribute('aria-pressed'), 'true');
    assert.equal(await passwordType(page), 'text', 'revealed');
    assert.equal(await field.inputValue(), PASSWORD, 'the value is kept');
    assert.match((await field.getAttribute('autocomplete')) ?? '', /^(current|new)-password$/, 'autocomplete is kept');
    await scenario.shot('revealed');
    await hide.click();
    assert.equal(await passwordType(page), 'password', 'hidden again');
    assert.equal(await show.getAttribute('aria-pressed'), 'false');

    // The keyboard: Tab from the field reaches the control, which shows a focus ring; Space and Enter toggle it.
    await field.focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate("document.activeElement.getAttribute('aria-controls')"), 'password', 'the control follows the field in tab order');
    assert.notEqual(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle'), 'none', 'a visible focus ring');
    await page.keyboard.press('Space');
    assert.equal(await passwordType(page), 'text');
    await scenario.shot('revealed by keyboard');
    await page.keyboard.press('Enter');
    assert.equal(await passwordType(page), 'password');
    assert.equal(page.url(), url, 'the control submitted nothing');
    assert.equal(await field.inputValue(), PASSWORD);
  }

  /** A revealed field is a password field again when its form is sent, and the posted value is the typed one. */
  async function submitRevealed(page: Page, button: string, show: string): Promise<void> {
    await page.getByRole('button', { name: show, exact: true }).click();
    assert.equal(await passwordType(page), 'text');
    // A listener added after the page's own sees the field as the browser sends it (and keeps this submission from leaving).
    await page.evaluate(`document.getElementById('password').form.addEventListener('submit', (e) => { window.typeAtSubmit = document.getElementById('password').type; e.preventDefault(); }, { once: true })`);
    await page.getByRole('button', { name: button, exact: true }).click();
    assert.equal(await page.evaluate('window.typeAtSubmit'), 'password');
    await page.getByRole('button', { name: show, exact: true }).click();
    assert.equal(await passwordType(page), 'text', 'revealed again');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).origin === server.baseUrl),
      page.waitForURL((u) => u.href.startsWith(`${callbackServer.origin}/callback`)),
      page.getByRole('button', { name: button, exact: true }).click(),
    ]);
    assert.equal(new URLSearchParams(request.postData() ?? '').get('password'), PASSWORD, 'the posted value is the typed one');
    assertCallback(page);
  }

  /** axe reports nothing with the control shown, then pressed, in light and dark mode. */
  async function checkAxe(scenario: Scenario, show: string, hide: string): Promise<void> {
    const { page } = scenario;
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(page), [], `${colorScheme}, shown`);
      await page.getByRole('button', { name: show, exact: true }).first().click();
      assert.deepEqual(await axeViolations(page), [], `${colorScheme}, pressed`);
      await scenario.shot(`${colorScheme} pressed`);
      await page.getByRole('button', { name: hide, exact: true }).first().click();
    }
  }

  test('login: reveals and hides the password, by mouse and keyboard; axe clean in both schemes; the form still logs in', async () => {
    await inScenario(browser, 'show password login', async (scenario) => {
      const { page } = scenario;
      await scenario.context.addInitScript(REPORT_VIOLATIONS);
      await page.goto(authorizeUrl());
      assert.equal(new URL(page.url()).pathname, '/login');
      await scenario.shot('login');
      await checkAxe(scenario, 'Show password', 'Hide password');
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await checkToggle(scenario, { field: 'Password', show: 'Show password', hide: 'Hide password' });
      assert.deepEqual(problems(scenario), []);
      await submitRevealed(page, 'Log in', 'Show password');
      assert.deepEqual(problems(scenario), []);
    });
  });

  test('signup: the new password is revealed and hidden the same way; the account is made', async () => {
    await inScenario(browser, 'show password signup', async (scenario) => {
      const { page } = scenario;
      await scenario.context.addInitScript(REPORT_VIOLATIONS);
      await page.goto(authorizeUrl({ screen_hint: 'signup' }));
      assert.equal(new URL(page.url()).pathname, '/signup');
      await checkAxe(scenario, 'Show password', 'Hide password');
      await page.getByLabel('Email address', { exact: true }).fill(`new-${email}`);
      await checkToggle(scenario, { field: 'Password', show: 'Show password', hide: 'Hide password' });
      assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('autocomplete'), 'new-password');
      await submitRevealed(page, 'Sign up', 'Show password');
      assert.deepEqual(problems(scenario), []);
    });
  });

  test('reset password: each of the two fields has its own control; axe clean in both schemes; the new password is set', async () => {
    const resetEmail = `reset-${email}`;
    const user = await management('POST', '/users', { connection, email: resetEmail, password: PASSWORD });
    const { ticket } = await management('POST', '/tickets/password-change', { user_id: user.user_id });
    const newPassword = 'Bright-Harbor-58';
    await inScenario(browser, 'show password reset', async (scenario) => {
      const { page } = scenario;
      await scenario.context.addInitScript(REPORT_VIOLATIONS);
      await page.goto(ticket as string);
      assert.equal(new URL(page.url()).pathname, '/reset-password');
      const controls = page.getByRole('button', { name: 'Show password', exact: true });
      assert.deepEqual(await controls.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-controls'))), ['password', 'password_confirmation']);
      await checkAxe(scenario, 'Show password', 'Hide password');
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
      await controls.nth(1).click();
      assert.equal(await passwordType(page, 'password_confirmation'), 'text', 'the confirmation revealed');
      assert.equal(await passwordType(page, 'password'), 'password', 'the other field untouched');
      await scenario.shot('confirmation revealed');
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/reset-password'),
        page.waitForURL((u) => u.pathname === '/reset-password'),
        page.getByRole('button', { name: 'Set password', exact: true }).click(),
      ]);
      const posted = new URLSearchParams(request.postData() ?? '');
      assert.equal(posted.get('password'), newPassword);
      assert.equal(posted.get('password_confirmation'), newPassword);
      await page.getByRole('heading', { level: 1, name: 'Password changed' }).waitFor();
      assert.deepEqual(problems(scenario), []);
    });
  });

  test('ui_locales=fr: the control speaks French', async () => {
    await inScenario(browser, 'show password fr', async (scenario) => {
      const { page } = scenario;
      await scenario.context.addInitScript(REPORT_VIOLATIONS);
      await page.goto(authorizeUrl({ ui_locales: 'fr' }));
      assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
      await page.getByLabel('Adresse e-mail', { exact: true }).fill(email);
      await checkToggle(scenario, { field: 'Mot de passe', show: 'Afficher le mot de passe', hide: 'Masquer le mot de passe' });
      assert.equal(await page.getByRole('button', { name: 'Show password' }).count(), 0, 'no English label');
      await checkAxe(scenario, 'Afficher le mot de passe', 'Masquer le mot de passe');
      await submitRevealed(page, 'Se connecter', 'Afficher le mot de passe');
      assert.deepEqual(problems(scenario), []);
    });
  });

  test('JavaScript disabled: no control is shown, the password field stays one, the login works', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => errors.push(message.text()));
      await page.goto(authorizeUrl());
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(await page.locator('button[data-password-toggle]').count(), 1, 'the control is in the markup');
      assert.equal(await page.locator('button[data-password-toggle]').isVisible(), false, 'but not shown');
      assert.equal(await page.getByRole('button', { name: 'Show password' }).count(), 0, 'nor in the accessibility tree');
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      assert.equal(await passwordType(page), 'password');
      await Promise.all([page.waitForURL((u) => u.href.startsWith(`${callbackServer.origin}/callback`)), page.getByRole('button', { name: 'Log in', exact: true }).click()]);
      assertCallback(page);
      assert.deepEqual(errors.filter((e) => /Content Security Policy|Refused/i.test(e)), []);
    } finally {
      await context.close();
    }
  });
});
