/**
 * /api/v2/attack-protection/{bot-detection,captcha,phone-provider-protection}
 * through the real app and database (SQLite, and PostgreSQL for the CAPTCHA
 * store): the defaults a fresh tenant answers, the shapes, PATCH laying
 * members over them, the refusals (providers Gatehouse cannot verify, a
 * chosen provider without its configuration, a challenge policy without a
 * verifiable provider, bad allowlist entries, unknown members, scopes), the
 * CAPTCHA secrets sealed and never answered; and phone provider protection's
 * `exponential` backoff applied to passwordless text messages (Twilio stand-in).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';
import { once } from 'node:events';
import { createContext, createLogger } from '../../src/app/context.js';
import { buildApp } from '../../src/app/http.js';

const BOT = '/api/v2/attack-protection/bot-detection';
const CAPTCHA = '/api/v2/attack-protection/captcha';
const PHONE = '/api/v2/attack-protection/phone-provider-protection';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-0123456789';

for (const postgres of [false, true]) {
  describe(`/api/v2/attack-protection bot detection, CAPTCHA, phone provider protection (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
    let t: TestApp;
    const api = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token !== undefined && { token }) });
    const message = (res: { json(): unknown }) => (res.json() as { message: string }).message;

    before(async () => {
      t = await createTestApp({ postgres });
    });
    after(() => t.close());

    it('answers the defaults of a fresh tenant', async () => {
      assert.deepEqual((await api('GET', BOT)).json(), {
        bot_detection_level: 'medium',
        challenge_password_policy: 'never',
        challenge_passwordless_policy: 'never',
        challenge_password_reset_policy: 'never',
        allowlist: [],
        monitoring_mode_enabled: false,
      });
      assert.deepEqual((await api('GET', CAPTCHA)).json(), { active_provider_id: 'auth_challenge', auth_challenge: { fail_open: false } });
      assert.deepEqual((await api('GET', PHONE)).json(), { type: 'none' });
    });

    it('refuses a challenge policy while no provider Gatehouse verifies is active; changes nothing', async () => {
      const res = await api('PATCH', BOT, { challenge_password_policy: 'always' });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(message(res), /needs an active CAPTCHA provider that Gatehouse verifies \(recaptcha_v2, hcaptcha or friendly_captcha\)/);
      assert.equal(((await api('GET', BOT)).json() as Record<string, unknown>).challenge_password_policy, 'never');
      // `never` and the members that are not policies need no provider.
      const ok = await api('PATCH', BOT, { bot_detection_level: 'high', monitoring_mode_enabled: true, challenge_passwordless_policy: 'never' });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal((ok.json() as Record<string, unknown>).bot_detection_level, 'high');
      assert.equal((await api('PATCH', BOT, { monitoring_mode_enabled: false })).statusCode, 200);
    });

    it('refuses providers Gatehouse cannot verify, naming why; changes nothing', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ active_provider_id: 'arkose' }, /arkose is refused: Gatehouse cannot verify Arkose Labs sessions/],
        [{ arkose: { site_key: 'k', secret: 's' } }, /arkose is refused/],
        [{ active_provider_id: 'recaptcha_enterprise' }, /reCAPTCHA Enterprise/],
        [{ recaptcha_enterprise: { site_key: 'k', api_key: 'a', project_id: 'p' } }, /recaptcha_enterprise is refused/],
        [{ active_provider_id: 'simple_captcha' }, /simple_captcha is the service's own image CAPTCHA/],
        [{ active_provider_id: 'recaptcha_v2' }, /recaptcha_v2 needs its configuration: recaptcha_v2\.site_key and recaptcha_v2\.secret/],
      ];
      for (const [body, expected] of cases) {
        const res = await api('PATCH', CAPTCHA, body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.match(message(res), expected, JSON.stringify(body));
      }
      assert.deepEqual((await api('GET', CAPTCHA)).json(), { active_provider_id: 'auth_challenge', auth_challenge: { fail_open: false } });
    });

    it('takes the default back as auth0-deploy-cli writes it after reading it (auth_challenge, while nothing challenges)', async () => {
      const res = await api('PATCH', CAPTCHA, { active_provider_id: 'auth_challenge', auth_challenge: { fail_open: true } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { active_provider_id: 'auth_challenge', auth_challenge: { fail_open: true } });
      assert.equal((await api('PATCH', CAPTCHA, { auth_challenge: { fail_open: false } })).statusCode, 200);
    });

    it('refuses bodies off the document\'s schema with 400 in the Management API\'s shape', async () => {
      const cases: Array<[string, unknown]> = [
        [CAPTCHA, { active_provider_id: 'turnstile' }],
        [CAPTCHA, { recaptcha_v2: { site_key: 'only-the-key' } }],
        [CAPTCHA, { recaptcha_v2: { site_key: 'k', secret: 's', extra: 1 } }],
        [CAPTCHA, { hcaptcha: { site_key: 'k'.repeat(101), secret: 's' } }],
        [CAPTCHA, { unknown: true }],
        [BOT, { challenge_password_policy: 'sometimes' }],
        [BOT, { bot_detection_level: 'extreme' }],
        [BOT, { allowlist: 'not-a-list' }],
        [BOT, { surprise: 1 }],
        [PHONE, {}],
        [PHONE, { type: 'linear' }],
        [PHONE, { type: 'none', extra: true }],
      ];
      for (const [url, body] of cases) {
        const res = await api('PATCH', url, body);
        assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(body)}: ${res.body}`);
        assert.equal((res.json() as { statusCode: number }).statusCode, 400);
        assert.equal((res.json() as { error: string }).error, 'Bad Request');
      }
      const bad = await api('PATCH', BOT, { allowlist: ['10.0.0.0/8', 'not-an-ip'] });
      assert.equal(bad.statusCode, 400);
      assert.match(message(bad), /Invalid IP address or CIDR block in allowlist: not-an-ip/);
      assert.deepEqual(((await api('GET', BOT)).json() as { allowlist: string[] }).allowlist, []);
    });

    it('stores a provider\'s secret sealed and never answers it; the active provider switches between configured ones', async () => {
      const res = await api('PATCH', CAPTCHA, { active_provider_id: 'recaptcha_v2', recaptcha_v2: { site_key: 'site-key-v2', secret: 'recaptcha-secret-value' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { active_provider_id: 'recaptcha_v2', auth_challenge: { fail_open: false }, recaptcha_v2: { site_key: 'site-key-v2' } });
      assert.deepEqual((await api('GET', CAPTCHA)).json(), res.json());
      assert.doesNotMatch((await api('GET', CAPTCHA)).body, /secret/);
      const row = await t.ctx.database.db.selectFrom('captcha_settings').selectAll().where('tenant_id', '=', t.tenant.id).executeTakeFirstOrThrow();
      assert.match(row.secrets_enc ?? '', /^v[12]\./, 'sealed by the secret box');
      assert.doesNotMatch(JSON.stringify(row), /recaptcha-secret-value/);
      // A second provider's configuration keeps the first's secret; switching needs the target configured.
      assert.equal((await api('PATCH', CAPTCHA, { active_provider_id: 'hcaptcha' })).statusCode, 400);
      const both = await api('PATCH', CAPTCHA, { hcaptcha: { site_key: 'site-key-h', secret: 'hcaptcha-secret-value' } });
      assert.equal(both.statusCode, 200, both.body);
      assert.equal((both.json() as Record<string, unknown>).active_provider_id, 'recaptcha_v2');
      const switched = await api('PATCH', CAPTCHA, { active_provider_id: 'hcaptcha' });
      assert.equal(switched.statusCode, 200, switched.body);
      assert.deepEqual((switched.json() as Record<string, unknown>).hcaptcha, { site_key: 'site-key-h' });
      assert.equal((await api('PATCH', CAPTCHA, { active_provider_id: 'recaptcha_v2' })).statusCode, 200, 'the first provider\'s secret is still there');
      // form-urlencoded bodies are taken too, as the document allows.
      const form = await t.app.inject({
        method: 'PATCH',
        url: PHONE,
        headers: { host: DOMAIN, authorization: `Bearer ${await t.managementToken()}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'type=none',
      });
      assert.equal(form.statusCode, 200, form.body);
    });

    it('with a verifiable provider active, takes challenge policies and IP/CIDR allowlists', async () => {
      const res = await api('PATCH', BOT, { challenge_password_policy: 'when_risky', challenge_password_reset_policy: 'always', allowlist: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'] });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        bot_detection_level: 'high',
        challenge_password_policy: 'when_risky',
        challenge_passwordless_policy: 'never',
        challenge_password_reset_policy: 'always',
        allowlist: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'],
        monitoring_mode_enabled: false,
      });
      assert.deepEqual((await api('GET', BOT)).json(), res.json());
      // While a policy challenges, the provider cannot go back to one Gatehouse does not verify.
      const back = await api('PATCH', CAPTCHA, { active_provider_id: 'auth_challenge' });
      assert.equal(back.statusCode, 400);
      assert.match(message(back), /auth_challenge is the service's own challenge, which Gatehouse does not have; it can be chosen only while every bot detection challenge policy is never/);
      assert.equal((await api('PATCH', BOT, { challenge_password_policy: 'never', challenge_password_reset_policy: 'never', allowlist: [] })).statusCode, 200);
    });

    it('needs read:attack_protection to read and update:attack_protection to change', async () => {
      const readOnly = await t.managementToken('read:attack_protection');
      for (const url of [BOT, CAPTCHA, PHONE]) {
        assert.equal((await api('GET', url, undefined, readOnly)).statusCode, 200, url);
        const refused = await api('PATCH', url, url === PHONE ? { type: 'exponential' } : {}, readOnly);
        assert.equal(refused.statusCode, 403, url);
        assert.match(message(refused), /Insufficient scope, expected any of: update:attack_protection/);
      }
      const writeOnly = await t.managementToken('update:attack_protection');
      assert.equal((await api('GET', PHONE, undefined, writeOnly)).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'GET', url: PHONE, headers: { host: DOMAIN } })).statusCode, 401);
      assert.deepEqual((await api('GET', PHONE)).json(), { type: 'none' }, 'the refused PATCH changed nothing');
    });
  });
}

describe('the auth0 SDK\'s attackProtection.botDetection, .captcha and .phoneProviderProtection', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('reads and changes the three, and gets the refusals as the SDK\'s errors', async () => {
    const sdk = await inProcessSdk(t);
    const { attackProtection } = sdk;
    assert.equal((await attackProtection.botDetection.get()).challenge_password_policy, 'never');
    assert.equal((await attackProtection.captcha.get()).active_provider_id, 'auth_challenge');
    assert.deepEqual(await attackProtection.phoneProviderProtection.get(), { type: 'none' });

    const captcha = await attackProtection.captcha.update({ active_provider_id: 'friendly_captcha', friendly_captcha: { site_key: 'sdk-site', secret: 'sdk-secret' } });
    assert.deepEqual(captcha.friendly_captcha, { site_key: 'sdk-site' });
    const bot = await attackProtection.botDetection.update({ challenge_password_policy: 'always', allowlist: ['203.0.113.0/24'] });
    assert.deepEqual([bot.challenge_password_policy, bot.allowlist], ['always', ['203.0.113.0/24']]);
    assert.deepEqual(await attackProtection.phoneProviderProtection.patch({ type: 'exponential' }), { type: 'exponential' });

    await assert.rejects(attackProtection.captcha.update({ active_provider_id: 'arkose' }), (error: { statusCode?: number; message?: string }) => {
      assert.equal(error.statusCode, 400);
      assert.match(String(error.message), /Arkose/);
      return true;
    });
    const reader = await inProcessSdk(t, await t.managementToken('read:attack_protection'));
    await assert.rejects(reader.attackProtection.phoneProviderProtection.patch({ type: 'default' }), (error: { statusCode?: number }) => error.statusCode === 403);
    assert.deepEqual(await attackProtection.phoneProviderProtection.get(), { type: 'exponential' });
    // The SDK's types name no backoff `default` (the document: `none`); both are taken.
    assert.deepEqual(await attackProtection.phoneProviderProtection.patch({ type: 'default' }), { type: 'default' });
  });
});

describe('phone provider protection: exponential backoff of text messages', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let clientId: string;
  const start = (phone: string) =>
    t.app.inject({ method: 'POST', url: '/passwordless/start', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify({ client_id: clientId, connection: 'sms', phone_number: phone, send: 'code' }) });

  before(async () => {
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url } });
    const GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';
    clientId = (await insertClient(t, { name: 'SMS SPA', grant_types: [GRANT], token_endpoint_auth_method: 'none', client_secret_enc: null })).client_id;
    assert.equal((await t.management('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { body: { sid: SID, auth_token: TOKEN, from: '+15550001111' } })).statusCode, 200);
    const created = await t.management('POST', '/api/v2/connections', { body: { name: 'sms', strategy: 'sms', enabled_clients: [clientId], options: { disable_signup: false } } });
    assert.equal(created.statusCode, 201, created.body);
  });
  after(async () => {
    await t.close();
    await twilio.close();
  });

  it('none (the default): messages to one number follow each other', async () => {
    assert.equal((await start('+15557000001')).statusCode, 200);
    assert.equal((await start('+15557000001')).statusCode, 200);
  });

  it('exponential: the next message to a number waits; other numbers are not held back; none lifts it', async () => {
    assert.equal((await t.management('PATCH', PHONE, { body: { type: 'exponential' } })).statusCode, 200);
    const sent = twilio.messages.length;
    assert.equal((await start('+15557000002')).statusCode, 200);
    const held = await start('+15557000002');
    assert.equal(held.statusCode, 429, held.body);
    assert.equal((held.json() as { error: string }).error, 'too_many_requests');
    assert.match((held.json() as { error_description: string }).error_description, /Too many text messages to this phone number; retry in (1[0-5]|[1-9]) seconds\./);
    assert.equal(twilio.messages.length, sent + 1, 'the held message was not sent');
    assert.equal((await start('+15557000003')).statusCode, 200);
    assert.equal((await t.management('PATCH', PHONE, { body: { type: 'none' } })).statusCode, 200);
    assert.equal((await start('+15557000002')).statusCode, 200);
  });

  it('exponential applies to MFA texts too: an enrolment text to a number that must wait is refused with 429, nothing texted', async () => {
    const REALM = 'Username-Password-Authentication';
    const PASSWORD = 'correct horse battery staple';
    const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
    const REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
    const app = await insertClient(t, { grant_types: [REALM_GRANT, MFA_OOB] });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } })).statusCode, 201);
    for (const email of ['mfa1@example.com', 'mfa2@example.com']) assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } })).statusCode, 201);
    assert.equal((await t.management('PUT', '/api/v2/guardian/factors/sms', { body: { enabled: true } })).statusCode, 200);
    assert.equal((await t.management('PUT', '/api/v2/guardian/policies', { body: ['all-applications'] })).statusCode, 200);
    assert.equal((await t.management('PATCH', PHONE, { body: { type: 'exponential' } })).statusCode, 200);
    const associate = async (email: string) => {
      const login = await tokenRequest(t.app, { grant_type: REALM_GRANT, client_id: app.client_id, client_secret: app.client_secret, username: email, password: PASSWORD, realm: REALM });
      assert.equal(login.statusCode, 403, login.body);
      const token = (login.json() as { mfa_token: string }).mfa_token;
      return t.app.inject({
        method: 'POST',
        url: '/mfa/associate',
        headers: { host: DOMAIN, 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: JSON.stringify({ authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15557000010' }),
      });
    };
    assert.equal((await associate('mfa1@example.com')).statusCode, 200);
    const sent = twilio.messages.length;
    const held = await associate('mfa2@example.com');
    assert.equal(held.statusCode, 429, held.body);
    assert.equal((held.json() as { error: string }).error, 'too_many_requests');
    assert.equal(twilio.messages.length, sent);
  });
});

describe('phone provider protection with REDIS_URL: the wait holds in every process', async () => {
  const skip = (await redisAvailable()) ? false : `Redis is not reachable at ${REDIS_URL}`;
  it('a number texted by one process waits in another', { skip }, async () => {
    const twilio = await startTwilioStandIn({ [SID]: TOKEN });
    const t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url, REDIS_URL } });
    const other = await createContext(t.config, createLogger(t.config));
    const otherApp = await buildApp(other);
    try {
      await otherApp.ready();
      for (const ctx of [t.ctx, other]) if (ctx.redis && ctx.redis.status !== 'ready') await once(ctx.redis, 'ready');
      const GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';
      const clientId = (await insertClient(t, { name: 'SMS SPA', grant_types: [GRANT], token_endpoint_auth_method: 'none', client_secret_enc: null })).client_id;
      assert.equal((await t.management('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { body: { sid: SID, auth_token: TOKEN, from: '+15550001111' } })).statusCode, 200);
      assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: 'sms', strategy: 'sms', enabled_clients: [clientId] } })).statusCode, 201);
      assert.equal((await t.management('PATCH', PHONE, { body: { type: 'exponential' } })).statusCode, 200);
      // A number of its own: Redis outlives the test's tenant.
      const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      const start = (app: typeof t.app) =>
        app.inject({ method: 'POST', url: '/passwordless/start', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify({ client_id: clientId, connection: 'sms', phone_number: phone, send: 'code' }) });
      assert.equal((await start(t.app)).statusCode, 200);
      const held = await start(otherApp);
      assert.equal(held.statusCode, 429, held.body);
      assert.equal(twilio.messages.filter((m) => m.to === phone).length, 1);
    } finally {
      await otherApp.close();
      await other.close();
      await t.close();
      await twilio.close();
    }
  });
});
