/**
 * The SMS factor end to end through the real app and a Twilio stand-in
 * speaking Twilio's REST protocol (GATEHOUSE_TWILIO_URL): the provider and
 * templates in the Management API (the auth token never read back), SMS
 * enrolment through /mfa/associate with the code read from the stand-in,
 * the mfa-oob grant with it, a challenge by SMS on the next login, a
 * provider refusing the account (502, nothing half-done), and the limit on
 * enrolment texts per number.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SENDS_PER_RECIPIENT } from '../../src/authentication/abuse-limits.js';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-0123456789';
const CALLBACK = 'https://app.example.com/callback';

describe('MFA by SMS through Twilio', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let app: TestClient;

  const mgmt = async (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const mfaToken = async (email: string) => {
    const res = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: app.client_id, client_secret: app.client_secret, username: email, password: PASSWORD, realm: REALM });
    assert.equal(res.statusCode, 403, res.body);
    return (res.json() as { mfa_token: string }).mfa_token;
  };
  const post = (url: string, body: unknown, token?: string) =>
    t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, payload: JSON.stringify(body) });
  const codeOf = (text: string) => /(\d{6})/.exec(text)![1]!;

  before(async () => {
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url } });
    app = await insertClient(t, { grant_types: ['http://auth0.com/oauth/grant-type/password-realm', MFA_OOB] });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    for (const email of ['sms1@example.com', 'sms2@example.com', 'sms3@example.com']) await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD });
    await mgmt('PUT', '/api/v2/guardian/factors/sms', { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
  });
  after(async () => {
    await t.close();
    await twilio.close();
  });

  it('the Twilio provider and templates in the Management API; the auth token is sealed and never read back', async () => {
    assert.equal((await mgmt('GET', '/api/v2/guardian/factors/sms/providers/twilio')).body, '{}');
    const set = await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json(), { sid: SID, auth_token: TOKEN, from: '+15550001111' });
    const read = await mgmt('GET', '/api/v2/guardian/factors/sms/providers/twilio');
    assert.deepEqual(read.json(), { sid: SID, from: '+15550001111' });
    const row = await t.ctx.database.db.selectFrom('guardian_sms').selectAll().where('tenant_id', '=', t.tenant.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(TOKEN), 'only the sealed token is stored');

    const templates = (await mgmt('GET', '/api/v2/guardian/factors/sms/templates')).json() as Record<string, string>;
    assert.equal(templates.verification_message, '{{code}} is your verification code for {{tenant.friendly_name}}');
    const bad = await mgmt('PUT', '/api/v2/guardian/factors/sms/templates', { enrollment_message: '{% if %}', verification_message: 'x' });
    assert.equal(bad.statusCode, 400, bad.body);
    const custom = { enrollment_message: 'Enrol with {{code}} at {{tenant.friendly_name}}', verification_message: 'Log in with {{code}}' };
    assert.deepEqual((await mgmt('PUT', '/api/v2/guardian/factors/sms/templates', custom)).json(), custom);
  });

  it('enrols a phone by SMS: the code read from the Twilio stand-in completes the login; the next login is challenged by SMS', async () => {
    const token = await mfaToken('sms1@example.com');
    const res = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15557654321' }, token);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { oob_code: string; oob_channel: string; binding_method: string };
    assert.equal(body.oob_channel, 'sms');
    const sms = twilio.messages.at(-1)!;
    assert.deepEqual({ ...sms, body: sms.body.replace(/\d{6}/, 'CODE') }, { accountSid: SID, to: '+15557654321', from: '+15550001111', body: `Enrol with CODE at ${t.tenant.name}` });
    const grant = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: app.client_id, client_secret: app.client_secret, mfa_token: token, oob_code: body.oob_code, binding_code: codeOf(sms.body) });
    assert.equal(grant.statusCode, 200, grant.body);

    const next = await mfaToken('sms1@example.com');
    const challenge = await post('/mfa/challenge', { client_id: app.client_id, client_secret: app.client_secret, mfa_token: next, challenge_type: 'oob', oob_channel: 'sms' });
    assert.equal(challenge.statusCode, 200, challenge.body);
    const verification = twilio.messages.at(-1)!;
    assert.match(verification.body, /^Log in with \d{6}$/);
    const login = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: app.client_id, client_secret: app.client_secret, mfa_token: next, oob_code: (challenge.json() as { oob_code: string }).oob_code, binding_code: codeOf(verification.body) });
    assert.equal(login.statusCode, 200, login.body);
  });

  it('the hosted challenge page texts a code to the enrolled phone, and the code logs in', async () => {
    const web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    await mgmt('PATCH', `/api/v2/connections/${(await t.ctx.stores.connections.getByName(t.tenant.id, REALM))!.id}`, { enabled_clients: [app.client_id, web.client_id] });
    const browser = new Browser(t);
    const done = await browser.login(authorizeUrl(web.client_id, CALLBACK), 'sms1@example.com', PASSWORD);
    const page = await browser.get(done.headers.location as string);
    assert.match(page.body, /Text me a code/);
    const state = hidden(page.body, 'state');
    const sent = await browser.post('/mfa/send', { state, csrf_token: hidden(page.body, 'csrf_token'), method: 'sms' });
    assert.equal(sent.statusCode, 200, sent.body);
    const sms = twilio.messages.at(-1)!;
    assert.equal(sms.to, '+15557654321');
    const wrong = await browser.post('/mfa', { state, csrf_token: hidden(sent.body, 'csrf_token'), method: 'sms', oob_code: hidden(sent.body, 'oob_code'), code: String((Number(codeOf(sms.body)) + 1) % 1_000_000).padStart(6, '0') });
    assert.equal(wrong.statusCode, 400);
    const ok = await browser.post('/mfa', { state, csrf_token: hidden(sent.body, 'csrf_token'), method: 'sms', oob_code: hidden(sent.body, 'oob_code'), code: codeOf(sms.body) });
    assert.ok(redirectParams(ok, CALLBACK).get('code'), ok.body);
  });

  it('a provider that refuses the account: 502 server_error, and no enrolment is left usable', async () => {
    await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: 'wrong-token', from: '+15550001111' });
    try {
      const token = await mfaToken('sms2@example.com');
      const sent = twilio.messages.length;
      const res = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15551112222' }, token);
      assert.equal(res.statusCode, 502, res.body);
      assert.deepEqual(res.json(), { error: 'server_error', error_description: 'The text message could not be sent.' });
      assert.equal(twilio.messages.length, sent);
      const listed = (await t.app.inject({ method: 'GET', url: '/mfa/authenticators', headers: { host: DOMAIN, authorization: `Bearer ${token}` } })).json() as unknown[];
      assert.deepEqual(listed, [], 'the enrolment whose text could not be sent is gone');
    } finally {
      await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' });
    }
  });

  it(`refuses a bad number, and more than ${SENDS_PER_RECIPIENT.burst} enrolment texts to one number an hour`, async () => {
    const token = await mfaToken('sms3@example.com');
    const bad = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '5551234' }, token);
    assert.equal(bad.statusCode, 400, bad.body);
    for (let i = 0; i < SENDS_PER_RECIPIENT.burst; i++) {
      const res = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15559990000' }, token);
      assert.equal(res.statusCode, 200, res.body);
    }
    const limited = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15559990000' }, token);
    assert.equal(limited.statusCode, 429, limited.body);
    const listed = (await t.app.inject({ method: 'GET', url: '/mfa/authenticators', headers: { host: DOMAIN, authorization: `Bearer ${token}` } })).json() as { oob_channel?: string }[];
    assert.equal(listed.filter((a) => a.oob_channel === 'sms').length, 1, 'each new enrolment replaced the unfinished one');
  });
});
