/**
 * The hosted passwordless login for sms connections, through app.inject on
 * the real app and database, with the Twilio stand-in (Twilio's REST
 * protocol) as the tenant's provider: /authorize leads to the phone number
 * page, the code is texted with the connection's template, the code page
 * logs the `sms|…` user in and answers the authorization. Refusals: a bad
 * number, a wrong code, a code used twice or after it expired, the limit
 * per number, a provider that refuses, signup under disable_signup; texts
 * in the request's language.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { SENDS_PER_RECIPIENT } from '../../src/authentication/abuse-limits.js';
import { passwordlessUser } from '../../src/domain/passwordless/service.js';
import { createTestApp, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';

const CALLBACK = 'https://app.example.com/callback';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-0123456789';
const WRONG = /Wrong phone number or verification code\./;

describe('hosted passwordless login by SMS', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let open: TestClient;
  let members: TestClient;

  const mgmt = (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const codeOf = (text: string) => /(\d{6})/.exec(text)![1]!;
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  /** A browser on the phone number page of `client`, with the page. */
  async function phonePage(client: TestClient, params: Record<string, string> = {}) {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const started = await browser.get(authorizeUrl(client.client_id, CALLBACK, { scope: 'openid', code_challenge: challenge, prompt: 'login', ...params }));
    assert.equal(started.statusCode, 302, started.body);
    assert.equal(new URL(started.headers.location as string, 'https://x').pathname, '/passwordless/login');
    const page = await browser.get(started.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    const state = hidden(page.body, 'state');
    const form = (body: string, fields: Record<string, string>) => ({ state, csrf_token: hidden(body, 'csrf_token'), ...fields });
    return { browser, page, verifier, form };
  }

  before(async () => {
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url } });
    open = await insertClient(t, { name: 'Texting App', grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', client_secret_enc: null, config: { callbacks: [CALLBACK] } });
    members = await insertClient(t, { name: 'Members App', grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', client_secret_enc: null, config: { callbacks: [CALLBACK] } });
    assert.equal((await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' })).statusCode, 200);
    const created = await mgmt('POST', '/api/v2/connections', {
      name: 'sms',
      strategy: 'sms',
      enabled_clients: [open.client_id],
      options: { totp: { length: 6, time_step: 300 }, template: 'Your {{ application.name }} code: {{ code }}', from: '+15550002222' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const closed = await mgmt('POST', '/api/v2/connections', { name: 'sms-members', strategy: 'sms', enabled_clients: [members.client_id], options: { disable_signup: true } });
    assert.equal(closed.statusCode, 201, closed.body);
  });
  after(async () => {
    await t.close();
    await twilio.close();
  });

  it('the whole login: the number (a bad one first), the texted code (a wrong one first), the sms| user, the callback', async () => {
    const { browser, page, verifier, form } = await phonePage(open);
    assert.match(page.body, /Text me a code/);
    assert.match(page.body, /<input type="tel"[^>]* name="phone_number"/);

    const bad = await browser.post('/passwordless/login/start', form(page.body, { phone_number: '555 0100' }));
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /Enter your phone number in international format/);
    assert.match(bad.body, /aria-invalid="true"/);
    const forged = await browser.post('/passwordless/login/start', { ...form(bad.body, { phone_number: '+15557660001' }), csrf_token: 'forged' });
    assert.equal(forged.statusCode, 403, 'a forged form texts nothing');
    assert.equal(twilio.messages.length, 0);

    const codePage = await browser.post('/passwordless/login/start', form(bad.body, { phone_number: '+15557660001' }));
    assert.equal(codePage.statusCode, 200, codePage.body);
    assert.match(codePage.body, /We texted a code to <strong>\+15557660001<\/strong>/);
    const sms = twilio.messages.at(-1)!;
    assert.deepEqual({ ...sms, body: sms.body.replace(/\d{6}/, 'CODE') }, { accountSid: SID, to: '+15557660001', from: '+15550002222', body: 'Your Texting App code: CODE' });
    const code = codeOf(sms.body);

    const wrong = await browser.post('/passwordless/login/verify', form(codePage.body, { phone_number: '+15557660001', code: otherCode(code) }));
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, WRONG);
    const done = await browser.post('/passwordless/login/verify', form(wrong.body, { phone_number: '+15557660001', code }));
    const params = redirectParams(done, CALLBACK);
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: open.client_id, code: params.get('code')!, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.statusCode, 200, tokens.body);
    const sub = decodeJwt((tokens.json() as { id_token: string }).id_token).sub!;
    assert.match(sub, /^sms\|[0-9a-f]{24}$/);
    const user = (await mgmt('GET', `/api/v2/users/${encodeURIComponent(sub)}`)).json() as Record<string, unknown>;
    assert.deepEqual([user.phone_number, user.phone_verified], ['+15557660001', true]);

    const none = await new Browser(t).get(authorizeUrl(open.client_id, CALLBACK, { prompt: 'none' }));
    assert.equal(redirectParams(none, CALLBACK).get('error'), 'login_required');
  });

  it('a code works once, and not after it expired', async () => {
    const first = await phonePage(open);
    const codePage = await first.browser.post('/passwordless/login/start', first.form(first.page.body, { phone_number: '+15557660002' }));
    assert.equal(codePage.statusCode, 200, codePage.body);
    const code = codeOf(twilio.messages.at(-1)!.body);
    assert.equal((await first.browser.post('/passwordless/login/verify', first.form(codePage.body, { phone_number: '+15557660002', code }))).statusCode, 302);

    const second = await phonePage(open);
    const reused = await second.browser.post('/passwordless/login/verify', second.form(second.page.body, { phone_number: '+15557660002', code }));
    assert.equal(reused.statusCode, 400, 'a spent code is refused');
    assert.match(reused.body, WRONG);

    const again = await second.browser.post('/passwordless/login/start', second.form(reused.body, { phone_number: '+15557660002' }));
    const late = await withClockAdvanced(t, 301_000, () =>
      second.browser.post('/passwordless/login/verify', second.form(again.body, { phone_number: '+15557660002', code: codeOf(twilio.messages.at(-1)!.body) })),
    );
    assert.equal(late.statusCode, 400, 'an expired code is refused');
    assert.match(late.body, WRONG);
  });

  it('disable_signup: an unknown number gets the same page, no text, and cannot log in; a member can', async () => {
    const { browser, page, form } = await phonePage(members);
    const sent = twilio.messages.length;
    const codePage = await browser.post('/passwordless/login/start', form(page.body, { phone_number: '+15557660003' }));
    assert.equal(codePage.statusCode, 200, codePage.body);
    assert.match(codePage.body, /We texted a code to/);
    assert.equal(twilio.messages.length, sent, 'nothing is texted to an unknown number');
    const guess = await browser.post('/passwordless/login/verify', form(codePage.body, { phone_number: '+15557660003', code: '000000' }));
    assert.equal(guess.statusCode, 400);
    const connection = (await t.ctx.stores.connections.getByName(t.tenant.id, 'sms-members'))!;
    assert.equal(await t.ctx.stores.users.findSmsUser(t.tenant.id, connection.id, '+15557660003'), undefined, 'no user was created');

    // A member, as a login before signups were closed would have made them.
    const member = (await passwordlessUser(t.ctx, t.tenant, { ...connection, options: {} }, '+15557660004'))!;
    const memberPage = await browser.post('/passwordless/login/start', form(guess.body, { phone_number: '+15557660004' }));
    assert.equal(twilio.messages.at(-1)!.to, '+15557660004');
    const done = await browser.post('/passwordless/login/verify', form(memberPage.body, { phone_number: '+15557660004', code: codeOf(twilio.messages.at(-1)!.body) }));
    assert.equal(done.statusCode, 302, done.body);
    assert.equal((await t.ctx.stores.users.findSmsUser(t.tenant.id, connection.id, '+15557660004'))!.user_id, member.user_id);
  });

  it(`limits texts per number (${SENDS_PER_RECIPIENT.burst} an hour, then 429); a refusing provider is an error page`, async () => {
    const { browser, page, form } = await phonePage(open);
    let body = page.body;
    for (let i = 0; i < SENDS_PER_RECIPIENT.burst; i++) {
      const res = await browser.post('/passwordless/login/start', form(body, { phone_number: '+15557660005' }));
      assert.equal(res.statusCode, 200, res.body);
      body = res.body;
    }
    const limited = await browser.post('/passwordless/login/start', form(body, { phone_number: '+15557660005' }));
    assert.equal(limited.statusCode, 429);
    assert.match(limited.body, /Too many codes were sent/);

    await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: 'wrong', from: '+15550001111' });
    try {
      const failed = await browser.post('/passwordless/login/start', form(limited.body, { phone_number: '+15557660006' }));
      assert.equal(failed.statusCode, 502);
      assert.match(failed.body, /The text message could not be sent/);
    } finally {
      await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' });
    }
  });

  it('speaks the request\'s language', async () => {
    const { page } = await phonePage(open, { ui_locales: 'fr' });
    assert.match(page.body, /Envoyez-moi un code par SMS/);
    assert.match(page.body, /<html lang="fr"/);
  });
});
