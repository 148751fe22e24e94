/**
 * The new-device risk assessor through the hosted login, the real app, real
 * sandbox processes (post-login) and the real database: a user's first login
 * is `initial_login`, a login from another device `no_match`, the same
 * device again `match`; the assessment reaches post-login Actions
 * (`event.authentication.riskAssessment`) and, once risk assessment is
 * enabled, the login's tenant log entry; `risk-assessments/clear` and
 * `remember_for` make devices unknown again; Akamai's headers are read only
 * when supplemental signals are on and the request came through a trusted
 * proxy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { DEVICE_COOKIE } from '../../src/authentication/cookies.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { bindActions } from '../helpers/actions.js';
import { hidden, Jar } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const EMAIL = 'device@example.com';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const RISK_CLAIM = 'https://example.com/risk';

interface Risk {
  confidence: string;
  version: string;
  assessments: { NewDevice: { confidence: string; code: string; details: { device: string; useragent: string } } };
  supplemental?: { akamai: { akamaiBot?: Record<string, unknown>; akamaiUserRisk?: Record<string, unknown> } };
}

describe('risk assessment: the new-device assessor and supplemental signals at the hosted login', () => {
  let t: TestApp;
  let web: TestClient;
  let userId: string;

  /** One device: its jar (only the device cookie kept between logins, so each login asks for the password) and its user agent. */
  class Device {
    jar = new Jar();
    constructor(readonly agent: string) {}
    fresh(): Jar {
      const id = this.jar.get(DEVICE_COOKIE);
      this.jar = new Jar();
      if (id) this.jar.take({ headers: { 'set-cookie': [`${DEVICE_COOKIE}=${id}; Path=/`] } } as unknown as LightMyRequestResponse);
      return this.jar;
    }
  }

  interface Hop {
    headers?: Record<string, string>;
    remoteAddress?: string;
  }

  async function request(method: 'GET' | 'POST', url: string, device: Device, hop: Hop, form?: Record<string, string>): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        host: DOMAIN,
        cookie: device.jar.header(),
        'user-agent': device.agent,
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
        ...hop.headers,
      },
      ...(form && { payload: new URLSearchParams(form).toString() }),
      ...(hop.remoteAddress && { remoteAddress: hop.remoteAddress }),
    });
    device.jar.take(res);
    return res;
  }

  /** A password login on the device; the risk assessment post-login saw (from the ID token's claim). */
  async function login(device: Device, hop: Hop = {}): Promise<Risk> {
    device.fresh();
    const start = await request('GET', `/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'st' })}`, device, hop);
    assert.equal(start.statusCode, 302, start.body);
    const page = await request('GET', start.headers.location as string, device, hop);
    assert.equal(page.statusCode, 200, page.body);
    const done = await request('POST', '/login', device, hop, { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: EMAIL, password: PASSWORD });
    assert.equal(done.statusCode, 302, done.body);
    const code = new URL(done.headers.location as string).searchParams.get('code');
    assert.ok(code, done.headers.location as string);
    const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code, redirect_uri: CALLBACK });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    const claim = decodeJwt((exchanged.json() as { id_token: string }).id_token)[RISK_CLAIM];
    assert.equal(typeof claim, 'string', 'post-login saw event.authentication.riskAssessment');
    return JSON.parse(claim as string) as Risk;
  }

  /** The details of the newest successful login (`s`) in the tenant log. */
  async function lastLoginDetails(): Promise<Record<string, unknown> | undefined> {
    await t.ctx.tenantLogs.flush();
    const res = await t.management('GET', '/api/v2/logs?q=type:s&sort=date:-1&per_page=1');
    assert.equal(res.statusCode, 200, res.body);
    const [entry] = res.json() as { type: string; user_id: string; details?: Record<string, unknown> }[];
    assert.equal(entry?.type, 's');
    assert.equal(entry?.user_id, userId);
    return entry?.details;
  }

  const api = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };

  before(async () => {
    // 10.0.0.0/8 is the trusted proxy (the Akamai edge in front of Gatehouse).
    t = await createTestApp({ env: { GATEHOUSE_TRUST_PROXY: '10.0.0.0/8' } });
    web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [web.client_id] });
    userId = ((await api('POST', '/api/v2/users', { connection: REALM, email: EMAIL, password: PASSWORD })).json() as { user_id: string }).user_id;
    await bindActions(t, 'post-login', [
      { name: 'risk', code: `exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim('${RISK_CLAIM}', JSON.stringify(event.authentication.riskAssessment)); };` },
    ]);
  });
  after(() => t.close());

  it('a first login is initial_login; another device no_match; the same device again match; the log entry carries it only once enabled', async () => {
    const laptop = new Device(FIREFOX);
    const first = await login(laptop);
    assert.deepEqual(first, { confidence: 'neutral', version: '1', assessments: { NewDevice: { confidence: 'neutral', code: 'initial_login', details: { device: 'unknown', useragent: 'unknown' } } } });
    assert.ok(laptop.jar.get(DEVICE_COOKIE), 'the hosted login gave the device its identifier');
    assert.equal((await lastLoginDetails())?.riskAssessment, undefined, 'risk assessment off: not on the log entry');

    await api('PATCH', '/api/v2/risk-assessments/settings', { enabled: true });
    const phone = new Device(SAFARI);
    const unknown = await login(phone);
    assert.equal(unknown.confidence, 'low');
    assert.deepEqual(unknown.assessments.NewDevice, { confidence: 'low', code: 'no_match', details: { device: 'unknown', useragent: 'unknown' } });
    assert.deepEqual((await lastLoginDetails())?.riskAssessment, {
      confidence: 'low',
      version: '1',
      assessments: { NewDevice: { confidence: 'low', reason: 'no_match', device: 'unknown', useragent: 'unknown' } },
    });

    // Both are known now.
    const again = await login(laptop);
    assert.deepEqual(again.assessments.NewDevice, { confidence: 'high', code: 'match', details: { device: 'known', useragent: 'known' } });
    assert.equal(again.confidence, 'high');
    assert.equal(((await lastLoginDetails())?.riskAssessment as Risk).confidence, 'high');
    assert.equal((await login(phone)).assessments.NewDevice.code, 'match');

    // A new browser with a known user agent: partial.
    const partial = await login(new Device(FIREFOX));
    assert.deepEqual(partial.assessments.NewDevice, { confidence: 'medium', code: 'partial_match', details: { device: 'unknown', useragent: 'known' } });
    await api('PATCH', '/api/v2/risk-assessments/settings', { enabled: false });
  });

  it('risk-assessments/clear forgets the devices: the next login has no device history, the one after is known', async () => {
    const laptop = new Device(FIREFOX);
    await login(laptop);
    assert.equal((await login(laptop)).assessments.NewDevice.code, 'match');
    await api('POST', `/api/v2/users/${encodeURIComponent(userId)}/risk-assessments/clear`, { connection: REALM, assessors: ['new-device'] });
    const cleared = await login(laptop);
    assert.deepEqual(cleared.assessments.NewDevice, { confidence: 'neutral', code: 'no_device_history', details: { device: 'unknown', useragent: 'unknown' } });
    assert.equal((await login(laptop)).assessments.NewDevice.code, 'match');
  });

  it('a device is known for remember_for days after its last login', async () => {
    await api('PATCH', '/api/v2/risk-assessments/settings/new-device', { remember_for: 2 });
    // Only this test's device (the earlier ones were remembered for 30 days).
    await api('POST', `/api/v2/users/${encodeURIComponent(userId)}/risk-assessments/clear`, { connection: REALM, assessors: ['new-device'] });
    const laptop = new Device(FIREFOX);
    await login(laptop);
    const day = 86_400_000;
    assert.equal((await withClockAdvanced(t, day, () => login(laptop))).assessments.NewDevice.code, 'match', 'one day later');
    // Three days after the last login (at +1 day): every device expired.
    assert.equal((await withClockAdvanced(t, 4 * day, () => login(laptop))).assessments.NewDevice.code, 'no_device_history');
    await api('PATCH', '/api/v2/risk-assessments/settings/new-device', { remember_for: 30 });
  });

  it('Akamai headers: read through a trusted proxy when supplemental signals are on; ignored otherwise', async () => {
    const device = new Device(FIREFOX);
    const akamai = {
      'akamai-user-risk': 'uuid=4f3c2a;status=0;score=75;action=monitor;allow=0;emailDomain=example.com',
      'akamai-bot': 'type=Akamai-Categorized%20Bot;action=monitor;botScore=90;botCategory=Web Search Engine Bots,Site Monitoring',
    };
    const throughProxy: Hop = { remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '198.51.100.7', ...akamai } };
    const direct: Hop = { remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '198.51.100.7', ...akamai } };

    assert.equal((await login(device, throughProxy)).supplemental, undefined, 'off by default');
    await api('PATCH', '/api/v2/supplemental-signals', { akamai_enabled: true });
    const read = await login(device, throughProxy);
    assert.deepEqual(read.supplemental, {
      akamai: {
        akamaiBot: { type: 'Akamai-Categorized Bot', action: 'monitor', botScore: 90, botCategory: ['Web Search Engine Bots', 'Site Monitoring'] },
        akamaiUserRisk: { uuid: '4f3c2a', status: 0, score: 75, action: 'monitor', allow: 0, emailDomain: 'example.com' },
      },
    });
    assert.equal((await login(device, direct)).supplemental, undefined, 'a client reaching Gatehouse directly cannot send them');
    assert.equal((await login(device, { remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '198.51.100.7' } })).supplemental, undefined, 'no headers, no signals');
    await api('PATCH', '/api/v2/supplemental-signals', { akamai_enabled: false });
    assert.equal((await login(device, throughProxy)).supplemental, undefined, 'off again');
  });
});
