/**
 * /api/v2/branding/phone/templates through the real app and database, as
 * auth0-deploy-cli uses it (every type listed, those not yet created without
 * an id; a create of a type that exists is a 409 it falls back from), and
 * what a template changes: the SMS of MFA enrolment sent through a Twilio
 * stand-in carries the template's text and sender; a disabled or deleted
 * template gives the Guardian factor's message back. Refusals: an unknown
 * type, an empty text, a sender too long, an unknown id, a missing scope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-0123456789';
const PATH = '/api/v2/branding/phone/templates';

interface Template {
  id?: string;
  type: string;
  disabled: boolean;
  content: { from?: string; body: { text?: string; voice?: string } };
}

describe('/api/v2/branding/phone/templates', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let app: TestClient;

  const mgmt = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token && { token }) });
  function refused(res: LightMyRequestResponse, status: number, message: RegExp): void {
    assert.equal(res.statusCode, status, res.body);
    assert.match((res.json() as { message: string }).message, message);
  }
  async function enrolmentSms(email: string, phone: string): Promise<{ body: string; from?: string }> {
    const login = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: app.client_id, client_secret: app.client_secret, username: email, password: PASSWORD, realm: REALM });
    assert.equal(login.statusCode, 403, login.body);
    const { mfa_token } = login.json() as { mfa_token: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/mfa/associate',
      headers: { host: DOMAIN, 'content-type': 'application/json', authorization: `Bearer ${mfa_token}` },
      payload: JSON.stringify({ authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: phone }),
    });
    assert.equal(res.statusCode, 200, res.body);
    const sms = twilio.messages.at(-1)!;
    assert.equal(sms.to, phone);
    return { body: sms.body, ...(sms.from && { from: sms.from }) };
  }

  before(async () => {
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url } });
    app = await insertClient(t, { grant_types: ['http://auth0.com/oauth/grant-type/password-realm', MFA_OOB] });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    for (const email of ['p1@example.com', 'p2@example.com', 'p3@example.com']) await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD });
    await mgmt('PUT', '/api/v2/guardian/factors/sms', { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' });
  });
  after(async () => {
    await t.close();
    await twilio.close();
  });

  it('lists every type, those not created without an id; creates one (201, then 409 for the same type), reads, patches, resets and deletes it', async () => {
    const listed = (await mgmt('GET', PATH)).json() as { templates: Template[] };
    assert.deepEqual(listed.templates.map((tpl) => tpl.type), ['otp_verify', 'otp_enroll', 'change_password', 'blocked_account', 'password_breach']);
    assert.ok(listed.templates.every((tpl) => tpl.id === undefined && tpl.disabled === false && tpl.content.body.text));

    const created = await mgmt('POST', PATH, { type: 'otp_enroll', content: { from: '+15550002222', body: { text: 'Bienvenue : {{ code }} pour {{ friendly_name }}' } } });
    assert.equal(created.statusCode, 201, created.body);
    const template = created.json() as Template;
    assert.match(template.id!, /^tem_[A-Za-z0-9]{1,22}$/);
    assert.equal(template.content.body.text, 'Bienvenue : {{ code }} pour {{ friendly_name }}');
    assert.ok(template.content.body.voice, 'the default voice text is kept');
    refused(await mgmt('POST', PATH, { type: 'otp_enroll', content: { body: { text: 'again' } } }), 409, /^Phone template already configured for tenant$/);
    assert.deepEqual((await mgmt('GET', `${PATH}/${template.id}`)).json(), template);
    assert.equal(((await mgmt('GET', PATH)).json() as { templates: Template[] }).templates.find((tpl) => tpl.type === 'otp_enroll')!.id, template.id);

    const patched = await mgmt('PATCH', `${PATH}/${template.id}`, { content: { body: { voice: 'Votre code est {{ code }}' } } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal((patched.json() as Template).content.body.text, template.content.body.text, 'members not given are kept');
    assert.equal((patched.json() as Template).content.body.voice, 'Votre code est {{ code }}');

    const extra = (await mgmt('POST', PATH, { type: 'change_password' })).json() as Template;
    const reset = await mgmt('PATCH', `${PATH}/${extra.id}/reset`);
    assert.equal(reset.statusCode, 200, reset.body);
    assert.equal((reset.json() as Template).id, extra.id);
    assert.equal(((await mgmt('DELETE', `${PATH}/${extra.id}`))).statusCode, 204);
    refused(await mgmt('GET', `${PATH}/${extra.id}`), 404, /^Phone template does not exist$/);
    assert.equal(((await mgmt('GET', PATH)).json() as { templates: Template[] }).templates.find((tpl) => tpl.type === 'change_password')!.id, undefined);
  });

  it('refuses an unknown type, an empty text, a long sender, an unknown id and a missing scope; nothing changes', async () => {
    const before = (await mgmt('GET', PATH)).body;
    refused(await mgmt('POST', PATH, { type: 'welcome' }), 400, /type/);
    refused(await mgmt('POST', PATH, { type: 'blocked_account', content: { body: { text: '' } } }), 400, /text|fewer|1 character/);
    refused(await mgmt('POST', PATH, { type: 'blocked_account', content: { from: '+1555000111122223333' } }), 400, /from|16/);
    refused(await mgmt('PATCH', `${PATH}/tem_nope`, { disabled: true }), 404, /does not exist/);
    refused(await mgmt('PATCH', `${PATH}/tem_nope/reset`), 404, /does not exist/);
    const readOnly = await t.managementToken('read:phone_templates');
    refused(await mgmt('POST', PATH, { type: 'blocked_account' }, readOnly), 403, /create:phone_templates/);
    refused(await mgmt('GET', PATH, undefined, await t.managementToken('create:phone_templates')), 403, /read:phone_templates/);
    assert.equal((await mgmt('GET', PATH)).body, before);
  });

  it('the SMS of MFA enrolment carries the template’s text and sender; disabled or deleted, the Guardian message is sent again', async () => {
    const template = ((await mgmt('GET', PATH)).json() as { templates: Template[] }).templates.find((tpl) => tpl.type === 'otp_enroll')!;
    const custom = await enrolmentSms('p1@example.com', '+15557650001');
    assert.match(custom.body, new RegExp(`^Bienvenue : \\d{6} pour ${t.tenant.name}$`));
    assert.equal(custom.from, '+15550002222');

    assert.equal((await mgmt('PATCH', `${PATH}/${template.id}`, { disabled: true })).statusCode, 200);
    const guardian = await enrolmentSms('p2@example.com', '+15557650002');
    assert.match(guardian.body, /^\d{6} is your verification code for .+\. Please enter this code to verify your enrollment\.$/);
    assert.equal(guardian.from, '+15550001111');

    assert.equal((await mgmt('DELETE', `${PATH}/${template.id}`)).statusCode, 204);
    assert.match((await enrolmentSms('p3@example.com', '+15557650003')).body, /is your verification code for/);
  });
});
