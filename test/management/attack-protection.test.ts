/**
 * /api/v2/attack-protection/* through the real app and database: the
 * service's defaults and shapes, PATCH laying members over them, refusals
 * (bad allowlist entries, bounds, unknown members, scopes), and the
 * brute-force settings honoured by the password grant and the hosted login
 * page: max_attempts, mode,
 * allowlist (IPs and CIDR blocks), enabled, and the shields (block, and
 * user_notification mailing the blocked_account template to the user).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser, hidden, pkce } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const BRUTE_FORCE = '/api/v2/attack-protection/brute-force-protection';

describe('/api/v2/attack-protection', () => {
  let t: TestApp;
  let client: TestClient;
  let connectionId: string;
  const api = (method: string, url: string, body?: unknown) => t.management(method, url, { ...(body !== undefined && { body }) });

  async function user(email: string): Promise<void> {
    const res = await api('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD });
    assert.equal(res.statusCode, 201, res.body);
  }

  const login = (email: string, ip: string, password = PASSWORD) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { grant_type: 'password', client_id: client.client_id, client_secret: client.client_secret, username: email, password },
      remoteAddress: ip,
    });

  async function fail(email: string, ip: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) assert.equal((await login(email, ip, `wrong-${i}`)).statusCode, 403);
  }

  async function settings(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await api('PATCH', BRUTE_FORCE, body);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, unknown>;
  }

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { grant_types: ['password'] });
    const res = await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
    assert.equal(res.statusCode, 201, res.body);
    connectionId = (res.json() as { id: string }).id;
    await t.ctx.tenants.updateSettings(t.tenant, { ...t.tenant.settings, default_directory: REALM });
  });
  after(() => t.close());

  it('answers the service\'s defaults for settings never set', async () => {
    assert.deepEqual((await api('GET', BRUTE_FORCE)).json(), {
      enabled: true,
      shields: ['block', 'user_notification'],
      allowlist: [],
      mode: 'count_per_identifier_and_ip',
      max_attempts: 10,
    });
    assert.deepEqual((await api('GET', '/api/v2/attack-protection/suspicious-ip-throttling')).json(), {
      enabled: true,
      shields: ['admin_notification', 'block'],
      allowlist: [],
      stage: { 'pre-login': { max_attempts: 100, rate: 864000 }, 'pre-user-registration': { max_attempts: 50, rate: 1728000 } },
    });
    assert.deepEqual((await api('GET', '/api/v2/attack-protection/breached-password-detection')).json(), {
      enabled: false,
      shields: [],
      admin_notification_frequency: [],
      method: 'standard',
      stage: { 'pre-user-registration': { shields: [] }, 'pre-change-password': { shields: [] } },
    });
  });

  it('stores suspicious IP throttling and breached password detection, stages member by member', async () => {
    const ip = await api('PATCH', '/api/v2/attack-protection/suspicious-ip-throttling', { allowlist: ['192.0.2.0/24'], stage: { 'pre-login': { max_attempts: 50 } } });
    assert.equal(ip.statusCode, 200, ip.body);
    const stored = (await api('GET', '/api/v2/attack-protection/suspicious-ip-throttling')).json() as { allowlist: string[]; stage: Record<string, unknown> };
    assert.deepEqual(stored.allowlist, ['192.0.2.0/24']);
    assert.deepEqual(stored.stage, { 'pre-login': { max_attempts: 50, rate: 864000 }, 'pre-user-registration': { max_attempts: 50, rate: 1728000 } });
    const breached = await api('PATCH', '/api/v2/attack-protection/breached-password-detection', { enabled: true, shields: ['admin_notification'], stage: { 'pre-change-password': { shields: ['block'] } } });
    assert.equal(breached.statusCode, 200, breached.body);
    assert.deepEqual((breached.json() as { stage: unknown }).stage, { 'pre-user-registration': { shields: [] }, 'pre-change-password': { shields: ['block'] } });
    assert.equal(((await api('GET', '/api/v2/attack-protection/breached-password-detection')).json() as { enabled: boolean }).enabled, true);
  });

  it('refuses a bad allowlist entry, out-of-range numbers, unknown members and shields, and tokens without the scopes; nothing changes', async () => {
    const before = (await api('GET', BRUTE_FORCE)).json();
    for (const body of [
      { allowlist: ['10.0.0.0/33'] },
      { allowlist: ['not-an-ip'] },
      { allowlist: ['10.0.0.1/8/1'] },
      { max_attempts: 0 },
      { max_attempts: 101 },
      { mode: 'count_per_ip' },
      { shields: ['admin_notification'] },
      { enabled: true, extra: 1 },
    ]) {
      const res = await api('PATCH', BRUTE_FORCE, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body');
    }
    assert.match(((await api('PATCH', BRUTE_FORCE, { allowlist: ['10.0.0.1', 'bad'] })).json() as { message: string }).message, /allowlist: bad/);
    assert.deepEqual((await api('GET', BRUTE_FORCE)).json(), before);
    const readOnly = await t.managementToken('read:attack_protection');
    assert.equal((await t.management('PATCH', BRUTE_FORCE, { token: readOnly, body: { max_attempts: 5 } })).statusCode, 403);
    const other = await t.managementToken('read:users');
    assert.equal((await t.management('GET', BRUTE_FORCE, { token: other })).statusCode, 403);
  });

  describe('honoured by the password logins', () => {
    it('max_attempts; the block shield refuses even the right password; user_notification mails the blocked_account template once', async () => {
      await user('few@example.com');
      await settings({ max_attempts: 3 });
      const template = await api('POST', '/api/v2/email-templates', {
        template: 'blocked_account',
        body: '<p>Hello {{ user.email }}, {{ connection.name }} saw attempts from {{ source_ip }}.</p>',
        from: 'security@example.com',
        subject: 'Blocked at {{ tenant }}',
        syntax: 'liquid',
        enabled: true,
      });
      assert.equal(template.statusCode, 200, template.body);
      const before = readOutbox(t.ctx).length;
      await fail('few@example.com', '10.1.0.1', 3);
      const blocked = await login('few@example.com', '10.1.0.1');
      assert.equal(blocked.statusCode, 429, blocked.body);
      assert.equal((await login('few@example.com', '10.1.0.2')).statusCode, 200, 'per identifier and IP: another address is not blocked');
      const mails = readOutbox(t.ctx).slice(before).filter((m) => m.to === 'few@example.com');
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.subject, `Blocked at ${t.tenant.name}`);
      assert.equal(mails[0]!.html, `<p>Hello few@example.com, ${REALM} saw attempts from 10.1.0.1.</p>`);
      assert.equal(mails[0]!.from, undefined, 'the template\'s sender only through the tenant\'s own provider');
      const blocks = (await api('GET', `/api/v2/user-blocks?identifier=${encodeURIComponent('few@example.com')}`)).json() as { blocked_for: unknown[] };
      assert.equal(blocks.blocked_for.length, 1);
    });

    it('the hosted login page honours them too', async () => {
      await user('page@example.com');
      const spa = await api('POST', '/api/v2/clients', {
        name: 'Page app',
        app_type: 'spa',
        is_first_party: true,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        callbacks: ['https://app.example.com/callback'],
      });
      const clientId = (spa.json() as { client_id: string }).client_id;
      assert.equal((await api('PATCH', `/api/v2/connections/${connectionId}`, { enabled_clients: [client.client_id, clientId] })).statusCode, 200);
      await settings({ max_attempts: 2 });
      const browser = new Browser(t);
      const { challenge } = pkce();
      const start = await browser.get(
        `/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: 'https://app.example.com/callback', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'openid' })}`,
      );
      const page = await browser.get(start.headers.location as string);
      const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'page@example.com' };
      for (let i = 0; i < 2; i++) assert.match((await browser.post('/login', { ...form, password: `wrong-${i}` })).body, /Wrong email or password/);
      const refused = await browser.post('/login', { ...form, password: PASSWORD });
      assert.match(refused.body, /Your account has been blocked after multiple consecutive login attempts/);
      await settings({ max_attempts: 10 });
    });

    it('count_per_identifier: failures from any address add up and block every address', async () => {
      await user('spread@example.com');
      await settings({ max_attempts: 4, mode: 'count_per_identifier' });
      for (const ip of ['10.2.0.1', '10.2.0.2', '10.2.0.3', '10.2.0.4']) await fail('spread@example.com', ip, 1);
      assert.equal((await login('spread@example.com', '10.2.0.99')).statusCode, 429);
      await settings({ mode: 'count_per_identifier_and_ip' });
    });

    it('an allowlisted address (IP or CIDR block) is never counted nor blocked', async () => {
      await user('trusted@example.com');
      await settings({ max_attempts: 2, allowlist: ['10.3.0.0/16', '2001:db8::1'] });
      await fail('trusted@example.com', '10.3.4.5', 5);
      assert.equal((await login('trusted@example.com', '10.3.4.5')).statusCode, 200);
      await fail('trusted@example.com', '2001:db8::1', 5);
      assert.equal((await login('trusted@example.com', '2001:db8::1')).statusCode, 200);
      await fail('trusted@example.com', '10.4.0.1', 2);
      assert.equal((await login('trusted@example.com', '10.4.0.1')).statusCode, 429, 'outside the allowlist');
      await settings({ allowlist: [] });
    });

    it('without the block shield nothing is refused but the user is told; disabled, nothing is counted or told', async () => {
      await user('told@example.com');
      await settings({ max_attempts: 2, shields: ['user_notification'] });
      const before = readOutbox(t.ctx).length;
      await fail('told@example.com', '10.5.0.1', 3);
      assert.equal((await login('told@example.com', '10.5.0.1')).statusCode, 200);
      assert.equal(readOutbox(t.ctx).slice(before).filter((m) => m.to === 'told@example.com').length, 1);

      await user('off@example.com');
      await settings({ enabled: false, shields: ['block', 'user_notification'] });
      const quiet = readOutbox(t.ctx).length;
      await fail('off@example.com', '10.6.0.1', 5);
      assert.equal((await login('off@example.com', '10.6.0.1')).statusCode, 200);
      assert.equal(readOutbox(t.ctx).slice(quiet).filter((m) => m.to === 'off@example.com').length, 0);
      await settings({ enabled: true });
    });
  });
});
