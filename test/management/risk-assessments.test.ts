/**
 * /api/v2/risk-assessments/settings (and …/new-device),
 * /api/v2/supplemental-signals, /api/v2/users/{id}/risk-assessments/clear
 * and /api/v2/users/{id}/multifactor/actions/invalidate-remember-browser
 * through the real app and database: defaults, writes read back, what
 * clearing and invalidating change in storage, and the refusals (400 bad
 * input that changes nothing, 404 unknown user, 403 scope).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

const REALM = 'Username-Password-Authentication';

describe('/api/v2/risk-assessments, /supplemental-signals and the user operations', () => {
  let t: TestApp;
  let userId: string;
  const api = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token && { token }) });
  const errorOf = (res: { json(): unknown }) => res.json() as { statusCode: number; error: string; message: string; errorCode?: string };
  const user = (id = userId) => `/api/v2/users/${encodeURIComponent(id)}`;

  before(async () => {
    t = await createTestApp();
    assert.equal((await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0' })).statusCode, 201);
    const created = await api('POST', '/api/v2/users', { connection: REALM, email: 'risk@example.com', password: 'Correct horse battery staple 1' });
    assert.equal(created.statusCode, 201, created.body);
    userId = (created.json() as { user_id: string }).user_id;
  });
  after(() => t.close());

  it('risk assessment settings: off by default, PATCH turns them on and off, read back', async () => {
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings')).json(), { enabled: false });
    const on = await api('PATCH', '/api/v2/risk-assessments/settings', { enabled: true });
    assert.equal(on.statusCode, 200, on.body);
    assert.deepEqual(on.json(), { enabled: true });
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings')).json(), { enabled: true });
    const off = await api('PATCH', '/api/v2/risk-assessments/settings', { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings')).json(), { enabled: false });
  });

  it('new-device settings: remember_for 30 days by default, 1-365 accepted', async () => {
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings/new-device')).json(), { remember_for: 30 });
    for (const days of [1, 365, 183]) {
      const res = await api('PATCH', '/api/v2/risk-assessments/settings/new-device', { remember_for: days });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { remember_for: days });
    }
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings/new-device')).json(), { remember_for: 183 });
    // Setting one leaves the other alone.
    await api('PATCH', '/api/v2/risk-assessments/settings', { enabled: true });
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings/new-device')).json(), { remember_for: 183 });
    await api('PATCH', '/api/v2/risk-assessments/settings', { enabled: false });
  });

  it('refuses bad settings with 400 in the error shape, changing nothing', async () => {
    const bad: [string, unknown][] = [
      ['/api/v2/risk-assessments/settings', {}],
      ['/api/v2/risk-assessments/settings', { enabled: 'yes' }],
      ['/api/v2/risk-assessments/settings', { enabled: true, extra: 1 }],
      ['/api/v2/risk-assessments/settings/new-device', { remember_for: 0 }],
      ['/api/v2/risk-assessments/settings/new-device', { remember_for: 366 }],
      ['/api/v2/risk-assessments/settings/new-device', { remember_for: 1.5 }],
      ['/api/v2/risk-assessments/settings/new-device', { remember_for: 'ten' }],
      ['/api/v2/risk-assessments/settings/new-device', {}],
      ['/api/v2/supplemental-signals', {}],
      ['/api/v2/supplemental-signals', { akamai_enabled: 1, other: true }],
    ];
    for (const [url, body] of bad) {
      const res = await api('PATCH', url, body);
      assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(body)}: ${res.body}`);
      assert.equal(errorOf(res).error, 'Bad Request');
      assert.equal(typeof errorOf(res).message, 'string');
    }
    const notJson = await t.management('PATCH', '/api/v2/risk-assessments/settings/new-device', { body: '{"remember_for":', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.statusCode, 400);
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings')).json(), { enabled: false });
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings/new-device')).json(), { remember_for: 183 });
    assert.deepEqual((await api('GET', '/api/v2/supplemental-signals')).json(), { akamai_enabled: false });
  });

  it('supplemental signals: akamai_enabled off by default, PATCH sets it', async () => {
    assert.deepEqual((await api('GET', '/api/v2/supplemental-signals')).json(), { akamai_enabled: false });
    const on = await api('PATCH', '/api/v2/supplemental-signals', { akamai_enabled: true });
    assert.equal(on.statusCode, 200, on.body);
    assert.deepEqual(on.json(), { akamai_enabled: true });
    assert.deepEqual((await api('GET', '/api/v2/supplemental-signals')).json(), { akamai_enabled: true });
    await api('PATCH', '/api/v2/supplemental-signals', { akamai_enabled: false });
  });

  it('the settings operations take the document\'s scopes: read:attack_protection and update:attack_protection', async () => {
    const reader = await t.managementToken('read:attack_protection');
    const writer = await t.managementToken('update:attack_protection');
    const other = await t.managementToken('read:users');
    for (const url of ['/api/v2/risk-assessments/settings', '/api/v2/risk-assessments/settings/new-device', '/api/v2/supplemental-signals']) {
      assert.equal((await api('GET', url, undefined, reader)).statusCode, 200, url);
      const refused = await api('GET', url, undefined, writer);
      assert.equal(refused.statusCode, 403, url);
      assert.deepEqual(errorOf(refused), { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope, expected any of: read:attack_protection', errorCode: 'insufficient_scope' });
      assert.equal((await api('GET', url, undefined, other)).statusCode, 403, url);
    }
    const bodies: [string, unknown][] = [
      ['/api/v2/risk-assessments/settings', { enabled: true }],
      ['/api/v2/risk-assessments/settings/new-device', { remember_for: 7 }],
      ['/api/v2/supplemental-signals', { akamai_enabled: true }],
    ];
    for (const [url, body] of bodies) {
      const refused = await api('PATCH', url, body, reader);
      assert.equal(refused.statusCode, 403, url);
      assert.equal(errorOf(refused).message, 'Insufficient scope, expected any of: update:attack_protection');
    }
    // The refused writes changed nothing.
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings')).json(), { enabled: false });
    assert.deepEqual((await api('GET', '/api/v2/risk-assessments/settings/new-device')).json(), { remember_for: 183 });
    assert.deepEqual((await api('GET', '/api/v2/supplemental-signals')).json(), { akamai_enabled: false });
  });

  it('POST /users/{id}/risk-assessments/clear forgets the user\'s known devices: 204', async () => {
    const now = new Date(t.ctx.now()).toISOString();
    const later = new Date(t.ctx.now() + 86_400_000).toISOString();
    for (const device of ['d1', 'd2']) {
      await t.ctx.stores.riskAssessments.rememberDevice({ tenant_id: t.tenant.id, user_id: userId, device_hash: device, user_agent_hash: null, first_seen_at: now, last_seen_at: now, expires_at: later }, 20);
    }
    assert.equal((await t.ctx.stores.riskAssessments.knownDevices(t.tenant.id, userId, now)).length, 2);
    const res = await api('POST', `${user()}/risk-assessments/clear`, { connection: REALM, assessors: ['new-device'] });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
    assert.deepEqual(await t.ctx.stores.riskAssessments.knownDevices(t.tenant.id, userId, now), []);
    // Clearing again is no error.
    assert.equal((await api('POST', `${user()}/risk-assessments/clear`, { connection: REALM, assessors: ['new-device', 'new-device'] })).statusCode, 204);
  });

  it('clear refuses: 400 bad body or another connection, 404 unknown user, 403 without update:users; nothing forgotten', async () => {
    const now = new Date(t.ctx.now()).toISOString();
    const later = new Date(t.ctx.now() + 86_400_000).toISOString();
    await t.ctx.stores.riskAssessments.rememberDevice({ tenant_id: t.tenant.id, user_id: userId, device_hash: 'kept', user_agent_hash: null, first_seen_at: now, last_seen_at: now, expires_at: later }, 20);
    const bad: unknown[] = [
      {},
      { connection: REALM },
      { assessors: ['new-device'] },
      { connection: REALM, assessors: [] },
      { connection: REALM, assessors: ['impossible-travel'] },
      { connection: 'bad name!', assessors: ['new-device'] },
      { connection: REALM, assessors: ['new-device'], extra: 1 },
      { connection: 'other-connection', assessors: ['new-device'] },
    ];
    for (const body of bad) {
      const res = await api('POST', `${user()}/risk-assessments/clear`, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(errorOf(res).error, 'Bad Request');
    }
    const unknown = await api('POST', `${user('auth0|nobody')}/risk-assessments/clear`, { connection: REALM, assessors: ['new-device'] });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(errorOf(unknown), { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' });
    const narrow = await api('POST', `${user()}/risk-assessments/clear`, { connection: REALM, assessors: ['new-device'] }, await t.managementToken('read:users'));
    assert.equal(narrow.statusCode, 403);
    assert.equal(errorOf(narrow).message, 'Insufficient scope, expected any of: update:users');
    assert.deepEqual((await t.ctx.stores.riskAssessments.knownDevices(t.tenant.id, userId, now)).map((d) => d.device_hash), ['kept']);
  });

  it('POST /users/{id}/multifactor/actions/invalidate-remember-browser raises the user\'s epoch: 204; 404 unknown user; 403 scope', async () => {
    assert.equal(await t.ctx.stores.mfaRememberEpochs.epoch(t.tenant.id, userId), 0);
    const res = await api('POST', `${user()}/multifactor/actions/invalidate-remember-browser`);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
    assert.equal(await t.ctx.stores.mfaRememberEpochs.epoch(t.tenant.id, userId), 1);
    assert.equal((await api('POST', `${user()}/multifactor/actions/invalidate-remember-browser`)).statusCode, 204);
    assert.equal(await t.ctx.stores.mfaRememberEpochs.epoch(t.tenant.id, userId), 2);

    const unknown = await api('POST', `${user('auth0|nobody')}/multifactor/actions/invalidate-remember-browser`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(errorOf(unknown).errorCode, 'inexistent_user');
    const narrow = await api('POST', `${user()}/multifactor/actions/invalidate-remember-browser`, undefined, await t.managementToken('read:users'));
    assert.equal(narrow.statusCode, 403);
    assert.equal(errorOf(narrow).message, 'Insufficient scope, expected any of: update:users');
    assert.equal(await t.ctx.stores.mfaRememberEpochs.epoch(t.tenant.id, userId), 2, 'the refusals changed nothing');
  });

  it('the user\'s devices and epoch go with the user', async () => {
    const created = await api('POST', '/api/v2/users', { connection: REALM, email: 'gone@example.com', password: 'Correct horse battery staple 1' });
    const gone = (created.json() as { user_id: string }).user_id;
    const now = new Date(t.ctx.now()).toISOString();
    await t.ctx.stores.riskAssessments.rememberDevice({ tenant_id: t.tenant.id, user_id: gone, device_hash: 'x', user_agent_hash: null, first_seen_at: now, last_seen_at: now, expires_at: new Date(t.ctx.now() + 1000).toISOString() }, 20);
    assert.equal((await api('POST', `${user(gone)}/multifactor/actions/invalidate-remember-browser`)).statusCode, 204);
    assert.equal((await api('DELETE', user(gone))).statusCode, 204);
    assert.deepEqual(await t.ctx.stores.riskAssessments.knownDevices(t.tenant.id, gone, now), []);
    assert.equal(await t.ctx.stores.mfaRememberEpochs.epoch(t.tenant.id, gone), 0);
  });

  it('keeps at most the configured number of devices per user, the most recently seen', async () => {
    const base = t.ctx.now();
    const later = new Date(base + 86_400_000).toISOString();
    for (let i = 0; i < 5; i++) {
      const at = new Date(base + i * 1000).toISOString();
      await t.ctx.stores.riskAssessments.rememberDevice({ tenant_id: t.tenant.id, user_id: userId, device_hash: `b${i}`, user_agent_hash: null, first_seen_at: at, last_seen_at: at, expires_at: later }, 3);
    }
    const kept = await t.ctx.stores.riskAssessments.knownDevices(t.tenant.id, userId, new Date(base).toISOString());
    assert.deepEqual(kept.map((d) => d.device_hash), ['b4', 'b3', 'b2']);
  });
});
