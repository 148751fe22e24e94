/**
 * /api/v2/branding/phone/providers and the phone templates' `try`, through
 * the real app and database and a Twilio stand-in speaking Twilio's REST
 * protocol (GATEHOUSE_TWILIO_URL), with the `auth0` SDK's calls as
 * auth0-deploy-cli makes them: one provider per tenant, its auth token
 * write-only (sealed at rest, never answered); texts go through it, through
 * the Guardian SMS factor's account when it is disabled or deleted; `try`
 * sends a test text through it. The done-when line: an MFA code asked from
 * the hosted page under `ui_locales=fr` is texted in the template's French.
 * Refusals: a twilio provider without account, sender or token, a custom
 * one with credentials, a second provider, an unknown id, a missing scope,
 * voice, a custom provider's `try` (its Action is not run here), Twilio
 * refusing the token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const CALLBACK = 'https://app.example.com/callback';
const GUARDIAN_SID = 'AC0123456789abcdef0123456789abcdef';
const GUARDIAN_TOKEN = 'guardian-auth-token-0123456789';
const PROVIDER_SID = 'ACfedcba9876543210fedcba9876543210';
const PROVIDER_TOKEN = 'provider-auth-token-9876543210';
const PATH = '/api/v2/branding/phone/providers';

interface Provider {
  id: string;
  name: string;
  disabled: boolean;
  configuration: Record<string, unknown>;
}

describe('/api/v2/branding/phone/providers', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let app: TestClient;
  let sdk: ManagementClient;

  const mgmt = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token && { token }) });
  function refused(res: LightMyRequestResponse, status: number, message: RegExp): void {
    assert.equal(res.statusCode, status, res.body);
    assert.match((res.json() as { message: string }).message, message);
  }
  /** An MFA challenge by SMS through /mfa/challenge (the user enrolled first): the text sent. */
  async function enrolAndChallenge(email: string, phone: string): Promise<{ accountSid: string; body: string; from?: string }> {
    const mfaToken = async () => {
      const res = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: app.client_id, client_secret: app.client_secret, username: email, password: PASSWORD, realm: REALM });
      assert.equal(res.statusCode, 403, res.body);
      return (res.json() as { mfa_token: string }).mfa_token;
    };
    const token = await mfaToken();
    const associate = await t.app.inject({
      method: 'POST',
      url: '/mfa/associate',
      headers: { host: DOMAIN, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: phone }),
    });
    assert.equal(associate.statusCode, 200, associate.body);
    const sms = twilio.messages.at(-1)!;
    const grant = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: app.client_id, client_secret: app.client_secret, mfa_token: token, oob_code: (associate.json() as { oob_code: string }).oob_code, binding_code: /(\d{6})/.exec(sms.body)![1]! });
    assert.equal(grant.statusCode, 200, grant.body);
    return sms;
  }

  before(async () => {
    twilio = await startTwilioStandIn({ [GUARDIAN_SID]: GUARDIAN_TOKEN, [PROVIDER_SID]: PROVIDER_TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url } });
    app = await insertClient(t, { grant_types: ['http://auth0.com/oauth/grant-type/password-realm', MFA_OOB, 'authorization_code'], config: { callbacks: [CALLBACK] } });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'fr@example.com']) await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD });
    await mgmt('PUT', '/api/v2/guardian/factors/sms', { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: GUARDIAN_SID, auth_token: GUARDIAN_TOKEN, from: '+15550001111' });
    sdk = await inProcessSdk(t);
  });
  after(async () => {
    await t.close();
    await twilio.close();
  });

  it('lists none; creates the one provider (201, 409 for a second), reads, patches and deletes it; the auth token is sealed and never answered', async () => {
    assert.deepEqual((await mgmt('GET', PATH)).json(), { providers: [] });
    const created = await mgmt('POST', PATH, { name: 'twilio', configuration: { sid: PROVIDER_SID, default_from: '+15550009999', delivery_methods: ['text'] }, credentials: { auth_token: PROVIDER_TOKEN } });
    assert.equal(created.statusCode, 201, created.body);
    const provider = created.json() as Provider;
    assert.match(provider.id, /^pro_[A-Za-z0-9]{1,22}$/);
    assert.deepEqual({ ...provider, id: '', created_at: '', updated_at: '' }, {
      id: '', tenant: t.tenant.name, name: 'twilio', channel: 'phone', disabled: false,
      configuration: { sid: PROVIDER_SID, default_from: '+15550009999', delivery_methods: ['text'] }, created_at: '', updated_at: '',
    });
    assert.ok(!created.body.includes(PROVIDER_TOKEN));
    const row = await t.ctx.database.db.selectFrom('ui_settings').selectAll().where('tenant_id', '=', t.tenant.id).where('kind', '=', 'phone_provider').executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(PROVIDER_TOKEN), 'only the sealed token is stored');
    refused(await mgmt('POST', PATH, { name: 'custom', configuration: { delivery_methods: ['text'] }, credentials: {} }), 409, /already configured/);

    // auth0-deploy-cli's calls.
    const listed = await sdk.branding.phone.providers.list();
    assert.deepEqual(listed.providers?.map((p) => p.id), [provider.id]);
    assert.equal((await sdk.branding.phone.providers.get(provider.id)).name, 'twilio');
    const patched = await sdk.branding.phone.providers.update(provider.id, { disabled: true });
    assert.equal(patched.disabled, true);
    assert.deepEqual(patched.configuration, provider.configuration, 'the configuration is kept');
    assert.deepEqual((await mgmt('GET', `${PATH}?disabled=false`)).json(), { providers: [] });
    await sdk.branding.phone.providers.update(provider.id, { disabled: false });

    // Changing to custom drops Twilio's account; back to twilio needs the token again.
    const custom = await mgmt('PATCH', `${PATH}/${provider.id}`, { name: 'custom', configuration: { delivery_methods: ['text'] } });
    assert.equal(custom.statusCode, 200, custom.body);
    assert.deepEqual((custom.json() as Provider).configuration, { delivery_methods: ['text'] });
    refused(await mgmt('PATCH', `${PATH}/${provider.id}`, { name: 'twilio', configuration: { sid: PROVIDER_SID, default_from: '+15550009999', delivery_methods: ['text'] } }), 400, /credentials\.auth_token/);
    assert.equal((await mgmt('DELETE', `${PATH}/${provider.id}`)).statusCode, 204);
    refused(await mgmt('GET', `${PATH}/${provider.id}`), 404, /^Phone provider has not been configured\.$/);
    refused(await mgmt('DELETE', `${PATH}/${provider.id}`), 404, /has not been configured/);
  });

  it('refuses a twilio provider without account, sender or token, a custom one with credentials, an unknown name and a missing scope; nothing is created', async () => {
    const config = { sid: PROVIDER_SID, default_from: '+15550009999', delivery_methods: ['text'] };
    refused(await mgmt('POST', PATH, { name: 'twilio', configuration: { delivery_methods: ['text'] }, credentials: { auth_token: 'x' } }), 400, /configuration\.sid/);
    refused(await mgmt('POST', PATH, { name: 'twilio', configuration: { sid: PROVIDER_SID, delivery_methods: ['text'] }, credentials: { auth_token: 'x' } }), 400, /default_from or configuration\.mssid/);
    refused(await mgmt('POST', PATH, { name: 'twilio', configuration: config, credentials: {} }), 400, /credentials\.auth_token/);
    refused(await mgmt('POST', PATH, { name: 'twilio', configuration: config }), 400, /credentials/);
    refused(await mgmt('POST', PATH, { name: 'custom', configuration: { delivery_methods: ['text'] }, credentials: { auth_token: 'x' } }), 400, /custom provider has no credentials/);
    refused(await mgmt('POST', PATH, { name: 'sns', credentials: {} }), 400, /name/);
    refused(await mgmt('POST', PATH, { name: 'twilio', configuration: { ...config, delivery_methods: [] }, credentials: { auth_token: 'x' } }), 400, /delivery_methods/);
    refused(await mgmt('POST', PATH, { name: 'custom', credentials: {} }, await t.managementToken('read:phone_providers')), 403, /create:phone_providers/);
    refused(await mgmt('GET', PATH, undefined, await t.managementToken('create:phone_providers')), 403, /read:phone_providers/);
    assert.deepEqual((await mgmt('GET', PATH)).json(), { providers: [] });
  });

  it('texts go through the provider; disabled or deleted, through the Guardian factor\'s account; try sends a test text, refused for voice, custom and a wrong token', async () => {
    const before = await enrolAndChallenge('a@example.com', '+15557650001');
    assert.equal(before.accountSid, GUARDIAN_SID);

    const provider = (await mgmt('POST', PATH, { name: 'twilio', configuration: { sid: PROVIDER_SID, default_from: '+15550009999', delivery_methods: ['text', 'voice'] }, credentials: { auth_token: PROVIDER_TOKEN } })).json() as Provider;
    const through = await enrolAndChallenge('b@example.com', '+15557650002');
    assert.deepEqual([through.accountSid, through.from], [PROVIDER_SID, '+15550009999']);

    const tried = await mgmt('POST', `${PATH}/${provider.id}/try`, { to: '+15557650099' });
    assert.equal(tried.statusCode, 202, tried.body);
    assert.deepEqual(tried.json(), { code: 202, message: 'Phone notification sent.' });
    assert.deepEqual({ ...twilio.messages.at(-1)!, body: '' }, { accountSid: PROVIDER_SID, to: '+15557650099', from: '+15550009999', body: '' });
    assert.match(twilio.messages.at(-1)!.body, /test message/);
    refused(await mgmt('POST', `${PATH}/${provider.id}/try`, { to: '+15557650099', delivery_method: 'voice' }), 400, /Voice delivery is not available/);
    refused(await mgmt('POST', `${PATH}/${provider.id}/try`, { to: 'not a number' }), 400, /to/);
    refused(await mgmt('POST', `${PATH}/pro_nope/try`, { to: '+15557650099' }), 404, /has not been configured/);

    // A phone template's try: its text with a sample code, through the provider.
    const template = (await mgmt('POST', '/api/v2/branding/phone/templates', { type: 'otp_verify', content: { body: { text: 'Try {{ code }} for {{ friendly_name }}' } } })).json() as { id: string };
    const triedTemplate = await mgmt('POST', `/api/v2/branding/phone/templates/${template.id}/try`, { to: '+15557650098' });
    assert.equal(triedTemplate.statusCode, 202, triedTemplate.body);
    assert.deepEqual(twilio.messages.at(-1), { accountSid: PROVIDER_SID, to: '+15557650098', from: '+15550009999', body: `Try 000000 for ${t.tenant.name}` });
    refused(await mgmt('POST', '/api/v2/branding/phone/templates/tem_nope/try', { to: '+15557650098' }), 404, /Phone template does not exist/);
    await mgmt('DELETE', `/api/v2/branding/phone/templates/${template.id}`);

    // Twilio refusing the token: 400 naming Twilio's answer, the token not in it.
    await mgmt('PATCH', `${PATH}/${provider.id}`, { credentials: { auth_token: 'wrong-token' } });
    const wrong = await mgmt('POST', `${PATH}/${provider.id}/try`, { to: '+15557650099' });
    refused(wrong, 400, /status 401, code 20003/);
    assert.ok(!wrong.body.includes('wrong-token'));
    await mgmt('PATCH', `${PATH}/${provider.id}`, { credentials: { auth_token: PROVIDER_TOKEN } });

    // Disabled: the Guardian account again; its try still goes through the provider.
    await mgmt('PATCH', `${PATH}/${provider.id}`, { disabled: true });
    assert.equal((await enrolAndChallenge('c@example.com', '+15557650003')).accountSid, GUARDIAN_SID);
    assert.equal((await mgmt('POST', `${PATH}/${provider.id}/try`, { to: '+15557650099' })).statusCode, 202);
    assert.equal(twilio.messages.at(-1)!.accountSid, PROVIDER_SID);

    // A custom provider: its texts go to the send-phone-message action; with none bound they are refused, never sent through Twilio.
    await mgmt('PATCH', `${PATH}/${provider.id}`, { name: 'custom', disabled: false, configuration: { delivery_methods: ['text'] } });
    refused(await mgmt('POST', `${PATH}/${provider.id}/try`, { to: '+15557650099' }), 409, /send-phone-message Action/);
    const token = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: app.client_id, client_secret: app.client_secret, username: 'c@example.com', password: PASSWORD, realm: REALM });
    const challenge = await t.app.inject({
      method: 'POST',
      url: '/mfa/challenge',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_id: app.client_id, client_secret: app.client_secret, mfa_token: (token.json() as { mfa_token: string }).mfa_token, challenge_type: 'oob', oob_channel: 'sms' }),
    });
    assert.equal(challenge.statusCode, 400, challenge.body);
    assert.match((challenge.json() as { error_description: string }).error_description, /send-phone-message action, and none is bound/);
    assert.equal((await mgmt('DELETE', `${PATH}/${provider.id}`)).statusCode, 204);
  });

  it('an MFA code asked from the hosted page under ui_locales=fr is texted in the template\'s French, through the Twilio stand-in', async () => {
    await mgmt('POST', PATH, { name: 'twilio', configuration: { sid: PROVIDER_SID, default_from: '+15550009999', delivery_methods: ['text'] }, credentials: { auth_token: PROVIDER_TOKEN } });
    const text = '{% if locale == "fr" %}Votre code de connexion à {{ friendly_name }} : {{ code }}{% else %}Your {{ friendly_name }} login code: {{ code }}{% endif %}';
    const created = await mgmt('POST', '/api/v2/branding/phone/templates', { type: 'otp_verify', content: { from: '+33612345678', body: { text } } });
    assert.equal(created.statusCode, 201, created.body);
    await enrolAndChallenge('fr@example.com', '+33700000001');

    const challengePage = async (params: Record<string, string>) => {
      const browser = new Browser(t);
      const done = await browser.login(authorizeUrl(app.client_id, CALLBACK, params), 'fr@example.com', PASSWORD);
      const page = await browser.get(done.headers.location as string);
      assert.equal(page.statusCode, 200, page.body);
      const sent = await browser.post('/mfa/send', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), method: 'sms' });
      assert.equal(sent.statusCode, 200, sent.body);
      return { page, sms: twilio.messages.at(-1)! };
    };
    const french = await challengePage({ ui_locales: 'fr' });
    assert.match(french.page.body, /<html lang="fr">/);
    assert.equal(french.sms.to, '+33700000001');
    assert.equal(french.sms.from, '+33612345678');
    assert.equal(french.sms.accountSid, PROVIDER_SID);
    assert.match(french.sms.body, new RegExp(`^Votre code de connexion à ${t.tenant.name} : \\d{6}$`));
    const english = await challengePage({ ui_locales: 'en' });
    assert.match(english.sms.body, new RegExp(`^Your ${t.tenant.name} login code: \\d{6}$`));
  });
});
