/**
 * The hosted pages' design system in a real browser (Debian's Chromium
 * through playwright-core): every page, in light and dark mode
 * (`prefers-color-scheme`) and at phone width, screenshotted and checked by
 * axe-core for WCAG 2.2 AA (tags wcag2a, wcag2aa, wcag21a, wcag21aa,
 * wcag22aa): no violation allowed.
 *
 * - "every hosted page": each template of src/authentication/pages/
 *   rendered with sample values by the same renderPage the server uses,
 *   loaded with setContent (so the pages that need a long flow to reach, MFA,
 *   CIBA, organizations, the enrolment ticket, are covered too);
 * - "branding and texts": against the built server over HTTPS, a logo
 *   (served over HTTPS by a local server) and a primary colour set through
 *   PATCH /api/v2/branding appear on the login page; `ui_locales=fr` shows
 *   French; a custom text set through the prompts API replaces the default;
 *   identifier first asks for the identifier, then the password; a weak
 *   password at signup shows the checklist with each rule's result.
 *
 * axe is injected with page.evaluate of axe.min.js: DevTools evaluation is not
 * subject to the pages' CSP, which allows no script but the password
 * fields' "Show password" control and the push waiting page's, by their hashes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { consentPage, forgotPasswordPage, forgotPasswordSentPage, invalidLoginPage, loginPage, refusedLoginPage, signupPage, authorizeErrorPage } from '../../src/authentication/pages/authorize.js';
import { cibaApprovalPage, cibaDonePage } from '../../src/authentication/pages/ciba.js';
import { invalidSetupLink, setupFormPage } from '../../src/authentication/console/setup.js';
import { activateCodePage, activateConfirmPage, activateDonePage } from '../../src/authentication/pages/device.js';
import { Html, pageUi, renderPage, type PageDocument, type PageUi } from '../../src/authentication/pages/html.js';
import { confirmLogoutPage, loggedOutPage, logoutErrorPage } from '../../src/authentication/pages/logout.js';
import { invalidEnrollmentTicketPage, mfaChallengePage, mfaEnrolPage,
  mfaWebauthnEnrolPage, mfaUnavailablePage, recoveryCodePage, ticketEnrolledPage, ticketEnrolPage } from '../../src/authentication/pages/mfa.js';
import { organizationChoicePage, organizationNamePage } from '../../src/authentication/pages/organization.js';
import { PASSWORD_TOGGLE_SCRIPT } from '../../src/authentication/pages/password-toggle.js';
import { PUSH_WAIT_SCRIPT } from '../../src/authentication/pages/push-wait.js';
import { passwordlessCodePage, passwordlessEmailPage, passwordlessPhonePage, passwordlessSmsCodePage } from '../../src/authentication/pages/passwordless.js';
import { invalidResetLinkPage, passwordChangedPage, resetPasswordPage } from '../../src/authentication/pages/reset-password.js';
import { emailVerifiedPage, invalidVerificationLinkPage, verifyEmailPage } from '../../src/authentication/pages/verify-email.js';
import { checkPassword } from '../../src/authentication/dbconnections/password-policy.js';
import { LANGUAGES } from '../../src/domain/branding/texts.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, loginApplication, managementApi, startLocalServer, type LocalServer, type ManagementApi, type Scenario } from './support/chromium.js';
import { axeViolations } from './support/axe.js';
import { WEBAUTHN_SCRIPT } from '../../src/authentication/pages/webauthn-form.js';
import { cleanUp } from './support/https.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = 'Sunny-Meadow-42';
const PRIMARY = '#0a7d33';
/** Two social connections and an enterprise one shown as buttons (the others are found by their email domain). */
const FEDERATED = [
  { name: 'google-oauth2', label: 'Google', strategy: 'google-oauth2' },
  { name: 'github', label: 'GitHub', strategy: 'github' },
  { name: 'acme-sso', label: 'Acme Corp', strategy: 'oidc' },
];

/** The three looks every page is checked in. */
const LOOKS = [
  { name: 'light', colorScheme: 'light', viewport: DESKTOP },
  { name: 'dark', colorScheme: 'dark', viewport: DESKTOP },
  { name: 'phone', colorScheme: 'light', viewport: PHONE },
  { name: 'phone-dark', colorScheme: 'dark', viewport: PHONE },
] as const;

/** Screenshots and axe in every look: `load` (re)loads the page for each. */
async function checkEveryLook(scenario: Scenario, name: string, load: () => Promise<unknown>): Promise<void> {
  const { page } = scenario;
  for (const look of LOOKS) {
    await page.setViewportSize(look.viewport);
    await page.emulateMedia({ colorScheme: look.colorScheme });
    await load();
    await scenario.shot(`${name}-${look.name}`);
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], `${name} (${look.name}): ${JSON.stringify(violations, null, 1)}`);
  }
  // The card fits a phone: nothing scrolls sideways.
  await page.setViewportSize(PHONE);
  await load();
  assert.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `${name} fits ${PHONE.width}px`);
}

const skip = chromiumSkipReason();

describe('hosted pages design system in Chromium', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('every hosted page, light and dark, desktop and phone: axe reports no WCAG 2.2 AA violation', async () => {
    const view = { clientName: 'Reports & Co', state: 'st4te', csrf: 'csrf' };
    const qrSvg = new Html('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4" shape-rendering="crispEdges"><path fill="#fff" d="M0 0h4v4H0z"/><path stroke="#000" d="M0 .5h1M2 1.5h2M1 2.5h1M0 3.5h3"/></svg>');
    const weak = checkPassword({}, 'abc');
    const pages: [string, PageDocument][] = [
      ['login', loginPage({ ...view, usernames: false, signup: true })],
      ['login-federated', loginPage({ ...view, usernames: false, signup: true, connections: FEDERATED })],
      ['login-error', loginPage({ ...view, usernames: true, signup: true, identifier: 'alice', error: { message: 'Wrong email or password.' } })],
      ['login-identifier', loginPage({ ...view, usernames: false, signup: false, identifierFirst: 'identifier' })],
      ['login-password', loginPage({ ...view, usernames: false, signup: false, identifier: 'alice@example.com', identifierFirst: 'password' })],
      ['signup', signupPage({ ...view, usernames: true, policy: checkPassword({}, '') })],
      ['signup-federated', signupPage({ ...view, usernames: false, policy: checkPassword({}, ''), connections: FEDERATED })],
      ['signup-weak', signupPage({ ...view, usernames: false, email: 'a@example.com', policy: weak, policyChecked: true, error: { field: 'password', message: 'Your password is too weak.' } })],
      ['forgot-password', forgotPasswordPage(view)],
      ['forgot-password-sent', forgotPasswordSentPage('st4te')],
      ['consent', consentPage({ ...view, userName: 'Alice', apiName: 'Reports API', scopes: [{ value: 'read:reports', description: 'Read your reports' }, { value: 'openid', description: '' }] })],
      ['logout-confirm', confirmLogoutPage('Reports & Co', { client_id: 'abc', confirm: 'yes' })],
      ['logged-out', loggedOutPage()],
      ['logout-error', logoutErrorPage('The "returnTo" querystring parameter is not defined as a valid URL.')],
      ['authorize-error', authorizeErrorPage('Callback URL mismatch.')],
      ['login-expired', invalidLoginPage()],
      ['form-refused', refusedLoginPage()],
      ['mfa-otp', mfaChallengePage({ ...view, method: 'otp', hasOtp: true, hasPush: true, hasEmail: true, hasSms: true })],
      ['mfa-push-waiting', mfaChallengePage({ ...view, method: 'push', hasOtp: true, hasPush: true, hasEmail: false, hasSms: false, oobCode: 'oob' })],
      ['mfa-otp-wrong', mfaChallengePage({ ...view, method: 'otp', hasOtp: true, hasPush: false, hasEmail: false, hasSms: false, error: { field: 'code', message: 'That code is not right. Try again.' } })],
      ['mfa-email-offer', mfaChallengePage({ ...view, method: 'email', hasOtp: true, hasPush: false, hasEmail: true, hasSms: false })],
      ['mfa-sms-sent', mfaChallengePage({ ...view, method: 'sms', hasOtp: false, hasPush: false, hasEmail: false, hasSms: true, oobCode: 'oob' })],
      ['mfa-recovery', mfaChallengePage({ ...view, method: 'recovery', hasOtp: true, hasPush: false, hasEmail: false, hasSms: false })],
      ['mfa-enrol', mfaEnrolPage({ ...view, qrSvg, secret: 'JBSWY3DPEHPK3PXP' })],
      ['mfa-enrol-with-webauthn', mfaEnrolPage({ ...view, qrSvg, secret: 'JBSWY3DPEHPK3PXP', webauthnOffers: ['webauthn-platform', 'webauthn-roaming'] })],
      ['mfa-webauthn-enrol-key', mfaWebauthnEnrolPage({ ...view, factor: 'webauthn-roaming', options: '{"challenge":"AAAA"}', otpOffered: true, webauthnOffers: ['webauthn-platform', 'webauthn-roaming'] })],
      ['mfa-webauthn-enrol-device', mfaWebauthnEnrolPage({ ...view, factor: 'webauthn-platform', options: '{"challenge":"AAAA"}', otpOffered: false })],
      ['mfa-webauthn', mfaChallengePage({ ...view, method: 'webauthn', hasOtp: true, hasWebauthn: true, hasPush: false, hasEmail: false, hasSms: false, webauthnOptions: '{"challenge":"AAAA"}' })],
      ['mfa-webauthn-refused', mfaChallengePage({ ...view, method: 'webauthn', hasOtp: true, hasWebauthn: true, hasPush: false, hasEmail: false, hasSms: false, webauthnOptions: '{"challenge":"AAAA"}', error: { field: 'credential', message: 'That security key or device was not accepted. Try again, or use another way.' } })],
      ['mfa-recovery-code', recoveryCodePage({ clientName: 'Reports & Co', state: 'st4te', code: 'ABCD EFGH IJKL MNOP QRST UVWX' })],
      ['mfa-unavailable', mfaUnavailablePage()],
      ['enrollment-ticket', ticketEnrolPage({ tenantName: 'acme', ticket: 't', csrf: 'c', qrSvg, secret: 'JBSWY3DPEHPK3PXP' })],
      ['enrollment-ticket-done', ticketEnrolledPage('ABCD EFGH IJKL MNOP QRST UVWX')],
      ['enrollment-ticket-invalid', invalidEnrollmentTicketPage()],
      ['passwordless-email', passwordlessEmailPage(view)],
      ['passwordless-code', passwordlessCodePage({ ...view, email: 'alice@example.com', error: { field: 'code', message: 'Wrong email or verification code.' } })],
      ['passwordless-phone', passwordlessPhonePage({ ...view, phoneNumber: '+4155', error: { field: 'phone_number', message: 'Enter your phone number in international format, such as +14155550100.' } })],
      ['passwordless-sms-code', passwordlessSmsCodePage({ ...view, phoneNumber: '+14155550100' })],
      ['organization-name', organizationNamePage({ ...view, methods: ['organization_name'], error: { message: 'No organization was found by that name.' } })],
      ['organization-email', organizationNamePage({ ...view, methods: ['email', 'organization_name'] })],
      ['organization-choice', organizationChoicePage({ ...view, organizations: [{ id: 'org_1', label: 'Acme' }, { id: 'org_2', label: 'Globex' }] })],
      ['activate', activateCodePage({ csrf: 'c', userCode: 'BCDF', error: { message: 'Invalid or expired code.' } })],
      ['activate-confirm', activateConfirmPage({ csrf: 'c', userCode: 'BCDF-GHJK', clientName: 'Smart TV' })],
      ['activate-done', activateDonePage(true)],
      ['activate-cancelled', activateDonePage(false)],
      ['ciba-approve', cibaApprovalPage({ ticket: 't', csrf: 'c', clientName: 'Bank', bindingMessage: 'TX 4711', scopes: ['openid', 'transfer'] })],
      ['ciba-approved', cibaDonePage('approved')],
      ['ciba-denied', cibaDonePage('denied')],
      ['ciba-invalid', cibaDonePage('invalid')],
      ['reset-password', resetPasswordPage({ ticket: 't', email: 'alice@example.com', csrf: 'c', policy: checkPassword({}, '') })],
      ['reset-password-weak', resetPasswordPage({ ticket: 't', email: 'alice@example.com', csrf: 'c', policy: weak, error: { message: 'Your password is too weak.', showRules: true } })],
      ['reset-password-done', passwordChangedPage('alice@example.com')],
      ['reset-password-invalid', invalidResetLinkPage()],
      ['verify-email', verifyEmailPage({ ticket: 't', email: 'alice@example.com', csrf: 'c' })],
      ['verify-email-done', emailVerifiedPage('alice@example.com')],
      ['verify-email-invalid', invalidVerificationLinkPage()],
      ['console-setup', setupFormPage({ ticket: 't', csrf: 'c', policy: checkPassword({}, '') })],
      ['console-setup-weak', setupFormPage({ ticket: 't', csrf: 'c', policy: weak, email: 'admin@example.com', error: 'password-too-weak' })],
      ['console-setup-invalid', invalidSetupLink()],
    ];
    const uis: [string, PageUi][] = [
      ['default', pageUi({ language: 'en', companyName: 'acme', support: { url: 'https://help.example.com/' } })],
      // A tenant colour too light for white text and links on white: the design system adjusts both.
      ['branded', pageUi({ language: 'de', companyName: 'acme', branding: { colors: { primary: '#ffd400', page_background: { type: 'linear-gradient', start: '#fef6d8', end: '#1d3557', angle_deg: 160 } } }, support: { email: 'help@example.com' } })],
    ];
    await inScenario(browser, 'design system every page', async (scenario) => {
      for (const [uiName, ui] of uis) {
        for (const [name, content] of pages) {
          const rendered = renderPage(content, ui).html.value;
          // No script but the password fields' "Show password" control, the push waiting page's and the WebAuthn forms' (their own tests: browser-show-password.test.ts, browser-push-wait.test.ts, browser-webauthn.test.ts).
          const known = [PASSWORD_TOGGLE_SCRIPT, PUSH_WAIT_SCRIPT, WEBAUTHN_SCRIPT].reduce((page, script) => page.replace(`<script>${script}</script>`, ''), rendered);
          assert.ok(!known.includes('<script'), `${name}: no other script`);
          await checkEveryLook(scenario, `${uiName}-${name}`, () => scenario.page.setContent(rendered));
        }
      }
    });
    assert.deepEqual(LANGUAGES, ['en', 'fr', 'de', 'es']);
  });

  describe('branding and texts on the running server', () => {
    let server: ServerProcess;
    let assets: LocalServer;
    let callbackServer: LocalServer;
    let management: ManagementApi;
    let clientId: string;
    const email = `design-${randomBytes(4).toString('hex')}@example.com`;

    before(async () => {
      server = await startServerProcess();
      const tls = { cert: fs.readFileSync(server.certFile), key: fs.readFileSync(path.join(server.dataDir, 'tls', 'key.pem')) };
      // The logo: a 2×1 PNG served over HTTPS from another origin than the tenant's.
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGNgYPj/n4GBgQEADvQCAYjG3bEAAAAASUVORK5CYII=', 'base64');
      assets = await startLocalServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png);
      }, tls);
      management = await managementApi(server);
      ({ callbackServer, clientId } = await loginApplication(management, 'Design Reports', { email, password: PASSWORD }));
      await management('PATCH', '/branding', { logo_url: `${assets.origin}/logo.png`, colors: { primary: PRIMARY, page_background: '#eef2f7' } });
    });

    after(async () => {
      await assets?.close();
      await callbackServer?.close();
      await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
    });

    const authorizeUrl = (extra: Record<string, string> = {}) =>
      `${server.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: `${callbackServer.origin}/callback`, scope: 'openid', state: randomBytes(8).toString('hex'), ...extra })}`;

    test('the logo and primary colour set through PATCH /api/v2/branding appear on the login page', async () => {
      await inScenario(browser, 'design branded login', async (scenario) => {
        const { page } = scenario;
        const url = authorizeUrl();
        await checkEveryLook(scenario, 'login', () => page.goto(url));
        const logo = page.getByRole('img', { name: 'tenant' }).or(page.locator('.brand img'));
        await logo.first().waitFor();
        assert.equal(await logo.first().getAttribute('src'), `${assets.origin}/logo.png`);
        assert.ok(await page.evaluate("(() => { const img = document.querySelector('.brand img'); return img.complete && img.naturalWidth === 2; })()"), 'the logo loaded under the page CSP');
        await page.emulateMedia({ colorScheme: 'light' });
        await page.getByRole('button', { name: 'Log in' }).waitFor();
        assert.equal(await page.evaluate("getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor"), 'rgb(10, 125, 51)');
        // The card keeps a keyboard user's place: a visible focus ring on the field.
        await page.getByLabel('Email address', { exact: true }).focus();
        assert.notEqual(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle'), 'none');
        await scenario.shot('focus');
      });
    });

    test('ui_locales=fr shows French; a custom text set through the prompts API replaces the default', async () => {
      await inScenario(browser, 'design languages and custom text', async (scenario) => {
        const { page } = scenario;
        const fr = authorizeUrl({ ui_locales: 'fr' });
        await checkEveryLook(scenario, 'login-fr', () => page.goto(fr));
        assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
        await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor();
        await page.getByLabel('Mot de passe', { exact: true }).waitFor();
        await page.getByRole('button', { name: 'Se connecter' }).waitFor();

        await management('PUT', '/prompts/login/custom-text/fr', { login: { title: 'Bienvenue chez Design', buttonText: 'Entrer dans ${clientName}' } });
        await page.goto(authorizeUrl({ ui_locales: 'fr' }));
        await page.getByRole('heading', { level: 1, name: 'Bienvenue chez Design' }).waitFor();
        await page.getByRole('button', { name: 'Entrer dans Design Reports' }).waitFor();
        await scenario.shot('custom text fr');
        // English keeps its default.
        await page.goto(authorizeUrl({ ui_locales: 'en' }));
        await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
        await management('PUT', '/prompts/login/custom-text/fr', {});
      });
    });

    test('identifier first: the identifier, then the password, then the application', async () => {
      await management('PATCH', '/prompts', { identifier_first: true });
      try {
        await inScenario(browser, 'design identifier first', async (scenario) => {
          const { page } = scenario;
          await page.goto(authorizeUrl());
          assert.equal(await page.locator('input[type=password]').count(), 0);
          await page.getByLabel('Email address', { exact: true }).fill(email);
          await scenario.shot('identifier');
          await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Continue' }).click()]);
          await page.getByRole('heading', { level: 1, name: 'Enter your password' }).waitFor();
          await page.getByText(email, { exact: true }).waitFor();
          const violations = await axeViolations(page);
          assert.deepEqual(violations, []);
          await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
          await scenario.shot('password');
          await Promise.all([page.waitForNavigation(), page.getByLabel('Password', { exact: true }).press('Enter')]);
          assert.ok(page.url().startsWith(`${callbackServer.origin}/callback?code=`), page.url());
          await scenario.shot('signed in');
        });
      } finally {
        await management('PATCH', '/prompts', { identifier_first: false });
      }
    });

    test('signup: a weak password shows the policy checklist with each rule met or not, tied to the field', async () => {
      await inScenario(browser, 'design signup checklist', async (scenario) => {
        const { page } = scenario;
        await page.goto(authorizeUrl({ screen_hint: 'signup' }));
        await page.locator('#policy').waitFor();
        await page.getByLabel('Email address', { exact: true }).fill(`new-${email}`);
        await page.getByLabel('Password', { exact: true }).fill('abcdefgh');
        await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign up' }).click()]);
        const field = page.getByLabel('Password', { exact: true });
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
        assert.equal(await field.getAttribute('aria-describedby'), 'error policy');
        assert.match((await page.locator('#policy li.met').first().textContent()) ?? '', /At least 8 characters in length \(met\)/);
        assert.ok((await page.locator('#policy li.unmet').count()) >= 1);
        // The looks change live (media emulation, viewport): no reload, which would post the form again.
        await checkEveryLook(scenario, 'signup-weak', async () => undefined);
      });
    });
  });
});
