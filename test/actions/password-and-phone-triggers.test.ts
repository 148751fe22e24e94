/**
 * post-change-password and send-phone-message wired into their flows, on the
 * real app with real sandbox processes. The actions report what they were
 * given with `fetch` to a stand-in on the loopback interface (allowed to
 * them here by GATEHOUSE_OUTBOUND_ALLOW, as an operator would).
 *
 * - post-change-password runs after a reset through a ticket's page and after
 *   a Management API password change, after the fact: its event names the
 *   user and the connection and carries no password; an action that throws
 *   changes nothing of the reset.
 * - send-phone-message, when bound, sends the MFA enrolment and challenge
 *   texts and the passwordless code instead of the Twilio provider (which is
 *   then never called); the code it was given completes the login; an action
 *   that fails is the provider's 502, and nothing is sent.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { bindActions } from '../helpers/actions.js';
import { Browser, hidden } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { startTwilioStandIn, type TwilioStandIn } from '../helpers/twilio-stand-in.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const NEW_PASSWORD = 'Another horse battery staple 2';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const PASSWORDLESS = 'http://auth0.com/oauth/grant-type/passwordless/otp';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-0123456789';

/** Where the actions report: each POST's JSON body, by path. */
class Reports {
  readonly received: { path: string; body: Record<string, unknown> }[] = [];
  private server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      this.received.push({ path: req.url ?? '', body: JSON.parse(text || '{}') as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The first report to `path` after `from`, waited for (an asynchronous trigger reports after the response). */
  async next(path: string, from: number): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const found = this.received.slice(from).find((r) => r.path === path);
      if (found) return found.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no report to ${path}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('post-change-password and send-phone-message', () => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let web: TestClient;
  let spa: TestClient;
  const reports = new Reports();
  const users: Record<string, string> = {};

  const mgmt = async (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const post = (url: string, body: unknown, token?: string) =>
    t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, payload: JSON.stringify(body) });
  const report = (path: string, what: string) => `await fetch('${reports.url}${path}', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(${what}) });`;

  before(async () => {
    await reports.start();
    twilio = await startTwilioStandIn({ [SID]: TOKEN });
    t = await createTestApp({ env: { GATEHOUSE_TWILIO_URL: twilio.url, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES } });
    web = await insertClient(t, { grant_types: ['http://auth0.com/oauth/grant-type/password-realm', MFA_OOB] });
    spa = await insertClient(t, { name: 'SMS SPA', grant_types: [PASSWORDLESS], token_endpoint_auth_method: 'none', client_secret_enc: null });
    assert.equal((await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [web.client_id] })).statusCode, 201);
    assert.equal((await mgmt('POST', '/api/v2/connections', { name: 'sms', strategy: 'sms', enabled_clients: [spa.client_id], options: { template: 'Your code: @@password@@', from: '+15550002222' } })).statusCode, 201);
    for (const name of ['pat', 'quinn', 'robin', 'sam']) {
      const user = await mgmt('POST', '/api/v2/users', { connection: REALM, email: `${name}@example.com`, password: PASSWORD });
      assert.equal(user.statusCode, 201, user.body);
      users[name] = (user.json() as { user_id: string }).user_id;
    }
    assert.equal((await mgmt('PUT', '/api/v2/guardian/factors/sms/providers/twilio', { sid: SID, auth_token: TOKEN, from: '+15550001111' })).statusCode, 200);
    await mgmt('PUT', '/api/v2/guardian/factors/sms/templates', { enrollment_message: 'Enrol with {{code}}', verification_message: 'Log in with {{code}}' });
  });
  after(async () => {
    await t.close();
    await twilio.close();
    await reports.close();
  });

  describe('post-change-password', () => {
    before(async () => {
      await bindActions(t, 'post-change-password', [
        { name: 'tell', code: `exports.onExecutePostChangePassword = async (event, api) => { ${report('/password-changed', '{ user: event.user, connection: event.connection, request: event.request, keys: Object.keys(event) }')} };` },
        { name: 'throws', code: "exports.onExecutePostChangePassword = async () => { throw new Error('the downstream system is down'); };" },
      ]);
    });

    it('runs after a reset through a ticket: the user and the connection, no password; a failing action changes nothing', async () => {
      const from = reports.received.length;
      const ticket = await mgmt('POST', '/api/v2/tickets/password-change', { user_id: users.pat });
      assert.equal(ticket.statusCode, 201, ticket.body);
      const url = new URL((ticket.json() as { ticket: string }).ticket);
      const browser = new Browser(t);
      const form = await browser.get(url.pathname + url.search);
      assert.equal(form.statusCode, 200, form.body);
      const done = await browser.post('/reset-password', { ticket: hidden(form.body, 'ticket'), csrf_token: hidden(form.body, 'csrf_token'), password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
      assert.equal(done.statusCode, 200, done.body);
      const event = await reports.next('/password-changed', from);
      const user = event.user as Record<string, unknown>;
      assert.equal(user.user_id, users.pat);
      assert.equal(user.email, 'pat@example.com');
      assert.ok(typeof user.last_password_reset === 'string');
      assert.deepEqual(event.connection, { id: (event.connection as { id: string }).id, name: REALM, strategy: 'auth0' });
      assert.equal((event.request as { hostname: string }).hostname, DOMAIN);
      assert.ok(!JSON.stringify(event).includes(NEW_PASSWORD), 'no password in the event');
      assert.ok(!JSON.stringify(event).includes('password_hash'));
      // The new password works although the second action failed.
      const login = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: web.client_id, client_secret: web.client_secret, username: 'pat@example.com', password: NEW_PASSWORD, realm: REALM });
      assert.equal(login.statusCode, 200, login.body);
    });

    it('runs after a Management API password change, not after another change', async () => {
      const from = reports.received.length;
      const other = await mgmt('PATCH', `/api/v2/users/${encodeURIComponent(users.quinn!)}`, { given_name: 'Quinn' });
      assert.equal(other.statusCode, 200, other.body);
      const changed = await mgmt('PATCH', `/api/v2/users/${encodeURIComponent(users.quinn!)}`, { password: NEW_PASSWORD });
      assert.equal(changed.statusCode, 200, changed.body);
      const event = await reports.next('/password-changed', from);
      assert.equal((event.user as { user_id: string }).user_id, users.quinn);
      assert.equal(reports.received.slice(from).filter((r) => r.path === '/password-changed').length, 1, 'once: the given_name change ran nothing');
    });
  });

  describe('send-phone-message', () => {
    const sender = () => ({
      name: 'texts',
      code: `exports.onExecuteSendPhoneMessage = async (event, api) => {
        if (event.message_options.recipient === '+15550009999') throw new Error('the SMS gateway refused');
        ${report('/sms', '{ options: event.message_options, user: event.user }')}
      };`,
    });

    before(async () => {
      await bindActions(t, 'send-phone-message', [sender()]);
      await mgmt('PUT', '/api/v2/guardian/factors/sms', { enabled: true });
      await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    });

    async function mfaToken(email: string, password = PASSWORD): Promise<string> {
      const res = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: web.client_id, client_secret: web.client_secret, username: email, password, realm: REALM });
      assert.equal(res.statusCode, 403, res.body);
      return (res.json() as { mfa_token: string }).mfa_token;
    }

    it('MFA enrolment and challenge texts go to the action, not to Twilio; the codes it got complete the logins', async () => {
      const sent = twilio.messages.length;
      let from = reports.received.length;
      const token = await mfaToken('robin@example.com');
      const associated = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15557654321' }, token);
      assert.equal(associated.statusCode, 200, associated.body);
      const enrol = (await reports.next('/sms', from)) as { options: Record<string, string>; user: { user_id: string } };
      assert.equal(enrol.options.recipient, '+15557654321');
      assert.equal(enrol.options.action, 'enrollment');
      assert.equal(enrol.options.message_type, 'sms');
      assert.equal(enrol.options.text, `Enrol with ${enrol.options.code}`);
      assert.equal(enrol.user.user_id, users.robin);
      const grant = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: web.client_id, client_secret: web.client_secret, mfa_token: token, oob_code: (associated.json() as { oob_code: string }).oob_code, binding_code: enrol.options.code! });
      assert.equal(grant.statusCode, 200, grant.body);

      from = reports.received.length;
      const next = await mfaToken('robin@example.com');
      const challenge = await post('/mfa/challenge', { client_id: web.client_id, client_secret: web.client_secret, mfa_token: next, challenge_type: 'oob', oob_channel: 'sms' });
      assert.equal(challenge.statusCode, 200, challenge.body);
      const verify = (await reports.next('/sms', from)) as { options: Record<string, string> };
      assert.equal(verify.options.action, 'second-factor-authentication');
      const login = await tokenRequest(t.app, { grant_type: MFA_OOB, client_id: web.client_id, client_secret: web.client_secret, mfa_token: next, oob_code: (challenge.json() as { oob_code: string }).oob_code, binding_code: verify.options.code! });
      assert.equal(login.statusCode, 200, login.body);
      assert.equal(twilio.messages.length, sent, 'the provider sent nothing');
    });

    it('an action that fails is a 502, as a refusing provider; nothing is sent', async () => {
      const sent = twilio.messages.length;
      const token = await mfaToken('sam@example.com');
      const refused = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15550009999' }, token);
      assert.equal(refused.statusCode, 502, refused.body);
      assert.deepEqual(refused.json(), { error: 'server_error', error_description: 'The text message could not be sent.' });
      assert.equal(twilio.messages.length, sent);
    });

    it('the passwordless code goes to the action; it logs the user in', async () => {
      // MFA for every application would ask this login for a second factor too.
      await mgmt('PUT', '/api/v2/guardian/policies', []);
      const sent = twilio.messages.length;
      const from = reports.received.length;
      const start = await t.app.inject({ method: 'POST', url: '/passwordless/start', headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify({ client_id: spa.client_id, connection: 'sms', phone_number: '+15557650001', send: 'code' }) });
      assert.equal(start.statusCode, 200, start.body);
      const text = (await reports.next('/sms', from)) as { options: Record<string, string> };
      assert.equal(text.options.action, 'passwordless');
      assert.equal(text.options.text, `Your code: ${text.options.code}`);
      const login = await tokenRequest(t.app, { grant_type: PASSWORDLESS, client_id: spa.client_id, realm: 'sms', username: '+15557650001', otp: text.options.code!, scope: 'openid' });
      assert.equal(login.statusCode, 200, login.body);
      assert.equal(twilio.messages.length, sent, 'the provider sent nothing');
      await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    });

    it('a tenant that selected twilio is sent through Twilio though an action is bound', async () => {
      await mgmt('PUT', '/api/v2/guardian/factors/phone/selected-provider', { provider: 'twilio' });
      try {
        const sent = twilio.messages.length;
        const from = reports.received.length;
        const token = await mfaToken('sam@example.com');
        const res = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15557650003' }, token);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(twilio.messages.length, sent + 1);
        assert.equal(reports.received.slice(from).filter((r) => r.path === '/sms').length, 0, 'the action was not run');
      } finally {
        await mgmt('PUT', '/api/v2/guardian/factors/phone/selected-provider', { provider: 'auth0' });
      }
    });

    it('unbound, the provider sends again; unless the tenant chose the action (phone-message-hook): then the text is refused', async () => {
      await bindActions(t, 'send-phone-message', []);
      await mgmt('PUT', '/api/v2/guardian/factors/phone/selected-provider', { provider: 'phone-message-hook' });
      try {
        const sent = twilio.messages.length;
        const refused = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15557650004' }, await mfaToken('sam@example.com'));
        assert.equal(refused.statusCode, 400, refused.body);
        assert.match(refused.body, /none is bound/);
        assert.equal(twilio.messages.length, sent, 'not sent through Twilio behind the tenant\'s back');
      } finally {
        await mgmt('PUT', '/api/v2/guardian/factors/phone/selected-provider', { provider: 'auth0' });
      }
      const sent = twilio.messages.length;
      const token = await mfaToken('sam@example.com');
      const res = await post('/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['sms'], phone_number: '+15557650002' }, token);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(twilio.messages.length, sent + 1);
      assert.match(twilio.messages.at(-1)!.body, /^Enrol with \d{6}$/);
    });
  });
});
