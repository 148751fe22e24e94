/**
 * Bot detection's CAPTCHA on the hosted login page, end to end through the
 * real app: the widget of the active provider on the page with a CSP that
 * allows that provider's origins only, a login without a token (or with a
 * wrong one) refused before the password is checked, a token the provider
 * accepts (a local HTTPS stand-in for reCAPTCHA v2, hCaptcha and Friendly
 * Captcha's verify endpoints, reached through the outbound guard) logging
 * in; `when_risky` after a failed attempt, the allowlist, monitoring mode;
 * and the outbound guard refusing the loopback stand-in when
 * GATEHOUSE_OUTBOUND_ALLOW does not list it (fail closed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, pkce } from '../helpers/browser.js';
import { insertClient } from '../helpers/fixtures.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';
import { startCaptchaStandIn, type CaptchaStandIn } from '../helpers/captcha-stand-in.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const SECRET = 'provider-secret-0123456789';
const CALLBACK = 'https://app.example.com/callback';

async function setUp(t: TestApp): Promise<string> {
  const spa = await t.management('POST', '/api/v2/clients', {
    body: { name: 'Page app', app_type: 'spa', is_first_party: true, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], callbacks: [CALLBACK] },
  });
  assert.equal(spa.statusCode, 201, spa.body);
  const clientId = (spa.json() as { client_id: string }).client_id;
  const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [clientId] } });
  assert.equal(conn.statusCode, 201, conn.body);
  await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, default_directory: REALM });
  return clientId;
}

describe('bot detection: the CAPTCHA challenge of the hosted login page', () => {
  let t: TestApp;
  let standIn: CaptchaStandIn;
  let clientId: string;
  const api = async (method: string, url: string, body: unknown) => {
    const res = await t.management(method, url, { body });
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };
  const user = async (email: string) => assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } })).statusCode, 201);

  /** A browser on the login page: its body, CSP and the form's hidden fields. */
  async function loginPage(): Promise<{ browser: Browser; body: string; csp: string; form: Record<string, string> }> {
    const browser = new Browser(t);
    const { challenge } = pkce();
    const start = await browser.get(`/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'openid' })}`);
    const page = await browser.get(start.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, body: page.body, csp: String(page.headers['content-security-policy']), form: { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token') } };
  }
  const loggedIn = (res: { statusCode: number; headers: Record<string, unknown> }) => res.statusCode === 302 && String(res.headers.location).startsWith(CALLBACK);

  before(async () => {
    standIn = await startCaptchaStandIn(SECRET);
    t = await createTestApp({
      env: {
        GATEHOUSE_RECAPTCHA_VERIFY_URL: standIn.recaptchaUrl,
        GATEHOUSE_HCAPTCHA_VERIFY_URL: standIn.hcaptchaUrl,
        GATEHOUSE_FRIENDLY_CAPTCHA_VERIFY_URL: standIn.friendlyUrl,
        GATEHOUSE_CAPTCHA_CA_FILE: standIn.caFile,
        GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.0/8',
      },
    });
    clientId = await setUp(t);
    await user('robot@example.com');
    await api('PATCH', '/api/v2/attack-protection/captcha', { active_provider_id: 'recaptcha_v2', recaptcha_v2: { site_key: 'site-key-v2', secret: SECRET } });
  });
  after(async () => {
    await t.close();
    await standIn.close();
  });

  it('never (the default): no widget, and the page\'s CSP allows no provider', async () => {
    const page = await loginPage();
    assert.doesNotMatch(page.body, /g-recaptcha/);
    assert.doesNotMatch(page.csp, /google|hcaptcha|friendlycaptcha|jsdelivr/);
    assert.ok(loggedIn(await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD })));
  });

  it('always (reCAPTCHA v2): the widget and its origins only; no token or a wrong one is refused before the password; the provider\'s token logs in', async () => {
    await api('PATCH', '/api/v2/attack-protection/bot-detection', { challenge_password_policy: 'always' });
    const page = await loginPage();
    assert.match(page.body, /<div class="g-recaptcha" data-sitekey="site-key-v2"><\/div>/);
    assert.match(page.body, /<script src="https:\/\/www\.google\.com\/recaptcha\/api\.js" async defer><\/script>/);
    assert.match(page.csp, /script-src [^;]*https:\/\/www\.google\.com\/recaptcha\/ https:\/\/www\.gstatic\.com\/recaptcha\//);
    assert.match(page.csp, /frame-src https:\/\/www\.google\.com\/recaptcha\/ https:\/\/recaptcha\.google\.com\/recaptcha\//);
    assert.doesNotMatch(page.csp, /hcaptcha|friendlycaptcha|jsdelivr/);
    assert.doesNotMatch(page.body, new RegExp(SECRET), 'the secret never reaches the page');

    const seen = standIn.requests.length;
    const missing = await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.body, /Solve the challenge question to verify you are not a robot\./);
    assert.match(missing.body, /g-recaptcha/, 'the refused page shows the widget again');
    assert.equal(standIn.requests.length, seen, 'an empty token is not sent to the provider');

    const wrong = await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD, 'g-recaptcha-response': 'forged-token' });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /not a robot/);
    const asked = standIn.requests.at(-1)!;
    assert.equal(asked.path, '/recaptcha/api/siteverify');
    assert.deepEqual(asked.form, { secret: SECRET, response: 'forged-token', remoteip: '127.0.0.1' });

    // A wrong password with a good token: the password's own error, after the challenge.
    const badPassword = await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: 'wrong', 'g-recaptcha-response': standIn.issue() });
    assert.match(badPassword.body, /Wrong email or password/);

    // Providers' tokens run to a few KiB (past the 4 KiB of an ordinary form value).
    const long = await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD, 'g-recaptcha-response': 'x'.repeat(6000) });
    assert.equal(long.statusCode, 400);
    assert.match(long.body, /not a robot/, 'a long token reaches the provider, which refuses this one');
    const token = standIn.issue();
    const ok = await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD, 'g-recaptcha-response': token });
    assert.ok(loggedIn(ok), `${ok.statusCode} ${ok.body}`);
    // The provider's tokens work once.
    const fresh = await loginPage();
    const again = await fresh.browser.post('/login', { ...fresh.form, username: 'robot@example.com', password: PASSWORD, 'g-recaptcha-response': token });
    assert.equal(again.statusCode, 400);
    assert.match(again.body, /not a robot/);
  });

  it('hCaptcha and Friendly Captcha: each provider\'s widget, field and verify call, and only its origins in the CSP', async () => {
    await api('PATCH', '/api/v2/attack-protection/captcha', { active_provider_id: 'hcaptcha', hcaptcha: { site_key: 'site-key-h', secret: SECRET } });
    let page = await loginPage();
    assert.match(page.body, /<div class="h-captcha" data-sitekey="site-key-h">/);
    assert.match(page.csp, /script-src [^;]*https:\/\/hcaptcha\.com https:\/\/\*\.hcaptcha\.com/);
    assert.doesNotMatch(page.csp, /google|friendlycaptcha|jsdelivr/);
    assert.equal((await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD, 'g-recaptcha-response': standIn.issue() })).statusCode, 400, 'another provider\'s field is not read');
    assert.ok(loggedIn(await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD, 'h-captcha-response': standIn.issue() })));
    assert.deepEqual(Object.keys(standIn.requests.at(-1)!.form).sort(), ['remoteip', 'response', 'secret', 'sitekey']);

    await api('PATCH', '/api/v2/attack-protection/captcha', { active_provider_id: 'friendly_captcha', friendly_captcha: { site_key: 'site-key-f', secret: SECRET } });
    page = await loginPage();
    assert.match(page.body, /<div class="frc-captcha" data-sitekey="site-key-f">/);
    assert.match(page.body, /<script type="module" src="https:\/\/cdn\.jsdelivr\.net\/npm\/friendly-challenge@0\.9\.18\/widget\.module\.min\.js"/);
    assert.match(page.csp, /connect-src https:\/\/api\.friendlycaptcha\.com/);
    assert.match(page.csp, /worker-src blob:/);
    assert.doesNotMatch(page.csp, /google|hcaptcha/);
    assert.equal((await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD })).statusCode, 400);
    assert.ok(loggedIn(await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD, 'frc-captcha-solution': standIn.issue() })));
    assert.equal(standIn.requests.at(-1)!.path, '/friendly/api/v1/siteverify');
    await api('PATCH', '/api/v2/attack-protection/captcha', { active_provider_id: 'recaptcha_v2' });
  });

  it('the allowlist (IPs and CIDR blocks) skips the challenge; monitoring mode lets a login without a token through', async () => {
    await api('PATCH', '/api/v2/attack-protection/bot-detection', { allowlist: ['127.0.0.0/8'] });
    let page = await loginPage();
    assert.doesNotMatch(page.body, /g-recaptcha/);
    assert.ok(loggedIn(await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD })));
    await api('PATCH', '/api/v2/attack-protection/bot-detection', { allowlist: ['10.0.0.0/8'], monitoring_mode_enabled: true });
    page = await loginPage();
    assert.match(page.body, /g-recaptcha/);
    assert.ok(loggedIn(await page.browser.post('/login', { ...page.form, username: 'robot@example.com', password: PASSWORD })));
    await api('PATCH', '/api/v2/attack-protection/bot-detection', { allowlist: [], monitoring_mode_enabled: false });
  });

  it('when_risky: the first attempt is not challenged; after a wrong password from the address, the next one is', async () => {
    await user('risky@example.com');
    await api('PATCH', '/api/v2/attack-protection/bot-detection', { challenge_password_policy: 'when_risky' });
    const page = await loginPage();
    assert.doesNotMatch(page.body, /g-recaptcha/);
    const failed = await page.browser.post('/login', { ...page.form, username: 'risky@example.com', password: 'wrong-once' });
    assert.match(failed.body, /Wrong email or password/);
    assert.match(failed.body, /g-recaptcha/, 'the page after a failure shows the widget');
    const refused = await page.browser.post('/login', { ...page.form, username: 'risky@example.com', password: PASSWORD });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /not a robot/);
    assert.ok(loggedIn(await page.browser.post('/login', { ...page.form, username: 'risky@example.com', password: PASSWORD, 'g-recaptcha-response': standIn.issue() })));
    // The success reset the counter: no challenge on the next login.
    const next = await loginPage();
    assert.ok(loggedIn(await next.browser.post('/login', { ...next.form, username: 'risky@example.com', password: PASSWORD })));
    await api('PATCH', '/api/v2/attack-protection/bot-detection', { challenge_password_policy: 'never' });
  });
});

describe('bot detection: the verify call goes through the outbound guard', () => {
  let t: TestApp;
  let standIn: CaptchaStandIn;
  let clientId: string;
  before(async () => {
    standIn = await startCaptchaStandIn(SECRET);
    // No GATEHOUSE_OUTBOUND_ALLOW: the loopback stand-in is not a public address.
    t = await createTestApp({ env: { GATEHOUSE_RECAPTCHA_VERIFY_URL: standIn.recaptchaUrl, GATEHOUSE_CAPTCHA_CA_FILE: standIn.caFile } });
    clientId = await setUp(t);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'guarded@example.com', password: PASSWORD } })).statusCode, 201);
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/captcha', { body: { active_provider_id: 'recaptcha_v2', recaptcha_v2: { site_key: 'k', secret: SECRET } } })).statusCode, 200);
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/bot-detection', { body: { challenge_password_policy: 'always' } })).statusCode, 200);
  });
  after(async () => {
    await t.close();
    await standIn.close();
  });

  it('a provider at a non-public address is not reached: the login is refused (fail closed)', async () => {
    const browser = new Browser(t);
    const { challenge } = pkce();
    const start = await browser.get(`/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'openid' })}`);
    const page = await browser.get(start.headers.location as string);
    const res = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'guarded@example.com', password: PASSWORD, 'g-recaptcha-response': standIn.issue() });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /not a robot/);
    assert.equal(standIn.requests.length, 0);
  });
});

describe('bot detection: the CAPTCHA challenge of the forgot-password page', () => {
  let t: TestApp;
  let standIn: CaptchaStandIn;
  let clientId: string;
  before(async () => {
    standIn = await startCaptchaStandIn(SECRET);
    t = await createTestApp({ env: { GATEHOUSE_HCAPTCHA_VERIFY_URL: standIn.hcaptchaUrl, GATEHOUSE_CAPTCHA_CA_FILE: standIn.caFile, GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.0/8' } });
    clientId = await setUp(t);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'reset@example.com', password: PASSWORD } })).statusCode, 201);
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/captcha', { body: { active_provider_id: 'hcaptcha', hcaptcha: { site_key: 'k', secret: SECRET } } })).statusCode, 200);
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/bot-detection', { body: { challenge_password_reset_policy: 'always' } })).statusCode, 200);
  });
  after(async () => {
    await t.close();
    await standIn.close();
  });

  it('always: the widget on the page; a request without a token is refused and sends nothing; with the provider\'s token the mail goes', async () => {
    const browser = new Browser(t);
    const { challenge } = pkce();
    const start = await browser.get(`/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'openid' })}`);
    const login = await browser.get(start.headers.location as string);
    assert.doesNotMatch(login.body, /h-captcha/, 'the password policy is still never');
    const state = hidden(login.body, 'state');
    const page = await browser.get(`/forgot-password?state=${encodeURIComponent(state)}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<div class="h-captcha" data-sitekey="k">/);
    assert.match(String(page.headers['content-security-policy']), /frame-src https:\/\/hcaptcha\.com https:\/\/\*\.hcaptcha\.com/);
    const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email: 'reset@example.com' };
    const resetMails = () => readOutbox(t.ctx).filter((m) => m.to === 'reset@example.com' && /password/i.test(m.subject)).length;
    const before = resetMails();
    const mails = () => resetMails() - before;
    const refused = await browser.post('/forgot-password', form);
    assert.equal(refused.statusCode, 400);
    assert.equal(mails(), 0, 'no reset mail without the challenge');
    assert.match(refused.body, /not a robot/);
    assert.match(refused.body, /h-captcha/);
    const sent = await browser.post('/forgot-password', { ...form, 'h-captcha-response': standIn.issue() });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.match(sent.body, /Check your email/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(mails(), 1, 'the reset mail went');
  });
});

describe('bot detection: the CAPTCHA challenge of hosted passwordless login (SMS)', () => {
  const SID = 'AC0123456789abcdef0123456789abcdef';
  const TOKEN = 'twilio-auth-token-0123456789';
  let t: TestApp;
  let standIn: CaptchaStandIn;
  let twilio: TwilioStandIn;
  let clientId: string;
  before(async () => {
    standIn = await startCaptchaStandIn(SECRET);
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url, GATEHOUSE_FRIENDLY_CAPTCHA_VERIFY_URL: standIn.friendlyUrl, GATEHOUSE_CAPTCHA_CA_FILE: standIn.caFile, GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.0/8' } });
    clientId = (await insertClient(t, { name: 'Texting App', grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', client_secret_enc: null, config: { callbacks: [CALLBACK] } })).client_id;
    assert.equal((await t.management('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { body: { sid: SID, auth_token: TOKEN, from: '+15550001111' } })).statusCode, 200);
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: 'sms', strategy: 'sms', enabled_clients: [clientId] } })).statusCode, 201);
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/captcha', { body: { active_provider_id: 'friendly_captcha', friendly_captcha: { site_key: 'fk', secret: SECRET } } })).statusCode, 200);
  });
  after(async () => {
    await t.close();
    await twilio.close();
    await standIn.close();
  });

  async function phonePage() {
    const browser = new Browser(t);
    const { challenge } = pkce();
    const started = await browser.get(authorizeUrl(clientId, CALLBACK, { scope: 'openid', code_challenge: challenge }));
    const page = await browser.get(started.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, page, form: { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token') } };
  }

  it('when_risky has no signal here: no challenge', async () => {
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/bot-detection', { body: { challenge_passwordless_policy: 'when_risky' } })).statusCode, 200);
    const { browser, page, form } = await phonePage();
    assert.doesNotMatch(page.body, /frc-captcha/);
    assert.equal((await browser.post('/passwordless/login/start', { ...form, phone_number: '+15557880001' })).statusCode, 200);
  });

  it('always: the widget on the number page; no code is texted without the provider\'s solution; with it, the code goes', async () => {
    assert.equal((await t.management('PATCH', '/api/v2/attack-protection/bot-detection', { body: { challenge_passwordless_policy: 'always' } })).statusCode, 200);
    const { browser, page, form } = await phonePage();
    assert.match(page.body, /<div class="frc-captcha" data-sitekey="fk">/);
    assert.match(String(page.headers['content-security-policy']), /script-src https:\/\/cdn\.jsdelivr\.net\/npm\/friendly-challenge@0\.9\.18\//);
    const texts = twilio.messages.length;
    const refused = await browser.post('/passwordless/login/start', { ...form, phone_number: '+15557880002' });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /not a robot/);
    assert.match(refused.body, /frc-captcha/);
    assert.equal(twilio.messages.length, texts, 'nothing texted');
    const sent = await browser.post('/passwordless/login/start', { ...form, phone_number: '+15557880002', 'frc-captcha-solution': standIn.issue() });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(twilio.messages.length, texts + 1);
    assert.equal(twilio.messages.at(-1)!.to, '+15557880002');
  });
});
