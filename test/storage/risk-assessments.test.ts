/**
 * The risk assessment stores' contracts on SQLite and PostgreSQL: known
 * devices (unexpired only, most recent first; a second login moves a
 * device on and keeps its first sighting; at most `keep` per user; forgotten
 * per user), the assessment kept per session (replaced, gone with the
 * session), and MFA's remembered-browser epoch (0 until raised; concurrent
 * raises all count).
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import type { RiskAssessment } from '../../src/domain/risk-assessments/rows.js';
import { newSecret, secretHash } from '../../src/domain/secrets.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, connectionRow, T0, tenantRow, userRow } from '../helpers/rows.js';

const assessment = (code: 'match' | 'no_match'): RiskAssessment => ({
  confidence: code === 'match' ? 'high' : 'low',
  version: '1',
  assessments: { NewDevice: { confidence: code === 'match' ? 'high' : 'low', code, details: { device: code === 'match' ? 'known' : 'unknown', useragent: 'known' } } },
});

await forEachStoreFactory('risk assessment storage', (h) => {
  let stores: Stores;
  before(() => {
    stores = h.stores();
  });

  async function seeded(): Promise<{ tenantId: string; userId: string; otherUserId: string }> {
    const tenant = tenantRow();
    await stores.tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    const connection = connectionRow(tenant.id);
    await stores.connections.insert(connection, []);
    const user = userRow(tenant.id, connection.id);
    const other = userRow(tenant.id, connection.id);
    await stores.users.insert(user);
    await stores.users.insert(other);
    return { tenantId: tenant.id, userId: user.user_id, otherUserId: other.user_id };
  }

  const device = (tenantId: string, userId: string, hash: string, seen: number, expires: number, agent: string | null = 'ua') => ({
    tenant_id: tenantId, user_id: userId, device_hash: hash, user_agent_hash: agent, first_seen_at: at(seen), last_seen_at: at(seen), expires_at: at(expires),
  });

  it('known devices: unexpired ones, most recently seen first; a second login moves a device on and keeps its first sighting', async () => {
    const { tenantId, userId, otherUserId } = await seeded();
    await stores.riskAssessments.rememberDevice(device(tenantId, userId, 'a', 0, 100), 20);
    await stores.riskAssessments.rememberDevice(device(tenantId, userId, 'b', 10, 50), 20);
    await stores.riskAssessments.rememberDevice(device(tenantId, otherUserId, 'a', 0, 100), 20);
    assert.deepEqual((await stores.riskAssessments.knownDevices(tenantId, userId, T0)).map((d) => d.device_hash), ['b', 'a']);
    assert.deepEqual((await stores.riskAssessments.knownDevices(tenantId, userId, at(60))).map((d) => d.device_hash), ['a'], 'b expired at 50');
    await stores.riskAssessments.rememberDevice({ ...device(tenantId, userId, 'a', 20, 200, 'other-ua'), first_seen_at: at(20) }, 20);
    const [moved] = await stores.riskAssessments.knownDevices(tenantId, userId, at(150));
    assert.deepEqual(moved, { tenant_id: tenantId, user_id: userId, device_hash: 'a', user_agent_hash: 'other-ua', first_seen_at: at(0), last_seen_at: at(20), expires_at: at(200) });
  });

  it('keeps at most `keep` devices per user; forgets a user\'s devices, not another\'s', async () => {
    const { tenantId, userId, otherUserId } = await seeded();
    for (let i = 0; i < 6; i++) await stores.riskAssessments.rememberDevice(device(tenantId, userId, `d${i}`, i, 1000), 4);
    await stores.riskAssessments.rememberDevice(device(tenantId, otherUserId, 'x', 0, 1000), 4);
    assert.deepEqual((await stores.riskAssessments.knownDevices(tenantId, userId, T0)).map((d) => d.device_hash), ['d5', 'd4', 'd3', 'd2']);
    assert.equal(await stores.riskAssessments.forgetDevices(tenantId, userId), 4);
    assert.deepEqual(await stores.riskAssessments.knownDevices(tenantId, userId, T0), []);
    assert.equal((await stores.riskAssessments.knownDevices(tenantId, otherUserId, T0)).length, 1);
    assert.equal(await stores.riskAssessments.forgetDevices(tenantId, userId), 0);
  });

  it('a session\'s login assessment: kept, replaced, gone with the session', async () => {
    const { tenantId, userId } = await seeded();
    const sessionHash = secretHash(newSecret());
    await stores.sessions.insert({ tenant_id: tenantId, id_hash: sessionHash, user_id: userId, auth_time: 0, created_at: T0, expires_at: at(3600) });
    assert.equal(await stores.riskAssessments.loginAssessment(tenantId, sessionHash), undefined);
    await stores.riskAssessments.saveLoginAssessment(tenantId, sessionHash, assessment('no_match'));
    assert.deepEqual(await stores.riskAssessments.loginAssessment(tenantId, sessionHash), assessment('no_match'));
    await stores.riskAssessments.saveLoginAssessment(tenantId, sessionHash, assessment('match'));
    assert.deepEqual(await stores.riskAssessments.loginAssessment(tenantId, sessionHash), assessment('match'));
    await h.db().deleteFrom('sessions').where('tenant_id', '=', tenantId).where('id_hash', '=', sessionHash).execute();
    assert.equal(await stores.riskAssessments.loginAssessment(tenantId, sessionHash), undefined);
  });

  it('the remembered-browser epoch: 0 until raised; concurrent raises all count; per user', async () => {
    const { tenantId, userId, otherUserId } = await seeded();
    assert.equal(await stores.mfaRememberEpochs.epoch(tenantId, userId), 0);
    await stores.mfaRememberEpochs.raise(tenantId, userId, T0);
    assert.equal(await stores.mfaRememberEpochs.epoch(tenantId, userId), 1);
    await Promise.all(Array.from({ length: 5 }, () => stores.mfaRememberEpochs.raise(tenantId, userId, at(1))));
    assert.equal(await stores.mfaRememberEpochs.epoch(tenantId, userId), 6);
    assert.equal(await stores.mfaRememberEpochs.epoch(tenantId, otherUserId), 0);
    await assert.rejects(stores.mfaRememberEpochs.raise(tenantId, 'auth0|nobody', T0), 'an unknown user is a foreign-key violation');
  });
});
