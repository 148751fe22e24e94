/**
 * Passwordless login by text message: `strategy: "sms"` connections (their
 * options checked), /passwordless/start with `phone_number` texting a code
 * through the tenant's Twilio provider (the Twilio stand-in speaks Twilio's
 * REST protocol), the passwordless OTP grant with `realm: "sms"` creating an
 * `sms|…` user with the number, and the refusals: a code used twice or
 * after it expired, a bad number, signup under disable_signup, the limit
 * per number, a provider that refuses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SENDS_PER_RECIPIENT } from '../../src/authentication/abuse-limits.js';
import { passwordlessUser } from '../../src/domain/passwordless/service.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';

const GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-0123456789';
const SERVICE = 'MG0123456789abcdef0123456789abcdef';

describe('passwordless login by SMS', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let spa: TestClient;

  const mgmt = async (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const start = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/passwordless/start', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify({ client_id: spa.client_id, ...body }) });
  const login = (realm: string, username: string, otp: string) => tokenRequest(t.app, { grant_type: GRANT, client_id: spa.client_id, realm, username, otp, scope: 'openid' });
  const codeOf = (text: string) => /(\d{4,10})/.exec(text)![1]!;

  before(async () => {
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url } });
    spa = await insertClient(t, { name: 'SMS SPA', grant_types: [GRANT], token_endpoint_auth_method: 'none', client_secret_enc: null });
    assert.equal((await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' })).statusCode, 200);
    const created = await mgmt('POST', '/api/v2/connections', {
      name: 'sms',
      strategy: 'sms',
      enabled_clients: [spa.client_id],
      options: { totp: { length: 6, time_step: 300 }, template: 'Your {{ application.name }} code: @@password@@', syntax: 'md_with_macros', from: '+15550002222', brute_force_protection: true, disable_signup: false },
    });
    assert.equal(created.statusCode, 201, created.body);
    const closed = await mgmt('POST', '/api/v2/connections', { name: 'sms-members', strategy: 'sms', enabled_clients: [spa.client_id], options: { disable_signup: true, messaging_service_sid: SERVICE } });
    assert.equal(closed.statusCode, 201, closed.body);
  });
  after(async () => {
    await t.close();
    await twilio.close();
  });

  it('checks the options of sms connections', async () => {
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ totp: { length: 11 } }, /options\.totp\.length/],
      [{ totp: { time_step: 5 } }, /options\.totp\.time_step/],
      [{ template: '{% if %}' }, /options\.template is not a valid Liquid template/],
      [{ template: 7 }, /options\.template must be a string/],
      [{ from: '0800 123' }, /options\.from must be an E\.164/],
      [{ messaging_service_sid: 'XX12' }, /options\.messaging_service_sid/],
      [{ twilio_token: 'a-secret' }, /options\.twilio_token is not supported/],
      [{ disable_signup: 'yes' }, /options\.disable_signup/],
      [{ brute_force_protection: 1 }, /options\.brute_force_protection/],
      [{ syntax: 'markdown' }, /options\.syntax/],
    ];
    for (const [options, message] of refused) {
      const res = await mgmt('POST', '/api/v2/connections', { name: `sms-bad-${Math.random().toString(36).slice(2, 8)}`, strategy: 'sms', options });
      assert.equal(res.statusCode, 400, JSON.stringify(options));
      assert.match((res.json() as { message: string }).message, message);
    }
  });

  it('texts a code from the connection\'s sender; the OTP grant with realm sms logs in and creates an sms| user with the number; the code works once', async () => {
    const res = await start({ connection: 'sms', phone_number: '+15557650001', send: 'code' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual({ ...body, _id: 'x' }, { _id: 'x', phone_number: '+15557650001', phone_verified: true });
    const sms = twilio.messages.at(-1)!;
    assert.deepEqual({ ...sms, body: sms.body.replace(/\d{6}/, 'CODE') }, { accountSid: SID, to: '+15557650001', from: '+15550002222', body: 'Your SMS SPA code: CODE' });

    const wrong = await login('sms', '+15557650001', String((Number(codeOf(sms.body)) + 1) % 1_000_000).padStart(6, '0'));
    assert.deepEqual([wrong.statusCode, wrong.json()], [403, { error: 'invalid_grant', error_description: 'Wrong phone number or verification code.' }]);
    const ok = await login('sms', '+15557650001', codeOf(sms.body));
    assert.equal(ok.statusCode, 200, ok.body);
    const again = await login('sms', '+15557650001', codeOf(sms.body));
    assert.equal(again.statusCode, 403, 'a code works once');

    const connection = (await t.ctx.stores.connections.getByName(t.tenant.id, 'sms'))!;
    const user = (await t.ctx.stores.users.findSmsUser(t.tenant.id, connection.id, '+15557650001'))!;
    assert.match(user.user_id, /^sms\|[0-9a-f]{24}$/);
    const read = (await mgmt('GET', `/api/v2/users/${encodeURIComponent(user.user_id)}`)).json() as Record<string, unknown>;
    assert.equal(read.phone_number, '+15557650001');
    assert.equal(read.phone_verified, true);

    // The next login finds the same user.
    await start({ connection: 'sms', phone_number: '+15557650001' });
    assert.equal((await login('sms', '+15557650001', codeOf(twilio.messages.at(-1)!.body))).statusCode, 200);
    assert.equal((await t.ctx.stores.users.findSmsUser(t.tenant.id, connection.id, '+15557650001'))!.user_id, user.user_id);
  });

  it('refuses an expired code', async () => {
    await start({ connection: 'sms', phone_number: '+15557650002' });
    const code = codeOf(twilio.messages.at(-1)!.body);
    const late = await withClockAdvanced(t, 301_000, () => login('sms', '+15557650002', code));
    assert.deepEqual([late.statusCode, (late.json() as { error: string }).error], [403, 'invalid_grant']);
  });

  it('under disable_signup an unknown number gets the same answer, no text, and no login; the messaging service sends to members', async () => {
    const sent = twilio.messages.length;
    const res = await start({ connection: 'sms-members', phone_number: '+15557650003' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(twilio.messages.length, sent, 'nothing texted to an unknown number');
    assert.equal((await login('sms-members', '+15557650003', '000000')).statusCode, 403);

    const connection = (await t.ctx.stores.connections.getByName(t.tenant.id, 'sms-members'))!;
    // A member, as an earlier login (before signups were closed) would have made them.
    const member = await passwordlessUser(t.ctx, t.tenant, { ...connection, options: {} }, '+15557650004');
    assert.match(member!.user_id, /^sms\|/);
    await start({ connection: 'sms-members', phone_number: '+15557650004' });
    const sms = twilio.messages.at(-1)!;
    assert.deepEqual([sms.to, sms.messagingServiceSid, sms.from], ['+15557650004', SERVICE, undefined]);
    assert.equal((await login('sms-members', '+15557650004', codeOf(sms.body))).statusCode, 200);
  });

  it('refuses a bad number, a link, an unknown connection; limits texts per number', async () => {
    const bad = await start({ connection: 'sms', phone_number: '5557650005' });
    assert.deepEqual([bad.statusCode, bad.json()], [400, { error: 'bad.phone_number', error_description: 'String does not match pattern: ^\\+[0-9]{1,15}$' }]);
    assert.equal(((await start({ connection: 'sms', phone_number: '+15557650005', send: 'link' })).json() as { error: string }).error, 'bad.send');
    assert.equal(((await start({ connection: 'nope', phone_number: '+15557650005' })).json() as { error: string }).error, 'bad.connection');
    for (let i = 0; i < SENDS_PER_RECIPIENT.burst; i++) assert.equal((await start({ connection: 'sms', phone_number: '+15557650006' })).statusCode, 200);
    const limited = await start({ connection: 'sms', phone_number: '+15557650006' });
    assert.equal(limited.statusCode, 429, limited.body);
    assert.ok(limited.headers['retry-after']);
  });

  it('a provider that refuses the account: sms_provider_error, no login possible with a code never received', async () => {
    await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: 'wrong', from: '+15550001111' });
    const res = await start({ connection: 'sms', phone_number: '+15557650007' });
    assert.deepEqual([res.statusCode, res.json()], [400, { error: 'sms_provider_error', error_description: 'The text message could not be sent.' }]);
  });
});
